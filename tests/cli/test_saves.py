"""``parlour saves`` and the ``play --resume`` picker with odd or corrupt saves: every save is
listed, a corrupt one is refused with the reason (exit status 2), never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.session import LocalGame
from parlour.storage import open_database

runner = CliRunner()


def saved(players: str = "ann,cpu:cautious") -> tuple[int, dict[str, Any]]:
    local = LocalGame.new("ten-thousand", players)
    local.state.apply(local.state.parse_action("roll 1 2 3 4 4 4", player=-1), player=-1)
    return local.save(open_database()), local.state.to_json()


def test_names_are_listed_as_written_never_as_markup() -> None:
    saved("[/],cpu:cautious")
    listed = runner.invoke(app, ["saves", "list"])
    assert listed.exit_code == 0, listed.output
    assert "[/]" in listed.output
    picker = runner.invoke(app, ["play", "--resume"], input="\n")
    assert picker.exit_code == 0, picker.output
    assert "[/]" in picker.output and "Nothing resumed." in picker.output


def corrupt(save_id: int, column: str, raw: str) -> None:
    """Write *raw* text into *column* of save *save_id*, as a damaged file would hold it."""
    with open_database().begin() as connection:
        connection.execute(
            text(f"UPDATE saved_games SET {column} = :raw WHERE id = :id"),
            {"raw": raw, "id": save_id},
        )


@pytest.mark.parametrize(
    ("column", "raw"),
    [
        ("state", "{not json"),
        ("state", "null"),
        ("state", "[1, 2]"),
        ("players", "[oops"),
        ("players", "null"),
        ("players", "[1, 2]"),
    ],
)
def test_a_damaged_row_is_listed_and_refused_not_a_traceback(column: str, raw: str) -> None:
    good, _ = saved("bob,cpu:reckless")
    bad, _ = saved()
    corrupt(bad, column, raw)
    listed = runner.invoke(app, ["saves", "list", "--all"])
    assert listed.exit_code == 0, listed.output
    assert "bob" in listed.output
    as_json = runner.invoke(app, ["saves", "list", "--all", "--json"])
    assert as_json.exit_code == 0, as_json.output
    assert {row["id"] for row in json.loads(as_json.output)} == {good, bad}
    exported = runner.invoke(app, ["saves", "export", str(bad)])
    assert exported.exit_code == 2, exported.output
    assert f"saved game {bad} cannot be exported" in exported.output
    resumed = runner.invoke(app, ["play", "--resume", "--id", str(bad)])
    assert resumed.exit_code == 2, resumed.output
    assert f"saved game {bad} cannot be continued" in resumed.output
    deleted = runner.invoke(app, ["saves", "delete", str(bad)])
    assert deleted.exit_code == 0, deleted.output
    left = runner.invoke(app, ["saves", "list", "--all", "--json"])
    assert [row["id"] for row in json.loads(left.output)] == [good]


@pytest.mark.parametrize(
    "change",
    [
        {"history": None},
        {"history": 5},
        {"history": "roll 1 2 3 4 4 4"},
        {"options": None},
        {"state": None, "history": None},
    ],
)
def test_a_save_with_fields_of_the_wrong_kind_is_refused(change: dict[str, Any]) -> None:
    save_id, state = saved()
    corrupt(save_id, "state", json.dumps({**state, **change}))
    exported = runner.invoke(app, ["saves", "export", str(save_id)])
    assert exported.exit_code == 2, exported.output
    assert f"saved game {save_id} cannot be exported" in exported.output
