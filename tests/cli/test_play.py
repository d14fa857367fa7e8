"""``parlour play`` and ``parlour saves``: starting, resuming and exporting games.

The Textual app itself is not run here (``run_app`` is replaced); tests/tui drives it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import play as play_cli
from parlour.cli.main import app
from parlour.engine.records import read_record, replay
from parlour.session import LocalGame
from parlour.storage import list_saves, open_database, save_game
from parlour.storage.standings import greedy_standings
from parlour.tui.common.table import Pace, TableApp, TableExit
from parlour.tui.ten_thousand.app import TenThousandApp

runner = CliRunner()


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    """The apps the commands would open; each 'closes' at once, saved."""
    apps: list[TableApp] = []

    def fake_run(table_app: TableApp) -> TableExit:
        apps.append(table_app)
        return table_app.table.exit_info()

    monkeypatch.setattr(play_cli, "run_app", fake_run)
    return apps


def saved_game(players: str = "ann,cpu:cautious") -> int:
    local = LocalGame.new("ten-thousand", players)
    local.state.apply(local.state.parse_action("roll 1 2 3 4 4 4", player=-1), player=-1)
    return local.save(open_database())


def test_play_help_names_the_computer_levels() -> None:
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    assert "ten-thousand: computer levels, weakest first: reckless, cautious" in result.output
    result = runner.invoke(app, ["play", "ten-thousand", "--help"])
    for flag in ("--players", "--target", "--entry", "--specials-any-roll", "--fast", "--seed"):
        assert flag in result.output


def test_play_starts_the_app_with_the_options(launched: list[TableApp]) -> None:
    result = runner.invoke(
        app,
        [
            "play", "ten-thousand", "--players", "me,cpu:cautious,cpu:reckless",
            "--target", "5000", "--entry", "350", "--specials-any-roll", "--fast",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (started,) = launched
    assert isinstance(started, TenThousandApp)
    local = started.table.local
    assert local.game.options == {
        "players": 3, "target": 5000, "entry": 350, "specials_any_roll": True
    }  # fmt: skip
    assert [s.name for s in local.seats] == ["me", "CPU 1 (cautious)", "CPU 2 (reckless)"]
    assert started.table.settings.pace == Pace.instant()
    assert "Game saved as #1. Continue it with:  parlour play --resume --id 1" in result.output


def test_play_defaults_are_the_manuals_game(launched: list[TableApp]) -> None:
    result = runner.invoke(app, ["play", "ten-thousand"])
    assert result.exit_code == 0, result.output
    local = launched[0].table.local
    assert local.game.options["target"] == 10_000 and local.game.options["entry"] == 0
    assert local.game.options["specials_any_roll"] is False
    assert launched[0].table.settings.pace == Pace()
    names = [s.name for s in local.seats]
    assert names == ["Player", "CPU 1 (optimal)"]  # "Player's turn", never "me's rack"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "7"], "option target=7: out of range, allowed 1000..100000"),
        (["--entry", "30"], "a multiple of 50"),
        (["--players", "me,cpu:genius"], "unknown computer level 'genius'"),
        (["--players", "a,b,c,d,e,f,g"], "1-6 players, not 7"),
    ],
)
def test_play_refuses_bad_options(launched: list[TableApp], args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "ten-thousand", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert launched == []


def test_resume_with_nothing_saved(launched: list[TableApp]) -> None:
    result = runner.invoke(app, ["play", "--resume"])
    assert result.exit_code == 0
    assert "No saved games to continue" in result.output


def test_resume_lists_the_saves_and_continues_the_chosen_one(launched: list[TableApp]) -> None:
    first = saved_game("ann,cpu:cautious")
    second = saved_game("bob,cpu:reckless")
    result = runner.invoke(app, ["play", "--resume"], input=f"x\n{first}\n")
    assert result.exit_code == 0, result.output
    assert "Saved games" in result.output and "▶ann 0" in result.output
    assert "▶bob 0" in result.output
    assert "'x' is not a game in the list" in result.output
    (started,) = launched
    assert started.table.local.save_id == first
    assert started.table.local.state.roll == (1, 2, 3, 4, 4, 4)
    assert second != first


def test_resume_cancelled_with_enter(launched: list[TableApp]) -> None:
    saved_game()
    result = runner.invoke(app, ["play", "--resume"], input="\n")
    assert result.exit_code == 0
    assert "Nothing resumed." in result.output and launched == []


def test_resume_by_id(launched: list[TableApp]) -> None:
    save_id = saved_game()
    result = runner.invoke(app, ["play", "--resume", "--id", str(save_id), "--fast"])
    assert result.exit_code == 0, result.output
    assert launched[0].table.local.save_id == save_id
    result = runner.invoke(app, ["play", "--id", "99"])
    assert result.exit_code == 2 and "no saved game 99" in result.output


def test_a_corrupt_save_is_refused_without_a_traceback(launched: list[TableApp]) -> None:
    bad = save_game(
        open_database(),
        game="ten-thousand",
        players=["ann", "bob"],
        state={"options": {"players": 2}, "state": {}, "history": [["chance", "roll 9"]]},
    )
    result = runner.invoke(app, ["play", "--resume", "--id", str(bad)])
    assert result.exit_code == 2
    assert f"saved game {bad} cannot be continued: event 0: 9 is not a die face" in result.output
    assert "Traceback" not in result.output and launched == []
    listed = runner.invoke(app, ["play", "--resume"], input="\n")
    assert listed.exit_code == 0 and "ann, bob" in listed.output


def test_saves_export_writes_a_replayable_record(tmp_path: Path) -> None:
    local = LocalGame.new("ten-thousand", "ann", target=1000)
    for move in ("roll 1 1 1 2 3 4", "keep 1 1 1 bank"):
        player = -1 if move.startswith("roll") else None
        local.state.apply(local.state.parse_action(move, player=player), player=player)
    save_id = local.save(open_database())
    target = tmp_path / "ann.json"
    result = runner.invoke(app, ["saves", "export", str(save_id), str(target)])
    assert result.exit_code == 0, result.output
    assert f"Record of game #{save_id} (finished) written to {target}" in result.output
    record = read_record(target)
    assert record["players"] == ["ann"] and record["result"] == {"scores": [1000], "winners": [0]}
    assert replay(record) == local.state
    again = runner.invoke(app, ["saves", "export", str(save_id), str(target)])
    assert again.exit_code == 2 and "exists" in again.output
    printed = runner.invoke(app, ["saves", "export", str(save_id)])
    assert json.loads(printed.output)["events"][1] == {"by": 0, "move": "keep 1 1 1 bank"}


def test_saves_list_and_delete() -> None:
    save_id = saved_game()
    listed = runner.invoke(app, ["saves", "list", "--json"])
    rows = json.loads(listed.output)
    assert [(r["id"], r["status"], r["players"]) for r in rows] == [
        (save_id, "active", ["ann", "cpu:cautious"])
    ]
    deleted = runner.invoke(app, ["saves", "delete", str(save_id)], input="y\n")
    assert deleted.exit_code == 0
    assert f"Saved game #{save_id}: ten-thousand, active: " in deleted.output
    assert f"Delete saved game #{save_id}? [y/N]" in deleted.output
    assert list_saves(open_database(), status=None) == []
    missing = runner.invoke(app, ["saves", "delete", str(save_id), "--yes"])
    assert missing.exit_code == 2 and f"no saved game {save_id}" in missing.output


def test_deleting_a_counted_greedy_game_forfeits_it_first() -> None:
    """Deleting an unfinished Greedy game of one person against the computer is a quit: a
    loss at the computer's score (500, under 10,000: 1,000 forfeited), then the save goes."""
    local = LocalGame.new("greedy", "Ann,cpu:easy")
    for move, player in [
        ("roll 1 1 1 2 3 4 4 6 6", -1),
        ("keep 1 1 1 bank", 0),
        ("roll 5 5 5 2 3 4 4 6 6", -1),
        ("keep 5 5 5 bank", 1),
        ("roll 2 3 4 6 6 2 3 4 6", -1),
    ]:
        local.state.apply(local.state.parse_action(move, player=player), player=player)
    engine = open_database()
    save_id = local.save(engine)
    # asked first, and the question says it is a forfeit: no, and nothing is counted
    kept = runner.invoke(app, ["saves", "delete", str(save_id)], input="n\n")
    assert kept.exit_code == 0, kept.output
    assert "Greedy standings: deleting it forfeits it first, a loss for Ann." in kept.output
    assert f"Delete saved game #{save_id} (a forfeit)? [y/N]" in kept.output
    assert "Nothing deleted." in kept.output
    assert greedy_standings(engine) == [] and len(list_saves(engine)) == 1
    # no one to answer (no terminal, no --yes): refused, nothing counted or deleted
    unasked = runner.invoke(app, ["saves", "delete", str(save_id)])
    assert unasked.exit_code == 2, unasked.output
    assert "No answer (no terminal?): nothing changed; --yes answers yes" in unasked.output
    assert greedy_standings(engine) == [] and len(list_saves(engine)) == 1
    deleted = runner.invoke(app, ["saves", "delete", str(save_id)], input="yes\n")
    assert deleted.exit_code == 0, deleted.output
    assert "Ann forfeits it" in deleted.output and "1,000 to 500" in deleted.output
    [row] = greedy_standings(engine)
    assert (row.name, row.games, row.losses, row.points) == ("Ann", 1, 1, -1000)
    assert list_saves(engine, status=None) == []


def test_deleting_a_hot_seat_greedy_game_counts_nothing() -> None:
    local = LocalGame.new("greedy", "Ann,Bob")
    local.state.apply(local.state.parse_action("roll 1 1 1 2 3 4 4 6 6", player=-1), player=-1)
    engine = open_database()
    deleted = runner.invoke(app, ["saves", "delete", str(local.save(engine)), "--yes"])
    assert deleted.exit_code == 0 and "forfeits" not in deleted.output
    assert greedy_standings(engine) == []


def test_a_game_without_an_app_of_its_own_plays_in_the_generic_one(
    launched: list[TableApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every installed game gets ``parlour play <game>``; one with no terminal app (the
    test-only count to ten) opens the generic app, and resumes in it."""
    from parlour.cli.groups import play
    from parlour.tui.generic.app import GenericApp
    from tests import count_game

    count_game.install(monkeypatch)
    monkeypatch.setattr(play, "registered_commands", list(play.registered_commands))
    play_cli.add_play_command(count_game.NAME)  # as the module does for each installed game
    help_text = runner.invoke(app, ["play", "count-to-ten", "--help"]).output
    assert "--target" in help_text and "--step" in help_text and "generic table" in help_text
    result = runner.invoke(app, ["play", "count-to-ten", "-p", "ann,cpu:smart", "--step", "3"])
    assert result.exit_code == 0, result.output
    (started,) = launched
    assert isinstance(started, GenericApp)
    assert started.table.local.game.options == {"players": 2, "target": 10, "step": 3}
    assert "Game saved as #1" in result.output
    resumed = runner.invoke(app, ["play", "--resume", "--id", "1"])
    assert resumed.exit_code == 0, resumed.output
    assert isinstance(launched[1], GenericApp)


def test_every_installed_game_has_a_play_command() -> None:
    import parlour

    result = runner.invoke(app, ["play", "--help"])
    for spec in parlour.games():
        assert f"{spec.name}:" in result.output or f"{spec.name} (in the generic" in result.output
        assert runner.invoke(app, ["play", spec.name, "--help"]).exit_code == 0
