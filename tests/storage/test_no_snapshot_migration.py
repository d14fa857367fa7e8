"""Migration ``0008_no_table_snapshot``: the table row keeps no snapshot of the game (a table
is rebuilt by replaying its whole log), and a table stored before it keeps its log and row."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic import command
from sqlalchemy import create_engine, inspect, text

from parlour.storage.db import alembic_config

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _columns(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns("game_tables")}
    finally:
        engine.dispose()


def test_the_table_row_has_no_snapshot_and_keeps_its_game(db_url: str) -> None:
    config = alembic_config(db_url)
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")  # PostgreSQL's test database is there already
            command.downgrade(config, "0007_accounts")
        assert {"snapshot", "snapshot_version"} <= _columns(db_url)
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (id, name, name_key, password_hash, created_at) "
                    "VALUES (1, 'ann', 'ann', 'x', :now)"
                ),
                {"now": NOW},
            )
            connection.execute(
                text(
                    "INSERT INTO game_tables (id, game, options, status, visibility, "
                    "invite_code, creator_id, max_skips, version, snapshot, snapshot_version, "
                    "time_zone, rng_seed, to_move, bot_turn, lobby, scored, created_at, "
                    "updated_at) VALUES (5, 'greedy', '{\"players\": 2}', 'active', 'open', "
                    "'c', 1, 3, 7, '{\"scores\": [0, 0]}', 7, 'UTC', 'seed', '[0]', "
                    ":no, '{}', :no, :now, :now)"
                ),
                {"now": NOW, "no": False},
            )
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "heads")
        assert not {"snapshot", "snapshot_version"} & _columns(db_url)
        with engine.connect() as connection:
            row = connection.execute(
                text("SELECT game, version, status FROM game_tables WHERE id = 5")
            ).one()
        assert tuple(row) == ("greedy", 7, "active")
    finally:
        engine.dispose()
