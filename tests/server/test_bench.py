"""The load test runs: a short ``parlour bench server`` against a real server process plays
all three games with no error, and its crossword players make plays the engine accepts."""

from __future__ import annotations

import random
import time

import pytest

import parlour
from parlour_tools.load_test import BenchConfig, Player, _Bench, choose_crossword, run_bench
from tests.helpers import free_port


def test_crossword_players_make_legal_plays() -> None:
    game = parlour.load("crossword", players=2)
    state = game.new_initial_state()
    rng = random.Random(3)
    plays = 0
    for _ in range(12):
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        if state.is_terminal():
            break
        seat = state.actors()[0]
        text = choose_crossword(state.observation(seat), dict(game.options))
        plays += text != "pass"
        state.apply(state.parse_action(text, player=seat), player=seat)  # legal, or it raises
    assert plays >= 6


@pytest.mark.slow
def test_a_short_load_test_plays_every_game_without_errors() -> None:
    report = run_bench(BenchConfig(seconds=3, players=6, port=free_port(), via="ws"))
    figures = report.to_json()
    assert figures["errors"] == 0, figures["error_samples"]
    assert set(figures["actions_by_game"]) == {"ten-thousand", "crossword", "rummy"}
    assert figures["actions"] == sum(figures["actions_by_game"].values()) > 0
    assert figures["p50_ms"] <= figures["p99_ms"]
    assert figures["server_cpu_seconds"] is not None


@pytest.mark.slow
def test_thinking_players_act_no_faster_than_they_think() -> None:
    # 2 pairs thinking 0.25 s on average before each action, for 3 s: a table sees one
    # action per think at most (a busy machine only lowers it); without thinking a pair
    # plays hundreds of actions in that time
    report = run_bench(
        BenchConfig(seconds=3, players=4, port=free_port(), via="ws", think=0.25, games=("rummy",))
    )
    figures = report.to_json()
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["think_ms"] == 250
    assert 0 < figures["actions"] < 80


def test_thinking_never_outlasts_the_run() -> None:
    # players think 600 s on average and arrive over 600 s; a 1 s run still ends after 1 s,
    # not after the longest wait (the time left is the most a player waits)
    bench = _Bench(BenchConfig(seconds=1, think=600), "http://127.0.0.1:9")
    player = Player(bench, "p0", 0)
    bench.stop_at = time.monotonic() + 1e9
    assert max(bench.thinking(player) for _ in range(5)) > 60  # long thinks are drawn
    assert max(bench.arrival(player) for _ in range(5)) > 60
    bench.stop_at = time.monotonic() + 1
    waits = [bench.thinking(player) for _ in range(5)] + [bench.arrival(player) for _ in range(5)]
    assert all(0 <= t <= 1 for t in waits), waits
    bench.stop_at = time.monotonic() - 1
    assert bench.thinking(player) == bench.arrival(player) == 0
