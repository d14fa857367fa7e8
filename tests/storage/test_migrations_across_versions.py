"""Schema upgrades across versions: a database made at the oldest migration, with rows written
at old revisions (a saved game at 0001; an account, a login and a waiting table at 0004),
upgraded to the newest keeps them and serves them; the newest migrations go down and up
again; an empty database goes all the way down and up. On SQLite, and on PostgreSQL when
``PARLOUR_TEST_DATABASE`` names one (in a database of its own, made and dropped here)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, make_url, text

from parlour.storage.db import alembic_config, forget_engines, open_database
from parlour.storage.tables import get_seats, get_table, open_tables
from tests.quick_game import QUICK_GAME

NOW = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)


# PostgreSQL only where the run has one (.ci/run's second pass), so the SQLite run lists no skip
@pytest.fixture(
    params=["sqlite", "postgresql"] if os.environ.get("PARLOUR_TEST_DATABASE") else ["sqlite"]
)
def empty_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """The URL of a database with nothing in it (not even Alembic's table)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/old.db"
        forget_engines()
        return
    server = os.environ.get("PARLOUR_TEST_DATABASE")
    if not server:
        pytest.skip("PARLOUR_TEST_DATABASE names no PostgreSQL")
    name = f"parlour_upgrade_{uuid.uuid4().hex[:10]}"
    admin = create_engine(make_url(server), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        forget_engines()
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def _migrate(url: str, how: str, revision: str) -> None:
    config = alembic_config(url)
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            getattr(command, how)(config, revision)
    finally:
        engine.dispose()


def _revisions(url: str) -> list[str]:
    """Every migration, oldest first."""
    script = ScriptDirectory.from_config(alembic_config(url))
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def test_the_oldest_database_with_old_rows_upgrades_to_the_newest_and_serves_them(
    empty_url: str,
) -> None:
    revisions = _revisions(empty_url)
    assert revisions[0] == "0001_saved_games" and len(revisions) >= 9
    _migrate(empty_url, "upgrade", "0001_saved_games")
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO saved_games (game, players, state, status, created_at, "
                    "updated_at) VALUES ('pig', '[\"ann\"]', '{}', 'active', :now, :now)"
                ),
                {"now": NOW},
            )
        _migrate(empty_url, "upgrade", "0004_server_tables")
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                    "VALUES (1, 'Ann', 'ann', 'old-hash', :now)"
                ),
                {"now": NOW},
            )
            connection.execute(
                text(
                    "INSERT INTO auth_tokens (token_hash, account_id, created_at, expires_at) "
                    "VALUES ('t' , 1, :now, :now)"
                ),
                {"now": NOW},
            )
            connection.execute(
                text(
                    "INSERT INTO game_tables (id, game, options, status, visibility, "
                    "invite_code, creator_id, clock_days, max_skips, version, snapshot, "
                    "rng_seed, to_move, bot_turn, lobby, created_at, updated_at) VALUES "
                    "(7, 'pig', '{}', 'lobby', 'open', 'code', 1, NULL, 3, 0, NULL, 'seed', "
                    "'[]', false, '{}', :now, :now)"
                ),
                {"now": NOW},
            )
            connection.execute(
                text(
                    "INSERT INTO table_seats (table_id, seat, account_id, bot_level) "
                    "VALUES (7, 0, 1, NULL), (7, 1, NULL, NULL)"
                )
            )
    finally:
        engine.dispose()
    upgraded = open_database(empty_url)  # what the server does at start: to the newest
    with upgraded.connect() as connection:
        assert connection.execute(
            text("SELECT version_num FROM alembic_version")
        ).scalars().all() == [revisions[-1]]
        assert connection.execute(text("SELECT game FROM saved_games")).scalars().all() == [
            QUICK_GAME
        ]
        table = get_table(connection, 7)
        assert table is not None and table.time_zone == "UTC" and table.status == "lobby"
        assert [s.account_id for s in get_seats(connection, 7)] == [1, None]
        assert open_tables(connection, limit=10) == [7]
        name = connection.execute(text("SELECT name FROM accounts WHERE id = 1")).scalar_one()
        assert name == "Ann"
    indexes = {i["name"] for i in inspect(upgraded).get_indexes("game_tables")}
    assert "ix_game_tables_lobby" in indexes and "ix_game_tables_status" not in indexes


def test_the_newest_migrations_go_down_and_up_again_keeping_the_rows(empty_url: str) -> None:
    revisions = _revisions(empty_url)
    engine = open_database(empty_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                "VALUES (1, 'Ann', 'ann', 'h', :now)"
            ),
            {"now": NOW},
        )
    forget_engines()
    _migrate(empty_url, "downgrade", revisions[-2])
    seen = create_engine(empty_url)
    try:
        indexes = {i["name"] for i in inspect(seen).get_indexes("game_tables")}
        assert "ix_game_tables_status" in indexes and "ix_game_tables_lobby" not in indexes
    finally:
        seen.dispose()
    _migrate(empty_url, "upgrade", "heads")
    again = create_engine(empty_url)
    try:
        with again.connect() as connection:
            names = connection.execute(text("SELECT name FROM accounts")).scalars().all()
        assert names == ["Ann"]
        indexes = {i["name"] for i in inspect(again).get_indexes("table_seats")}
        assert "ix_table_seats_account_table" in indexes
    finally:
        again.dispose()


def test_an_empty_database_goes_all_the_way_down_and_up(empty_url: str) -> None:
    _migrate(empty_url, "upgrade", "heads")
    _migrate(empty_url, "downgrade", "base")
    engine = create_engine(empty_url)
    try:
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    finally:
        engine.dispose()
    _migrate(empty_url, "upgrade", "heads")
    engine = create_engine(empty_url)
    try:
        assert {"accounts", "game_tables", "table_seats", "saved_games"} <= set(
            inspect(engine).get_table_names()
        )
    finally:
        engine.dispose()


# PostgreSQL only (SQLite is for one process): defined only where the run has one, so
# neither run lists a skip
if os.environ.get("PARLOUR_TEST_DATABASE"):

    @pytest.mark.parametrize("empty_url", ["postgresql"], indirect=True)
    def test_processes_started_at_once_upgrade_an_empty_database_one_after_another(
        empty_url: str,
    ) -> None:
        """Two servers started together on an empty PostgreSQL (``systemctl start parlour@8001
        parlour@8002``) both come up: the upgrade takes an advisory lock, so the second finds the
        schema made instead of creating Alembic's table a second time (UniqueViolation)."""
        code = (
            "import sys, time\n"
            "from parlour.storage.db import open_database\n"
            "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
            "open_database(sys.argv[1])\n"
        )
        start = f"{time.time() + 2.0}"
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", code, empty_url, start],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        outcomes = [(p.wait(timeout=120), p.communicate()[1]) for p in processes]
        assert [code for code, _ in outcomes] == [0, 0, 0], [err[-600:] for _, err in outcomes]
        engine = create_engine(empty_url)
        try:
            with engine.connect() as connection:
                versions = connection.execute(text("SELECT count(*) FROM alembic_version")).scalar()
        finally:
            engine.dispose()
        assert versions is not None and versions >= 1
