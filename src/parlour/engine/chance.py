"""Chance as data: dice rolls as sorted multisets with exact probabilities, and shuffles.

A roll of *n* six-sided dice is a sorted tuple of faces (order does not matter in any game
here), so 6 dice have 462 outcomes rather than 46,656 ordered ones.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import TypeAlias, TypeVar

from parlour.engine.errors import InvalidNotation

Face: TypeAlias = int
"""A die face, 1..6."""
Dice: TypeAlias = tuple[Face, ...]
"""Dice as a sorted tuple of faces."""

FACES = (1, 2, 3, 4, 5, 6)
T = TypeVar("T")


@cache
def roll_outcomes(n: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every roll of *n* dice as a sorted multiset with its exact probability.

    >>> [(d, str(p)) for d, p in roll_outcomes(1)][:2]
    [((1,), '1/6'), ((2,), '1/6')]
    >>> len(roll_outcomes(6)), sum(p for _, p in roll_outcomes(6))
    (462, Fraction(1, 1))
    """
    total = 6**n
    outcomes = []
    for dice in itertools.combinations_with_replacement(FACES, n):
        ways = math.factorial(n)
        for count in Counter(dice).values():
            ways //= math.factorial(count)
        outcomes.append((dice, Fraction(ways, total)))
    return tuple(outcomes)


@cache
def _roll_probability(dice: Dice) -> Fraction:
    return dict(roll_outcomes(len(dice)))[dice]


def roll_probability(dice: Dice) -> Fraction:
    """The probability of rolling the sorted multiset *dice* with that many dice."""
    return _roll_probability(tuple(sorted(dice)))


def sample_roll(n: int, rng: random.Random) -> Dice:
    """Roll *n* fair dice with *rng*; return them sorted."""
    return tuple(sorted(rng.choices(FACES, k=n)))


def parse_dice(text: str | Sequence[str], *, most: int) -> Dice:
    """Parse dice written as ``"1 1 5"``, ``"115"`` or ``["1", "1", "5"]`` into a sorted tuple.

    Raises :class:`InvalidNotation` for a face outside 1..6, other text, no dice, or more than
    *most* dice.

    >>> parse_dice("5 1 1", most=6)
    (1, 1, 5)
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    faces: list[int] = []
    for part in parts:
        chunk = part.strip()
        if not (chunk.isascii() and chunk.isdigit()):
            raise InvalidNotation(f"{part!r} is not a die face: faces are 1 to 6")
        for char in chunk if len(chunk) > 1 else [chunk]:
            face = int(char)
            if not 1 <= face <= 6:
                raise InvalidNotation(f"{face} is not a die face: faces are 1 to 6")
            faces.append(face)
    if not faces:
        raise InvalidNotation("no dice given")
    if len(faces) > most:
        raise InvalidNotation(f"{len(faces)} dice given, at most {most} allowed")
    return tuple(sorted(faces))


def dice_text(dice: Dice) -> str:
    """``(1, 1, 5)`` -> ``"1 1 5"``."""
    return " ".join(map(str, dice))


def is_submultiset(part: Sequence[T], whole: Sequence[T]) -> bool:
    """True if every element of *part* occurs in *whole* at least as often."""
    need = Counter(part)
    have = Counter(whole)
    return all(have[item] >= count for item, count in need.items())


def shuffled(items: Sequence[T], rng: random.Random) -> tuple[T, ...]:
    """A uniformly random permutation of *items*, drawn with *rng*."""
    order = list(items)
    rng.shuffle(order)
    return tuple(order)


def sub_multisets(dice: Dice) -> list[Dice]:
    """Every non-empty sorted sub-multiset of sorted *dice*, each once."""
    counts = sorted(Counter(dice).items())
    found = []
    for takes in itertools.product(*(range(c + 1) for _, c in counts)):
        pairs = zip(counts, takes, strict=True)
        sub = tuple(itertools.chain.from_iterable([f] * t for (f, _), t in pairs))
        if sub:
            found.append(sub)
    return found
