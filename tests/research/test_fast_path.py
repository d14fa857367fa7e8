"""The engine's simulation fast path (State.legal / apply_legal / apply_sample): it applies
only actions the rules have just listed, and gives the very games the checked path gives."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE
from parlour.games.dice.state import _cumulative


def _fast_game(name: str, seed: int, **options: object) -> parlour.State:
    game = parlour.load(name, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_sample(rng)
        else:
            state.apply_legal(rng.randrange(len(state.legal())))
    return state


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("ten-thousand", {"target": 2000}),
        ("greedy", {"target": 2000}),
        ("rummy", {"ending_score": 50, "max_rounds": 3}),
    ],
)
def test_fast_games_replay_through_the_checked_path(name: str, options: dict[str, object]) -> None:
    for seed in range(3):
        fast = _fast_game(name, seed, **options)
        checked = fast.game.new_initial_state()
        for player, action in fast.history:
            checked.apply(action, player=player)  # every event passes every check
        assert checked == fast
        assert fast.game.state_from_json(fast.to_json()) == fast


def test_apply_legal_needs_a_fresh_listing() -> None:
    state = parlour.load("rummy").new_initial_state()
    state.apply(state.sample_chance(random.Random(1)))
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(0)  # nothing listed yet
    state.legal()
    state.apply_legal(0)  # draw from the stock
    before = state.to_json()
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(0)  # the listing was of the position before the draw
    listed = state.legal()
    for bad in (len(listed), -1, True, 0.0):
        with pytest.raises(IllegalMove):
            state.apply_legal(bad)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_apply_sample_only_at_chance_nodes() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    state.apply_sample(random.Random(0))
    with pytest.raises(IllegalMove, match="not a chance node"):
        state.apply_sample(random.Random(0))
    assert len(state.history) == 1 and state.history[0][0] == CHANCE


def test_the_fast_roll_has_the_exact_probabilities() -> None:
    for n in range(1, 10):
        rolls, cum = _cumulative(n)
        exact = roll_outcomes(n)
        assert [r.dice for r in rolls] == [d for d, _ in exact]
        total = Fraction(0)
        for (_, p), c in zip(exact, cum, strict=True):
            total += p
            assert c == pytest.approx(float(total), abs=1e-12)
        assert cum[-1] == pytest.approx(1.0, abs=1e-12)


def test_fast_rolls_of_one_die_are_uniform() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    state.to_roll = 1
    rng = random.Random(5)
    counts = [0] * 6
    for _ in range(60_000):
        counts[state.draw_chance(rng).dice[0] - 1] += 1
    assert all(abs(c - 10_000) < 5 * 91 for c in counts)  # within 5 standard deviations
