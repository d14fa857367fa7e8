"""``parlour saves`` and the ``play --resume`` picker with odd or corrupt saves: every save is
listed, a corrupt one is refused with the reason (exit status 2), never a traceback; a damaged
database gets one line naming it and the cause; deleting asks first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from parlour.cli.main import app
from parlour.session import LocalGame
from parlour.storage import open_database
from tests.quick_game import QUICK_GAME

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
    deleted = runner.invoke(app, ["saves", "delete", str(bad), "--yes"])
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


@pytest.mark.parametrize(
    ("column", "raw"), [("updated_at", "yesterday"), ("updated_at", ""), ("created_at", "??")]
)
def test_a_save_with_an_unreadable_time_is_listed_as_damaged_the_others_usable(
    column: str, raw: str
) -> None:
    good, _ = saved("bob,cpu:reckless")
    bad, _ = saved()
    corrupt(bad, column, raw)
    as_json = runner.invoke(app, ["saves", "list", "--json"])
    assert as_json.exit_code == 0, as_json.output
    rows = {row["id"]: row for row in json.loads(as_json.output)}
    assert rows[good]["damaged"] == [] and rows[good]["updated_at"] is not None
    if column == "updated_at":
        assert rows[bad]["damaged"] == ["time saved"] and rows[bad]["updated_at"] is None
    else:  # the creation time is never shown: the save is sound as listed
        assert rows[bad]["damaged"] == []
    listed = runner.invoke(app, ["saves", "list"])
    assert listed.exit_code == 0, listed.output
    assert "bob" in listed.output and "ann" in listed.output
    assert ("damaged" in listed.output) == (column == "updated_at")  # the table wraps it
    picker = runner.invoke(app, ["play", "--resume"], input="\n")
    assert picker.exit_code == 0, picker.output
    assert "bob" in picker.output and "Nothing resumed." in picker.output
    for save_id in (good, bad):  # its state is sound: it exports (and could be continued)
        exported = runner.invoke(app, ["saves", "export", str(save_id)])
        assert exported.exit_code == 0, exported.output
        assert json.loads(exported.output)["game"] == "ten-thousand"
    deleted = runner.invoke(app, ["saves", "delete", str(bad)], input="y\n")
    assert deleted.exit_code == 0, deleted.output
    assert f"Deleted saved game #{bad}." in deleted.output
    left = runner.invoke(app, ["saves", "list", "--json"])
    assert [row["id"] for row in json.loads(left.output)] == [good]


def test_delete_asks_first_and_yes_skips_the_question() -> None:
    first, _ = saved("bob,cpu:reckless")
    second, _ = saved("[red]eve[/],cpu:reckless")
    kept = runner.invoke(app, ["saves", "delete", str(first)], input="n\n")
    assert kept.exit_code == 0, kept.output
    assert f"Saved game #{first}: ten-thousand, active: " in kept.output
    assert f"Delete saved game #{first}? [y/N]" in kept.output
    assert "[y/N]" in kept.output and "Nothing deleted." in kept.output
    marked = runner.invoke(app, ["saves", "delete", str(second)], input="\n")  # Enter: no
    assert "[red]eve[/]" in marked.output and "Nothing deleted." in marked.output
    unasked = runner.invoke(app, ["saves", "delete", str(first)])  # no input at all
    assert unasked.exit_code == 2, unasked.output
    assert "nothing changed; --yes answers yes" in unasked.output
    ids = [row["id"] for row in json.loads(runner.invoke(app, ["saves", "list", "--json"]).output)]
    assert sorted(ids) == [first, second]
    deleted = runner.invoke(app, ["saves", "delete", str(first), "--yes"])
    assert deleted.exit_code == 0, deleted.output
    assert "[y/N]" not in deleted.output and f"Deleted saved game #{first}." in deleted.output
    ids = [row["id"] for row in json.loads(runner.invoke(app, ["saves", "list", "--json"]).output)]
    assert ids == [second]


COMMANDS = [
    ["saves", "list"],
    ["saves", "list", "--all", "--json"],
    ["saves", "export", "1"],
    ["saves", "delete", "1", "--yes"],
    ["play", "--resume"],
    ["play", "--resume", "--id", "1"],
]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("damage", "cause"),
    [
        ("not a database", "DatabaseError: file is not a database"),
        ("a directory", "OperationalError: unable to open database file"),
    ],
)
def test_a_damaged_database_gets_one_line_naming_it_and_the_cause(
    parlour_home: Path, command: list[str], damage: str, cause: str
) -> None:
    path = parlour_home / "parlour.db"
    parlour_home.mkdir(parents=True, exist_ok=True)
    if damage == "a directory":
        path.mkdir()
    else:
        path.write_bytes(b"not a database, only text where the saved games were " * 40)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.strip().splitlines() == [
        f"error: cannot open the database {path}: {cause}"
    ]


def test_serve_says_the_same_line_for_a_damaged_database(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    path.write_bytes(b"not a database " * 100)
    result = runner.invoke(app, ["serve", "--database", f"sqlite:///{path}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"error: cannot open the database {path}: DatabaseError: file is not a database"
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_damaged_inside_gets_one_line_too(
    parlour_home: Path, command: list[str]
) -> None:
    saved()
    with open_database().begin() as connection:  # it opens, but its saves are gone
        connection.execute(text("DROP TABLE saved_games"))
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        f"error: cannot read the database {parlour_home / 'parlour.db'}: "
        "OperationalError: no such table: saved_games"
    ]


def test_finished_saves_say_who_won_or_who_forfeited() -> None:
    import random

    # a quick game played to its end: the winner, by the rules
    quick = LocalGame.new(QUICK_GAME, "ann,bob")
    rng = random.Random(3)
    while not quick.state.is_terminal():
        if quick.state.is_chance_node():
            quick.state.apply(quick.state.sample_chance(rng))
        else:
            quick.state.apply(rng.choice(quick.state.legal_actions()))
    quick_id = quick.save(open_database())
    winner = ["ann", "bob"][quick.state.result().winners[0]]
    # Greedy against the computer, quit at once: the manual's forfeit
    greedy = LocalGame.new("greedy", "ann,cpu:easy")
    greedy.state.apply(greedy.state.parse_action("quit", player=0), player=0)
    greedy_id = greedy.save(open_database())
    rows = {
        r["id"]: r
        for r in json.loads(runner.invoke(app, ["saves", "list", "--all", "--json"]).output)
    }
    assert rows[quick_id]["result"] == f"won by {winner}"
    assert rows[greedy_id]["result"] == "ann forfeited"
    listed = runner.invoke(app, ["saves", "list", "--all"], env={"COLUMNS": "200"})
    assert f"won by {winner}" in listed.output and "ann forfeited" in listed.output
