"""Cards: the 52-card deck as small integers, hands as bit masks, and the card notation.

A card is an ``int`` 0..51: ``suit * 13 + rank - 1`` with ranks 1 (ace) to 13 (king) and
suits in the order spades, hearts, diamonds, clubs. A set of cards (a hand, a meld) is a
``Mask``: bit *c* is set when card *c* is in it. Cards of one suit sit in 13 adjacent bits,
ace first, so runs are runs of bits.

Notation (``docs/records.md``, issue "Card notation"): rank ``A``, ``2``-``10``, ``J``,
``Q``, ``K`` (``T`` is also read as 10), then suit ``S``, ``H``, ``D``, ``C`` (the symbols
♠ ♥ ♦ ♣ are also read), e.g. ``10H``, ``QS``, ``AD``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

from parlour.engine.errors import InvalidNotation

Card: TypeAlias = int
"""A card, 0..51 (``suit * 13 + rank - 1``)."""
Mask: TypeAlias = int
"""A set of cards as a 52-bit mask."""

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RED_SUITS = frozenset({1, 2})
DECK: tuple[Card, ...] = tuple(range(52))
FULL_DECK: Mask = (1 << 52) - 1

_RANK_BY_TEXT = {text: index for index, text in enumerate(RANKS, start=1)} | {"T": 10, "1": 1}
_SUIT_BY_TEXT = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
_TEXT = tuple(RANKS[c % 13] + SUITS[c // 13] for c in DECK)
_SYMBOL_TEXT = tuple(RANKS[c % 13] + SUIT_SYMBOLS[c // 13] for c in DECK)


def card(rank: int, suit: int) -> Card:
    """The card of *rank* (1 ace .. 13 king) and *suit* (0 spades, 1 hearts, 2 diamonds,
    3 clubs).

    >>> card_text(card(12, 0))
    'QS'
    """
    return suit * 13 + rank - 1


def rank_of(c: Card) -> int:
    """The rank of *c*: 1 (ace) .. 13 (king)."""
    return c % 13 + 1


def suit_of(c: Card) -> int:
    """The suit of *c*: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
    return c // 13


def card_text(c: Card) -> str:
    """The notation of *c*, e.g. ``'10H'``."""
    return _TEXT[c]


def card_symbol(c: Card) -> str:
    """*c* with its suit symbol, e.g. ``'10♥'`` (for display)."""
    return _SYMBOL_TEXT[c]


def parse_card(text: str) -> Card:
    """Parse one card: ``'10H'``, ``'th'``, ``'Q♠'``.

    Raises :class:`InvalidNotation` naming what is wrong.

    >>> parse_card("th") == parse_card("10H")
    True
    """
    word = text.strip().upper()
    if len(word) < 2:
        raise InvalidNotation(f"{text!r} is not a card: write rank then suit, e.g. 10H, QS, AD")
    rank = _RANK_BY_TEXT.get(word[:-1])
    suit = _SUIT_BY_TEXT.get(word[-1])
    if suit is None:
        raise InvalidNotation(f"{text!r} is not a card: the suit must be S, H, D or C")
    if rank is None:
        raise InvalidNotation(f"{text!r} is not a card: the rank must be A, 2-10, J, Q or K")
    return card(rank, suit)


def parse_cards(words: Iterable[str], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse cards written one per word (commas also separate them), in the order given.

    Raises :class:`InvalidNotation` for an unknown card, or (with *distinct*) a card
    given twice.

    >>> parse_cards(["3S", "4s,5♠"])
    (2, 3, 4)
    """
    cards: list[Card] = []
    for word in words:
        for part in word.replace(",", " ").split():
            c = parse_card(part)
            if distinct and c in cards:
                raise InvalidNotation(f"{card_text(c)} is given twice: there is one deck")
            cards.append(c)
    return tuple(cards)


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask of *cards*."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: Mask) -> Iterator[Card]:
    """The cards in *mask*, lowest first (spades ace first)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_text(cards: Sequence[Card] | Mask) -> str:
    """``'3S 4S 5S'`` for a sequence (in its order) or a mask (in deck order)."""
    seq = cards_of(cards) if isinstance(cards, int) else cards
    return " ".join(_TEXT[c] for c in seq)


def sort_by_rank(cards: Iterable[Card], *, suit_too: bool = True) -> list[Card]:
    """The manual's sort buttons: by rank then suit (``N/S``), or by rank only (``N``,
    keeping the given order among equal ranks)."""
    if suit_too:
        return sorted(cards, key=lambda c: (c % 13, c // 13))
    return sorted(cards, key=lambda c: c % 13)


_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """The 52 cards in a uniformly random order: the very order ``rng.shuffle(list(DECK))``
    gives (the same draws from *rng*: Python's Fisher-Yates shuffle with ``getrandbits``
    spelt out, for a ``random.Random``; any other generator shuffles itself)."""
    order = list(DECK)
    if type(rng) is not random.Random:
        rng.shuffle(order)
        return tuple(order)
    getrandbits = rng.getrandbits
    for i, n, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
