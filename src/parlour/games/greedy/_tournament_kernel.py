"""The compiled loops of :mod:`parlour.games.greedy.tournament` (numba, a dependency already).

- :func:`person_table`: one backward induction of the person's turn for one pair of scores
  (every keep a choice), given the value of banking to each score and the values past the
  target; the value, its slope in the farkle value *z*, and the value of rolling on.
- :func:`person_values`: the same without the slopes, for a move.
- :func:`person_turns`: that induction for every pair of a diagonal, returning the value of
  each pair's turn from its start and its slope in *z* (the chance that the turn ends in a
  farkle under the best policy).
- :func:`computer_turn`: the forward pass of the computer player's fixed policy: where its
  turn ends (a farkle, a bank below the target, or a win at each final score).

A loop per option visits each option once per turn total; numpy's vectorised steps cost
10-15 array operations per turn total (4.4 times slower for the race solver, see
:mod:`parlour.games.dice._kernel`), and the default solve runs 40,000 pairs.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def person_table(
    a: int,
    z: float,
    bank: Any,
    bound: Any,
    dbound: Any,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
) -> tuple[Any, Any, Any, Any]:
    """The person's turn for one pair (units of 50 points throughout).

    ``bank[c]`` (c below the goal, ``len(bank)``) is the value of banking to score *c*;
    ``bound[n, j]`` and ``dbound[n, j]`` the value and its slope in *z* after a keep that
    brings the score to ``goal + j`` with *n* dice left; *z* is the value of a farkle.
    Returns ``(value, slope, rolled, drolled)``, each (n_dice + 1, goal + width of bound):
    ``value[n, c]`` the best after a keep to *c* with *n* dice left (banking or rolling on),
    ``rolled[n, c]`` the value of rolling *n* dice at *c*; only columns above *a* are filled
    below the goal (``rolled[n_dice, a]`` too: the turn's first roll).
    """
    goal = bank.shape[0]
    extra = bound.shape[1]
    width = goal + extra
    n_groups = groups.shape[0]
    n_options = points.shape[0]
    value = np.zeros((n_dice + 1, width))
    slope = np.zeros((n_dice + 1, width))
    rolled = np.zeros((n_dice + 1, width))
    drolled = np.zeros((n_dice + 1, width))
    for j in range(extra):
        for n in range(n_dice + 1):
            value[n, goal + j] = bound[n, j]
            slope[n, goal + j] = dbound[n, j]
    for c in range(goal - 1, a - 1, -1):
        for n in range(1, n_dice + 1):
            if c == a and n != n_dice:
                continue
            g0 = kinds[n - 1]
            g1 = kinds[n] if n < n_dice else n_groups
            acc = farkle[n - 1] * z
            dacc = farkle[n - 1]
            for g in range(g0, g1):
                o0 = groups[g]
                o1 = groups[g + 1] if g + 1 < n_groups else n_options
                best = -1e300
                bd = 0.0
                for o in range(o0, o1):
                    v = value[dice[o], c + points[o]]
                    d = slope[dice[o], c + points[o]]
                    if v > best or (v == best and d > bd):
                        best = v
                        bd = d
                acc += probability[g] * best
                dacc += probability[g] * bd
            rolled[n, c] = acc
            drolled[n, c] = dacc
            if c > a and bank[c] >= acc:
                value[n, c] = bank[c]
                slope[n, c] = 0.0
            else:
                value[n, c] = acc
                slope[n, c] = dacc
    return value, slope, rolled, drolled


def person_values(
    a: int,
    z: float,
    bank: Any,
    bound: Any,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
) -> tuple[Any, Any]:
    """``(value, rolled)`` of :func:`person_table` without the slopes, which a move does not
    need: the same comparisons and sums in the same order, so the same values bit for bit
    (a keep's best value does not depend on which of equal values carries the slope), in
    about half the time (one table read and written instead of two)."""
    goal = bank.shape[0]
    extra = bound.shape[1]
    width = goal + extra
    n_groups = groups.shape[0]
    n_options = points.shape[0]
    value = np.zeros((n_dice + 1, width))
    rolled = np.zeros((n_dice + 1, width))
    for j in range(extra):
        for n in range(n_dice + 1):
            value[n, goal + j] = bound[n, j]
    for c in range(goal - 1, a - 1, -1):
        for n in range(1, n_dice + 1):
            if c == a and n != n_dice:
                continue
            g0 = kinds[n - 1]
            g1 = kinds[n] if n < n_dice else n_groups
            acc = farkle[n - 1] * z
            for g in range(g0, g1):
                o0 = groups[g]
                o1 = groups[g + 1] if g + 1 < n_groups else n_options
                best = -1e300
                for o in range(o0, o1):
                    v = value[dice[o], c + points[o]]
                    if v > best:
                        best = v
                acc += probability[g] * best
            rolled[n, c] = acc
            if c > a and bank[c] >= acc:
                value[n, c] = bank[c]
            else:
                value[n, c] = acc
    return value, rolled


def person_turns(
    a: Any,
    z: Any,
    bank: Any,
    bound: Any,
    dbound: Any,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
) -> tuple[Any, Any, int]:
    """(value, slope in *z*) of each pair's turn from its start (nine dice at its score):
    ``bank`` (pairs, goal), ``bound``/``dbound`` (pairs, n_dice + 1, width) as in
    :func:`person_table`; and the number of cells where the value after a keep drops as the
    score rises (0 proves that keeping fewer points for the same dice never helps)."""
    pairs = a.shape[0]
    phi = np.empty(pairs)
    dphi = np.empty(pairs)
    drops = 0
    for i in range(pairs):
        value, _, rolled, drolled = _table(
            a[i],
            z[i],
            bank[i],
            bound[i],
            dbound[i],
            n_dice,
            dice,
            points,
            groups,
            probability,
            kinds,
            farkle,
        )
        phi[i] = rolled[n_dice, a[i]]
        dphi[i] = drolled[n_dice, a[i]]
        for n in range(1, n_dice + 1):
            for c in range(a[i] + 1, value.shape[1] - 1):
                if value[n, c + 1] < value[n, c]:
                    drops += 1
    return phi, dphi, drops


def computer_turn(
    value: Any,
    bank: Any,
    need: int,
    max_keep: int,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    farkle: Any,
) -> tuple[float, Any, Any]:
    """Where a turn of the computer's fixed policy ends, *need* units short of the target.

    The policy: a keep reaching the target takes the most points and banks (it wins);
    otherwise the option with the greatest ``(value[m, t + k], k, m)`` (the bots' own order:
    value, then points, then dice left), then banks where ``bank[m, t + k]``. Options are the
    most points per number of dice left (the shared solver's model). Returns ``(farkle,
    banked, won)``: the chance of a farkle, ``banked[t]`` of banking *t* units (t < need),
    ``won[j]`` of winning at ``need + j`` units (j <= max_keep).
    """
    n_groups = groups.shape[0]
    n_options = points.shape[0]
    mass = np.zeros((n_dice + 1, need))
    mass[n_dice, 0] = 1.0
    banked = np.zeros(need)
    won = np.zeros(max_keep + 1)
    lost = 0.0
    for t in range(need):
        for n in range(1, n_dice + 1):
            w = mass[n, t]
            if w == 0.0:
                continue
            lost += w * farkle[n - 1]
            g0 = kinds[n - 1]
            g1 = kinds[n] if n < n_dice else n_groups
            for g in range(g0, g1):
                p = w * probability[g]
                o0 = groups[g]
                o1 = groups[g + 1] if g + 1 < n_groups else n_options
                most = 0
                for o in range(o0, o1):
                    if points[o] > most:
                        most = points[o]
                if t + most >= need:
                    won[t + most - need] += p
                    continue
                best_v = -1.0
                best_k = -1
                best_m = -1
                for o in range(o0, o1):
                    k = points[o]
                    m = dice[o]
                    v = value[m, t + k]
                    if (
                        v > best_v
                        or (v == best_v and k > best_k)
                        or (v == best_v and k == best_k and m > best_m)
                    ):
                        best_v, best_k, best_m = v, k, m
                after = t + best_k
                if bank[best_m, after]:
                    banked[after] += p
                else:
                    mass[best_m, after] += p
    return lost, banked, won


_table: Any = person_table
"""What :func:`person_turns` calls: :func:`person_table`, compiled when numba is there."""
compiled_person_table: Any = person_table
compiled_person_values: Any = person_values
compiled_person_turns: Any = person_turns
compiled_computer_turn: Any = computer_turn
try:
    from numba import njit

    _table = compiled_person_table = njit(cache=True, nogil=True)(person_table)
    compiled_person_values = njit(cache=True, nogil=True)(person_values)
    compiled_person_turns = njit(cache=True, nogil=True)(person_turns)
    compiled_computer_turn = njit(cache=True, nogil=True)(computer_turn)
except ImportError:  # pragma: no cover - numba is a dependency; plain Python still works
    pass
