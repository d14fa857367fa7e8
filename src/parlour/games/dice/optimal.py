"""Win-probability-optimal play of two-player dice races, by value iteration (numpy).

The games: two players take turns; a turn is a :class:`~parlour.games.dice.solver.TurnModel`
(roll, set scoring dice aside, bank or roll on, a farkle loses the turn total), and a player
who banks to the **goal** or more ends the race with a value given by the game (Pig and
Greedy: a win, 1; Ten-Thousand: the chance that the opponent does not pass in the last turn).
Scores and turn totals are in the model's units (50 points in the dice games, 1 in Pig).

``V[a, b]`` is the chance that the player about to start a turn with *a* beats the opponent
with *b* (both below the goal), when both play to win. After a keep that brings the player to
*c* (own score plus turn total) with *n* dice to roll, the value is the best of banking
(``1 - V[b, c]`` below the goal, the game's end value from it up) and rolling on; a farkle is
worth ``1 - V[b, a]``. Every keep adds at least one unit, so the only cycle is the farkle's
swap of the two players at the same sum ``a + b``: the diagonals of equal sum are solved from
the top down, each by Newton's method on the pair ``V[a, b]``, ``V[b, a]`` (the value of a turn
is a convex, piecewise-linear function of the farkle value, so Newton's method is policy
iteration and ends when the policy stops changing), and each step is one backward induction
over *c*, vectorised over every pair of the diagonal and every roll outcome.

Above a turn total the induction does not look: where banking is worth at least
``1 - f_min * (1 - z)`` (``f_min`` the smallest farkle probability, *z* the farkle value), no
way of rolling on can beat it, so the induction starts at the first *c* from which that holds
for every pair of the diagonal, capped at ``goal + beyond`` (banking forced from there; the
solver reports whether the cap was reached).

Pig (one die, a 1 loses the turn total, hold at any time) is such a race: :func:`pig_model`.
Neller and Presser (2004) give the first player's chance with both optimal at a goal of 100:
0.530593 (``tests/games/dice/test_optimal.py`` reproduces it).
"""

from __future__ import annotations

import gzip
import io
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour.games.dice import _kernel
from parlour.games.dice.solver import RollKind, TurnModel

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` (pairs of scores solved) while a race is solved."""

TOLERANCE = 1e-13
"""Newton's method on a diagonal stops when no value moves by more than this."""
MAX_STEPS = 60
"""Newton steps per diagonal at most (a handful are needed)."""


def pig_model(sides: int = 6) -> TurnModel:
    """Pig's turn as a :class:`TurnModel` in units of one point: one die, a 1 loses the turn
    total, any other face *r* adds *r* and the die comes back (one die to roll again)."""
    p = 1.0 / sides
    kind = RollKind(1, p, tuple((p, ((r, 1),)) for r in range(2, sides + 1)))
    return TurnModel(1, kind, {1: kind})


@dataclass(frozen=True)
class RaceTable:
    """The solved race: ``wins[a, b]`` (float array, goal x goal) is the chance that the player
    starting a turn with *a* units beats *b* (both optimal); ``seconds`` the solve time;
    ``capped`` whether some diagonal reached ``goal + beyond`` before banking was provably
    optimal (then the values are those of banking forced from there); ``steps`` the Newton
    steps taken over all diagonals."""

    wins: Any
    goal: int
    seconds: float
    capped: bool
    steps: int = 0

    @property
    def first_player(self) -> float:
        """The first player's chance of winning from the start, both optimal."""
        return float(self.wins[0, 0])


def bank_values(wins: Any, end: Any, b: int, a: int, width: int) -> Any:
    """The value of banking to each *c* in ``0..width-1`` for a player with *a* against *b*:
    ``1 - wins[b, c]`` below the goal, ``end[b, c - goal]`` from it up (the last column
    repeats); cells at or below *a* are unused filler."""
    goal = wins.shape[0]
    out = np.empty(width)
    out[:goal] = 1.0 - wins[b, :goal]
    tail = end[b]
    cols = np.minimum(np.arange(width - goal), len(tail) - 1)
    out[goal:] = tail[cols]
    out[: a + 1] = 0.0
    return out


def solve_race(
    model: TurnModel,
    goal: int,
    end: Any,
    *,
    beyond: int,
    entry: int = 0,
    progress: Progress | None = None,
    kernel: str = "auto",
) -> RaceTable:
    """Solve the race (see the module docstring) and return its :class:`RaceTable`.

    *goal* (units) ends the race when banked; ``end[b, j]`` (array, goal rows) is the banker's
    value of banking to ``goal + j`` against an opponent with *b* (the last column is used
    further up); banking is forced from ``goal + beyond``. A player with 0 may bank only a
    turn total of at least *entry* units. Memory: a few arrays of (n_dice + 1) x (goal +
    beyond + max_keep) x goal floats. *kernel*: ``"numba"`` (the compiled loop of
    :mod:`._kernel`), ``"numpy"`` (vectorised over the diagonal; several times slower) or
    ``"auto"`` (numba when installed). Raises ``ValueError`` for a goal below 1 or an
    unknown or missing kernel, ``ArithmeticError`` if Newton's method does not settle on a
    diagonal within :data:`MAX_STEPS` steps (never seen).
    """
    if goal < 1:
        raise ValueError(f"the goal must be at least 1 unit, not {goal}")
    if kernel not in ("auto", "numba", "numpy"):
        raise ValueError(f"kernel is 'auto', 'numba' or 'numpy', not {kernel!r}")
    if kernel == "numba" and _kernel.compiled is None:
        raise ValueError("kernel 'numba' asked for, but numba is not installed")
    use_numba = kernel != "numpy" and _kernel.compiled is not None
    started = time.perf_counter()
    end = np.asarray(end, dtype=float)
    flat, first = model.flat, model.first
    top_cap = goal + beyond
    width = top_cap + model.max_keep + 1
    f_min = float(flat.farkle.min())
    option_rows = flat.dice * width + flat.points  # + c: the cell after each option
    first_k = np.array([k for _, opts in first.outcomes for k, _ in opts])
    first_m = np.array([m for _, opts in first.outcomes for _, m in opts])
    first_groups = np.cumsum([0] + [len(opts) for _, opts in first.outcomes])[:-1]
    first_p = np.array([p for p, _ in first.outcomes])
    wins = np.zeros((goal, goal))
    capped = False
    steps = 0
    done, total = 0, goal * goal
    for s in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, s - goal + 1), min(s, goal - 1) + 1)
        b = s - a
        pairs = len(a)
        swap = pairs - 1 - np.arange(pairs)  # (b, a) sits opposite (a, b)
        bank = np.stack(
            [bank_values(wins, end, int(bi), int(ai), width) for ai, bi in zip(a, b, strict=True)]
        )
        bank = bank.T.copy()  # bank[c, pair]
        allowed = np.ones((width, pairs), dtype=bool)
        if entry:
            zero = np.flatnonzero(a == 0)
            allowed[:entry, zero] = False  # a == 0: turn total c - 0 below entry
        bank_t, allowed_t = bank.T.copy(), allowed.T.copy()
        # a guess: the diagonal above, shifted (or a coin toss at the top)
        x = wins[a, np.minimum(b + 1, goal - 1)] if s < 2 * goal - 2 else np.full(pairs, 0.5)
        for _ in range(MAX_STEPS):
            z = 1.0 - x[swap]
            tops, reached = _tops(a, z, bank, allowed, f_min, top_cap)
            if use_numba:
                assert _kernel.compiled is not None
                phi, slope = _kernel.compiled(
                    a,
                    z,
                    bank_t,
                    allowed_t,
                    tops,
                    model.n_dice,
                    flat.dice,
                    flat.points,
                    flat.groups,
                    flat.probability,
                    flat.kinds,
                    flat.farkle,
                    first_k,
                    first_m,
                    first_groups,
                    first_p,
                    float(first.farkle),
                )
            else:
                phi, slope = _turn_values_numpy(
                    model,
                    option_rows,
                    width,
                    a,
                    z,
                    bank,
                    allowed,
                    int(tops.max()),
                    (first_k, first_m, first_groups, first_p),
                )
            capped = capped or reached
            r = phi + slope * (1.0 - z)
            new = (r - slope * r[swap]) / (1.0 - slope * slope[swap])
            moved = float(np.max(np.abs(new - x)))
            x = new
            steps += 1
            if moved <= TOLERANCE:
                break
        else:
            raise ArithmeticError(f"Newton's method did not settle on the diagonal {s} ({moved})")
        wins[a, b] = x
        done += pairs
        if progress is not None:
            progress(done, total)
    return RaceTable(wins, goal, time.perf_counter() - started, capped, steps)


def _tops(a: Any, z: Any, bank: Any, allowed: Any, f_min: float, top_cap: int) -> tuple[Any, bool]:
    """Per pair of a diagonal, the turn total *c* from which banking is provably best (worth
    at least ``1 - f_min * (1 - z)`` from there up), at most ``top_cap`` (forced there); and
    whether some pair needed the cap."""
    safe = 1.0 - f_min * (1.0 - z)
    ok = (bank >= safe[None, :]) & allowed
    ok[: int(a.max()) + 1] = False
    tail_ok = np.logical_and.accumulate(ok[::-1], axis=0)[::-1]
    reached = not bool(tail_ok[top_cap].all())
    tail_ok[top_cap:] = True
    tops = np.maximum(np.argmax(tail_ok, axis=0), a + 1)
    return tops.astype(np.int64), reached


def _turn_values_numpy(
    model: TurnModel,
    option_rows: Any,
    width: int,
    a: Any,
    z: Any,
    bank: Any,
    allowed: Any,
    top: int,
    first: tuple[Any, Any, Any, Any],
) -> tuple[Any, Any]:
    """One backward induction for every pair of a diagonal (pairs sorted by *a*, ascending),
    banking from *top* up: the value of each pair's turn with farkle values *z*, and its
    slope in *z* (the chance that the turn ends in a farkle under the optimal policy)."""
    flat = model.flat
    pairs = len(a)
    rows_n = model.n_dice + 1
    value = np.empty((rows_n, width, pairs))
    slope = np.zeros((rows_n, width, pairs))
    value[:, top:, :] = bank[None, top:, :]
    cells = value.reshape(rows_n * width, pairs)
    dcells = slope.reshape(rows_n * width, pairs)
    sizes = np.diff(np.append(flat.groups, len(flat.points)))
    prob = flat.probability[:, None]
    farkle = flat.farkle[:, None]
    lowest = int(a.min()) + 1
    for c in range(top - 1, lowest - 1, -1):
        act = int(np.searchsorted(a, c))  # pairs with a < c
        rows = option_rows + c
        vals = cells[rows, :act]
        best = np.maximum.reduceat(vals, flat.groups, axis=0)
        dv = np.where(vals == np.repeat(best, sizes, axis=0), dcells[rows, :act], -1.0)
        dbest = np.maximum.reduceat(dv, flat.groups, axis=0)
        rolled = np.add.reduceat(best * prob, flat.kinds, axis=0) + farkle * z[None, :act]
        drolled = np.add.reduceat(dbest * prob, flat.kinds, axis=0) + farkle
        here = bank[c, :act]
        take = allowed[c, :act] & (here >= rolled)
        value[1:, c, :act] = np.where(take, here, rolled)
        slope[1:, c, :act] = np.where(take, 0.0, drolled)
    k, m, groups, p = first
    cols = np.arange(pairs)[None, :]
    fr = (m * width + k)[:, None] + a[None, :]
    vals = cells[fr, cols]
    best = np.maximum.reduceat(vals, groups, axis=0)
    fsizes = np.diff(np.append(groups, len(k)))
    dv = np.where(vals == np.repeat(best, fsizes, axis=0), dcells[fr, cols], -1.0)
    dbest = np.maximum.reduceat(dv, groups, axis=0)
    f0 = model.first.farkle
    phi = p @ best + f0 * z
    dphi = p @ dbest + f0
    return phi, dphi


def read_array(raw: bytes, shape: tuple[int, ...]) -> Any | None:
    """An array from *raw* (gzip-compressed ``.npy`` bytes, as :func:`write_table` writes),
    or ``None`` when it is corrupt or not of *shape* (then it is solved again)."""
    try:
        array = np.load(io.BytesIO(gzip.decompress(raw)), allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    return array if array.shape == shape else None


def read_table(raw: bytes, goal: int) -> Any | None:
    """A ``wins`` table from *raw* (:func:`read_array`), or ``None`` when it is corrupt or
    not *goal* x *goal*."""
    return read_array(raw, (goal, goal))


def write_table(path: Path, wins: Any) -> None:
    """Write *wins* gzip-compressed to *path* atomically (a read-only directory is skipped)."""
    buffer = io.BytesIO()
    np.save(buffer, wins, allow_pickle=False)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(gzip.compress(buffer.getvalue(), mtime=0))
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)
