"""Ten-Thousand scoring (manual: "Which dice are useable", "Value of groups", "Doubles",
"Straights"; decisions in ``docs/rules/ten-thousand.md``).

- A single 1 is 100 points, a single 5 is 50.
- Three of a kind is 100 x face (three 1s are 1000); each die beyond three doubles the group:
  four 4s 800, five 4s 1600, six 1s 8000. Groups count only within one roll.
- On the first roll of a turn (with the ``specials_any_roll`` option: on any roll of six dice),
  three pairs of three different values are 1000 and a straight 1-2-3-4-5-6 is 1500. Four of a
  kind plus a pair is not three pairs.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from parlour.engine.chance import Dice, sub_multisets
from parlour.games.dice.scoring import Part, Scored, best_of

SINGLE = {1: 100, 5: 50}
THREE_PAIRS = 1000
STRAIGHT = 1500
_COUNT_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


def group_points(face: int, count: int) -> int:
    """Points for *count* (3-6) dice of *face* rolled together.

    >>> group_points(4, 3), group_points(4, 4), group_points(4, 5), group_points(1, 6)
    (400, 800, 1600, 8000)
    """
    if not 3 <= count <= 6 or not 1 <= face <= 6:
        raise ValueError(f"no group of {count} {face}s")
    base = 1000 if face == 1 else 100 * face
    return base << (count - 3)


def _plain_parts(counts: Counter[int]) -> tuple[Part, ...] | None:
    """Parts for groups and single 1s/5s using every die, or None if some die cannot score."""
    parts: list[Part] = []
    for face in sorted(counts):
        count = counts[face]
        if count >= 3:
            word = _COUNT_WORDS[count]
            parts.append(Part(f"{word} {face}s", (face,) * count, group_points(face, count)))
        elif face in SINGLE:
            parts.extend(Part(f"single {face}", (face,), SINGLE[face]) for _ in range(count))
        elif count:
            return None
    return tuple(parts)


@cache
def selection_parts(dice: Dice, *, specials: bool) -> tuple[Part, ...] | None:
    """The best parts that use *every* die of *dice*, or ``None`` if some die does not score.

    ``specials`` allows three pairs and the straight (six dice only).
    """
    counts = Counter(dice)
    options: list[tuple[Part, ...]] = []
    plain = _plain_parts(counts)
    if plain is not None and dice:
        options.append(plain)
    if specials and len(dice) == 6:
        if len(counts) == 6:
            options.append((Part("straight", dice, STRAIGHT),))
        elif len(counts) == 3 and all(c == 2 for c in counts.values()):
            options.append((Part("three pairs", dice, THREE_PAIRS),))
    if not options:
        return None
    return max(options, key=lambda parts: sum(p.points for p in parts))


def selection_points(dice: Dice, *, specials: bool) -> int | None:
    """Points for setting aside exactly *dice* (sorted), or ``None`` if a die does not score.

    >>> selection_points((1, 1, 4, 4, 4), specials=False)
    600
    >>> selection_points((2, 2, 3, 3, 4, 4), specials=True), selection_points((2, 3), specials=True)
    (1000, None)
    """
    parts = selection_parts(dice, specials=specials)
    return None if parts is None else sum(p.points for p in parts)


@cache
def keep_options(roll: Dice, *, specials: bool) -> dict[Dice, int]:
    """Every selection a player may set aside from *roll* -> its points (empty: a farkle)."""
    table = {}
    for sub in sub_multisets(roll):
        points = selection_points(sub, specials=specials)
        if points is not None:
            table[sub] = points
    return table


def best_score(dice: Dice, *, first_roll: bool) -> Scored:
    """The best score for *dice* and its breakdown, leaving non-scoring dice aside.

    ``first_roll`` allows three pairs and the straight.

    >>> best_score((1, 1, 1, 1, 5, 5), first_roll=True).points
    2100
    >>> best_score((2, 3, 4, 6, 6, 2), first_roll=False).points
    0
    """
    roll = tuple(sorted(dice))
    return best_of(
        roll,
        keep_options(roll, specials=first_roll),
        lambda sub: selection_parts(sub, specials=first_roll),
    )
