"""The legal moves of a Rummy hand after the draw, listed fast (``docs/rules/rummy.md``).

The listing order is the rules' own (:meth:`.state.RummyState.legal_actions`): the runs that
may be melded (suit by suit, each suit's runs in :func:`.melds.runs_in_pattern` order), the
sets, the lay-offs (meld by meld, low card first), then the discards in card order. Most hands
of a game have no meld and nothing to lay off: their listing is the discards alone, found by
four look-ups (one per suit's 13-bit pattern, cached for the four suits at once).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.rummy.cards import Card, Mask, cards_of
from parlour.games.rummy.melds import MELD_KIND, TableMeld, runs_in_pattern, sets_in
from parlour.games.rummy.notation import DISCARDS, Discard, LayOff, Meld, RummyAction

MELD_ACTIONS: dict[Mask, Meld] = {m: Meld(m) for m in MELD_KIND}
"""The one :class:`Meld` action of each set and run of the deck."""

SuitEntry = tuple[tuple[Meld, ...], tuple[Discard, ...]]

_SUIT_ACTIONS: dict[int, dict[int, SuitEntry]] = {shift: {0: ((), ())} for shift in (0, 13, 26, 39)}
SPADES, HEARTS, DIAMONDS, CLUBS = (_SUIT_ACTIONS[shift] for shift in (0, 13, 26, 39))
"""Each suit's cache: a 13-bit pattern (bit 0 the ace) -> its runs and its discards, filled
by :func:`suit_entry` (read with ``SPADES.get(pattern) or suit_entry(0, pattern)``)."""


def suit_entry(shift: int, pattern: int) -> SuitEntry:
    """The runs (as :class:`Meld` actions) and the discards (in card order) within the
    13-bit *pattern* of the suit at bit *shift* (0, 13, 26 or 39), cached for the four suits
    at once: a pattern met in one suit is often met in another."""
    runs = runs_in_pattern(pattern)
    ranks = tuple(cards_of(pattern))
    for at, table in _SUIT_ACTIONS.items():
        table[pattern] = (
            tuple(MELD_ACTIONS[r << at] for r in runs),
            tuple(DISCARDS[c + at] for c in ranks),
        )
    return _SUIT_ACTIONS[shift][pattern]


def play_actions(
    hand: Mask, taken: Card | None, must_discard: bool, table: Sequence[TableMeld]
) -> list[RummyAction]:
    """The legal moves after the draw of the seat holding *hand* (a 52-bit mask), *taken*
    the card it took from the discard pile this turn (``None``: it drew from the stock),
    under option *must_discard*, with *table* the melds on the table: a new list, in the
    order of the module docstring. A meld or lay-off may not leave the hand empty under
    *must_discard*, nor leave just *taken* (which may not be discarded this turn).

    :meth:`.state.RummyState.legal` has this function's first half inlined (the usual hand)."""
    a = hand & 0x1FFF
    b = hand >> 13 & 0x1FFF
    c = hand >> 26 & 0x1FFF
    d = hand >> 39
    ea = SPADES.get(a) or suit_entry(0, a)
    eb = HEARTS.get(b) or suit_entry(13, b)
    ec = DIAMONDS.get(c) or suit_entry(26, c)
    ed = CLUBS.get(d) or suit_entry(39, d)
    discards: list[RummyAction] = [*ea[1], *eb[1], *ec[1], *ed[1]]
    if taken is not None and hand >> taken & 1 and hand != 1 << taken:
        del discards[(hand & ((1 << taken) - 1)).bit_count()]  # in card order
    ab = a & b
    cd = c & d
    threes = ab & (c | d) | cd & (a | b)  # the ranks held three or four times
    if ea[0] or eb[0] or ec[0] or ed[0] or threes or table:
        runs = ea[0] + eb[0] + ec[0] + ed[0]
        return with_melds(hand, taken, must_discard, table, runs, threes, discards)
    return discards


def with_melds(
    hand: Mask,
    taken: Card | None,
    must_discard: bool,
    table: Sequence[TableMeld],
    runs: tuple[Meld, ...],
    threes: int,
    discards: list[RummyAction],
) -> list[RummyAction]:
    """:func:`play_actions` of a hand with its *runs* (all of them, legal or not), the ranks
    it holds three or four times (*threes*, 13 bits) and its legal *discards* found: the
    melds and lay-offs that the rules allow, then the discards (*discards* itself when there
    is no meld and nothing to lay off)."""
    if not runs and not threes:
        fits = 0
        for meld in table:
            fits |= meld.accepts
        if not fits & hand:
            return discards  # nothing to lay off either: the usual hand
    # a meld or lay-off may not leave the hand empty (must_discard) or just the taken card
    stuck = -1 if taken is None else 1 << taken
    actions: list[RummyAction] = []
    for run in runs:
        left = hand & ~run.cards
        if left & (left - 1) or (left != stuck if left else not must_discard):
            actions.append(run)
    if threes:
        for m in sets_in(hand, threes):
            left = hand & ~m
            if left != stuck if left else not must_discard:
                actions.append(MELD_ACTIONS[m])
    for index, meld in enumerate(table):
        fits = meld.accepts & hand
        while fits:
            low = fits & -fits
            fits ^= low
            left = hand ^ low
            if left != stuck if left else not must_discard:
                actions.append(lay_off(low.bit_length() - 1, index))
    actions.extend(discards)
    return actions


_LAY_OFFS: dict[tuple[Card, int], LayOff] = {}


def lay_off(card: Card, target: int) -> LayOff:
    """The one :class:`LayOff` of *card* onto table meld *target* (made once, then shared:
    an action is an immutable value)."""
    action = _LAY_OFFS.get((card, target))
    if action is None:
        action = _LAY_OFFS[card, target] = LayOff(card, target)
    return action
