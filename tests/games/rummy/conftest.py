"""Helpers for the Rummy tests: forced deals and scripted moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import parlour
from parlour.engine.state import CHANCE, HOST
from parlour.games.rummy.cards import parse_cards
from parlour.games.rummy.state import RummyState, arrange_deck


def deal(hands: Sequence[str], upcard: str, stock: str = "", **options: Any) -> RummyState:
    """A new game with a forced first deal: *hands* (one text per seat), the *upcard* and
    the top of the stock (first card drawn first)."""
    parsed = [parse_cards(h.split()) for h in hands]
    options.setdefault("hand_size", len(parsed[0]))
    game = parlour.load("rummy", players=len(hands), **options)
    state = game.new_initial_state()
    assert isinstance(state, RummyState)
    state.apply(
        arrange_deck(
            parsed, parse_cards([upcard])[0], parse_cards(stock.split()), starter=state.starter
        ),
        player=CHANCE,
    )
    return state


def act(state: RummyState, *moves: str) -> RummyState:
    """Apply *moves* in notation for the player to move (``host skip`` for the host)."""
    for text in moves:
        if text.startswith("host "):
            state.apply(state.parse_action(text[5:]), player=HOST)
        else:
            state.apply(state.parse_action(text))
    return state
