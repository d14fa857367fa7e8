"""The Greedy commands through Typer's CliRunner: solve, arena, bench."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.cli.main import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _race_tables_in_memory_stay_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no Greedy race table in memory, and the tables its commands
    solve stay out of later tests' memory (tests/web/test_coach.py wants none at 1,050)."""
    from parlour.games.greedy import coach

    monkeypatch.setattr(coach, "_TABLES", {})


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_solve_prints_expected_points_thresholds_and_the_endgame() -> None:
    code, out = run("solve", "greedy")
    assert code == 0, out
    assert "Expected points per turn, from the start of a turn: 1,019.6" in out
    assert "369,100" in out and "never: nine dice always score" in out
    assert "rolled 1 1 1 2 3 4 5 5 6: keep 1 1 1, then roll 6" in out
    assert "Solved in" in out and "certified optimal" in out
    assert "5,000 vs 9,500" in out and "win chance, strong" in out


def test_solve_json() -> None:
    code, out = run("solve", "greedy", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["expected_points_per_turn"] == pytest.approx(1019.560, abs=1e-3)
    assert data["bank_thresholds"]["1"] == 550 and data["bank_thresholds"]["8"] == 369_100
    assert "9" not in data["bank_thresholds"]
    assert data["certificate_slack"] > 0 and data["cap"] == 1_000_000
    behind = data["near_the_end"][0]
    assert (behind["mine"], behind["opponent"]) == (5000, 9500)
    assert behind["win_chance_strong"] > behind["win_chance_playing_for_points"]
    assert set(behind["banks_from"].values()) == {5000}  # only a bank that wins


@pytest.mark.slow
def test_solve_with_a_lower_target() -> None:
    code, out = run("solve", "greedy", "--target", "5000", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["options"] == {"target": 5000}
    # the positions are points short of the target: 5,000 and 500, 1,000 each, 500 and 5,000
    assert [(p["mine"], p["opponent"]) for p in data["near_the_end"]] == [
        (0, 4500),
        (4000, 4000),
        (4500, 0),
    ]
    code, out = run("solve", "greedy", "--target", "100000", "--json")
    assert code == 0, out
    far = json.loads(out)["near_the_end"]
    assert [(p["mine"], p["opponent"]) for p in far] == [
        (95000, 99500),
        (99000, 99000),
        (99500, 95000),
    ]
    # the same race as at 10,000, shifted: the chances agree
    assert [p["win_chance_strong"] for p in far] == pytest.approx(
        [
            p["win_chance_strong"]
            for p in json.loads(run("solve", "greedy", "--json")[1])["near_the_end"]
        ],
        abs=1e-9,
    )
    code, out = run("solve", "greedy", "--target", "5001")
    assert code == 2 and "multiple of 50" in out


def test_arena_json() -> None:
    code, out = run(
        "arena", "greedy", "--players", "strong,easy", "--games", "6", "--seed", "1", "--json"
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["games"] == 6 and data["seed"] == 1 and data["games_per_second"] > 0
    assert [b["name"] for b in data["bots"]] == ["strong", "easy"]
    assert sum(b["wins"] for b in data["bots"]) == pytest.approx(6)
    for bot in data["bots"]:
        assert bot["games"] == 6
        assert 0 <= bot["ci95"][0] <= bot["win_rate"] <= bot["ci95"][1] <= 1
        assert bot["points_per_turn"] == pytest.approx(bot["points"] / bot["turns"])
    again = json.loads(
        run("arena", "greedy", "--players", "strong,easy", "--games", "6", "--seed", "1",
            "--json")[1]
    )  # fmt: skip
    assert [b["points"] for b in again["bots"]] == [b["points"] for b in data["bots"]]


def test_arena_table_with_three_players_and_random() -> None:
    code, out = run(
        "arena", "greedy", "--players", "random,easy,steady", "--games", "3", "--target", "2000"
    )
    assert code == 0, out
    assert "win rate" in out and "95% interval" in out and "points/turn" in out
    assert "games per second" in out and "random" in out and "steady" in out


@pytest.mark.parametrize(
    ("players", "message"),
    [("strong", "2-6 players"), ("strong,grandmaster", "unknown computer level")],
)
def test_arena_refuses_bad_players(players: str, message: str) -> None:
    code, out = run("arena", "greedy", "--players", players, "--games", "2")
    assert code == 2 and message in out


def test_bench_json() -> None:
    code, out = run("bench", "greedy", "--games", "20", "--strong-games", "2", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["random_games"] == 20 and data["strong_games"] == 2
    assert data["random_games_per_second"] > 0 and data["strong_games_per_second"] > 0
    assert data["solve_seconds"] > 0 and data["race_model_seconds"] > 0


def test_standings_show_names_as_written_never_as_markup() -> None:
    from parlour.storage import open_database
    from parlour.storage.standings import record_greedy_game

    engine = open_database()
    record_greedy_game(engine, "[/]", won=True, points=5000, margin=300)
    record_greedy_game(engine, "[red]Ann", won=False, points=-1000, margin=None)
    code, out = run("standings", "greedy")
    assert code == 0, out
    assert "[/]" in out and "[red]Ann" in out


def ok(*args: str) -> str:
    code, output = run(*args)
    assert code == 0, output
    return output


def test_solve_the_tournament_and_the_race_json() -> None:
    out = json.loads(
        ok("solve", "greedy", "--target", "1000", "--tournament", "--optimal", "--json")
    )
    cup, race = out["tournament"], out["optimal"]
    # the person rolling first wins more often and scores more than rolling second
    assert 0.5 < cup["win_probability_rolling_first"] < 1.0
    assert 0.0 < cup["win_probability_rolling_second"] < 0.5
    assert cup["tournament_points_rolling_first"] > cup["tournament_points_rolling_second"]
    assert cup["cache"].endswith("greedy-tournament-v1-1000-strong.npz")
    assert 0.5 < race["first_player_win_probability"] < 1.0
    assert race["fair_compensation_points"] % 50 == 0
    assert race["peak_memory_mb"] > 0 and race["solve_seconds"] > 0


def test_solve_optimal_caches_the_race_table_for_optimal_and_the_coach() -> None:
    # docs/rules/greedy.md: optimal plays as strong "until parlour solve greedy --optimal
    # ... has solved and cached it" (it solved and measured, and kept nothing)
    from parlour.games.greedy.coach import cache_path
    from parlour.games.greedy.solver import GreedyRules

    path = cache_path(GreedyRules(1050))
    assert not path.exists()
    race = json.loads(ok("solve", "greedy", "--target", "1050", "--optimal", "--json"))["optimal"]
    assert path.is_file() and race["cache"] == str(path)
    text = ok("solve", "greedy", "--target", "1050", "--optimal")
    assert "cached in" in text and path.name in text.replace("\n", "")


def test_arena_tournament_against_strong_prints_tournament_points() -> None:
    text = ok(
        "arena", "greedy", "--players", "tournament,strong", "--games", "4", "--target", "1000"
    )
    assert "tournament as the person:" in text and "tournament points per game" in text
    assert "strong as the person:" in text


def test_arena_says_when_it_solves_the_race_table_for_optimal() -> None:
    # at a target without a stored table the arena solved for minutes with nothing on screen
    from parlour.games.greedy.coach import cache_path
    from parlour.games.greedy.solver import GreedyRules

    args = ("arena", "greedy", "--players", "optimal,strong", "--games", "2", "--target", "1050")
    first = ok(*args).replace("\n", " ")
    assert "Solving the race to win at 1,050 points once" in first
    assert cache_path(GreedyRules(1050)).is_file()
    assert "Solving" not in ok(*args)  # stored now
    assert "Solving" not in ok(*args[:-2], "--target", "1100", "--json")  # quiet


def test_bench_optimal_times_the_solve_and_the_move_choices() -> None:
    out = json.loads(
        ok("bench", "greedy", "--optimal", "--target", "1000", "--strong-games", "2", "--json")
    )
    assert out["games"] == 2 and out["move_choices"] >= 2
    assert (
        0 < out["move_choice_median_ms"] <= out["move_choice_p99_ms"] <= out["move_choice_max_ms"]
    )
    assert out["solve_cpu_seconds"] > 0 and out["peak_memory_mb"] > 0


def test_bench_greedy_moves_times_choices_from_the_shipped_tables() -> None:
    out = runner.invoke(app, ["bench", "greedy-moves", "--games", "1", "--json"])
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    assert figures["games"] == 1 and figures["target"] == 10_000 and figures["move_choices"] >= 1
    assert 0 < figures["move_choice_median_ms"] <= figures["move_choice_max_ms"]
    assert 0 <= figures["move_choice_cpu_median_ms"] <= figures["move_choice_cpu_max_ms"]
