"""Exact turn strategy for Ten-Thousand by dynamic programming (the strong player's brain).

The turn solvers are shared with Greedy (:mod:`parlour.games.dice.solver`): this module gives
them Ten-Thousand's turns (six dice; three pairs and straights on the first roll, or with the
``specials_any_roll`` option on any six-dice roll; the entry score) and adds how a game of
Ten-Thousand ends (the last turns).

- :func:`strategy`: the policy that maximises the **expected banked points per turn**, for a
  player who has entered and (with the ``entry`` option) for one who has not. Its values are
  exact: above a cap (40,000 points) the solver banks, and ``Strategy.certify`` proves that
  banking is optimal there (see ``docs/rules/ten-thousand.md#the-strong-player``).
- :func:`need_table`: the greatest probability of adding at least *m* more points this turn,
  the **points still needed** (the last turns: pass the leader, a tie worth a share).
- :class:`RaceModel`: the win probability of two players racing to the target when both play
  the expected-points policy (the last turn by the need table), exact for that model.
- :class:`Endgame`: the turn policy that maximises that win probability (the shared
  :class:`~parlour.games.dice.solver.WinPolicy` with the model's win chance in place of
  points): how the ``strong`` player catches the leader, or keeps a lead, near the end.

Everything is cached per rule set (:func:`strategy`, :func:`need_table`, :func:`race_model`,
:func:`endgame`); the big tables are built once, by one thread, and shared by every thread
(:func:`~parlour.games.dice.shared.built_once`: the server's computer players think in worker
threads). Derivations and figures: ``docs/rules/ten-thousand.md#the-strong-player``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from parlour.engine.chance import Dice
from parlour.games.dice.shared import built_once
from parlour.games.dice.solver import (
    UNIT,
    NeedTable,
    RollKind,
    Strategy,
    TurnModel,
    WinPolicy,
    bank_from,
    build_roll_kind,
)
from parlour.games.ten_thousand.scoring import keep_options

__all__ = [
    "UNIT",
    "Endgame",
    "NeedTable",
    "RaceModel",
    "RollKind",
    "Strategy",
    "TenThousandRules",
    "endgame",
    "need_table",
    "race_model",
    "roll_kind",
    "strategy",
    "turn_model",
]

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


@dataclass(frozen=True)
class TenThousandRules:
    """The game options the strategy depends on (points; see ``docs/rules/ten-thousand.md``)."""

    target: int = 10_000
    entry: int = 0
    specials_any_roll: bool = False

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> TenThousandRules:
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


def _plain(roll: Dice) -> Mapping[Dice, int]:
    return keep_options(roll, specials=False)


def _specials(roll: Dice) -> Mapping[Dice, int]:
    return keep_options(roll, specials=len(roll) == 6)


@built_once
def roll_kind(dice: int, specials: bool) -> RollKind:
    """The :class:`RollKind` of rolling *dice* (1-6) dice; ``specials`` allows three pairs and
    the straight (six dice only)."""
    return build_roll_kind(_specials if specials else _plain, dice, 6)


@built_once
def turn_model(rules: TenThousandRules) -> TurnModel:
    """Ten-Thousand's turns under *rules*: the first roll (specials allowed), later rolls
    (specials on six dice with ``specials_any_roll``), and the entry score."""
    later = {n: roll_kind(n, rules.specials_any_roll and n == 6) for n in range(1, 7)}
    return TurnModel(6, roll_kind(6, True), later, entry=rules.entry)


@built_once
def strategy(rules: TenThousandRules) -> Strategy:
    """The expected-points :class:`Strategy` for *rules*, solved once and cached."""
    return Strategy(turn_model(rules), cap=CAP)


@built_once
def need_table(rules: TenThousandRules, tie: float = 0.0) -> NeedTable:
    """The :class:`NeedTable` for *rules* (a tie worth *tie*), cached."""
    return NeedTable(turn_model(rules), tie=tie)


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

    def __init__(self, rules: TenThousandRules) -> None:
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


@built_once
def race_model(rules: TenThousandRules) -> RaceModel:
    """The :class:`RaceModel` for *rules*, built once and cached."""
    return RaceModel(rules)


class Endgame(WinPolicy):
    """The exact turn policy that maximises the race model's win probability.

    For a player with score *mine* against the *leader* (points; the position inside the
    :class:`RaceModel`), ``u(x)`` is the model's chance of winning after banking *x* this turn
    (``u(0)`` after a farkle). The shared :class:`~parlour.games.dice.solver.WinPolicy`
    induction with ``u`` in place of points gives the keep and bank-or-roll choices with the
    highest chance of winning. Where ``u(t) >= 1 - f_min * (1 - u(0))`` (``f_min`` the
    smallest farkle probability) no way of rolling on can beat banking, so the induction starts
    at the lowest turn total from which that holds and is exact (it looks at most
    :data:`BEYOND` points past the target, where the leader's chance of passing is
    negligible). Vectorised with numpy over the roll outcomes: about a millisecond.
    """

    def __init__(self, race: RaceModel, mine: int, leader: int) -> None:
        self.race = race
        self.mine, self.leader = mine, leader
        model = turn_model(race.rules)
        entry = 0 if mine > 0 else -(-race.rules.entry // UNIT)
        longest = race.goal - mine // UNIT + BEYOND // UNIT
        u = race.after_turns(mine, leader, longest + MAX_KEEP + 1)
        safe = 1.0 - float(model.flat.farkle.min()) * (1.0 - u[0])
        top = bank_from(u, safe, entry, len(u) - MAX_KEEP - 1)
        super().__init__(model, u, top=top, entry=entry)

    def beyond(self, total: int) -> float:
        """The model's win chance after banking *total* (points) at or above ``top``."""
        return self.race.after_turn(self.mine, self.leader, total)


@lru_cache(maxsize=256)
def endgame(rules: TenThousandRules, mine: int, leader: int) -> Endgame | None:
    """The :class:`Endgame` policy for *mine* against *leader* (points), or ``None`` when the
    race model does not cover the position. The last 256 are cached."""
    race = race_model(rules)
    return Endgame(race, mine, leader) if race.covers(mine, leader) else None
