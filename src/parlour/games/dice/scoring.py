"""What both dice games' scorers share: the parts of a score and the best-score search."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from parlour.engine.chance import Dice


@dataclass(frozen=True)
class Part:
    """One scoring part of a selection: a ``label``, its ``dice`` and its ``points``."""

    label: str
    dice: Dice
    points: int


@dataclass(frozen=True)
class Scored:
    """The best way to score some dice: ``points``, the ``parts`` and the ``unscored`` dice."""

    points: int
    parts: tuple[Part, ...]
    unscored: Dice


def best_of(
    roll: Dice,
    table: Mapping[Dice, int],
    parts_of: Callable[[Dice], tuple[Part, ...] | None],
) -> Scored:
    """The best entry of a game's keep *table* for *roll* (most points, then most dice), with
    its parts from *parts_of* and the dice left unscored."""
    if not table:
        return Scored(0, (), roll)
    best = max(table, key=lambda sub: (table[sub], len(sub)))
    parts = parts_of(best)
    assert parts is not None
    left = list(roll)
    for face in best:
        left.remove(face)
    return Scored(table[best], parts, tuple(left))
