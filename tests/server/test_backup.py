"""``parlour admin backup PATH``: SQLite's online backup of a running server's database, and
a restore (serve the copy) that has the same tables, games and accounts."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from parlour.cli.main import app as cli
from parlour.server import Settings, create_app
from parlour.storage.backup import PG_DUMP_HINT
from tests.quick_game import QUICK_GAME
from tests.server.helpers import people_table, play_once

runner = CliRunner()


def _backup(url: str, path: Path) -> tuple[int, str]:
    result = runner.invoke(cli, ["admin", "backup", str(path), "--database", url])
    return result.exit_code, result.output


def test_a_backup_taken_while_serving_restores_the_same_tables_and_accounts(
    client: TestClient, settings: Settings, tmp_path: Path
) -> None:
    assert settings.database_url is not None
    if not settings.database_url.startswith("sqlite"):
        # PostgreSQL is backed up with pg_dump: the command says so and writes nothing
        code, output = _backup(settings.database_url, tmp_path / "copy.db")
        assert code != 0 and "pg_dump" in output, output
        assert not (tmp_path / "copy.db").exists()
        return
    table_id, seats = people_table(client, QUICK_GAME)
    rng = random.Random(4)
    for _ in range(5):
        play_once(client, table_id, seats, rng)
    waiting = client.post(
        "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=seats[0]
    )
    before = {
        "table": client.get(f"/tables/{table_id}", headers=seats[0]).json(),
        "mine": client.get("/tables", params={"which": "mine"}, headers=seats[1]).json(),
        "open": client.get("/tables").json(),
    }
    copy = tmp_path / "backup.db"
    code, output = _backup(settings.database_url, copy)  # the server is still running
    assert code == 0, output
    assert f"backed up to {copy}".replace(" ", "") in "".join(output.split())  # lines wrap
    assert copy.stat().st_size > 0
    # one more move after the backup: not in the copy
    play_once(client, table_id, seats, rng)
    # restore: a server on the copy (as after copying it back over the database file)
    restored = replace(settings, database_url=f"sqlite:///{copy}")
    with TestClient(create_app(restored)) as again:
        logged_in = again.post("/auth/login", json={"name": "player1", "password": "password123"})
        assert logged_in.status_code == 200
        again.cookies.clear()
        table = again.get(f"/tables/{table_id}", headers=seats[0]).json()
        assert table == before["table"]  # the same game, at the version backed up
        mine = again.get("/tables", params={"which": "mine"}, headers=seats[1]).json()
        assert mine == before["mine"]
        assert again.get("/tables").json() == before["open"]
        assert before["open"][0]["id"] == waiting.json()["id"]
        # and the restored game plays on
        assert play_once(again, table_id, seats, rng)["version"] > table["version"]


def test_backup_refuses_an_existing_file_the_database_itself_and_postgresql(
    settings: Settings, tmp_path: Path
) -> None:
    db = tmp_path / "server.db"
    url = f"sqlite:///{db}"
    assert _backup(url, tmp_path / "one.db")[0] == 0
    code, output = _backup(url, tmp_path / "one.db")
    assert code != 0 and "exists: give a new file" in output
    code, output = _backup(url, db)
    assert code != 0 and "is the database itself" in " ".join(output.split())
    code, output = _backup(url, tmp_path / "missing" / "x.db")
    assert code != 0 and "there is no directory" in " ".join(output.split())
    from parlour.engine.errors import ParlourError
    from parlour.storage.backup import backup

    with pytest.raises(ParlourError, match="pg_dump") as refused:
        backup("postgresql+psycopg://u@127.0.0.1/db", tmp_path / "pg.db")
    assert PG_DUMP_HINT in str(refused.value)
    assert not (tmp_path / "pg.db").exists()
