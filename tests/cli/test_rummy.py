"""The Rummy commands: score, stats, arena, bench, and ``play rummy`` (made from the spec by
``parlour.cli.play``; the app itself is not run here, tests/tui drives it)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from parlour.cli import play as play_cli
from parlour.cli.main import app
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.storage.rummy_stats import PersonGame, record_rummy_game
from parlour.tui.common.table import Pace, TableApp, TableExit
from parlour.tui.rummy.app import RummyApp

runner = CliRunner()


def test_score_prints_the_best_split() -> None:
    out = runner.invoke(app, ["score", "rummy", "3S", "4S", "5S", "6S", "7S", "6H", "6D"])
    assert out.exit_code == 0, out.output
    assert "3S 4S 5S" in out.output and "6S 6H 6D" in out.output and "7S" in out.output


def test_score_json() -> None:
    out = runner.invoke(app, ["score", "rummy", "4H", "5H", "6H", "7H", "7C", "7D", "--json"])
    assert out.exit_code == 0
    data = json.loads(out.output)
    assert data["deadwood"] == [] and data["deadwood_points"] == 0
    assert sorted(map(sorted, data["melds"])) == [["4H", "5H", "6H"], ["7C", "7D", "7H"]]
    assert data["melded_points"] == 30


def test_score_refuses_unknown_and_duplicate_cards() -> None:
    out = runner.invoke(app, ["score", "rummy", "3S", "3S", "4S"])
    assert out.exit_code == 2 and "3S is given twice" in out.output
    out = runner.invoke(app, ["score", "rummy", "3S", "1Z"])
    assert out.exit_code == 2 and "not a card" in out.output


def test_stats_table_and_json() -> None:
    engine = open_database()
    record_rummy_game(engine, "g1", [PersonGame("Ann", True, 540, (140, 400))])
    out = runner.invoke(app, ["stats", "rummy", "--json"])
    assert out.exit_code == 0
    (row,) = json.loads(out.output)
    assert row["name"] == "Ann" and row["won"] == 1 and row["average_round_score"] == 270.0
    out = runner.invoke(app, ["stats", "rummy"])
    assert "Ann" in out.output and "100%" in out.output and "540" in out.output


def test_stats_table_fits_80_columns_with_whole_headers() -> None:
    record_rummy_game(open_database(), "g1", [PersonGame("Ann", True, 540, (140, 400))])
    out = runner.invoke(app, ["stats", "rummy"])  # no terminal: 80 columns
    lines = out.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out.output  # "pers…", "play…", "long…" before
    header = next(line for line in lines if "name" in line)
    assert header.split("┃")[1:3] == ["name ", " games "]
    row = next(line for line in lines if "Ann" in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells == ["Ann", "1", "1", "0", "100%", "540", "400", "270.0", "1", "1"]


def test_arena_json() -> None:
    out = runner.invoke(app, ["arena", "rummy", "--bots", "easy,medium", "--games", "4", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 4 and [b["name"] for b in data["bots"]] == ["easy", "medium"]
    assert sum(b["wins"] for b in data["bots"]) == 4


def test_arena_json_chunks_combine() -> None:
    # arena_chunks needs each chunk's game, seed and points (it raised KeyError: 'seed')
    from parlour_tools.arena_chunks import combine

    runs = []
    for seed in (1, 2):
        args = ["arena", "rummy", "--bots", "easy,medium", "--games", "2", "--seed", str(seed)]
        out = runner.invoke(app, [*args, "--ending-score", "50", "--json"])
        assert out.exit_code == 0, out.output
        runs.append(json.loads(out.output))
    assert [r["seed"] for r in runs] == [1, 2] and runs[0]["game"] == "rummy"
    combined = combine(runs)
    assert combined["games"] == 4 and combined["seeds"] == [1, 2]
    easy, medium = combined["bots"]
    assert easy["wins"] + medium["wins"] == 4
    assert easy["wins"] == sum(r["bots"][0]["wins"] for r in runs)
    assert runs[0]["bots"][0]["mean_score"] == runs[0]["bots"][0]["points"] / 2


def test_arena_refuses_unknown_level() -> None:
    out = runner.invoke(app, ["arena", "rummy", "--bots", "easy,genius"])
    assert out.exit_code == 2 and "genius" in out.output


def test_arena_takes_search_settings_as_json() -> None:
    # the comma inside the settings split the spec ("unknown computer level 'search{...'")
    spec = 'search{"base": "expert", "rollout": "expert", "melds": true, "simulations": 4}'
    args = ["arena", "rummy", "--players", f"{spec},expert", "--games", "2", "--seed", "1"]
    out = runner.invoke(app, [*args, "--ending-score", "50", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    # labelled by the settings that differ from search's own (was the whole JSON)
    label = "search base=expert rollout=expert melds=true simulations=4"
    assert [b["name"] for b in data["bots"]] == [label, "expert"]
    assert sum(b["wins"] for b in data["bots"]) == 2
    # a space or a capital before the settings is the same player
    again = [*args[:3], f" Search {spec[6:]}, expert", *args[4:], "--ending-score", "50"]
    out = runner.invoke(app, [*again, "--json"])
    assert out.exit_code == 0, out.output
    plain = [(b["name"], b["wins"], b["points"]) for b in data["bots"]]
    assert [(b["name"], b["wins"], b["points"]) for b in json.loads(out.output)["bots"]] == plain


@pytest.mark.parametrize(
    ("players", "words"),
    [
        ('search{"base": "expert",expert', "a brace not closed in"),
        ("search{bad},expert", "search{bad}: settings are not JSON"),
        ("search[1],expert", "unknown computer level 'search[1]'"),
        ('search{"nope": 1},expert', "unknown setting 'nope'"),
        ('search{"width": "x"},expert', "width must be a whole number of at least 1, not 'x'"),
        ('search{"rollout": "fast"},expert', "unknown rollout 'fast'"),
        ('hard{"hold": -1},expert', "hard: hold must be a whole number of at least 0, not -1"),
        ('easy{"reach": 4},expert', "easy takes no settings; only medium, hard, expert,"),
        ('search{"a": "}"}}, expert', "a brace closed but not opened in"),
        ('hard{"reach": 1, "reach": 4},expert', "'reach' given twice in the settings"),
        ('search{"base": {"x": 1}},expert', "search: unknown base {'x': 1}; bases: hard, expert"),
        # named as the player given (was "search: width ...")
        ('search-expert{"width": 0},hard', "search-expert: width must be a whole number of"),
    ],
)
def test_arena_refuses_malformed_search_settings(players: str, words: str) -> None:
    out = runner.invoke(app, ["arena", "rummy", "--players", players, "--games", "1"])
    assert out.exit_code == 2, out.output
    assert words in " ".join(out.output.split())
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_arena_takes_planner_settings_and_labels_them_short() -> None:
    # hard's settings have commas too; a setting at hard's own value is left off the label,
    # and a search whose settings are all its own is plain search
    players = 'hard{"reach": 4.0, "gain": 3.0, "start_bonus": 10.0},search{"simulations": 90}'
    args = ["arena", "rummy", "--players", players, "--games", "1", "--seed", "2"]
    out = runner.invoke(app, [*args, "--ending-score", "50", "--json"])
    assert out.exit_code == 0, out.output
    names = [b["name"] for b in json.loads(out.output)["bots"]]
    assert names == ["hard reach=4.0 gain=3.0", "search"]


def test_arena_table_folds_a_long_label_never_cuts_it() -> None:
    players = 'search{"simulations": 4, "base": "expert"},easy'
    args = ["arena", "rummy", "--players", players, "--games", "1", "--ending-score", "50"]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    assert "…" not in out.output  # was "simulatio…"
    rows = [line for line in out.output.splitlines() if line.startswith("│")]
    assert "".join(row.split("│")[1].strip() for row in rows) == (
        "searchsimulations=4base=experteasy"
    )


def test_arena_table_shows_a_label_as_written_never_as_markup() -> None:
    # a planner's name is free text: "[/b]" stopped the table with a MarkupError traceback
    # after the games were played, and "[bold]x" lost its brackets
    players = 'hard{"name": "[/b]"},expert{"name": "[bold]x"}'
    args = ["arena", "rummy", "--players", players, "--games", "1", "--ending-score", "50"]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    rows = [line for line in out.output.splitlines() if line.startswith("│")]
    assert "".join(row.split("│")[1].strip() for row in rows) == ("hardname=[/b]expertname=[bold]x")


def test_bench_without_openspiel() -> None:
    out = runner.invoke(
        app,
        [
            "bench",
            "rummy",
            "--hands",
            "20",
            "--trials",
            "1",
            "--openspiel-python",
            "/nonexistent",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (
        data["rummy_hands_per_second"] > 0 and data["openspiel_gin_rummy_hands_per_second"] is None
    )


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[TableApp]:
    """The apps the commands would open; each 'closes' at once, saved."""
    apps: list[TableApp] = []

    def fake_run(table_app: TableApp) -> TableExit:
        apps.append(table_app)
        return table_app.table.exit_info()

    monkeypatch.setattr(play_cli, "run_app", fake_run)
    return apps


def test_play_rummy_opens_the_app_with_the_options(launched: list[TableApp]) -> None:
    out = runner.invoke(app, ["play", "rummy", "--players", "me,cpu:hard", "--ending-score", "500"])
    assert out.exit_code == 0, out.output
    (started,) = launched
    assert isinstance(started, RummyApp)
    local = started.table.local
    assert local.game.options["ending_score"] == 500 and local.game.num_players == 2
    assert [s.name for s in local.seats] == ["me", "CPU 1 (hard)"]
    assert started.table.settings.pace == Pace()
    assert "Game saved as #1. Continue it with:  parlour play --resume --id 1" in out.output


def test_play_rummy_house_rules_and_fast(launched: list[TableApp]) -> None:
    out = runner.invoke(
        app,
        [
            "play", "rummy", "--players", "ann,bob,cpu:easy", "--ending-score", "250",
            "--must-discard", "--alternate-start", "--fast", "--seed", "3",
        ],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    local = launched[0].table.local
    assert local.game.options == {
        "players": 3, "ending_score": 250, "must_discard": True, "alternate_start": True,
        "hand_size": 0, "max_rounds": 100, "max_turns": 500, "first": 0,
    }  # fmt: skip
    assert launched[0].table.settings.pace == Pace.instant()


def test_play_rummy_the_person_starts_against_the_computer(launched: list[TableApp]) -> None:
    # docs/rules/rummy.md: "The human player starts out playing each round", whatever the seat
    out = runner.invoke(app, ["play", "rummy", "--players", "cpu:hard,me", "--fast"])
    assert out.exit_code == 0, out.output
    local = launched[0].table.local
    assert local.game.options["first"] == 1 and local.state.observation(1)["starter"] == 1
    out = runner.invoke(app, ["play", "rummy", "--players", "cpu:hard,me", "--first", "0"])
    assert out.exit_code == 2 and "the person plays first" in out.output


def test_play_resume_continues_a_saved_rummy_game(launched: list[TableApp]) -> None:
    local = LocalGame.new("rummy", "me,cpu:medium")
    local.state.apply(local.state.sample_chance(random.Random(0)))
    local.state.apply(local.state.parse_action("draw stock"))
    save_id = local.save(open_database())
    out = runner.invoke(app, ["play", "--resume", "--id", str(save_id)])
    assert out.exit_code == 0, out.output
    (started,) = launched
    assert isinstance(started, RummyApp)
    assert started.table.local.state == local.state
    assert started.table.local.save_id == save_id


def test_play_refuses_bad_players_and_missing_saves() -> None:
    out = runner.invoke(app, ["play", "rummy", "--players", "me,cpu:genius"])
    assert out.exit_code == 2 and "genius" in out.output
    out = runner.invoke(app, ["play", "rummy", "--players", "me"])
    assert out.exit_code == 2 and "2-4 players" in out.output
    out = runner.invoke(app, ["play", "--resume", "--id", "99"])
    assert out.exit_code == 2 and "saved game 99 cannot be continued" in out.output
    out = runner.invoke(app, ["play", "rummy", "--resume", "99"])  # the old form is gone
    assert out.exit_code == 2 and "No such option: --resume" in out.output


def test_arena_takes_players_and_refuses_an_empty_level() -> None:
    out = runner.invoke(app, ["arena", "rummy", "--players", "easy,,medium", "--games", "1"])
    assert out.exit_code == 2
    assert "an empty level" in out.stderr


def test_stats_show_a_name_that_looks_like_markup() -> None:
    record_rummy_game(open_database(), "g1", [PersonGame("[/]", True, 520, (520,))])
    out = runner.invoke(app, ["stats", "rummy"])
    assert out.exit_code == 0, out.output
    assert "[/]" in out.stdout and "520" in out.stdout
