"""Pig's encoding for the research adapters (PettingZoo, OpenSpiel, Gymnasium), as plain
data: the spec names this module (``research``) and ``parlour.research`` reads it; nothing
in the game or the platform imports it, and it imports only the engine and Pig.

Numbering (stable across versions; ``docs/research.md``): player action ``0`` is ``roll``,
``1`` is ``hold``; chance outcome ``f - 1`` is ``die f`` (0 is a 1, the pig). The host's
``skip`` is not a player action and has no id.

Observation (length ``2n + 7`` for *n* seats; seats relative to the observer, 0 itself, 1
the next in turn order): ``scores`` (n, / target), ``to_move`` (n, one-hot of the seat whose
turn it is, also while its die rolls; all 0 at the end), ``turn_total`` (1, / target),
``die`` (6, one-hot of the face last rolled this turn; all 0 before the turn's first roll).
"""

from __future__ import annotations

from typing import Any

from parlour.engine.state import Game
from parlour.games.pig.notation import FACES, Die, Hold, Roll
from parlour.games.pig.state import PigState

ACTIONS = (Roll(), Hold())
"""The player actions by id."""

OUTCOMES = tuple(Die(face) for face in FACES)
"""The chance outcomes by id."""


def observation_layout(game: Game) -> list[tuple[str, int]]:
    """The observation's parts and their lengths (see the module docstring)."""
    n = game.num_players
    return [("scores", n), ("to_move", n), ("turn_total", 1), ("die", 6)]


def observation(state: Any, seat: int) -> list[float]:
    """*seat*'s view of a :class:`PigState` as ``2n + 7`` numbers (everything is public)."""
    assert isinstance(state, PigState)
    n = len(state.scores)
    target = float(state.target)
    out = [0.0] * (2 * n + 7)
    for s, points in enumerate(state.scores):
        out[(s - seat) % n] = points / target
    if state.winner is None:
        out[n + (state.seat - seat) % n] = 1.0
    out[2 * n] = state.turn_total / target
    if state.die is not None:
        out[2 * n + state.die] = 1.0
    return out
