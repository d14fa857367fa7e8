"""Crossword tiles: the 98 letters, their values, racks and the bag as multisets.

Source: the issue's tile set (no blanks; ``docs/rules/crossword.md#tiles``). A rack is a ``str``
of letters in the order the player keeps them; the bag and the covered tiles are multisets,
written as sorted ``str`` (there is no bag order to leak).

>>> sum(TILE_COUNTS.values()), TILE_VALUES["Q"], rack_value("QUACK")
(98, 10, 20)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The 26 tile letters, A to Z."""

TILE_COUNTS: dict[str, int] = dict(
    zip(
        LETTERS,
        (9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1),
        strict=True,
    )
)
"""How many tiles of each letter the game has (98 in all)."""

TILE_VALUES: dict[str, int] = dict(
    zip(
        LETTERS,
        (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10),
        strict=True,
    )
)
"""Points for each letter (shown in the tile's corner)."""

RACK_SIZE = 7
"""Tiles on a full rack."""
BINGO_BONUS = 50
"""Points for placing all 7 tiles of a full rack in one play (manual: "SCORING")."""
EXCHANGE_MIN_BAG = 7
"""An exchange needs at least this many tiles in the bag."""

FULL_BAG = "".join(letter * count for letter, count in TILE_COUNTS.items())
"""All 98 tiles as a sorted string: the bag before the first draw."""


def rack_value(tiles: str) -> int:
    """The sum of the tile values of *tiles* (points).

    >>> rack_value("ZAX")
    19
    """
    return sum(TILE_VALUES[t] for t in tiles)


def sorted_tiles(tiles: str) -> str:
    """*tiles* as a sorted multiset string."""
    return "".join(sorted(tiles))


def take(tiles: str, need: str) -> str | None:
    """*tiles* with the letters of *need* removed (each once per occurrence), keeping the
    order of the rest; ``None`` if *tiles* does not hold them all.

    >>> take("QUICKLY", "KU"), take("QUICK", "AA")
    ('QICLY', None)
    """
    rest = list(tiles)
    for letter in need:
        try:
            rest.remove(letter)
        except ValueError:
            return None
    return "".join(rest)


def add(bag: str, tiles: str) -> str:
    """The sorted multiset *bag* with *tiles* added."""
    return sorted_tiles(bag + tiles)


def sub_multisets(tiles: str) -> list[str]:
    """Every different non-empty multiset of tiles from *tiles*, as sorted strings.

    >>> sub_multisets("ABA")
    ['A', 'AA', 'B', 'AB', 'AAB']
    """
    counts = sorted(Counter(tiles).items())
    found = [""]
    for letter, count in counts:
        found = [part + letter * n for n in range(count + 1) for part in found]
    return [part for part in found if part]


def is_letters(text: str) -> bool:
    """True if *text* is non-empty and only tile letters A-Z (upper case)."""
    return bool(text) and all("A" <= c <= "Z" for c in text)


# --- draws from the bag (chance) ---------------------------------------------------------


def count_draws(bag: str, k: int, limit: int | None = None) -> int:
    """How many different multisets of *k* tiles can be drawn from *bag*.

    Counting stops early once it passes *limit* (the result is then ``limit + 1``).

    >>> count_draws("AAB", 2), count_draws(FULL_BAG, 1)
    (2, 26)
    """
    # coefficient of x^k in prod_i (1 + x + ... + x^c_i), computed term by term
    ways = [1] + [0] * k
    for count in Counter(bag).values():
        new = [0] * (k + 1)
        for have, n in enumerate(ways):
            if n:
                for extra in range(min(count, k - have) + 1):
                    new[have + extra] += n
        ways = new
    if limit is not None and ways[k] > limit:
        return limit + 1
    return ways[k]


def draw_probability(bag: str, drawn: str) -> Fraction:
    """The probability of drawing exactly the multiset *drawn* from *bag* (multivariate
    hypergeometric): ``prod C(c_i, d_i) / C(n, k)``.

    >>> draw_probability("AAB", "AB")
    Fraction(2, 3)
    """
    have = Counter(bag)
    ways = 1
    for letter, n in Counter(drawn).items():
        ways *= math.comb(have[letter], n)
    return Fraction(ways, math.comb(len(bag), len(drawn)))


def draws(bag: str, k: int) -> Iterator[str]:
    """Every multiset of *k* tiles drawable from *bag*, each once, as sorted strings."""
    counts = sorted(Counter(bag).items())

    def rec(index: int, left: int, prefix: str) -> Iterator[str]:
        if left == 0:
            yield prefix
            return
        if index == len(counts):
            return
        letter, count = counts[index]
        for n in range(min(count, left), -1, -1):
            yield from rec(index + 1, left - n, prefix + letter * n)

    for drawn in rec(0, k, ""):
        yield sorted_tiles(drawn)


def sample_draw(bag: str, k: int, rng: random.Random) -> str:
    """Draw *k* tiles uniformly without replacement from *bag* with *rng*; sorted."""
    return sorted_tiles("".join(rng.sample(bag, k)))
