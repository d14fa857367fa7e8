"""Rolls with equal options share one cached object (``DiceState._options``), and Greedy is
on the plain fast path: nothing may leak between games, options or states. Hand-checked
turns give the same states on the fast path (``legal``/``apply_legal``) and the checked
``apply``; games of different kinds and options played event by event in turns, and clones
played on both sides, stay what the checked path makes of their histories."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.engine.state import CHANCE, State
from parlour.games.dice.notation import Keep, Quit, Roll


def _keep(*dice: int, bank: bool = False) -> Keep:
    return Keep(tuple(dice), bank)


def _both(name: str, steps: list[object], **options: object) -> State:
    """*steps* applied by the checked path and by the fast path; the fast state (equal)."""
    checked = parlour.load(name, **options).new_initial_state()
    fast = checked.game.new_initial_state()
    for step in steps:
        checked.apply(step)
        if isinstance(step, Roll):
            fast.apply(step)
        else:
            listed = list(fast.legal())
            fast.apply_legal(listed.index(step))
        assert fast == checked
    return fast


def test_greedy_bonus_round_on_both_paths() -> None:
    # three sets in one roll of nine: 1000 + 200 + 500; all nine scored: a bonus round
    roll = Roll((1, 1, 1, 2, 2, 2, 5, 5, 5))
    state = _both("greedy", [roll, _keep(1, 1, 1, 2, 2, 2, 5, 5, 5)])
    assert (state.turn_total, state.to_roll, state.bonus_rounds) == (1700, 9, 1)  # type: ignore[attr-defined]
    # the bonus round: a 1 and three 6s (100 + 600) kept, then banked: 2400
    steps = [roll, _keep(1, 1, 1, 2, 2, 2, 5, 5, 5), Roll((1, 2, 3, 3, 4, 4, 6, 6, 6))]
    state = _both("greedy", [*steps, _keep(1, 6, 6, 6, bank=True)])
    assert state.scores == [2400, 0] and state.seat == 1  # type: ignore[attr-defined]
    assert state.bonus_rounds == 0  # type: ignore[attr-defined]
    # ... or a 1 kept and the eight left score nothing: the 1800 at risk is lost
    state = _both("greedy", [*steps, _keep(1), Roll((2, 2, 3, 3, 4, 4, 6, 6))])
    assert state.scores == [0, 0] and state.seat == 1  # type: ignore[attr-defined]
    assert state.last == {  # type: ignore[attr-defined]
        "seat": 0,
        "end": "farkle",
        "points": 1800,
        "roll": [2, 2, 3, 3, 4, 4, 6, 6],
    }


def test_greedy_quit_listed_with_each_roll_and_out_of_turn() -> None:
    state = _both("greedy", [Roll((1, 2, 2, 3, 3, 4, 5, 6, 6))])
    # no straight, no three pairs in Greedy: the 1, the 5, or both
    listed = list(state.legal())
    assert listed[-1] == Quit() and len(listed) == 7
    assert set(listed[:-1]) == {
        Keep(dice, bank) for dice in ((1,), (1, 5), (5,)) for bank in (False, True)
    }
    twin = state.clone()
    state.apply_legal(len(state.legal()) - 1)  # seat 0 quits: seat 1 wins
    assert state.is_terminal() and state.returns() == [0.0, 1.0]
    twin.apply(Quit(), player=1)  # seat 1 quits while seat 0 has the dice
    assert twin.is_terminal() and twin.returns() == [1.0, 0.0]


def test_ten_thousand_three_pairs_and_straight_only_on_the_first_roll() -> None:
    pairs = [Roll((2, 2, 3, 3, 4, 4)), _keep(2, 2, 3, 3, 4, 4)]
    state = _both("ten-thousand", pairs)
    assert (state.turn_total, state.to_roll) == (1000, 6)  # type: ignore[attr-defined]
    state = _both("ten-thousand", [*pairs, Roll((2, 2, 3, 3, 4, 4))])  # hot dice: a farkle
    assert state.seat == 1 and state.last["end"] == "farkle"  # type: ignore[attr-defined]
    state = _both(
        "ten-thousand",
        [*pairs, Roll((2, 2, 3, 3, 4, 4)), _keep(2, 2, 3, 3, 4, 4, bank=True)],
        specials_any_roll=True,
    )
    assert state.scores == [2000, 0]  # type: ignore[attr-defined]
    straight = [Roll((1, 2, 3, 4, 5, 6)), _keep(1, 2, 3, 4, 5, 6), Roll((1, 2, 3, 4, 5, 6))]
    state = _both("ten-thousand", [*straight, _keep(1, 5, bank=True)])
    assert state.scores == [1650, 0]  # 1500, then only the 1 and the 5: 150


CONFIGS: list[tuple[str, dict[str, object]]] = [
    ("greedy", {}),
    ("greedy", {"players": 4, "target": 2000}),
    ("ten-thousand", {"players": 1, "target": 1000}),
    ("ten-thousand", {"entry": 350, "players": 3, "target": 2000}),
    ("ten-thousand", {"specials_any_roll": True, "target": 3000}),
]


def _replayed(state: State) -> State:
    """The checked path's state after *state*'s history."""
    checked = state.game.new_initial_state()
    for who, action in state.history:
        checked.apply(action, player=who)
    return checked


def _step(state: State, rng: random.Random) -> bool:
    """One fast-path event (quit rarely); False at the end."""
    if state.is_terminal():
        return False
    if state.current_player() == CHANCE:
        state.apply_sample(rng)
        return True
    listed = state.legal()
    keeps = [i for i, a in enumerate(listed) if not isinstance(a, Quit)]
    state.apply_legal(rng.choice(keeps) if keeps and rng.random() > 0.01 else len(listed) - 1)
    return True


@pytest.mark.parametrize("seed", range(2))
def test_interleaved_games_and_clones_keep_to_their_own_history(seed: int) -> None:
    rng = random.Random(seed)
    states = [parlour.load(name, **options).new_initial_state() for name, options in CONFIGS]
    clones = 0
    for _ in range(2000):  # the games in turns, one event each; a game over starts again
        for index, state in enumerate(states):
            if not _step(state, rng):
                assert state == _replayed(state)
                states[index] = state.game.new_initial_state()
                continue
            if rng.random() < 0.02:  # a clone, then both sides played on
                twin = state.clone()
                for _ in range(30):
                    _step(twin, rng)
                    _step(state, rng)
                assert twin == _replayed(twin)
                clones += 1
            if rng.random() < 0.02:
                assert state == _replayed(state)
    assert clones > 10
    for state in states:
        assert state == _replayed(state)
