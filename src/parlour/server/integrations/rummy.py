"""Rummy on the server: what a preview may not show.

The deal is Rummy's one chance node: it shuffles the whole deck, so the stock's order is in
the state from then on (``parlour.games.rummy.rules``). A preview of ``draw stock`` applied
to a copy of the state would show the card on top of the stock before the seat draws it,
and the seat could then take the discard instead; so that preview says only that the draw
is legal.
"""

from __future__ import annotations

from typing import Any

from parlour.engine.state import State
from parlour.games.rummy.notation import DRAW_STOCK
from parlour.server.hooks import GameHooks, register_hooks


def stock_draw_hidden(state: State, action: Any, seat: int) -> str | None:
    """The reason a draw from the stock is not previewed, ``None`` for any other action."""
    if action == DRAW_STOCK:
        return "the stock's top card stays hidden until you draw it"
    return None


register_hooks("rummy", GameHooks(preview_hides=stock_draw_hidden))
