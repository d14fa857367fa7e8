"""A Rummy seat's state rebuilt from what the server sends it (``parlour connect``).

Only the seat's observation is read: its own hand, the table's melds, the discard pile, the
cards known to be in other hands (taken from the pile), the hand sizes, the stock's size,
the scores and the last round's summary. The cards the seat cannot place fill the other
hands (after their known cards) and the stock in a fixed order, lowest card first: they are
placeholders, chosen from nothing but the seat's own view, so the state drawn in the
terminal holds nothing hidden from the seat. The server checks every move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from parlour.engine.state import JSON, Game, State
from parlour.games.rummy.cards import FULL_DECK, Mask, cards_of, mask_of, parse_card
from parlour.games.rummy.melds import TableMeld
from parlour.games.rummy.state import RummyState


def _mask(texts: Sequence[str]) -> Mask:
    return mask_of(parse_card(t) for t in texts)


def rummy_shadow(
    game: Game, seat: int | None, view: JSON, events: Sequence[tuple[int, str]]
) -> State:
    """The seat's state from its observation *view* (see the module docstring)."""
    state = game.new_initial_state()
    assert isinstance(state, RummyState)
    n = state.n
    state.phase = str(view["phase"])
    state.round = int(view["round"])
    state.starter = int(view["starter"])
    state.seat = int(view["seat"])
    state.scores = [int(s) for s in view["scores"]]
    state.round_scores = [list(r) for r in view.get("round_scores", [])]
    state.last_round = view.get("last_round")
    state.discard = [parse_card(c) for c in view.get("discard_pile", [])]
    table = []
    for meld in view.get("table", []):
        cards = tuple(parse_card(c) for c in meld["cards"])
        laid = TableMeld.laid_down(mask_of(cards), 0)
        table.append(dataclasses.replace(laid, cards=cards, owners=tuple(meld["owners"])))
    state.table = table
    state.known = [_mask(k) for k in view.get("known", [[]] * n)]
    mine = _mask(view.get("hand", [])) if seat is not None else 0
    seen = mine | mask_of(state.discard)
    for meld in table:
        seen |= meld.mask
    for known in state.known:
        seen |= known
    pool = list(cards_of(FULL_DECK & ~seen))
    hands: list[Mask] = []
    for s, count in enumerate(view["hand_counts"]):
        if s == seat:
            hands.append(mine)
            continue
        hand = state.known[s]
        extra = int(count) - hand.bit_count()
        hand |= mask_of(pool[:extra])
        del pool[:extra]
        hands.append(hand)
    state.hands = hands
    state.stock = pool[: int(view["stock_count"])]
    taken, drawn = view.get("taken"), view.get("drawn")
    state.taken = parse_card(taken) if taken else None
    state.drawn = parse_card(drawn) if drawn else None
    state.history = []
    return state
