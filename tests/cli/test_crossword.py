"""Crossword commands: ``play crossword`` (made from the spec), ``arena crossword``,
``bench crossword``, ``bench crossword-lexicon`` and ``analyse``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from parlour.cli import play as play_cli
from parlour.cli.main import app
from parlour.tui.common.table import Pace, TableApp, TableExit
from parlour.tui.crossword.app import CrosswordApp

runner = CliRunner()
DATA = Path(__file__).resolve().parent.parent / "data"


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    """The apps the commands would open; each 'closes' at once, saved."""
    apps: list[TableApp] = []

    def fake_run(table_app: TableApp) -> TableExit:
        apps.append(table_app)
        return table_app.table.exit_info()

    monkeypatch.setattr(play_cli, "run_app", fake_run)
    return apps


def test_play_crossword_with_a_computer_player_and_house_rules(
    launched: list[TableApp],
) -> None:
    result = runner.invoke(
        app,
        ["play", "crossword", "--players", "me,cpu:hard", "--max-stack", "2",
         "--premiums-in-cross-words", "--fast"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (started,) = launched
    assert isinstance(started, CrosswordApp)
    local = started.table.local
    assert local.game.options["max_stack"] == 2 and local.game.options["premiums_in_cross_words"]
    assert [s.name for s in local.seats] == ["me", "CPU 1 (hard)"]
    assert local.bots[1].name == "hard" and started.table.settings.pace == Pace.instant()
    assert "Continue it with:  parlour play --resume --id 1" in result.output


def test_a_relative_lexicon_path_is_kept_absolute_so_the_game_resumes_anywhere(
    launched: list[TableApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.session import LocalGame
    from parlour.storage import open_database

    here = tmp_path / "lists"
    here.mkdir()
    (here / "words.txt").write_text("cat\nat\nta\n", encoding="ascii")
    monkeypatch.chdir(here)
    result = runner.invoke(app, ["play", "crossword", "--players", "a,b", "--lexicon", "words.txt"])
    assert result.exit_code == 0, result.output
    assert launched[0].table.local.game.options["lexicon"] == str(here / "words.txt")
    monkeypatch.chdir(tmp_path)  # elsewhere: the saved game still finds its word list
    resumed = LocalGame.resume(open_database(), 1)
    assert resumed.game.options["lexicon"] == str(here / "words.txt")


def test_play_crossword_help_lists_the_options_and_levels() -> None:
    result = runner.invoke(app, ["play", "crossword", "--help"])
    assert result.exit_code == 0
    for flag in ("--players", "--lexicon", "--cover-whole-word", "--max-stack", "--seed"):
        assert flag in result.output
    assert "easy, medium, hard" in " ".join(result.output.split())


def test_play_crossword_refuses_bad_input_before_starting(
    tmp_path: Path, launched: list[TableApp]
) -> None:
    out = runner.invoke(app, ["play", "crossword", "--players", "ann"])
    assert out.exit_code == 2 and "takes 2-4 players, not 1" in out.output
    out = runner.invoke(app, ["play", "crossword", "--players", "ann,cpu:genius"])
    assert out.exit_code == 2 and "unknown computer level 'genius'" in out.output
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n", encoding="utf-8")
    out = runner.invoke(app, ["play", "crossword", "--players", "a,b", "--lexicon", str(bad)])
    assert out.exit_code == 2 and "no usable words" in out.output
    out = runner.invoke(app, ["play", "crossword", "--turn-mode", "daily"])
    assert out.exit_code == 2 and "takes turns in order" in out.output
    out = runner.invoke(app, ["play", "crossword", "--resume"])  # it is  parlour play --resume
    assert out.exit_code == 2 and "No such option: --resume" in out.output
    assert launched == []


def test_arena_crossword_prints_the_figures() -> None:
    out = runner.invoke(
        app, ["arena", "crossword", "--players", "medium,easy", "--games", "2", "--json"]
    )
    again = runner.invoke(
        app,
        ["arena", "crossword", "--players", "medium,easy", "--games", "2", "--jobs", "2", "--json"],
    )
    parallel = json.loads(again.stdout)  # the same games in two processes
    assert [b["points"] for b in parallel["bots"]] == [
        b["points"] for b in json.loads(out.stdout)["bots"]
    ]
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    assert figures["games"] == 2 and figures["games_per_second"] > 0
    medium, easy = figures["bots"]
    assert (medium["name"], easy["name"]) == ("medium", "easy")
    assert medium["games"] == easy["games"] == 2
    assert medium["wins"] + easy["wins"] == 2
    low, high = medium["ci95"]
    assert 0 <= low <= medium["win_rate"] <= high <= 1
    for bot in (medium, easy):
        assert bot["points_per_play"] > 0 and bot["bingos_per_game"] >= 0
        assert bot["covers_per_game"] >= 0
    table = runner.invoke(app, ["arena", "crossword", "--players", "medium,easy", "--games", "1"])
    assert table.exit_code == 0 and "games/s" in table.output


def test_arena_crossword_refuses_an_unknown_level() -> None:
    out = runner.invoke(app, ["arena", "crossword", "--players", "hard,genius"])
    assert out.exit_code == 2
    assert "unknown computer level 'genius'; levels are: easy, medium, hard, lookahead" in " ".join(
        out.output.split()
    )


@pytest.mark.slow
def test_bench_crossword_json() -> None:
    out = runner.invoke(
        app,
        ["bench", "crossword", "--positions", "3", "--games", "0", "--repeats", "1", "--json"],
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    covering, plain = report["generation"]
    assert covering["covering"] and not plain["covering"] and covering["positions"] == 3
    assert plain["cover_plays"] == 0 and covering["max_plays"] >= plain["max_plays"]
    assert report["graph"]["nodes"] == 52_929 and report["graph"]["cached_seconds"] > 0
    assert "arena" not in report


def test_analyse_a_crossword_record() -> None:
    record = DATA / "crossword-three-players.json"
    out = runner.invoke(app, ["analyse", str(record), "--json"])
    assert out.exit_code == 0, out.output
    turns = json.loads(out.stdout)
    assert [t["player"] for t in turns[:3]] == ["ann", "bob", "cy"]
    assert all(t["left"] == t["best_points"] - t["points"] >= 0 for t in turns)
    table = runner.invoke(app, ["analyse", str(record)])
    assert table.exit_code == 0 and "points left on the table" in table.output


def test_analyse_refuses_other_records(tmp_path: Path) -> None:
    out = runner.invoke(app, ["analyse", str(DATA / "rummy-hard-medium.json")])
    assert out.exit_code == 2 and "parlour analyse reads Crossword" in out.output
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    out = runner.invoke(app, ["analyse", str(bad)])
    assert out.exit_code == 2 and "is not JSON" in " ".join(out.output.split())


def test_bench_lexicon_json(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\nzax\n", encoding="utf-8")
    out = runner.invoke(
        app, ["bench", "crossword-lexicon", "--lexicon", str(words), "--repeats", "1", "--json"]
    )
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    assert figures["words"] == 3 and figures["cold_seconds"] > 0 and figures["cache_bytes"] > 0


def test_bench_lexicon_refuses_a_bad_list(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("1\n2\n", encoding="utf-8")
    out = runner.invoke(app, ["bench", "crossword-lexicon", "--lexicon", str(words)])
    assert out.exit_code == 2 and "no usable words" in out.output


def test_analyse_an_unfinished_record_says_so(tmp_path: Path) -> None:
    record = json.loads((DATA / "crossword-three-players.json").read_text(encoding="utf-8"))
    record["events"] = record["events"][:8]  # three draws, then three plays with draws
    del record["result"]
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(record), encoding="utf-8")
    out = runner.invoke(app, ["analyse", str(partial)])
    assert out.exit_code == 0, out.output
    assert "The game is not finished: its first 3 turns are analysed." in out.output
    finished = runner.invoke(app, ["analyse", str(DATA / "crossword-three-players.json")])
    assert "not finished" not in finished.output
