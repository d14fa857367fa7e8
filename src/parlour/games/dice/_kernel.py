"""The compiled inner loop of :mod:`parlour.games.dice.optimal` (numba, when installed).

One backward induction per pair of scores, the same arithmetic as the numpy version in
``optimal._turn_values_numpy`` (which the tests compare it with). numpy's vectorised steps
over a diagonal cost 10-15 array operations per turn total, each over every roll option of
every pair: 4.4 times the compiled loop's time for Ten-Thousand at a target of 1,000 (19 s
against 4.4 s), about 400 s of CPU projected for the default game against the compiled
loop's 91 s, which leaves no margin under the 10 minutes asked on a shared two-core machine.
The loop compiled by numba visits each option once per pair and turn total.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _turn_values(
    a: Any,
    z: Any,
    bank: Any,
    allowed: Any,
    tops: Any,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
    first_k: Any,
    first_m: Any,
    first_groups: Any,
    first_p: Any,
    first_farkle: float,
) -> tuple[Any, Any]:
    """(value, slope) of each pair's turn: see ``optimal._turn_values_numpy``; ``bank`` and
    ``allowed`` are (pairs, width), ``tops[i]`` the turn total from which pair *i* banks."""
    pairs = a.shape[0]
    width = bank.shape[1]
    n_groups = groups.shape[0]
    n_options = points.shape[0]
    n_first = first_groups.shape[0]
    phi = np.empty(pairs)
    dphi = np.empty(pairs)
    value = np.empty((n_dice + 1, width))
    slope = np.empty((n_dice + 1, width))
    for i in range(pairs):
        top = tops[i]
        zi = z[i]
        for c in range(top, width):
            for n in range(n_dice + 1):
                value[n, c] = bank[i, c]
                slope[n, c] = 0.0
        for c in range(top - 1, a[i], -1):
            for n in range(1, n_dice + 1):
                g0 = kinds[n - 1]
                g1 = kinds[n] if n < n_dice else n_groups
                acc = farkle[n - 1] * zi
                dacc = farkle[n - 1]
                for g in range(g0, g1):
                    o0 = groups[g]
                    o1 = groups[g + 1] if g + 1 < n_groups else n_options
                    best = -1.0
                    bd = 0.0
                    for o in range(o0, o1):
                        v = value[dice[o], c + points[o]]
                        d = slope[dice[o], c + points[o]]
                        if v > best or (v == best and d > bd):
                            best = v
                            bd = d
                    acc += probability[g] * best
                    dacc += probability[g] * bd
                if allowed[i, c] and bank[i, c] >= acc:
                    value[n, c] = bank[i, c]
                    slope[n, c] = 0.0
                else:
                    value[n, c] = acc
                    slope[n, c] = dacc
        acc = first_farkle * zi
        dacc = first_farkle
        n_first_options = first_k.shape[0]
        for g in range(n_first):
            o0 = first_groups[g]
            o1 = first_groups[g + 1] if g + 1 < n_first else n_first_options
            best = -1.0
            bd = 0.0
            for o in range(o0, o1):
                v = value[first_m[o], a[i] + first_k[o]]
                d = slope[first_m[o], a[i] + first_k[o]]
                if v > best or (v == best and d > bd):
                    best = v
                    bd = d
            acc += first_p[g] * best
            dacc += first_p[g] * bd
        phi[i] = acc
        dphi[i] = dacc
    return phi, dphi


compiled: Any = None
"""The numba-compiled :func:`_turn_values`, or ``None`` without numba."""
try:
    from numba import njit

    compiled = njit(cache=True, nogil=True)(_turn_values)
except ImportError:  # pragma: no cover - numba is a dependency; the numpy path still works
    pass
