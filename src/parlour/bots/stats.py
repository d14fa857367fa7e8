"""Small statistics for arenas: win rates with 95% Wilson score intervals."""

from __future__ import annotations

import math


def wilson_interval(wins: float, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval (low, high) for *wins* out of *games* (fractions 0..1).

    Shared wins may count as fractions. ``(0.0, 1.0)`` when there are no games.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 6)[0], wilson_interval(6, 6)[1]
    (0.0, 1.0)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)  # exact at the ends, where rounding
    high = 1.0 if wins >= games else min(1.0, centre + half)  # could leave p outside
    return (low, high)


def games_for_margin(margin: float, p: float = 0.5, z: float = 1.959963984540054) -> int:
    """Games needed for a 95% interval of +/- *margin* around a rate near *p*.

    >>> games_for_margin(0.02)
    2401
    """
    return math.ceil(z * z * p * (1 - p) / (margin * margin))
