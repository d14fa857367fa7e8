"""Exact turn strategies for the dice games by dynamic programming (the strong players' brain).

Ten-Thousand and Greedy share the shape of a turn: before each roll the state is the **turn
total** and the number of **dice left** to roll (all of them again after hot dice, Greedy's
bonus round). Every keep adds at least 50 points, so the states are ordered by turn total and
each table here is filled by plain backward induction, once, with no iteration and no tuning.
Turn totals are handled in units of 50 points (every score in both games is a multiple of 50).

A game describes its turns as a :class:`TurnModel`: for the first roll of a turn and for later
rolls of *n* dice, the probability of each kind of outcome and the most points a keep leaving
each number of dice scores (:func:`build_roll_kind`, from the game's own scoring). The
solvers are shared:

- :class:`Strategy`: the policy that maximises the **expected banked points per turn**, exact
  (banking from a cap up is proved optimal by :meth:`Strategy.certify`);
- :class:`NeedTable`: the greatest probability of adding at least *m* more points this turn;
- :class:`WinPolicy`: the policy that maximises a **win probability**, given the chance of
  winning after banking each possible amount this turn.

Each game's ``solver`` module builds its model and adds its race model (how a game ends
differs: last turns in Ten-Thousand, an immediate win in Greedy). Derivations and figures:
``docs/rules/ten-thousand.md#the-strong-player``, ``docs/rules/greedy.md#the-strong-player``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from parlour.engine.chance import Dice, roll_outcomes
from parlour.games.dice import _policy_kernel

UNIT = 50
"""Points per unit of turn total: every score in the dice games is a multiple of 50."""

Option = tuple[int, int]
"""A way to set dice aside: (points in units, dice left to roll next; all of them after hot
dice)."""

KeepTable = Callable[[Dice], Mapping[Dice, int]]
"""A game's scoring: every legal selection from a sorted roll -> its points (empty: farkle)."""


@dataclass(frozen=True)
class RollKind:
    """Every outcome of rolling ``dice`` dice, grouped by what may be set aside.

    ``outcomes`` holds (probability, options) where options lists, for each number of dice
    left, the most points (units) a keep leaving that many dice scores: nothing else about a
    roll matters to the solvers. ``farkle`` is the probability of no scoring die.
    """

    dice: int
    farkle: float
    outcomes: tuple[tuple[float, tuple[Option, ...]], ...]

    @property
    def mean_best(self) -> float:
        """Expected points (units) of the best keep, a farkle counting 0."""
        return sum(p * max(k for k, _ in opts) for p, opts in self.outcomes)


def build_roll_kind(
    keeps: KeepTable, dice: int, n_dice: int, *, every: bool = False, unit: int = UNIT
) -> RollKind:
    """The :class:`RollKind` of rolling *dice* dice, scored by *keeps*; keeping them all gives
    *n_dice* fresh dice (hot dice). Games cache the result.

    By default each outcome lists, per number of dice left, only the keep with the most
    points (right when more points are never worse, as for expected points). With *every*
    it lists every distinct (points, dice left) a keep gives: a player who plays to win may
    prefer fewer points (not reaching the target yet, say)."""
    grouped: dict[tuple[Option, ...], float] = {}
    farkle = 0.0
    for roll, probability in roll_outcomes(dice):
        table = keeps(roll)
        if not table:
            farkle += float(probability)
            continue
        if every:
            options = {
                (points // unit, dice - len(kept) or n_dice) for kept, points in table.items()
            }
            key = tuple(sorted(options, key=lambda o: (-o[1], -o[0])))
            grouped[key] = grouped.get(key, 0.0) + float(probability)
            continue
        best: dict[int, int] = {}
        for kept, points in table.items():
            left = dice - len(kept) or n_dice
            best[left] = max(best.get(left, 0), points // unit)
        key = tuple(sorted(((k, left) for left, k in best.items()), key=lambda o: -o[1]))
        grouped[key] = grouped.get(key, 0.0) + float(probability)
    outcomes = tuple(sorted(((p, key) for key, p in grouped.items()), key=lambda x: x[1]))
    return RollKind(dice, farkle, outcomes)


@dataclass(frozen=True)
class Flat:
    """Every later roll's options as flat arrays, for the vectorised backward inductions."""

    dice: Any  # dice left after each option (int array)
    points: Any  # units each option adds (int array)
    groups: Any  # start of each outcome group in the option arrays
    probability: Any  # probability of each outcome group
    kinds: Any  # start of each number of dice (1..n_dice) in the group arrays
    farkle: Any  # farkle probability by number of dice (1..n_dice)


@dataclass(frozen=True, eq=False)
class TurnModel:
    """A dice game's turn as the solvers see it.

    ``n_dice`` dice (all of them come back after hot dice); ``first`` is the first roll of a
    turn, ``later[n]`` a later roll of *n* dice (1..n_dice); ``entry`` (points, 0: none) is
    the least a player who has not yet banked may bank.
    """

    n_dice: int
    first: RollKind
    later: Mapping[int, RollKind]
    entry: int = 0

    @cached_property
    def max_keep(self) -> int:
        """The most one keep can add (units)."""
        kinds = [self.first, *self.later.values()]
        return max(k for kind in kinds for _, opts in kind.outcomes for k, _ in opts)

    @cached_property
    def free(self) -> frozenset[int]:
        """The numbers of dice that never farkle (Greedy's nine: rolling them is free)."""
        return frozenset(n for n, kind in self.later.items() if kind.farkle == 0)

    @cached_property
    def flat(self) -> Flat:
        """The later rolls' options as flat arrays (see :class:`Flat`)."""
        dice: list[int] = []
        points: list[int] = []
        groups: list[int] = []
        probability: list[float] = []
        kinds: list[int] = []
        for n in range(1, self.n_dice + 1):
            kinds.append(len(groups))
            for p, options in self.later[n].outcomes:
                groups.append(len(dice))
                probability.append(p)
                for k, m in options:
                    points.append(k)
                    dice.append(m)
        return Flat(
            np.array(dice),
            np.array(points),
            np.array(groups),
            np.array(probability),
            np.array(kinds),
            np.array([self.later[n].farkle for n in range(1, self.n_dice + 1)]),
        )


def _best(options: tuple[Option, ...], total: int, value: Sequence[Sequence[float]]) -> Option:
    """The option with the highest value; ties go to more points, then more dice left."""
    return max(options, key=lambda o: (value[o[1]][total + o[0]], o[0], o[1]))


def _choices(values: Any, flat: Flat, width: int) -> tuple[Any, Any]:
    """For every outcome group, the (points, dice left) of the option with the highest value
    in *values* (one per option), ties to more points, then more dice left, as :func:`_best`."""
    best = np.maximum.reduceat(values, flat.groups)
    sizes = np.diff(np.append(flat.groups, len(values)))
    key = np.where(values == np.repeat(best, sizes), flat.points * width + flat.dice, -1)
    picked = np.maximum.reduceat(key, flat.groups)
    return picked // width, picked % width


@dataclass(frozen=True)
class Forward:
    """Where a turn played by a :class:`Strategy` ends, by turn total (index: units).

    ``banked[t]``: the probability of banking *t*; ``farkled[t]``: of a farkle with turn total
    *t* at stake; ``reached``: of reaching the ``limit`` (units) or more, where the forward
    pass stops following the turn (0 without a limit).
    """

    banked: list[float]
    farkled: list[float]
    reached: float
    limit: int | None


class Strategy:
    """The exact expected-points policy for one :class:`TurnModel`, solved with turn totals
    up to ``cap`` (points); above it the policy banks (rolls only dice that never farkle), and
    :meth:`certify` proves that optimal.

    ``expected_points`` is the expected banked points of a turn from its start (before the
    first roll) for a player who has entered; ``expected_points_unentered`` the same for a
    player who still needs the entry score (equal when ``entry`` is 0). ``seconds`` is how
    long the solve took.
    """

    def __init__(self, model: TurnModel, *, cap: int) -> None:
        started = time.perf_counter()
        self.model = model
        self.cap = cap // UNIT
        self.first, self.later = model.first, model.later
        self._entry = -(-model.entry // UNIT)
        self.renewal = self._renewal()
        self._rolled_cache: dict[tuple[bool, int, int], float] = {}
        entered, entered_banks = self._solve(bank_from=0)
        unentered, unentered_banks = (
            self._solve(bank_from=self._entry) if self._entry else (entered, entered_banks)
        )
        self._arrays = {True: entered, False: unentered}
        self._bank_arrays = {True: entered_banks, False: unentered_banks}
        self._value: dict[bool, list[list[float]]] = {True: entered.tolist()}
        self._value[False] = unentered.tolist() if self._entry else self._value[True]
        self._banks: dict[bool, list[list[bool]]] = {True: entered_banks.tolist()}
        self._banks[False] = unentered_banks.tolist() if self._entry else self._banks[True]
        self.expected_points = self._first_value(self._value[True])
        self.expected_points_unentered = self._first_value(self._value[False])
        self.seconds = time.perf_counter() - started

    # --- the backward induction ---------------------------------------------------------

    def _renewal(self) -> dict[int, float]:
        """``c[n]``: at a turn total *t* from the cap up, the value of *n* dice left is
        ``t + c[n]``: 0 where the policy banks, and for dice that never farkle the expected
        points of rolling them and keeping the best (a fixed point: keeping every die may
        bring them back)."""
        c = {n: 0.0 for n in range(1, self.model.n_dice + 1)}
        free = self.model.free
        for _ in range(1000):
            new = {
                n: sum(
                    p * max(k * UNIT + c[m] for k, m in opts) for p, opts in self.later[n].outcomes
                )
                for n in free
            }
            change = max((abs(new[n] - c[n]) for n in free), default=0.0)
            c.update(new)
            if change < 1e-9:
                break
        return c

    def _solve(
        self, *, bank_from: int, boundary: Mapping[int, tuple[float, float]] | None = None
    ) -> tuple[Any, Any]:
        """``value[n][t]``: the best expected banked points (points) after setting dice aside
        with turn total *t* (units) and *n* dice left: ``max(bank, roll on)``, bank allowed
        from *bank_from*; and ``banks[n][t]``: whether banking is best there (below the cap).
        At and above the cap the value is ``t + renewal[n]``, or with *boundary*
        ``{n: (farkle, bound)}`` the upper bound ``max(t, t * (1 - farkle) + bound)``."""
        model, flat = self.model, self.model.flat
        cap, width = self.cap, self.cap + model.max_keep + 1
        value = np.zeros((model.n_dice + 1, width))
        top = np.arange(cap, width) * float(UNIT)
        for n in range(1, model.n_dice + 1):
            value[n, cap:] = top + self.renewal[n]
            if boundary is not None:
                farkle, bound = boundary[n]
                value[n, cap:] = np.maximum(value[n, cap:], top * (1 - farkle) + bound)
        banks = np.zeros((model.n_dice + 1, cap), dtype=bool)
        cells = value.reshape(-1)
        index = flat.dice * width + flat.points
        for t in range(cap - 1, -1, -1):
            best = np.maximum.reduceat(cells[index + t], flat.groups)
            rolled = np.add.reduceat(best * flat.probability, flat.kinds)
            if t >= bank_from:
                bank = banks[1:, t] = rolled <= t * UNIT
                value[1:, t] = np.where(bank, float(t * UNIT), rolled)
            else:
                value[1:, t] = rolled
        return value, banks

    def _first_value(self, value: list[list[float]]) -> float:
        return sum(p * max(value[m][k] for k, m in opts) for p, opts in self.first.outcomes)

    def certify(self) -> float:
        """Prove that the policy above the cap is optimal; return the slack (points).

        From turn total *t* with *n* dice, any way of playing on banks at most
        ``t * (1 - f_n) + A_n`` in expectation, where ``f_n`` is the farkle probability of *n*
        dice and ``A_n`` the best expected banked points of rolling *n* dice from 0. So
        banking is optimal wherever ``t * f_n >= A_n``. A crude bound on the points a turn
        can still add (each roll adds at most its best keep, ``e_n`` on average, and ends the
        turn with chance ``f_n``; dice that never farkle come back only when every die
        scores) goes in as the value at the cap; the induction then gives a true upper bound
        on each ``A_n``. The return value is ``min_n cap * f_n - A_n`` over the dice that
        can farkle: positive means the cap is safe and the values of this strategy are exact
        (dice that never farkle are always rolled: that only adds points). Raises
        ``ArithmeticError`` if it is not positive.
        """
        free = self.model.free
        risky = [n for n in self.later if n not in free]
        spare = 0.0  # a bound on the points a run of free rolls adds
        for n in free:
            kind = self.later[n]
            renew = sum(p for p, opts in kind.outcomes if any(m in free for _, m in opts))
            spare = max(spare, kind.mean_best * UNIT / (1 - renew))
        crude = max(
            (self.later[n].mean_best * UNIT + (1 - self.later[n].farkle) * spare)
            / self.later[n].farkle
            for n in risky
        )
        boundary = {
            n: (kind.farkle, crude + (spare if n in free else 0.0))
            for n, kind in self.later.items()
        }
        upper = self._solve(bank_from=0, boundary=boundary)[0].tolist()
        slack = min(
            self.cap * UNIT * self.later[n].farkle - self._rolled(upper, n, 0) for n in risky
        )
        if slack <= 0:
            raise ArithmeticError(f"cap {self.cap * UNIT} is too low to certify (slack {slack})")
        return slack

    def _rolled(self, value: Sequence[Sequence[float]], n: int, t: int) -> float:
        return sum(p * max(value[m][t + k] for k, m in opts) for p, opts in self.later[n].outcomes)

    # --- reading the policy -------------------------------------------------------------

    def keep_value(self, total: int, dice_left: int, *, entered: bool = True) -> float:
        """Expected banked points after setting dice aside with turn *total* (points) and
        *dice_left* dice to roll next (all of them after hot dice), playing on optimally."""
        t = total // UNIT
        if t >= self.cap:
            return total + self.renewal[dice_left]
        return self._value[entered][dice_left][t]

    def roll_value(self, total: int, dice: int, *, entered: bool = True) -> float:
        """Expected banked points of rolling *dice* dice (not a turn's first roll) with turn
        *total* (points) and playing on optimally: the value of choosing to roll."""
        t = total // UNIT
        if t >= self.cap:
            kind = self.later[dice]
            gain = sum(
                p * max(k * UNIT + self.renewal[m] for k, m in opts) for p, opts in kind.outcomes
            )
            return (1 - kind.farkle) * total + gain
        key = (entered, dice, t)
        if key not in self._rolled_cache:
            self._rolled_cache[key] = self._rolled(self._value[entered], dice, t)
        return self._rolled_cache[key]

    def banks(self, total: int, dice_left: int, *, entered: bool = True) -> bool:
        """True if the policy banks with turn *total* (points) and *dice_left* dice left."""
        if not entered and total < self.model.entry:
            return False
        t = total // UNIT
        if t >= self.cap:
            return dice_left not in self.model.free
        return self._banks[entered][dice_left][t]

    def bank_thresholds(self, *, entered: bool = True) -> dict[int, int]:
        """Dice left -> the smallest turn total (points) from which the policy banks, for
        every number of dice that can farkle (dice that never farkle are always rolled).

        The policy rolls below it and banks at and above it, for every turn total (checked:
        raises ``ArithmeticError`` if some dice count had a gap).
        """
        thresholds: dict[int, int] = {}
        for n in range(1, self.model.n_dice + 1):
            if n in self.model.free:
                continue
            banks = self._banks[entered][n]
            first = banks.index(True)
            if not all(banks[first:]):
                raise ArithmeticError(f"the bank decision with {n} dice left is not a threshold")
            thresholds[n] = first * UNIT
        return thresholds

    def choose(
        self, options: Mapping[Dice, int], total: int, dice: int, *, entered: bool = True
    ) -> tuple[Dice, bool]:
        """The keep (from *options*: kept dice -> points) and whether to bank, for a roll of
        *dice* dice with turn *total* (points) before it."""
        n_dice = self.model.n_dice

        def score(kept: Dice) -> tuple[float, int, int]:
            after, left = total + options[kept], dice - len(kept) or n_dice
            return (self.keep_value(after, left, entered=entered), after, left)

        kept = max(options, key=score)
        after, left = total + options[kept], dice - len(kept) or n_dice
        return kept, self.banks(after, left, entered=entered)

    # --- where turns end ----------------------------------------------------------------

    def forward(self, *, entered: bool = True, limit: int | None = None) -> Forward:
        """Where a turn played by this policy ends (see :class:`Forward`), from its start.

        With *limit* (points) the pass stops following a turn once its total reaches the
        limit (Greedy's race: a bank there wins). A forward pass over the same states as the
        backward induction, vectorised over the roll outcomes.
        """
        model, flat = self.model, self.model.flat
        values = self._arrays[entered]
        banks = self._bank_arrays[entered]
        width = self.cap + model.max_keep + 1
        stop = self.cap if limit is None else min(self.cap, -(-limit // UNIT))
        banked = np.zeros(width)
        farkled = np.zeros(width)
        mass = np.zeros((model.n_dice + 1, width))
        rows = model.n_dice + 1
        free = np.array([n in model.free for n in range(rows)])
        table = self._value[entered]
        farkled[0] = self.first.farkle
        for p, options in self.first.outcomes:
            k, m = _best(options, 0, table)
            if self.banks(k * UNIT, m, entered=entered):
                banked[k] += p
            else:
                mass[m][k] += p
        cells = values.reshape(-1)
        index = flat.dice * width + flat.points
        ends = [*flat.kinds[1:].tolist(), len(flat.groups)]
        for t in range(stop):
            column = mass[:, t]
            if not column.any():
                continue
            points, dice = _choices(cells[index + t], flat, rows)
            after = t + points
            inside = after < self.cap
            bank = np.where(inside, banks[dice, np.minimum(after, self.cap - 1)], ~free[dice])
            for n in range(1, rows):
                if not column[n]:
                    continue
                lo, hi = flat.kinds[n - 1], ends[n - 1]
                weight = column[n] * flat.probability[lo:hi]
                here = bank[lo:hi]
                np.add.at(banked, after[lo:hi][here], weight[here])
                np.add.at(mass, (dice[lo:hi][~here], after[lo:hi][~here]), weight[~here])
                farkled[t] += column[n] * flat.farkle[n - 1]
        reached = 0.0
        if limit is not None:
            reached = float(banked[stop:].sum() + mass[:, stop:].sum())
            banked, farkled = banked[:stop], farkled[:stop]
        return Forward(banked.tolist(), farkled.tolist(), reached, limit)

    def turn_distribution(self, *, entered: bool = True) -> list[float]:
        """``p[i]``: the probability that a turn played by this policy banks ``i * 50`` points
        (``p[0]`` includes every farkle). Sums to 1; its mean is :attr:`expected_points`.

        A forward pass over the same states as the backward induction, so the mean agreeing
        with :attr:`expected_points` checks both."""
        ends = self.forward(entered=entered)
        banked = list(ends.banked)
        banked[0] += sum(ends.farkled)
        return banked


class NeedTable:
    """The greatest probability of adding at least *need* more points this turn.

    An exact DP over **points still needed** and dice left: after setting dice aside with *m*
    units still needed and *n* dice left, the value is 1 if ``m <= 0`` (bank), and otherwise
    the best chance of rolling on. With ``tie`` > 0, banking exactly 50 points short (a tie
    for the lead) is worth ``tie``. Each row depends only on smaller needs, so the table grows
    on demand.

    One table is shared by every thread (the server's computer players think in worker
    threads): it grows under a lock, one thread at a time, and a row is read only once it
    is complete (``_size`` counts the complete rows and moves on after each).
    """

    def __init__(self, model: TurnModel, *, tie: float = 0.0) -> None:
        self.model = model
        self.tie = tie
        self.first, self.later = model.first, model.later
        self._top = model.max_keep
        dice = range(model.n_dice + 1)
        # _after[n][max_keep + m]: value after a keep with m units needed, n dice left
        self._after: list[list[float]] = [[1.0] * (self._top + 1) for _ in dice]
        self._rolled: list[list[float]] = [[1.0] for _ in dice]  # m = 0: already there
        self._size = 1
        """Rows (needs 0 .. _size - 1) complete in ``_rolled`` and ``_after``."""
        self._growing = threading.Lock()
        self._first_chance: dict[int, float] = {0: 1.0}

    def _extend(self, needed: int) -> None:
        """Complete the rows up to *needed* (units), one thread at a time."""
        with self._growing:
            after, rolled, n_dice = self._after, self._rolled, self.model.n_dice
            kinds = [(n, self.later[n].outcomes) for n in range(1, n_dice + 1)]
            for m in range(self._size, needed + 1):
                base = self._top + m
                for n, outcomes in kinds:
                    acc = 0.0
                    for p, options in outcomes:
                        acc += p * max([after[left][base - k] for k, left in options])
                    rolled[n].append(acc)
                for n in range(1, n_dice + 1):
                    after[n].append(max(self.tie, rolled[n][m]) if m == 1 else rolled[n][m])
                self._size = m + 1

    @staticmethod
    def _units(need: int) -> int:
        return max(0, -(-need // UNIT))

    def chance(self, need: int, dice: int) -> float:
        """The best probability of adding at least *need* points by rolling *dice* dice now
        (not the turn's first roll) and playing on; a tie counts ``tie``."""
        m = self._units(need)
        if m >= self._size:
            self._extend(m)
        return self._rolled[dice][m]

    def after_keep(self, need: int, dice_left: int) -> float:
        """The value after setting dice aside with *need* points still needed and *dice_left*
        dice to roll: 1 if nothing is needed, else the best of banking (a tie) and rolling."""
        m = self._units(need)
        if m == 0:
            return 1.0
        self.chance(need, dice_left)
        return self._after[dice_left][self._top + m]

    def banks(self, need: int, dice_left: int) -> bool:
        """Whether to bank with *need* points still needed: when nothing is needed, or for a
        tie worth more than rolling on."""
        m = self._units(need)
        return m == 0 or (m == 1 and self.tie >= self.chance(need, dice_left))

    def chance_first(self, need: int) -> float:
        """The best probability of adding at least *need* points in a whole turn, from its
        start (the turn's first roll)."""
        m = self._units(need)
        if m not in self._first_chance:
            self.chance(need, self.model.n_dice)
            self._first_chance[m] = sum(
                p * max(self.after_keep((m - k) * UNIT, left) for k, left in opts)
                for p, opts in self.first.outcomes
            )
        return self._first_chance[m]


def bank_from(u: Any, safe: float, low: int, high: int) -> int:
    """The lowest turn total *t* (units) in ``low..high`` with ``u[x] >= safe`` for every *x*
    from *t* to ``high - 1``: where a :class:`WinPolicy` may start banking for sure (*safe*
    the value no way of rolling on can beat). *u* is a sequence or an array of at least
    *high* values."""
    if high <= low:
        return high
    short = np.flatnonzero(np.asarray(u[low:high], dtype=float) < safe)
    return low + int(short[-1]) + 1 if short.size else low


def win_values_numpy(model: TurnModel, u: Any, top: int, entry: int) -> Any:
    """:class:`WinPolicy`'s backward induction vectorised with numpy over the roll outcomes
    (the reference the compiled loop of :mod:`._policy_kernel` repeats bit for bit):
    ``value[n, t]`` ((n_dice + 1) x ``len(u)``) the best chance after a keep to turn total
    *t* (units) with *n* dice left, banking worth ``u[t]`` (allowed from *entry*) and
    forced from *top*."""
    flat = model.flat
    width = len(u)
    value = np.empty((model.n_dice + 1, width))
    value[:, :] = u
    index = flat.dice * width + flat.points
    farkle = flat.farkle * float(u[0])
    cells = value.reshape(-1)
    for t in range(top - 1, -1, -1):
        best = np.maximum.reduceat(cells[index + t], flat.groups)
        rolled = np.add.reduceat(best * flat.probability, flat.kinds) + farkle
        value[1:, t] = np.maximum(rolled, float(u[t]) if t >= entry else -1.0)
    return value


class WinPolicy:
    """The exact turn policy that maximises a win probability.

    ``u[x]`` is the chance of winning after banking *x* units this turn (``u[0]``: after a
    farkle), given at least up to ``top + max_keep``. From turn total ``top`` (units) up the
    policy banks: the caller chooses ``top`` where no way of rolling on can beat banking.
    Below it, the same backward induction as :class:`Strategy` with ``u`` in place of points
    gives the keeps and bank-or-roll choices with the highest chance of winning; banking is
    allowed from ``entry`` (units). The induction is compiled with numba (:mod:`._policy_kernel`,
    the same arithmetic in the same order as numpy's :func:`win_values_numpy`, which
    *kernel* ``"numpy"`` asks for and which runs where numba is missing); *kernel* is
    ``"auto"``, ``"numba"`` or ``"numpy"`` (``ValueError`` otherwise, or for ``"numba"``
    without numba).
    """

    def __init__(
        self,
        model: TurnModel,
        u: Sequence[float],
        *,
        top: int,
        entry: int = 0,
        kernel: str = "auto",
    ) -> None:
        self.model = model
        self.top = top
        self.entry = entry
        width = top + model.max_keep + 1
        if len(u) < width:
            raise ValueError(f"u has {len(u)} values, the policy needs {width}")
        if kernel not in ("auto", "numba", "numpy"):
            raise ValueError(f"kernel is 'auto', 'numba' or 'numpy', not {kernel!r}")
        if kernel == "numba" and _policy_kernel.compiled is None:
            raise ValueError("kernel 'numba' asked for, but numba is not installed")
        self.u = list(u)
        head = np.array(self.u[:width])
        if kernel == "numpy" or _policy_kernel.compiled is None:
            value = win_values_numpy(model, head, top, entry)
        else:
            flat = model.flat
            value = _policy_kernel.compiled(
                head,
                top,
                entry,
                model.n_dice,
                flat.dice,
                flat.points,
                flat.groups,
                flat.probability,
                flat.kinds,
                flat.farkle,
            )
        self._value: list[list[float]] = value.tolist()

    def beyond(self, total: int) -> float:
        """The chance of winning after banking *total* (points) at or above ``top``; a game
        may look further than ``u`` goes."""
        return self.u[min(total // UNIT, len(self.u) - 1)]

    @property
    def win_chance(self) -> float:
        """The chance of winning from the start of the turn with this policy."""
        first = self.model.first
        return first.farkle * self.u[0] + sum(
            p * max(self._value[m][k] for k, m in opts) for p, opts in first.outcomes
        )

    def value(self, total: int, dice_left: int) -> float:
        """Win chance after setting dice aside with turn *total* (points), *dice_left* dice."""
        t = total // UNIT
        if t >= self.top:
            return self.beyond(total)
        return self._value[dice_left][t]

    def roll_value(self, total: int, dice_left: int) -> float:
        """Win chance of rolling *dice_left* dice on with turn *total* (points) set aside, then
        playing this policy (from ``top`` up, where banking is provably best, every later
        choice banks, so the value is exact there too)."""
        t = total // UNIT
        kind = self.model.later[dice_left]
        rows, last = self._value, len(self.u) - 1
        width = len(rows[0])

        def after(c: int, m: int) -> float:
            return rows[m][c] if c < width else self.u[min(c, last)]

        return kind.farkle * self.u[0] + sum(
            p * max(after(t + k, m) for k, m in opts) for p, opts in kind.outcomes
        )

    def banks(self, total: int, dice_left: int) -> bool:
        """Whether the policy banks with turn *total* (points) and *dice_left* dice left."""
        t = total // UNIT
        return t >= self.top or (t >= self.entry and self._value[dice_left][t] <= self.u[t])

    def choose(self, options: Mapping[Dice, int], total: int, dice: int) -> tuple[Dice, bool]:
        """The keep (from *options*: kept dice -> points) and whether to bank."""
        n_dice = self.model.n_dice

        def score(kept: Dice) -> tuple[float, int, int]:
            after, left = total + options[kept], dice - len(kept) or n_dice
            return (self.value(after, left), after, left)

        kept = max(options, key=score)
        after, left = total + options[kept], dice - len(kept) or n_dice
        return kept, self.banks(after, left)
