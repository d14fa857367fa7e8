"""The pyspiel bridge tool's trivial game is a sound pyspiel game, and both of its loops play
whole games of it."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from parlour_tools import pyspiel_bridge  # noqa: E402


@pytest.fixture(scope="module")
def game() -> object:
    if "python_trivial" not in pyspiel.registered_names():
        pyspiel.register_game(pyspiel_bridge._TYPE, pyspiel_bridge.TrivialGame)
    return pyspiel.load_game("python_trivial")


def test_the_trivial_game_passes_openspiels_random_sim_test(game: object) -> None:
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    assert state.legal_actions() == [0, 1, 2] and state.current_player() == 0
    state.apply_action(2)
    assert state.current_player() == 1 and state.history() == [2]


def test_both_loops_play_whole_games(game: object) -> None:
    assert pyspiel_bridge.through_pyspiel(game, random.Random(1), 3) == 3 * 40
    assert pyspiel_bridge.direct(game, random.Random(1), 3) == 3 * 40


def test_main_prints_the_bridge(capsys: pytest.CaptureFixture[str]) -> None:
    pyspiel_bridge.main(["2"])
    out = capsys.readouterr().out
    assert "the bridge" in out and "Ten-Thousand through parlour's checked engine" in out
    assert "Ten-Thousand through parlour's pyspiel game" in out


def test_parlours_direct_loop_plays_the_games_pyspiel_plays() -> None:
    # the same draws give the same games (the same decisions, as many numbers drawn), so
    # the two loops differ only by the bridge
    from parlour.research.bench import pyspiel_decisions
    from parlour.research.openspiel import load_game

    game = load_game("ten-thousand", target=1000)
    for seed in (1, 2, 3):
        via, own = random.Random(seed), random.Random(seed)
        assert pyspiel_bridge.parlour_direct(game, own) == pyspiel_decisions(game, via)
        assert via.random() == own.random()  # each loop drew as many numbers
