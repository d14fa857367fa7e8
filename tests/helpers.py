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


_handed_out: set[int] = set()


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on now, never the same twice in one test
    process (the kernel picks it from its ephemeral range, so pytest-xdist workers, which
    each draw their own, do not collide). For every server a test starts."""
    import socket

    while True:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port not in _handed_out:
            _handed_out.add(port)
            return port
