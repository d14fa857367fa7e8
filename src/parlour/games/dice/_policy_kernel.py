"""The compiled backward induction of :class:`~parlour.games.dice.solver.WinPolicy` (numba).

A computer player that plays to win runs one such induction per turn (``optimal`` every
turn, ``strong`` near the end): numpy's version costs half a dozen array operations per turn
total, each too small to pay for its call (about 1.7 ms a turn for Ten-Thousand), which
made the arenas slow. The compiled loop here does **the same arithmetic in the same order**,
so every value, and so every decision, is bit for bit numpy's: the maximum over a roll's
keeps is exact in any order, products are elementwise, and the sum over a number of dice's
kinds of roll repeats how ``np.add.reduceat`` adds (the segment's first element plus
numpy's pairwise sum of the rest, :func:`pairwise_sum`). The tests compare the two on
every pair of scores they draw, bit for bit; the numpy version stays as the reference
(:func:`~parlour.games.dice.solver.win_values_numpy`) and runs where numba is missing.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def pairwise_sum(a: Any, lo: int, n: int) -> float:
    """The sum of ``a[lo:lo + n]`` added as numpy (1.x and 2.x) adds a contiguous float64
    run in a reduction (``pairwise_sum_DOUBLE`` in numpy's ``loops_utils.h.src``): fewer
    than 8 in order; up to 128 in eight interleaved partial sums, combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the rest in order; more
    split in two at a multiple of 8 near the half."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    if n <= 128:
        r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
        r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
        i = 8
        stop = n - n % 8
        while i < stop:
            r0 += a[lo + i]
            r1 += a[lo + i + 1]
            r2 += a[lo + i + 2]
            r3 += a[lo + i + 3]
            r4 += a[lo + i + 4]
            r5 += a[lo + i + 5]
            r6 += a[lo + i + 6]
            r7 += a[lo + i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += a[lo + i]
            i += 1
        return float(res)
    half = n // 2
    half -= half % 8
    return float(_sum(a, lo, half) + _sum(a, lo + half, n - half))


def win_values(
    u: Any,
    top: int,
    entry: int,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
) -> Any:
    """``value[n, t]`` (n_dice + 1 rows, ``len(u)`` columns): the best chance of winning
    after a keep to turn total *t* (units) with *n* dice left, banking worth ``u[t]``
    (allowed from *entry*), banking forced from *top* (row 0 and the columns from *top* are
    ``u``). The flat arrays are the model's :class:`~parlour.games.dice.solver.Flat`."""
    width = u.shape[0]
    n_groups = groups.shape[0]
    n_options = points.shape[0]
    value = np.empty((n_dice + 1, width))
    for n in range(n_dice + 1):
        for t in range(width):
            value[n, t] = u[t]
    lost = farkle * u[0]
    weighted = np.empty(n_groups)
    for t in range(top - 1, -1, -1):
        for g in range(n_groups):
            o0 = groups[g]
            o1 = groups[g + 1] if g + 1 < n_groups else n_options
            best = value[dice[o0], t + points[o0]]
            for o in range(o0 + 1, o1):
                v = value[dice[o], t + points[o]]
                if v > best:
                    best = v
            weighted[g] = best * probability[g]
        bank = u[t] if t >= entry else -1.0
        for n in range(1, n_dice + 1):
            g0 = kinds[n - 1]
            g1 = kinds[n] if n < n_dice else n_groups
            rolled = weighted[g0] + _sum(weighted, g0 + 1, g1 - g0 - 1)
            rolled = rolled + lost[n - 1]
            value[n, t] = rolled if rolled >= bank else bank
    return value


_sum: Any = pairwise_sum
"""What :func:`win_values` (and :func:`pairwise_sum` itself) calls: :func:`pairwise_sum`,
compiled when numba is there."""
compiled: Any = None
"""The numba-compiled :func:`win_values`, or ``None`` without numba."""
try:
    from numba import njit

    _sum = njit(cache=True, nogil=True)(pairwise_sum)
    compiled = njit(cache=True, nogil=True)(win_values)
except ImportError:  # pragma: no cover - numba is a dependency; numpy's version still works
    pass
