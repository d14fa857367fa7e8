"""Three-player Ten-Thousand solved exactly at a small target, to measure the ``optimal``
level's approximation for three or more players (issue 17).

With three or more players ``optimal`` plays the exact two-player policy against the
leading opponent only, and its last turns by passing the leader (a tie half), ignoring
the player who still follows (``docs/rules/ten-thousand.md#the-optimal-player``). Here the
three-player game is solved at a target small enough for a table over three scores
(``python -m parlour_tools.ten_thousand_three --target 500``), and the approximation is
measured against it:

- **Exact play** (an equilibrium): every player, at every decision, maximises their own
  share of the win (a win 1, a tie for the lead shared equally), given that everybody plays
  this way afterwards. The value of a state is the vector of the three players' shares.
  After a player banks to the target or more, the two others each play one last turn in
  seat order: the last one maximises their share against the highest score; the one before
  maximises theirs knowing how the last one will play.
- **The approximation against exact play**: seat 0 plays as ``optimal`` does (the
  two-player table of the same target against the leading opponent; in the last turns,
  passing the leader with a tie worth half), the two others play the exact policy above
  (fixed: they do not adapt to seat 0). Its share of the wins, averaged over the three
  seats it can start from, against the 1/3 that exact play gets on average.

Both are the same backward induction (:func:`turn_vector`): a turn maximises one number
(the mover's criterion) and carries the vector of everybody's shares along the chosen
policy. Scores only grow, so score triples are solved from the highest sum down; the only
cycle is three farkles in a row (the same triple, the next player), solved by iterating
the three turns until nothing moves by more than 1e-13 (best replies can cycle in a game of
three: a triple still moving after 200 sweeps is reported with how much it moved).

**Decisions** (the model, for both sides of the comparison alike): the default rules with
the target given; the player who starts the last turns must bank once their score is
:data:`BEYOND` points past the target (as the two-player solve, which is solved with the
same limit for the comparison); a player in the first of the two last turns must bank once
3,000 points past the score to beat (:data:`LEAD`). Among keeps of equal value the first
listed is taken, and banking is taken when it is worth as much as rolling on.

With two players the same code gives the two-player solve's table (a test checks it to
1e-12), and the approximation is the exact policy.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from parlour.games.dice.solver import UNIT, TurnModel, bank_from
from parlour.games.ten_thousand import optimal
from parlour.games.ten_thousand.solver import TenThousandRules

BEYOND = 3_000
"""Points past the target from which the player who starts the last turns must bank."""
LEAD = 3_000
"""Points past the score to beat from which the first of two last turns must bank."""
TOLERANCE = 1e-13
SWEEPS = 200
"""Sweeps of a triple's three turns at most; a triple still moving after them is reported
(:attr:`Race.unsettled`), not refused."""


def _turn_vector(
    bank: Any,
    farkle: Any,
    crit: int,
    top: int,
    n_dice: int,
    dice: Any,
    points: Any,
    groups: Any,
    probability: Any,
    kinds: Any,
    lost: Any,
    first_k: Any,
    first_m: Any,
    first_groups: Any,
    first_p: Any,
    first_lost: float,
) -> Any:
    width, k = bank.shape
    n_groups, n_options, n_first = groups.shape[0], points.shape[0], first_groups.shape[0]
    value = np.empty((n_dice + 1, width, k))
    for n in range(n_dice + 1):
        for t in range(width):
            for j in range(k):
                value[n, t, j] = bank[t, j]
    acc = np.empty(k)
    for t in range(top - 1, -1, -1):
        for n in range(1, n_dice + 1):
            for j in range(k):
                acc[j] = lost[n - 1] * farkle[j]
            g1 = kinds[n] if n < n_dice else n_groups
            for g in range(kinds[n - 1], g1):
                o1 = groups[g + 1] if g + 1 < n_groups else n_options
                chosen = groups[g]
                best = value[dice[chosen], t + points[chosen], crit]
                for o in range(groups[g] + 1, o1):
                    v = value[dice[o], t + points[o], crit]
                    if v > best:
                        best, chosen = v, o
                for j in range(k):
                    acc[j] += probability[g] * value[dice[chosen], t + points[chosen], j]
            take = bank[t, crit] >= acc[crit]
            for j in range(k):
                value[n, t, j] = bank[t, j] if take else acc[j]
    out = np.empty(k)
    for j in range(k):
        out[j] = first_lost * farkle[j]
    for g in range(n_first):
        o1 = first_groups[g + 1] if g + 1 < n_first else first_k.shape[0]
        chosen = first_groups[g]
        best = value[first_m[chosen], first_k[chosen], crit]
        for o in range(first_groups[g] + 1, o1):
            v = value[first_m[o], first_k[o], crit]
            if v > best:
                best, chosen = v, o
        for j in range(k):
            out[j] += first_p[g] * value[first_m[chosen], first_k[chosen], j]
    return out


try:
    from numba import njit

    _compiled: Any = njit(cache=True)(_turn_vector)
except ImportError:  # pragma: no cover - numba is a dependency
    _compiled = _turn_vector


def turn_vector(model: TurnModel, bank: Any, farkle: Any, crit: int, top: int) -> Any:
    """The vector carried to the start of a turn whose mover maximises component *crit*.

    ``bank[x]`` (array, at least ``top + max_keep + 1`` rows of K components) is the vector
    after banking a turn total of *x* units, *farkle* (K) after a farkle; banking is forced
    from *top*. Keeps: the first of the highest *crit*; bank when it is worth at least as
    much as rolling on. Returns the K-vector of the turn from its first roll (compiled with
    numba)."""
    flat, first = model.flat, model.first
    return _compiled(
        np.ascontiguousarray(bank, dtype=float),
        np.ascontiguousarray(farkle, dtype=float),
        crit,
        top,
        model.n_dice,
        flat.dice,
        flat.points,
        flat.groups,
        flat.probability,
        flat.kinds,
        flat.farkle,
        *_first_arrays(model),
        float(first.farkle),
    )


def _first_arrays(model: TurnModel) -> tuple[Any, Any, Any, Any]:
    first = model.first
    k = np.array([k for _, opts in first.outcomes for k, _ in opts], dtype=np.int64)
    m = np.array([m for _, opts in first.outcomes for _, m in opts], dtype=np.int64)
    sizes = [len(opts) for _, opts in first.outcomes]
    groups = np.cumsum([0, *sizes])[:-1].astype(np.int64)
    p = np.array([p for p, _ in first.outcomes])
    return k, m, groups, p


@dataclass
class Race:
    """*players* (2 or 3) at *target* (points): the exact solve and the approximation's
    evaluation (see the module docstring). Scores in units of 50 points."""

    players: int
    target: int
    model: TurnModel = field(init=False)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.players not in (2, 3):
            raise ValueError(f"2 or 3 players, not {self.players}")
        self.rules = TenThousandRules(target=self.target)
        self.model = optimal.turn_model(self.rules)
        self.goal = self.target // UNIT
        self.cap = self.goal + BEYOND // UNIT  # the starter banks from here
        self.keep = self.model.max_keep
        self.f_min = float(self.model.flat.farkle.min())
        self.unsettled: list[tuple[Any, float]] = []
        """Triples whose three turns still moved after :data:`SWEEPS` sweeps (how much)."""
        self._final: dict[tuple[int, int, bool], Any] = {}
        self._middle: dict[tuple[int, int, int, bool, bool], Any] = {}

    # --- the last turns -------------------------------------------------------------

    def final(self, need: int, holders: int, approx: bool) -> Any:
        """The last player's turn, *need* units below the highest score, which *holders*
        players share: (the last player's share, the chance of passing, of tying), by the
        exact policy (a tie shared among holders + 1) or the approximation's (a tie half)."""
        key = (need, holders, approx)
        if key not in self._final:
            width = need + 1 + self.keep + 1
            bank = np.zeros((width, 4))
            tie_share = 0.5 if approx else 1.0 / (holders + 1)
            bank[need + 1 :] = (1.0, 1.0, 1.0, 0.0)  # criterion, share, pass, tie
            bank[need] = (tie_share, 1.0 / (holders + 1), 0.0, 1.0)
            got = turn_vector(self.model, bank, np.zeros(4), 0, need + 1)
            self._final[key] = got[1:]
        return self._final[key]

    def _after_final(self, high: int, holders: tuple[int, ...], score: int, approx: bool) -> Any:
        """Shares by role (0: the starter, 1: the middle, 2: the last) after the last
        player's turn from *score*, *high* the highest score, held by roles *holders*; the
        last player plays the approximation if *approx*."""
        share, passes, ties = self.final(high - score, len(holders), approx)
        out = np.zeros(3)
        out[2] = share
        stay = 1.0 - passes - ties
        for h in holders:
            out[h] += stay / len(holders) + ties / (len(holders) + 1)
        return out

    def _after_middle(self, s: int, f: int, last: int, approx: bool) -> Any:
        """Shares by role after the middle player ends on *f* (the starter on *s*)."""
        if f < s:
            return self._after_final(s, (0,), last, approx)
        if f == s:
            return self._after_final(s, (0, 1), last, approx)
        return self._after_final(f, (1,), last, approx)

    def middle(self, s: int, mid: int, last: int, approx_mid: bool, approx_last: bool) -> Any:
        """Three players: shares by role after the starter banked to *s*, the middle
        player (score *mid*) and the last (*last*) still to play one turn each; either
        plays the approximation if asked (the exact middle player expects an exact last
        one)."""
        key = (s, mid, last, approx_mid, approx_last)
        if key not in self._middle:
            top = s + LEAD // UNIT - mid
            width = top + self.keep + 1
            bank = np.zeros((width, 4))  # criterion, then the shares by role
            for x in range(width):
                f = mid + x
                shares = self._after_middle(s, f, last, approx_last)
                if approx_mid:
                    crit = 1.0 if f > s else 0.5 if f == s else 0.0
                elif approx_last:
                    crit = float(self._after_middle(s, f, last, False)[1])
                else:
                    crit = float(shares[1])
                bank[x, 0], bank[x, 1:] = crit, shares
            self._middle[key] = turn_vector(self.model, bank, bank[0], 0, top)[1:]
        return self._middle[key]

    @cached_property
    def table(self) -> Any:
        """The two-player table at the same target (banking forced :data:`BEYOND` past)."""
        return optimal.solve(self.rules, beyond=BEYOND).wins

    @cached_property
    def end(self) -> Any:
        return optimal.end_values(self.rules, BEYOND)

    # --- the whole game -------------------------------------------------------------

    def last_turns(self, scores: tuple[int, ...], mover: int, approx: int | None) -> Any:
        """Shares by seat after *mover* banked to ``scores[mover]`` (at the target or
        more); the seat *approx* (or none) plays the approximation."""
        n = self.players
        s = scores[mover]
        rest = [(mover + i) % n for i in range(1, n)]
        out = np.zeros(n)
        if n == 2:
            shares = self._after_final(s, (0,), scores[rest[0]], rest[0] == approx)
            out[mover], out[rest[0]] = shares[0], shares[2]
            return out
        mid, last = rest
        shares = self.middle(s, scores[mid], scores[last], mid == approx, last == approx)
        out[mover], out[mid], out[last] = shares
        return out

    def solve(self, approx: int | None = None, exact: dict[Any, Any] | None = None) -> Any:
        """``W[scores][mover]``: shares by seat at the start of *mover*'s turn; with
        *approx*, that seat plays the approximation and the others decide by *exact*
        (the exact solve's ``W``)."""
        started = time.perf_counter()
        n, goal = self.players, self.goal
        values: dict[tuple[int, ...], list[Any]] = {}
        triples = sorted(np.ndindex(*(goal,) * n), key=lambda s: -sum(s))
        for scores in triples:
            vec = [np.full(n, 1.0 / n) for _ in range(n)]
            banks = [self._banks(scores, m, values, approx, exact) for m in range(n)]
            for _ in range(SWEEPS):
                moved = 0.0
                for m in range(n - 1, -1, -1):
                    nxt = (m + 1) % n
                    crit_farkle = self._crit_farkle(scores, m, nxt, vec, approx, exact)
                    farkle = np.concatenate([[crit_farkle], vec[nxt]])
                    bank = banks[m]
                    safe = 1.0 - self.f_min * (1.0 - crit_farkle)
                    top = bank_from(bank[:, 0], safe, 1, self.cap - scores[m])
                    bank[0] = farkle
                    new = turn_vector(self.model, bank, farkle, 0, top)[1:]
                    moved = max(moved, float(np.abs(new - vec[m]).max()))
                    vec[m] = new
                if moved <= TOLERANCE:
                    break
            else:  # best replies may cycle (a game, not one player's problem): recorded
                self.unsettled.append((scores, moved))
            values[scores] = vec
        self.seconds = time.perf_counter() - started
        return values

    def _crit_farkle(
        self, scores: Any, m: int, nxt: int, vec: list[Any], approx: int | None, exact: Any
    ) -> float:
        if approx is None:
            return float(vec[nxt][m])
        if m == approx:
            leader = max(s for i, s in enumerate(scores) if i != m)
            return 1.0 - float(self.table[leader, scores[m]])
        return float(exact[tuple(scores)][nxt][m])

    def _banks(self, scores: Any, m: int, values: Any, approx: int | None, exact: Any) -> Any:
        """(criterion, shares by seat) after banking each turn total for *m*."""
        n, goal = self.players, self.goal
        width = self.cap - scores[m] + self.keep + 1
        bank = np.zeros((width, n + 1))
        leader = max(s for i, s in enumerate(scores) if i != m)
        for x in range(1, width):
            after = list(scores)
            after[m] = scores[m] + x
            key = tuple(after)
            if after[m] < goal:
                shares = values[key][(m + 1) % n]
                if approx is None:
                    crit = shares[m]
                elif m == approx:
                    crit = 1.0 - float(self.table[leader, after[m]])
                else:
                    crit = float(exact[key][(m + 1) % n][m])
            else:
                shares = self.last_turns(key, m, approx)
                if approx is None:
                    crit = shares[m]
                elif m == approx:
                    col = min(after[m] - goal, self.end.shape[1] - 1)
                    crit = float(self.end[leader, col])
                else:
                    crit = float(self.last_turns(key, m, None)[m])
            bank[x, 0] = crit
            bank[x, 1:] = shares
        return bank


def measure(players: int, target: int) -> dict[str, Any]:
    """The figures of the module docstring for *players* at *target* (points)."""
    race = Race(players, target)
    started = time.perf_counter()
    exact = race.solve()
    zero = (0,) * players
    shares = [[float(x) for x in exact[zero][m]] for m in range(players)]
    unsettled = list(race.unsettled)
    approx = race.solve(approx=0, exact=exact)
    seat0 = [float(approx[zero][m][0]) for m in range(players)]
    return {
        "unsettled_exact": len(unsettled),
        "unsettled_exact_worst": max((m for _, m in unsettled), default=0.0),
        "unsettled_approximation": len(race.unsettled) - len(unsettled),
        "unsettled_approximation_worst": max(
            (m for _, m in race.unsettled[len(unsettled) :]), default=0.0
        ),
        "players": players,
        "target": target,
        "exact_shares_by_first_mover": shares,
        "approximation_share_by_first_mover": seat0,
        "approximation_mean_share": sum(seat0) / players,
        "exact_mean_share": 1.0 / players,
        "two_player_table_first": float(race.table[0, 0]),
        "seconds": time.perf_counter() - started,
    }


def main(argv: list[str] | None = None) -> None:
    """``python -m parlour_tools.ten_thousand_three --players 3 --target 500``: JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=500)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.players, args.target)))


if __name__ == "__main__":
    main()
