"""Rummy scoring (manual: "Scoring", "Winning"; ``docs/rules/rummy.md#scoring``) and the
best split of a hand into melds.

- Card values: ace 15, jack/queen/king 10, every other card 5 (a ten is 5, as the manual says).
- A round scores, for each player, the points of the cards they put on the table (laid down
  or laid off, also onto another player's meld) minus the points of the cards left in their
  hand; it may be negative.

:func:`best_split` finds the split of some cards into melds that leaves the fewest points
unmelded, exactly (a search over meld partitions, memoised on the cards left), not by a
greedy longest-run-first pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from parlour.games.rummy.cards import Card, Mask, cards_of
from parlour.games.rummy.melds import MELDS_WITH, run_order

ACE_POINTS = 15
FACE_POINTS = 10
PIP_POINTS = 5

POINTS: tuple[int, ...] = tuple(
    ACE_POINTS if c % 13 == 0 else FACE_POINTS if c % 13 >= 10 else PIP_POINTS for c in range(52)
)
"""The value of each card in points, indexed by card."""


def card_points(c: Card) -> int:
    """The value of card *c*: ace 15, J/Q/K 10, others 5 (points).

    >>> from parlour.games.rummy.cards import parse_card
    >>> [card_points(parse_card(t)) for t in ("AS", "KH", "10D", "2C")]
    [15, 10, 5, 5]
    """
    return POINTS[c]


_ACES: Mask = sum(1 << c for c in range(52) if POINTS[c] == ACE_POINTS)
_FACES: Mask = sum(1 << c for c in range(52) if POINTS[c] == FACE_POINTS)


def mask_points(cards: Mask) -> int:
    """The total value of the cards in *cards* (a mask; points): counted by kind of card,
    ``5 * cards + 10 * aces + 5 * faces`` (ace 15, J/Q/K 10, others 5).

    >>> from parlour.games.rummy.cards import mask_of, parse_cards
    >>> mask_points(mask_of(parse_cards(["AS", "KH", "10D", "2C"])))
    35
    """
    return (
        PIP_POINTS * cards.bit_count()
        + (ACE_POINTS - PIP_POINTS) * (cards & _ACES).bit_count()
        + (FACE_POINTS - PIP_POINTS) * (cards & _FACES).bit_count()
    )


@dataclass(frozen=True)
class Split:
    """A split of some cards: ``melds`` (each a list of cards in display order), the
    ``deadwood`` left unmelded (cards, deck order) and its ``points``."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int


@lru_cache(maxsize=1 << 18)
def _search(cards: Mask) -> int:
    """The fewest deadwood points of any split of *cards*.

    The lowest card is either deadwood or in one of the melds that contain it; every such
    choice is tried, recursively on the cards left (memoised on them).
    """
    if not cards:
        return 0
    low = cards & -cards
    c = low.bit_length() - 1
    best = _search(cards ^ low) + POINTS[c]
    for meld in MELDS_WITH[c]:
        if meld & cards == meld:
            points = _search(cards & ~meld)
            if points < best:
                best = points
                if not points:
                    break
    return best


def deadwood_points(cards: Mask) -> int:
    """The fewest points that any split of *cards* into melds leaves unmelded."""
    return _search(cards)


def best_melds(cards: Mask) -> list[Mask]:
    """The melds (masks) of one best split of *cards*, recovered by replaying the search."""
    melds: list[Mask] = []
    target = _search(cards)
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        if _search(cards ^ low) + POINTS[c] == target:
            target -= POINTS[c]
            cards ^= low
            continue
        for meld in MELDS_WITH[c]:
            if meld & cards == meld and _search(cards & ~meld) == target:
                melds.append(meld)
                cards &= ~meld
                break
        else:  # pragma: no cover - the search guarantees one of the branches
            raise AssertionError("best split not found")
    return melds


def best_split(cards: Mask) -> Split:
    """The split of *cards* into melds that leaves the fewest points unmelded.

    Among splits with equal deadwood points, one is returned (the search prefers leaving a
    low card unmelded first).

    >>> from parlour.games.rummy.cards import parse_cards, mask_of, cards_text
    >>> split = best_split(mask_of(parse_cards("3S 4S 5S 6S 7S 6H 6D".split())))
    >>> [" ".join(cards_text(m).split()) for m in split.melds], cards_text(split.deadwood)
    (['3S 4S 5S', '6S 6H 6D'], '7S')
    >>> best_split(mask_of(parse_cards("4H 5H 6H 7H 7C 7D".split()))).points
    0
    """
    melds = best_melds(cards)
    melded = 0
    for m in melds:
        melded |= m
    deadwood = tuple(cards_of(cards & ~melded))
    ordered = sorted((tuple(run_order(m)) for m in melds), key=lambda m: (m[0] // 13, m[0] % 13))
    return Split(tuple(ordered), deadwood, sum(POINTS[c] for c in deadwood))
