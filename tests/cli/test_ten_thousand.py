"""The Ten-Thousand commands through Typer's CliRunner: solve, arena, bench."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from parlour.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_solve_prints_expected_points_thresholds_and_time() -> None:
    code, out = run("solve", "ten-thousand")
    assert code == 0, out
    assert "Expected points per turn, from the start of a turn: 551.6" in out
    assert "10,950" in out and "3,050" in out
    assert "keep 1, then roll 5" in out
    assert "Solved in" in out


def test_solve_json() -> None:
    code, out = run("solve", "ten-thousand", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["expected_points_per_turn"] == pytest.approx(551.642, abs=1e-3)
    assert data["bank_thresholds"] == {
        "1": 300,
        "2": 250,
        "3": 400,
        "4": 1000,
        "5": 3050,
        "6": 10950,
    }
    assert data["bank_thresholds_unentered"] is None
    assert data["seconds"] > 0 and data["certificate_slack"] > 0
    assert {"first_roll": [1, 1, 1, 2, 5, 6], "keep": [1, 1, 1, 5], "then": "bank"} in data[
        "examples"
    ]


def test_solve_with_options() -> None:
    code, out = run("solve", "ten-thousand", "--entry", "1000", "--json")
    data = json.loads(out)
    assert data["options"]["entry"] == 1000
    assert data["expected_points_per_turn_unentered"] < data["expected_points_per_turn"]
    assert min(data["bank_thresholds_unentered"].values()) == 1000
    code, out = run("solve", "ten-thousand", "--specials-any-roll", "--json")
    assert json.loads(out)["expected_points_per_turn"] > 551.7
    code, out = run("solve", "ten-thousand", "--target", "10001")
    assert code == 2 and "multiple of 50" in out


def test_arena_json() -> None:
    code, out = run(
        "arena", "ten-thousand", "--players", "strong,cautious", "--games", "6", "--seed", "1",
        "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["games"] == 6 and data["seed"] == 1 and data["games_per_second"] > 0
    assert [b["name"] for b in data["bots"]] == ["strong", "cautious"]
    assert sum(b["wins"] for b in data["bots"]) == pytest.approx(6)
    for bot in data["bots"]:
        assert bot["games"] == 6
        assert 0 <= bot["ci95"][0] <= bot["win_rate"] <= bot["ci95"][1] <= 1
        assert bot["turns"] >= 6 * 5  # nobody reaches 10,000 in five turns here
        assert bot["points_per_turn"] == pytest.approx(bot["points"] / bot["turns"])
    again = json.loads(
        run("arena", "ten-thousand", "--players", "strong,cautious", "--games", "6", "--seed",
            "1", "--json")[1]
    )  # fmt: skip
    assert [b["points"] for b in again["bots"]] == [b["points"] for b in data["bots"]]


def test_arena_table_with_three_levels() -> None:
    code, out = run(
        "arena", "ten-thousand", "--players", "random,reckless,cautious", "--games", "3",
        "--target", "2000",
    )  # fmt: skip
    assert code == 0, out
    assert "win rate" in out and "95% interval" in out and "points/turn" in out
    assert "games per second" in out and "random" in out and "reckless" in out


@pytest.mark.parametrize(
    ("players", "message"),
    [("strong", "2-6 players"), ("strong,grandmaster", "unknown computer level")],
)
def test_arena_refuses_bad_players(players: str, message: str) -> None:
    code, out = run("arena", "ten-thousand", "--players", players, "--games", "2")
    assert code == 2 and message in out


def test_bench_json() -> None:
    code, out = run("bench", "ten-thousand", "--games", "20", "--strong-games", "2", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["random_games"] == 20 and data["strong_games"] == 2
    assert data["random_games_per_second"] > 0 and data["strong_games_per_second"] > 0
    assert data["solve_seconds"] > 0


def test_solve_optimal_figures_at_a_small_target() -> None:
    code, out = run("solve", "ten-thousand", "--target", "1000", "--optimal", "--json")
    assert code == 0, out
    figures = json.loads(out)["optimal"]
    assert figures["first_player_win_probability"] == pytest.approx(0.579956, abs=1e-6)
    # a 250-point head start brings the first player nearest an even chance
    assert figures["fair_compensation_points"] == 250
    assert figures["first_player_win_probability_fair"] == pytest.approx(0.503722, abs=1e-6)
    assert figures["solve_seconds"] > 0 and figures["peak_memory_mb"] > 0
    assert figures["cache"].endswith("ten-thousand-v1-optimal-1000-0-0.npy.gz")


def test_arena_takes_the_optimal_level() -> None:
    code, out = run(
        "arena", "ten-thousand", "--players", "optimal,cautious", "--games", "4",
        "--target", "1000", "--seed", "3", "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert [b["name"] for b in data["bots"]] == ["optimal", "cautious"]
    assert sum(b["wins"] for b in data["bots"]) == 4


def test_bench_ten_thousand_moves_prints_figures() -> None:
    out = runner.invoke(app, ["bench", "ten-thousand-moves", "--positions", "3", "--json"])
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    assert figures["positions"] == 3
    for key in ("cold", "cached", "coach", "strong", "numpy"):
        assert 0 < figures[key]["median"] <= figures[key]["worst"]
        assert 0 <= figures[key]["cpu_median"] <= figures[key]["cpu_worst"]
    assert figures["cold_over_strong"] > 0 and figures["numpy_over_cold"] > 0


def test_bench_optimal_times_the_move_choices() -> None:
    code, output = run("bench", "ten-thousand", "--optimal", "--strong-games", "1", "--json")
    assert code == 0, output
    out = json.loads(output)
    assert out["games"] == 1 and out["move_choices"] >= 1
    assert 0 < out["move_choice_median_ms"] <= out["move_choice_max_ms"]
