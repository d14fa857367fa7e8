"""The dice games' own ``returns`` (read from the scores) against the engine's, built from
``result``: equal at the end of random games, quits and shared wins included."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.engine.errors import IllegalMove
from parlour.engine.state import State
from parlour.games.dice.notation import Quit


@pytest.mark.parametrize(
    ("game", "options"),
    [("greedy", {"target": 1500, "players": 3}), ("ten-thousand", {"target": 1500, "players": 4})],
)
def test_returns_are_the_engines(game: str, options: dict[str, int]) -> None:
    rng = random.Random(4)
    quits = 0
    for _ in range(300):
        state = parlour.load(game, **options).new_initial_state()
        with pytest.raises(IllegalMove, match="not over"):
            state.returns()
        while not state.is_terminal():
            if state.current_player() < 0:
                state.apply(state.sample_chance(rng))
            else:
                actions = state.legal_actions()
                keeps = [a for a in actions if not isinstance(a, Quit)]
                state.apply(rng.choice(actions if rng.random() < 0.02 else keeps))
        quits += state.quitter is not None  # type: ignore[attr-defined]
        assert state.returns() == State.returns(state)
    assert game == "ten-thousand" or quits > 0  # quits were among them


def test_a_shared_win_and_a_quit_by_hand() -> None:
    state = parlour.load("greedy", players=3).new_initial_state()
    state.scores = [400, 700, 700]  # seats 1 and 2 level at the top
    state.over = True
    assert state.returns() == [0.0, 0.5, 0.5]
    state.quitter = 2  # type: ignore[attr-defined]  # seat 2 quit: seat 1 alone at the top
    assert state.returns() == [0.0, 1.0, 0.0]
