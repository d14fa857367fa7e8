"""Melds: sets and runs, their checks, and melds on the table with owned cards.

Rules (manual: "Game Play"; ``docs/rules/rummy.md#melds``):

- a **set** is 3 or 4 cards of one rank, all of different suits;
- a **run** is 3 or more consecutive cards of one suit. The ace is low in A-2-3 or high in
  Q-K-A, never both: K-A-2 is not a run;
- a card is **laid off** onto a meld on the table (either player's) when it extends a run at
  one end or makes a set of three into four.

Every set and run of the deck is listed once at import (373 of them, plus the 4 whole suits),
so checking or finding melds is a table look-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from parlour.games.rummy.cards import (
    RANKS,
    Card,
    Mask,
    card_text,
    cards_of,
    mask_of,
    rank_of,
    suit_of,
)

SET = "set"
RUN = "run"


def card_at(suit: int, position: int) -> Card:
    """The card at run *position* 1..14 of *suit* (1 and 14 are both the ace)."""
    return suit * 13 + (position - 1) % 13


def _runs_13() -> dict[int, tuple[int, int]]:
    """Every run of one suit as a 13-bit pattern -> its (low, high) positions 1..14."""
    runs: dict[int, tuple[int, int]] = {}
    for low in range(1, 13):
        for high in range(low + 2, 15):
            if low == 1 and high == 14:
                continue  # the ace would be used twice
            pattern = 0
            for p in range(low, high + 1):
                pattern |= 1 << ((p - 1) % 13)
            runs.setdefault(pattern, (low, high))  # the whole suit: ace low
    return runs


RUNS_13: dict[int, tuple[int, int]] = _runs_13()
"""Run patterns within one suit (bit 0 the ace .. bit 12 the king) -> (low, high)."""

MELD_KIND: dict[Mask, str] = {}
"""Every set and run of the deck (as masks) -> ``"set"`` or ``"run"``."""
for _suit in range(4):
    for _pattern in RUNS_13:
        MELD_KIND[_pattern << (13 * _suit)] = RUN
for _rank in range(13):
    _four = sum(1 << (_rank + 13 * s) for s in range(4))
    MELD_KIND[_four] = SET
    for _s in range(4):
        MELD_KIND[_four & ~(1 << (_rank + 13 * _s))] = SET

MELDS_WITH: tuple[tuple[Mask, ...], ...] = tuple(
    tuple(sorted((m for m in MELD_KIND if m >> c & 1), key=lambda m: -m.bit_count()))
    for c in range(52)
)
"""For each card, the melds that contain it (largest first)."""

SUIT_MASK = 0x1FFF


@cache
def runs_in_pattern(pattern: int) -> tuple[int, ...]:
    """The run patterns inside one suit's 13-bit *pattern* (cached: 8192 patterns)."""
    return tuple(r for r in RUNS_13 if r & pattern == r)


def melds_in(hand: Mask) -> list[Mask]:
    """Every set and run that can be made from the cards of *hand* (runs first, then sets).

    >>> from parlour.games.rummy.cards import parse_cards, cards_text
    >>> [cards_text(m) for m in melds_in(mask_of(parse_cards(["4H", "5H", "6H", "7H"])))]
    ['4H 5H 6H', '4H 5H 6H 7H', '5H 6H 7H']
    """
    found: list[Mask] = []
    a = hand & SUIT_MASK
    b = hand >> 13 & SUIT_MASK
    c = hand >> 26 & SUIT_MASK
    d = hand >> 39 & SUIT_MASK
    for shift, pattern in ((0, a), (13, b), (26, c), (39, d)):
        if pattern.bit_count() >= 3:
            found.extend(r << shift for r in runs_in_pattern(pattern))
    found.extend(sets_in(hand, (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)))
    return found


def why_not_meld(cards: Mask) -> str | None:
    """``None`` if *cards* is a set or a run, else the reason it is neither.

    >>> from parlour.games.rummy.cards import parse_cards
    >>> why_not_meld(mask_of(parse_cards(["KS", "AS", "2S"])))
    'AS 2S KS is not a run: the ace is low (A-2-3) or high (Q-K-A), never both (K-A-2 is not a run)'
    """
    if cards in MELD_KIND:
        return None
    listed = list(cards_of(cards))
    text = " ".join(card_text(c) for c in run_order(cards)) if listed else ""
    if len(listed) < 3:
        return f"a meld needs at least 3 cards, not {len(listed)}"
    ranks = {rank_of(c) for c in listed}
    suits = {suit_of(c) for c in listed}
    if len(ranks) == 1:
        return f"{text} is not a set: a set is 3 or 4 cards of one rank, all of different suits"
    if len(suits) == 1:
        pattern = cards >> (13 * suit_of(listed[0])) & SUIT_MASK
        if pattern & 1 and pattern >> 12 & 1 and pattern & 2:
            return (
                f"{text} is not a run: the ace is low (A-2-3) or high (Q-K-A), never both "
                "(K-A-2 is not a run)"
            )
        return f"{text} is not a run: a run is 3 or more consecutive cards of one suit"
    if len(ranks) < len(listed):
        return f"{text} is not a set: a set is cards of one rank, each of a different suit"
    return f"{text} is neither a set (one rank) nor a run (one suit, consecutive)"


def run_positions(cards: Mask) -> tuple[int, int]:
    """(low, high) positions 1..14 of the run *cards* (14: ace high)."""
    suit = (cards.bit_length() - 1) // 13
    return RUNS_13[cards >> (13 * suit) & SUIT_MASK]


def run_order(cards: Mask) -> list[Card]:
    """*cards* in display order: a run from low to high (ace last in Q-K-A), otherwise
    rank then suit."""
    listed = list(cards_of(cards))
    if MELD_KIND.get(cards) == RUN:
        low, high = run_positions(cards)
        suit = suit_of(listed[0])
        return [card_at(suit, p) for p in range(low, high + 1)]
    return sorted(listed, key=lambda c: (c % 13, c // 13))


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its ``kind`` (``"set"``/``"run"``), its ``cards`` in display
    order, each card's owner in ``owners`` (the seat that laid it down or laid it off), its
    ``mask``, and ``accepts``: the cards that may be laid off onto it now."""

    kind: str
    cards: tuple[Card, ...]
    owners: tuple[int, ...]
    mask: Mask
    accepts: Mask

    @staticmethod
    @cache
    def laid_down(cards: Mask, seat: int) -> TableMeld:
        """The meld *cards* (a valid set or run) laid down by *seat* (made once per meld
        and seat, then shared: a table meld is an immutable value)."""
        kind = MELD_KIND[cards]
        order = run_order(cards)
        return TableMeld(kind, tuple(order), (seat,) * len(order), cards, _accepts(kind, cards))

    def lay_off(self, c: Card, seat: int) -> TableMeld:
        """This meld with *c* (one of ``accepts``) laid off by *seat*."""
        mask = self.mask | 1 << c
        if self.kind == RUN and self.cards and c == _below(self.cards[0]):
            cards = (c, *self.cards)
            owners = (seat, *self.owners)
        else:
            cards = (*self.cards, c)
            owners = (*self.owners, seat)
            if self.kind == SET:
                order = sorted(range(len(cards)), key=lambda i: cards[i] // 13)
                cards = tuple(cards[i] for i in order)
                owners = tuple(owners[i] for i in order)
        return TableMeld(self.kind, cards, owners, mask, _accepts(self.kind, mask))

    def points_by_owner(self, seat: int, values: tuple[int, ...]) -> int:
        """Points of the cards *seat* owns in this meld, with card *values*."""
        return sum(values[c] for c, o in zip(self.cards, self.owners, strict=True) if o == seat)

    def text(self) -> str:
        """``'3S 4S 5S'`` in display order."""
        return " ".join(card_text(c) for c in self.cards)

    def to_json(self) -> dict[str, object]:
        """``{"kind", "cards": [...], "owners": [...]}``."""
        return {
            "kind": self.kind,
            "cards": [card_text(c) for c in self.cards],
            "owners": list(self.owners),
        }


def _below(c: Card) -> int:
    """The card one below *c* in a run (-1 below an ace)."""
    return c - 1 if c % 13 else -1


def _accepts(kind: str, cards: Mask) -> Mask:
    if kind == SET:
        if cards.bit_count() == 4:
            return 0
        rank = (cards.bit_length() - 1) % 13
        return mask_of(rank + 13 * s for s in range(4)) & ~cards
    low, high = run_positions(cards)
    suit = (cards.bit_length() - 1) // 13
    accepts = 0
    if low > 1:
        accepts |= 1 << card_at(suit, low - 1)
    if high < 14 and not (low == 1 and high == 13):
        accepts |= 1 << card_at(suit, high + 1)
    return accepts


def describe(cards: Mask) -> str:
    """A short name for a meld: ``'run of spades'``, ``'set of 7s'``."""
    top = cards.bit_length() - 1
    if MELD_KIND.get(cards) == RUN:
        return "run of " + ("spades", "hearts", "diamonds", "clubs")[top // 13]
    return f"set of {RANKS[top % 13]}s"


def sets_in(hand: Mask, threes: int) -> list[Mask]:
    """The sets in *hand*, given the ranks (13-bit) held three or four times: for each such
    rank from the ace up, the four threes of a four (without spades, hearts...) then the
    rank's whole holding."""
    found: list[Mask] = []
    while threes:
        low = threes & -threes
        threes ^= low
        have = hand & (low | low << 13 | low << 26 | low << 39)
        if have.bit_count() == 4:
            found.extend(have & ~(low << (13 * s)) for s in range(4))
        found.append(have)
    return found
