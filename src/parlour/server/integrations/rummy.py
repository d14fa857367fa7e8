"""Rummy on the server: what a preview may not show.

The deal is Rummy's one chance node: it shuffles the whole deck, so the stock's order is in
the state from then on (``parlour.games.rummy.state``). A preview of ``draw stock`` applied
to a copy of the state would show the card on top of the stock before the seat draws it,
and the seat could then take the discard instead; so that preview says only that the draw
is legal. A move that ends the round (going out, or the discard that empties the stock)
scores every hand and shows them in the round's summary; whether the game ends there, and
every score it changes, hangs on the hidden hands, so that preview too says only that the
move is legal and ends the round.
"""

from __future__ import annotations

from typing import Any

from parlour.engine.state import State
from parlour.games.rummy.notation import DRAW_STOCK
from parlour.games.rummy.state import RummyState
from parlour.server.hooks import GameHooks, register_hooks


def preview_hidden(before: State, action: Any, seat: int, after: State) -> str | None:
    """The reason a draw from the stock or a move that ends the round is not previewed,
    ``None`` for any other action."""
    if action == DRAW_STOCK:
        return "the stock's top card stays hidden until you draw it"
    assert isinstance(before, RummyState) and isinstance(after, RummyState)
    if len(after.round_scores) > len(before.round_scores) and after.last_round is not None:
        ended = after.last_round
        mover = "going out" if ended["ended"] == "out" else "this move"
        return f"{mover} ends the round: every hand is shown once you do"
    return None


register_hooks("rummy", GameHooks(preview_hides=preview_hidden))
