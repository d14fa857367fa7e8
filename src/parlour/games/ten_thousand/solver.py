"""Exact turn strategy for Ten-Thousand by dynamic programming (the ``strong`` player's brain).

A turn is a small Markov decision process: before each roll the state is the **turn total**
and the number of **dice left** to roll (six after hot dice). Every keep adds at least 50
points, so the states are ordered by turn total and each table below is filled by plain
backward induction, once, with no iteration and no tuning. Turn totals are handled in units of
50 points (every score in the game is a multiple of 50).

- :class:`Strategy`: the policy that maximises the **expected banked points per turn**, for a
  player who has entered and (with the ``entry`` option) for one who has not. Its values are
  exact: above a cap (40,000 points) the solver banks, and :meth:`Strategy.certify` proves that
  banking is optimal there (see ``docs/rules/ten-thousand.md#the-strong-player``).
- :class:`NeedTable`: the greatest probability of adding at least *m* more points this turn,
  the **points still needed** (the last turns: pass the leader, a tie worth a share).
- :class:`RaceModel`: the win probability of two players racing to the target when both play
  the expected-points policy (the last turn by :class:`NeedTable`), exact for that model.
- :class:`Endgame`: the turn policy that maximises that win probability (the same backward
  induction with the model's win chance in place of points): how the ``strong`` player
  catches the leader, or keeps a lead, near the end.

Everything is cached per rule set (:func:`strategy`, :func:`need_table`, :func:`race_model`,
:func:`endgame`). Derivations and figures: ``docs/rules/ten-thousand.md#the-strong-player``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from parlour.engine.chance import roll_outcomes
from parlour.games.ten_thousand.scoring import keep_options

UNIT = 50
"""Points per unit of turn total: every score in Ten-Thousand is a multiple of 50."""
MAX_KEEP = 8000 // UNIT
"""The most one keep can add, in units (six 1s: 8000 points)."""
CAP = 40_000
"""Turn total (points) from which the expected-points policy always banks (certified)."""
HORIZON = 5_000
"""The race model covers positions where either player is within this many points of the
target."""
BEYOND = 15_000
"""How far past the target (points) the endgame DP looks at most before it banks."""
TIE_SHARE = 0.5
"""What a tie for the lead is worth in the last turns (a shared win between two)."""

Option = tuple[int, int]
"""A way to set dice aside: (points in units, dice left to roll next; 6 after hot dice)."""


@dataclass(frozen=True)
class Rules:
    """The game options the strategy depends on (points; see ``docs/rules/ten-thousand.md``)."""

    target: int = 10_000
    entry: int = 0
    specials_any_roll: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Rules:
        """The rules of a loaded game's ``options`` (``players`` is ignored)."""
        return cls(
            target=int(options.get("target", 10_000)),
            entry=int(options.get("entry", 0)),
            specials_any_roll=bool(options.get("specials_any_roll", False)),
        )

    def describe(self) -> str:
        """``target 10000, entry 0, three pairs/straight on the first roll only``."""
        where = "any six-dice roll" if self.specials_any_roll else "the first roll only"
        return f"target {self.target}, entry {self.entry}, three pairs/straight on {where}"


@dataclass(frozen=True)
class RollKind:
    """Every outcome of rolling ``dice`` dice, grouped by what may be set aside.

    ``outcomes`` holds (probability, options) where options lists, for each number of dice
    left, the most points (units) a keep leaving that many dice scores: nothing else about a
    roll matters to the strategy. ``farkle`` is the probability of no scoring die.
    """

    dice: int
    specials: bool
    farkle: float
    outcomes: tuple[tuple[float, tuple[Option, ...]], ...]

    @property
    def mean_best(self) -> float:
        """Expected points (units) of the best keep, a farkle counting 0."""
        return sum(p * max(k for k, _ in opts) for p, opts in self.outcomes)


@cache
def roll_kind(dice: int, specials: bool) -> RollKind:
    """The :class:`RollKind` of rolling *dice* (1-6) dice; ``specials`` allows three pairs and
    the straight (six dice only)."""
    grouped: dict[tuple[Option, ...], float] = {}
    farkle = 0.0
    for roll, probability in roll_outcomes(dice):
        table = keep_options(roll, specials=specials and dice == 6)
        if not table:
            farkle += float(probability)
            continue
        best: dict[int, int] = {}
        for kept, points in table.items():
            left = dice - len(kept) or 6
            best[left] = max(best.get(left, 0), points // UNIT)
        key = tuple(sorted(((k, left) for left, k in best.items()), key=lambda o: -o[1]))
        grouped[key] = grouped.get(key, 0.0) + float(probability)
    outcomes = tuple(sorted(((p, key) for key, p in grouped.items()), key=lambda x: x[1]))
    return RollKind(dice, specials, farkle, outcomes)


def _kinds(rules: Rules) -> tuple[RollKind, dict[int, RollKind]]:
    """The first roll of a turn, and later rolls by number of dice."""
    later = {n: roll_kind(n, rules.specials_any_roll and n == 6) for n in range(1, 7)}
    return roll_kind(6, True), later


def _best(options: tuple[Option, ...], total: int, value: list[list[float]]) -> Option:
    """The option with the highest value; ties go to more points, then more dice left."""
    return max(options, key=lambda o: (value[o[1]][total + o[0]], o[0], o[1]))


class Strategy:
    """The exact expected-points policy for one rule set. Build it with :func:`strategy`.

    Turn totals are points. ``expected_points`` is the expected banked points of a turn from
    its start (before the first roll) for a player who has entered; ``expected_points_unentered``
    the same for a player who still needs the entry score (equal when ``entry`` is 0).
    ``seconds`` is how long the solve took.
    """

    def __init__(self, rules: Rules, *, cap: int = CAP) -> None:
        started = time.perf_counter()
        self.rules = rules
        self.cap = cap // UNIT
        self.first, self.later = _kinds(rules)
        self._entry = -(-rules.entry // UNIT)
        self._rolled_cache: dict[tuple[bool, int, int], float] = {}
        entered = self._solve(bank_from=0)
        unentered = self._solve(bank_from=self._entry) if self._entry else entered
        self._value = {True: entered, False: unentered}
        self.expected_points = self._first_value(entered)
        self.expected_points_unentered = self._first_value(unentered)
        self.seconds = time.perf_counter() - started

    # --- the backward induction ---------------------------------------------------------

    def _solve(
        self, *, bank_from: int, boundary: Mapping[int, tuple[float, float]] | None = None
    ) -> list[list[float]]:
        """``value[n][t]``: the best expected banked points (points) after setting dice aside
        with turn total *t* (units) and *n* dice left: ``max(bank, roll on)``, bank allowed
        from *bank_from*. At and above the cap the value is the bank, or with *boundary*
        ``{n: (farkle, bound)}`` the upper bound ``max(t, t * (1 - farkle) + bound)``."""
        cap, width = self.cap, self.cap + MAX_KEEP + 1
        value: list[list[float]] = [[0.0] * width for _ in range(7)]
        for n in range(1, 7):
            row = value[n]
            for t in range(cap, width):
                row[t] = float(t * UNIT)
                if boundary is not None:
                    farkle, bound = boundary[n]
                    row[t] = max(row[t], t * UNIT * (1 - farkle) + bound)
        kinds = [(n, self.later[n].outcomes) for n in range(1, 7)]
        rolled = [0.0] * 7
        for t in range(cap - 1, -1, -1):
            for n, outcomes in kinds:
                acc = 0.0
                for p, options in outcomes:
                    acc += p * max([value[m][t + k] for k, m in options])
                rolled[n] = acc
            bank = float(t * UNIT) if t >= bank_from else -math.inf
            for n in range(1, 7):
                value[n][t] = bank if bank >= rolled[n] else rolled[n]
        return value

    def _first_value(self, value: list[list[float]]) -> float:
        return sum(p * max(value[m][k] for k, m in opts) for p, opts in self.first.outcomes)

    def certify(self) -> float:
        """Prove that banking is optimal at every turn total from the cap up; return the slack.

        From turn total *t* with *n* dice, any way of playing on banks at most
        ``t * (1 - f_n) + A_n`` in expectation, where ``f_n`` is the farkle probability of *n*
        dice and ``A_n`` the best expected banked points of rolling *n* dice from 0. So
        banking is optimal wherever ``t * f_n >= A_n``. A crude bound on ``A_n``
        (``max e_n / f_n``, ``e_n`` the mean best keep) goes in as the value at the cap; the
        induction then gives a true upper bound on each ``A_n``. The return value is
        ``min_n cap * f_n - A_n`` (points): positive means the cap is safe and the values of
        this strategy are exact. Raises ``ArithmeticError`` if it is not positive.
        """
        crude = max(k.mean_best * UNIT / k.farkle for k in self.later.values())
        boundary = {n: (k.farkle, crude) for n, k in self.later.items()}
        upper = self._solve(bank_from=0, boundary=boundary)
        slack = min(
            self.cap * UNIT * k.farkle - self._rolled(upper, n, 0) for n, k in self.later.items()
        )
        if slack <= 0:
            raise ArithmeticError(f"cap {self.cap * UNIT} is too low to certify (slack {slack})")
        return slack

    def _rolled(self, value: list[list[float]], n: int, t: int) -> float:
        return sum(p * max(value[m][t + k] for k, m in opts) for p, opts in self.later[n].outcomes)

    # --- reading the policy -------------------------------------------------------------

    def keep_value(self, total: int, dice_left: int, *, entered: bool = True) -> float:
        """Expected banked points after setting dice aside with turn *total* (points) and
        *dice_left* dice to roll next (6 after hot dice), playing on optimally."""
        t = total // UNIT
        if t >= self.cap:
            return float(total)
        return self._value[entered][dice_left][t]

    def roll_value(self, total: int, dice: int, *, entered: bool = True) -> float:
        """Expected banked points of rolling *dice* dice (not a turn's first roll) with turn
        *total* (points) and playing on optimally: the value of choosing to roll."""
        t = total // UNIT
        if t >= self.cap:
            kind = self.later[dice]
            return (1 - kind.farkle) * total + kind.mean_best * UNIT
        key = (entered, dice, t)
        if key not in self._rolled_cache:
            self._rolled_cache[key] = self._rolled(self._value[entered], dice, t)
        return self._rolled_cache[key]

    def banks(self, total: int, dice_left: int, *, entered: bool = True) -> bool:
        """True if the policy banks with turn *total* (points) and *dice_left* dice left."""
        if not entered and total < self.rules.entry:
            return False
        t = total // UNIT
        return t >= self.cap or total >= self.roll_value(total, dice_left, entered=entered)

    def bank_thresholds(self, *, entered: bool = True) -> dict[int, int]:
        """Dice left (1-6) -> the smallest turn total (points) from which the policy banks.

        The policy rolls below it and banks at and above it, for every turn total (checked:
        raises ``ArithmeticError`` if some dice count had a gap).
        """
        thresholds: dict[int, int] = {}
        for n in range(1, 7):
            banks = [self.banks(t * UNIT, n, entered=entered) for t in range(self.cap)]
            first = banks.index(True)
            if not all(banks[first:]):
                raise ArithmeticError(f"the bank decision with {n} dice left is not a threshold")
            thresholds[n] = first * UNIT
        return thresholds

    def choose(
        self, options: Mapping[tuple[int, ...], int], total: int, dice: int, *, entered: bool
    ) -> tuple[tuple[int, ...], bool]:
        """The keep (from *options*: kept dice -> points) and whether to bank, for a roll of
        *dice* dice with turn *total* (points) before it."""

        def score(kept: tuple[int, ...]) -> tuple[float, int, int]:
            after, left = total + options[kept], dice - len(kept) or 6
            return (self.keep_value(after, left, entered=entered), after, left)

        kept = max(options, key=score)
        after, left = total + options[kept], dice - len(kept) or 6
        return kept, self.banks(after, left, entered=entered)

    def turn_distribution(self, *, entered: bool = True) -> list[float]:
        """``p[i]``: the probability that a turn played by this policy banks ``i * 50`` points
        (``p[0]`` includes every farkle). Sums to 1; its mean is :attr:`expected_points`.

        A forward pass over the same states as the backward induction, so the mean agreeing
        with :attr:`expected_points` checks both."""
        value = self._value[entered]
        width = self.cap + MAX_KEEP + 1
        banked = [0.0] * width
        mass = [[0.0] * width for _ in range(7)]

        def spread(p: float, kind: RollKind, t: int) -> None:
            banked[0] += p * kind.farkle
            for q, options in kind.outcomes:
                k, m = _best(options, t, value)
                if self.banks((t + k) * UNIT, m, entered=entered):
                    banked[t + k] += p * q
                else:
                    mass[m][t + k] += p * q

        spread(1.0, self.first, 0)
        for t in range(self.cap):
            for n in range(1, 7):
                if mass[n][t]:
                    spread(mass[n][t], self.later[n], t)
        return banked


@cache
def strategy(rules: Rules) -> Strategy:
    """The expected-points :class:`Strategy` for *rules*, solved once and cached."""
    return Strategy(rules)


class NeedTable:
    """The greatest probability of adding at least *need* more points this turn.

    The second exact DP, over **points still needed** and dice left: after setting dice aside
    with *m* units still needed and *n* dice left, the value is 1 if ``m <= 0`` (bank), and
    otherwise the best chance of rolling on. With ``tie`` > 0, banking exactly 50 points short
    (a tie for the lead) is worth ``tie``. Each row depends only on smaller needs, so the
    table grows on demand. Build it with :func:`need_table`.
    """

    def __init__(self, rules: Rules, *, tie: float = 0.0) -> None:
        self.rules = rules
        self.tie = tie
        self.first, self.later = _kinds(rules)
        # _after[n][MAX_KEEP + m]: value after a keep with m units needed, n dice left
        self._after: list[list[float]] = [[1.0] * (MAX_KEEP + 1) for _ in range(7)]
        self._rolled: list[list[float]] = [[1.0] for _ in range(7)]  # m = 0: already there
        self._first_chance: dict[int, float] = {0: 1.0}

    def _extend(self, needed: int) -> None:
        after, rolled = self._after, self._rolled
        kinds = [(n, self.later[n].outcomes) for n in range(1, 7)]
        for m in range(len(rolled[1]), needed + 1):
            base = MAX_KEEP + m
            for n, outcomes in kinds:
                acc = 0.0
                for p, options in outcomes:
                    acc += p * max([after[left][base - k] for k, left in options])
                rolled[n].append(acc)
            for n in range(1, 7):
                after[n].append(max(self.tie, rolled[n][m]) if m == 1 else rolled[n][m])

    @staticmethod
    def _units(need: int) -> int:
        return max(0, -(-need // UNIT))

    def chance(self, need: int, dice: int) -> float:
        """The best probability of adding at least *need* points by rolling *dice* dice now
        (not the turn's first roll) and playing on; a tie counts ``tie``."""
        m = self._units(need)
        if m >= len(self._rolled[dice]):
            self._extend(m)
        return self._rolled[dice][m]

    def after_keep(self, need: int, dice_left: int) -> float:
        """The value after setting dice aside with *need* points still needed and *dice_left*
        dice to roll: 1 if nothing is needed, else the best of banking (a tie) and rolling."""
        m = self._units(need)
        if m == 0:
            return 1.0
        self.chance(need, dice_left)
        return self._after[dice_left][MAX_KEEP + m]

    def banks(self, need: int, dice_left: int) -> bool:
        """Whether to bank with *need* points still needed: when nothing is needed, or for a
        tie worth more than rolling on."""
        m = self._units(need)
        return m == 0 or (m == 1 and self.tie >= self.chance(need, dice_left))

    def chance_first(self, need: int) -> float:
        """The best probability of adding at least *need* points in a whole turn, from its
        start (the first roll of six dice, three pairs and straights allowed)."""
        m = self._units(need)
        if m not in self._first_chance:
            self.chance(need, 6)
            self._first_chance[m] = sum(
                p * max(self.after_keep((m - k) * UNIT, left) for k, left in opts)
                for p, opts in self.first.outcomes
            )
        return self._first_chance[m]


@cache
def need_table(rules: Rules, tie: float = 0.0) -> NeedTable:
    """The :class:`NeedTable` for *rules* (a tie worth *tie*), cached."""
    return NeedTable(rules, tie=tie)


def _truncate(dist: list[float], tail: float = 1e-12) -> list[float]:
    """*dist* cut where less than *tail* probability remains; the rest goes in the last cell."""
    remaining = 1.0
    for i, p in enumerate(dist):
        remaining -= p
        if remaining < tail:
            out = dist[: i + 1]
            out[-1] += max(0.0, remaining)
            return out
    return list(dist)


class RaceModel:
    """A win-probability estimate for two players racing to the target (points throughout).

    :meth:`win_probability` ``(mover, other)`` is the probability that the player about to
    start a turn with score *mover* wins against one with *other*, when both bank by the
    expected-points :class:`Strategy` until someone reaches the target, and the other then
    plays the last turn by the :class:`NeedTable` (a tie counting half). It is exact for that
    model, by backward induction over the sum of the two scores (a farkle swaps the two
    players without changing the sum: that 2-cycle is solved in closed form). It covers the
    positions where one score is within :data:`HORIZON` points of the target.

    See ``docs/rules/ten-thousand.md#the-strong-player`` for how the ``strong`` player uses it.
    """

    def __init__(self, rules: Rules) -> None:
        started = time.perf_counter()
        self.rules = rules
        plan = strategy(rules)
        self.reach = need_table(rules)
        self.last = need_table(rules, TIE_SHARE)
        self.goal = rules.target // UNIT
        self.low = max(0, self.goal - HORIZON // UNIT)
        entered = _truncate(plan.turn_distribution(entered=True))
        unentered = _truncate(plan.turn_distribution(entered=False)) if rules.entry else entered
        self.turn = {True: entered, False: unentered}
        self.first = plan.first
        self._extra = max(len(entered), len(unentered), BEYOND // UNIT + MAX_KEEP + 1)
        self._rows: dict[int, list[float]] = {}
        self._fill()
        self.seconds = time.perf_counter() - started

    def _first(self, score: int) -> int:
        """The first score (units) whose row of :attr:`_rows` for *score* holds."""
        return 0 if score >= self.low else self.low

    def last_turn(self, player: int, behind: int) -> float:
        """The value (win, a tie half) of *player*'s last turn, *behind* units behind."""
        entry = -(-self.rules.entry // UNIT)
        if player == 0 and entry > behind:  # must bank the entry score: no tie possible
            return self.reach.chance_first(max(behind + 1, entry) * UNIT)
        return self.last.chance_first((behind + 1) * UNIT)

    def _fill(self) -> None:
        goal, low, width = self.goal, self.low, self.goal + self._extra + 1
        gains = {e: np.array(d[1:]) for e, d in self.turn.items()}
        zero = {e: d[0] for e, d in self.turn.items()}
        rows: dict[int, Any] = {}  # rows[b][a - first(b)] = Z(b, a): the chance that the
        # player who just ended a turn with score a wins, b to move next
        for b in range(goal):
            first = self._first(b)
            row = np.zeros(width - first)
            for a in range(goal, width):
                row[a - first] = 1.0 - self.last_turn(b, a - b)
            rows[b] = row

        def rest(a: int, b: int) -> tuple[float, float]:
            """(P(bank nothing), sum over x > 0 of P(bank x) Z(b, a + x)) for mover a."""
            entered = a > 0 or not self.rules.entry
            start = a + 1 - self._first(b)
            g = gains[entered]
            return zero[entered], float(g @ rows[b][start : start + len(g)])

        for total in range(2 * goal - 2, -1, -1):
            for a in range(max(0, total - goal + 1), total // 2 + 1):
                b = total - a
                if b < low:
                    continue
                zero_a, rest_a = rest(a, b)
                zero_b, rest_b = rest(b, a)
                # W(a,b) = zero_a (1 - W(b,a)) + rest_a, and the same with a, b swapped
                w_ab = (zero_a * (1 - zero_b - rest_b) + rest_a) / (1 - zero_a * zero_b)
                w_ba = zero_b * (1 - w_ab) + rest_b
                rows[b][a - self._first(b)] = 1.0 - w_ba
                rows[a][b - self._first(a)] = 1.0 - w_ab
        self._rows = {b: row.tolist() for b, row in rows.items()}

    def covers(self, mover: int, other: int) -> bool:
        """Whether the model holds the position (both below the target, one within HORIZON)."""
        return max(mover, other) >= self.low * UNIT and max(mover, other) < self.goal * UNIT

    def after_turn(self, mine: int, leader: int, banked: int) -> float:
        """The chance that a player with score *mine* wins after banking *banked* points this
        turn (0 for a farkle), the *leader* to move next. Requires :meth:`covers`."""
        a, b = (mine + banked) // UNIT, leader // UNIT
        row = self._rows[b]
        if a - self._first(b) < len(row):
            return row[a - self._first(b)]
        return 1.0 - self.last_turn(b, a - b)

    def after_turns(self, mine: int, leader: int, count: int) -> list[float]:
        """``[after_turn(mine, leader, i * 50) for i in range(count)]``, fast."""
        a, b = mine // UNIT, leader // UNIT
        row, start = self._rows[b], a - self._first(b)
        values = row[start : start + count]
        values.extend(self.after_turn(mine, leader, i * UNIT) for i in range(len(values), count))
        return values

    def win_probability(self, mover: int, other: int) -> float:
        """The chance that the player starting a turn with *mover* points beats *other*."""
        return 1.0 - self.after_turn(other, mover, 0)


@cache
def race_model(rules: Rules) -> RaceModel:
    """The :class:`RaceModel` for *rules*, built once and cached."""
    return RaceModel(rules)


@dataclass(frozen=True)
class _Flat:
    """Every later roll's options as flat arrays, for the vectorised endgame DP."""

    dice: Any  # dice left after each option (int array)
    points: Any  # units each option adds (int array)
    groups: Any  # start of each outcome group in the option arrays
    probability: Any  # probability of each outcome group
    kinds: Any  # start of each number of dice (1-6) in the group arrays
    farkle: Any  # farkle probability by number of dice (1-6)


@cache
def _flat(rules: Rules) -> _Flat:
    _, later = _kinds(rules)
    dice: list[int] = []
    points: list[int] = []
    groups: list[int] = []
    probability: list[float] = []
    kinds: list[int] = []
    for n in range(1, 7):
        kinds.append(len(groups))
        for p, options in later[n].outcomes:
            groups.append(len(dice))
            probability.append(p)
            for k, m in options:
                points.append(k)
                dice.append(m)
    return _Flat(
        np.array(dice),
        np.array(points),
        np.array(groups),
        np.array(probability),
        np.array(kinds),
        np.array([later[n].farkle for n in range(1, 7)]),
    )


class Endgame:
    """The exact turn policy that maximises the race model's win probability.

    For a player with score *mine* against the *leader* (points; the position inside the
    :class:`RaceModel`), ``u(x)`` is the model's chance of winning after banking *x* this turn
    (``u(0)`` after a farkle). The same backward induction as :class:`Strategy`, with ``u``
    in place of points, gives the keep and bank-or-roll choices with the highest chance of
    winning. Where ``u(t) >= 1 - f_min * (1 - u(0))`` (``f_min`` the smallest farkle
    probability) no way of rolling on can beat banking, so the induction starts at the lowest
    turn total from which that holds and is exact (it looks at most :data:`BEYOND` points past
    the target, where the leader's chance of passing is negligible). Vectorised with numpy
    over the roll outcomes: about a millisecond.
    """

    def __init__(self, race: RaceModel, mine: int, leader: int) -> None:
        self.race = race
        self.mine, self.leader = mine, leader
        rules = race.rules
        flat = _flat(rules)
        self.entry = 0 if mine > 0 else -(-rules.entry // UNIT)
        longest = race.goal - mine // UNIT + BEYOND // UNIT
        u = race.after_turns(mine, leader, longest + MAX_KEEP + 1)
        safe = 1.0 - float(flat.farkle.min()) * (1.0 - u[0])
        top = len(u) - MAX_KEEP - 1
        while top > self.entry and u[top - 1] >= safe:
            top -= 1
        self.top = top
        self.u = u[: top + MAX_KEEP + 1]
        width = len(self.u)
        value = np.empty((7, width))
        value[:, :] = np.array(self.u)
        index = flat.dice * width + flat.points
        farkle = flat.farkle * u[0]
        cells = value.reshape(-1)
        for t in range(top - 1, -1, -1):
            best = np.maximum.reduceat(cells[index + t], flat.groups)
            rolled = np.add.reduceat(best * flat.probability, flat.kinds) + farkle
            value[1:, t] = np.maximum(rolled, u[t] if t >= self.entry else -1.0)
        self._value: list[list[float]] = value.tolist()

    @property
    def win_chance(self) -> float:
        """The model's chance of winning from the start of the turn with this policy."""
        first = self.race.first
        return first.farkle * self.u[0] + sum(
            p * max(self._value[m][k] for k, m in opts) for p, opts in first.outcomes
        )

    def value(self, total: int, dice_left: int) -> float:
        """Win chance after setting dice aside with turn *total* (points), *dice_left* dice."""
        t = total // UNIT
        if t >= self.top:
            return self.race.after_turn(self.mine, self.leader, total)
        return self._value[dice_left][t]

    def banks(self, total: int, dice_left: int) -> bool:
        """Whether the policy banks with turn *total* (points) and *dice_left* dice left."""
        t = total // UNIT
        return t >= self.top or (t >= self.entry and self._value[dice_left][t] <= self.u[t])

    def choose(
        self, options: Mapping[tuple[int, ...], int], total: int, dice: int
    ) -> tuple[tuple[int, ...], bool]:
        """The keep (from *options*: kept dice -> points) and whether to bank."""

        def score(kept: tuple[int, ...]) -> tuple[float, int, int]:
            after, left = total + options[kept], dice - len(kept) or 6
            return (self.value(after, left), after, left)

        kept = max(options, key=score)
        after, left = total + options[kept], dice - len(kept) or 6
        return kept, self.banks(after, left)


@lru_cache(maxsize=256)
def endgame(rules: Rules, mine: int, leader: int) -> Endgame | None:
    """The :class:`Endgame` policy for *mine* against *leader* (points), or ``None`` when the
    race model does not cover the position. The last 256 are cached."""
    race = race_model(rules)
    return Endgame(race, mine, leader) if race.covers(mine, leader) else None
