"""Greedy scoring (manual ``001``, "Points Values"; decisions in ``docs/rules/greedy.md``).

- A single 5 is 50 points, a single 1 is 100.
- A set is exactly three of a kind rolled together: three 2s-6s are 100 x face, three 1s are
  1000. One roll may hold several sets, also of one face (six 2s are two sets, 400; nine 1s
  are three sets, 3000). Dice left over outside sets score only as single 1s and 5s.
- Dice from different rolls never combine into a set.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import chain, product

from parlour.engine.chance import Dice
from parlour.games.dice.scoring import Part, Scored, best_of

SINGLE = {1: 100, 5: 50}


def set_points(face: int) -> int:
    """Points for one set of three *face* dice.

    >>> set_points(1), set_points(2), set_points(6)
    (1000, 200, 600)
    """
    if not 1 <= face <= 6:
        raise ValueError(f"no die face {face}")
    return 1000 if face == 1 else 100 * face


@cache
def selection_parts(dice: Dice) -> tuple[Part, ...] | None:
    """The parts of *dice* (sorted) when every die scores, else ``None``.

    Each face makes as many sets of three as it can; the rest must be 1s or 5s.
    """
    if not dice:
        return None
    parts: list[Part] = []
    for face, count in sorted(Counter(dice).items()):
        sets, rest = divmod(count, 3)
        parts.extend(Part(f"three {face}s", (face,) * 3, set_points(face)) for _ in range(sets))
        if rest and face not in SINGLE:
            return None
        parts.extend(Part(f"single {face}", (face,), SINGLE[face]) for _ in range(rest))
    return tuple(parts)


def selection_points(dice: Dice) -> int | None:
    """Points for keeping exactly *dice* (sorted), or ``None`` if a die does not score.

    >>> selection_points((2, 2, 2, 2, 2, 2)), selection_points((1,) * 9)
    (400, 3000)
    >>> selection_points((1, 1, 1, 1)), selection_points((2, 2))
    (1100, None)
    """
    parts = selection_parts(dice)
    return None if parts is None else sum(p.points for p in parts)


@cache
def keep_options(roll: Dice) -> dict[Dice, int]:
    """Every selection a player may keep from *roll* -> its points (empty: no points).

    Built face by face: 1s and 5s may be kept in any number (sets of three, then singles),
    the other faces only in whole sets.

    >>> keep_options((1, 2, 2, 2, 3))
    {(2, 2, 2): 200, (1,): 100, (1, 2, 2, 2): 300}
    """
    per_face: list[list[tuple[Dice, int]]] = []
    for face, count in sorted(Counter(roll).items()):
        takes = range(count + 1) if face in SINGLE else range(0, count + 1, 3)
        per_face.append([((face,) * take, _face_points(face, take)) for take in takes])
    table: dict[Dice, int] = {}
    for combo in product(*per_face):
        dice = tuple(chain.from_iterable(d for d, _ in combo))
        if dice:
            table[dice] = sum(p for _, p in combo)
    return table


def _face_points(face: int, take: int) -> int:
    sets, rest = divmod(take, 3)
    return sets * set_points(face) + rest * SINGLE.get(face, 0)


def best_score(dice: Dice) -> Scored:
    """The best score for *dice* and its breakdown, leaving non-scoring dice aside.

    >>> best_score((1, 1, 1, 1, 5, 5, 2, 2, 2)).points
    1400
    """
    roll = tuple(sorted(dice))
    return best_of(roll, keep_options(roll), selection_parts)
