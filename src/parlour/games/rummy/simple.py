"""The simple Rummy player: a baseline written from its description, through the public API
(``docs/rules/rummy.md#computer-players``).

It melds and lays off everything it can at once (the largest meld it sees first), takes the
top discard only when that card makes a meld with cards of its hand, and discards its highest
card (points, then rank) that is in no meld and no two-card start: a pair, or two cards of a
suit that one more card makes a run (ranks at most two apart; the ace plays low and high). It
is not one of the levels people play against (``GameSpec.bot_levels``); the arena accepts it
as ``simple``, and the ``search`` level plays it in its rollouts (so it is written for speed).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.engine.state import State
from parlour.games.rummy.cards import Card, Mask
from parlour.games.rummy.melds import melds_in, runs_in_pattern
from parlour.games.rummy.notation import (
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    Discard,
    LayOff,
    Meld,
    RummyAction,
)
from parlour.games.rummy.scoring import POINTS
from parlour.games.rummy.state import DRAW, RummyState


def _positions(rank: int) -> tuple[int, ...]:
    """Run positions of a rank 0 (ace) .. 12 (king): the ace is both 1 and 14."""
    return (1, 14) if rank == 0 else (rank + 1,)


def _rank_at(position: int) -> int:
    return 0 if position == 14 else position - 1


def _pairs_with(c: Card) -> tuple[Mask, ...]:
    """The two-card masks that make a meld of three with *c* (sets, then runs)."""
    rank, suit = c % 13, c // 13
    others = [rank + 13 * s for s in range(4) if s != suit]
    pairs = [1 << x | 1 << y for i, x in enumerate(others) for y in others[i + 1 :]]
    for p in _positions(rank):
        for low in (p - 2, p - 1, p):
            run = [q for q in range(low, low + 3) if q != p]
            if low >= 1 and low + 2 <= 14:
                pairs.append(sum(1 << (13 * suit + _rank_at(q)) for q in run))
    return tuple(dict.fromkeys(pairs))


def _start_with(c: Card) -> Mask:
    """The cards that make a two-card start with *c*."""
    start = 0
    for pair in _pairs_with(c):
        start |= pair
    return start


PAIRS_WITH: tuple[tuple[Mask, ...], ...] = tuple(_pairs_with(c) for c in range(52))
"""For each card, the pairs of cards that make a meld of three with it."""
START_WITH: tuple[Mask, ...] = tuple(_start_with(c) for c in range(52))
"""For each card, the cards that make a two-card start with it."""


def completes_meld(hand: Mask, c: Card) -> bool:
    """Whether card *c* makes a set or a run together with cards of *hand*.

    >>> from parlour.games.rummy.cards import mask_of, parse_cards, parse_card
    >>> completes_meld(mask_of(parse_cards(["QH", "KH", "2S"])), parse_card("AH"))
    True
    """
    return any(p & hand == p for p in PAIRS_WITH[c])


def in_start(hand: Mask, c: Card) -> bool:
    """Whether card *c* is in a two-card start with another card of *hand*."""
    return bool(hand & START_WITH[c] & ~(1 << c))


def has_meld(hand: Mask) -> bool:
    """Whether *hand* holds a set or a run."""
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c = hand >> 26 & 0x1FFF
    d = hand >> 39 & 0x1FFF
    if (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d):
        return True
    return bool(
        runs_in_pattern(a) or runs_in_pattern(b) or runs_in_pattern(c) or runs_in_pattern(d)
    )


def simple_discard(hand: Mask, choices: list[Discard]) -> Discard:
    """The discard of the simple player among *choices* (discards of cards of *hand*): its
    highest card (points, then rank, then deck order) in no meld and no two-card start; its
    highest card if every card is in one."""
    melded = 0
    if has_meld(hand):
        for m in melds_in(hand):
            melded |= m
    loose = [d for d in choices if not melded >> d.card & 1 and not in_start(hand, d.card)]
    return max(loose or choices, key=lambda d: (POINTS[d.card], d.card % 13, d.card))


def simple_choice(state: RummyState, seat: int) -> RummyAction:
    """The simple player's action for *seat*, the player to move in *state*. Deterministic;
    reads only *seat*'s hand, the table, the top discard and the card taken this turn."""
    hand = state.hands[seat]
    if state.phase == DRAW:
        if state.discard and completes_meld(hand, state.discard[-1]):
            return DRAW_DISCARD
        return DRAW_STOCK
    fits = 0
    for meld in state.table:
        fits |= meld.accepts
    if has_meld(hand) or fits & hand:
        legal = state.legal_actions(seat)
        best: Meld | None = None
        for action in legal:
            if isinstance(action, Meld):
                if best is None or action.cards.bit_count() > best.cards.bit_count():
                    best = action
            elif isinstance(action, LayOff) and best is None:
                return action
        if best is not None:
            return best
        choices = [a for a in legal if isinstance(a, Discard)]
        if not choices:  # must_discard corners: only moves outside the plan are left
            return legal[0]
        return simple_discard(hand, choices)
    taken = state.taken
    allowed = hand if taken is None or hand == 1 << taken else hand & ~(1 << taken)
    return DISCARDS[loose_discard(hand, allowed)]


DISCARD_ORDER: tuple[Card, ...] = tuple(
    sorted(range(52), key=lambda c: (POINTS[c], c % 13, c), reverse=True)
)
"""The cards in the simple player's order of discarding: higher points, then higher rank, then
deck order."""


def starts(hand: Mask) -> Mask:
    """The cards of *hand* in a two-card start with another card of it (:func:`in_start` for
    every card at once, on the bits): a rank held twice or more, or two cards of a suit at
    most two run positions apart (the ace is position 1 and 14)."""
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c = hand >> 26 & 0x1FFF
    d = hand >> 39 & 0x1FFF
    twice = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    found = hand & (twice | twice << 13 | twice << 26 | twice << 39)
    for shift, x in ((0, a), (13, b), (26, c), (39, d)):
        if x & (x - 1):  # two cards of the suit at least
            ext = x | (x & 1) << 13  # bit 13: the ace above the king
            near = ext & (ext << 1 | ext << 2 | ext >> 1 | ext >> 2)
            found |= ((near | near >> 13) & 0x1FFF) << shift
    return found


def loose_discard(hand: Mask, allowed: Mask) -> Card:
    """The simple player's discard from *hand* holding no meld (:func:`has_meld` false): the
    first card of :data:`DISCARD_ORDER` among the *allowed* ones (a mask within *hand*) that is
    in no two-card start, or the first allowed one if all are. The same card as
    :func:`simple_discard` for such a hand, found on the bits (the play-outs' fast path)."""
    pick = allowed & ~starts(hand) or allowed
    for c in DISCARD_ORDER:
        if pick >> c & 1:
            return c
    raise ValueError("no card to discard")


@dataclass
class SimpleBot:
    """The simple player as a :class:`~parlour.bots.base.Bot` (see the module docstring)."""

    name: str = "simple"

    def choose(self, state: State, seat: int, rng: random.Random) -> RummyAction:
        """One legal action for *seat* (the random source is not used)."""
        assert isinstance(state, RummyState)
        return simple_choice(state, seat)
