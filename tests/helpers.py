"""Test helpers: play scripted events, play random games."""

from __future__ import annotations

import random

from parlour.engine.state import CHANCE, State


def play(state: State, *moves: str) -> State:
    """Apply *moves* in notation; ``roll ...`` moves are chance outcomes."""
    for text in moves:
        player = CHANCE if text.startswith("roll") else None
        state.apply(state.parse_action(text, player=player), player=player)
    return state


def random_game(state: State, rng: random.Random, max_steps: int = 100_000) -> State:
    """Play *state* to the end with uniformly random legal actions and sampled chance."""
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    raise AssertionError("game did not end")
