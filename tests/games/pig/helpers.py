"""Pig test helpers: scripted positions in notation."""

from __future__ import annotations

from typing import Any

import parlour
from parlour.engine.state import CHANCE, HOST
from parlour.games.pig.state import PigState


def play(state: PigState, *moves: str) -> PigState:
    """Apply *moves* in Pig notation: ``die N`` as chance, ``skip`` as the host, the rest as
    the seat to move (``tests.helpers.play`` reads ``roll`` as chance, which Pig's is not)."""
    for text in moves:
        if text.startswith("die"):
            player = CHANCE
        elif text == "skip":
            player = HOST
        else:
            player = state.current_player()
        state.apply(state.parse_action(text, player=player), player=player)
    return state


def pig(*moves: str, scores: list[int] | None = None, **options: Any) -> PigState:
    """A new game of Pig with *options*, seat scores set to *scores* (boardgame.io style set-up:
    a position without playing the turns to reach it), then *moves* played."""
    state = parlour.load("pig", **options).new_initial_state()
    assert isinstance(state, PigState)
    if scores is not None:
        state.scores = list(scores)
    return play(state, *moves)
