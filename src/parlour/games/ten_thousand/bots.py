"""Ten-Thousand computer players (levels named in ``parlour play ten-thousand --help``).

- ``reckless``: sets aside the best-scoring dice and banks only at 1000 or more.
- ``cautious``: sets aside the best-scoring dice and banks as soon as the turn is worth 350,
  or 200 with two dice or fewer left to roll.
- ``steady``: the exact expected-points policy of :mod:`.solver` all game, and in the last
  turns the exact policy for passing the leader.
- ``strong``: ``steady``, and near the end (the leader or itself within 5,000 points of the
  target) it maximises its modelled chance of winning instead of points
  (``docs/rules/ten-thousand.md#the-strong-player``).
- ``optimal``: all game long, the exact two-player policy that maximises the chance of
  winning (:mod:`.optimal`); with three or more players it plays against the leading
  opponent (an approximation); the last turns as ``strong``, and as ``strong`` under rules
  whose table is not stored yet (``docs/rules/ten-thousand.md#the-optimal-player``). The
  last of the game's ``bot_levels``, so plain ``cpu`` plays it.

The threshold players keep rolling in the last turns until they would pass the leader; all
respect the entry score option.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.dice.notation import DiceAction, Keep
from parlour.games.ten_thousand.solver import (
    TIE_SHARE,
    TenThousandRules,
    endgame,
    need_table,
    strategy,
)
from parlour.games.ten_thousand.state import TenThousandState


def best_keep(state: TenThousandState) -> Keep:
    """The selection with the most points; among equals the one setting aside fewest dice."""
    assert state.roll is not None
    table = state.keep_points(state.roll, first_roll=state.rolls == 1)
    dice = max(table, key=lambda sub: (table[sub], -len(sub)))
    return Keep(dice, bank=False)


def must_roll_on(state: TenThousandState, points: int) -> bool:
    """True when banking *points* more would be pointless: in the last turns, a bank that
    does not pass the leader loses anyway; below the entry score a bank is not allowed."""
    mine = state.scores[state.seat] + state.turn_total + points
    if state.scores[state.seat] == 0 and state.turn_total + points < state.entry:
        return True
    if state.last_turns():
        leader = max(s for i, s in enumerate(state.scores) if i != state.seat)
        return mine <= leader
    return False


@dataclass(frozen=True)
class ThresholdBot:
    """Best-scoring keep, then bank once the turn total reaches ``bank_at`` (or ``low_at``
    with ``low_dice`` or fewer dice left to roll)."""

    name: str
    bank_at: int
    low_at: int
    low_dice: int

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """Pick a keep and decide bank or roll (see the class docstring)."""
        assert isinstance(state, TenThousandState)
        keep = best_keep(state)
        assert state.roll is not None
        points = state.keep_points(state.roll, first_roll=state.rolls == 1)[keep.dice]
        total = state.turn_total + points
        left = len(state.roll) - len(keep.dice) or state.n_dice
        bank = total >= self.bank_at or (left <= self.low_dice and total >= self.low_at)
        if must_roll_on(state, points):
            bank = False
        return Keep(keep.dice, bank=bank)


@dataclass(frozen=True)
class StrongBot:
    """Keeps and banks by the exact dynamic-programming policies of :mod:`.solver`.

    - In the last turns: the keep and bank choice that maximise the chance of passing the
      leader (a tie counting half), by the exact DP over points still needed.
    - With ``endgame`` (the ``strong`` level), when the race model covers the position (the
      leader or this player within 5,000 points of the target): the exact policy that
      maximises the modelled win probability (:class:`~.solver.Endgame`).
    - Otherwise: the policy that maximises expected banked points per turn.
    """

    name: str
    endgame: bool = True

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """The keep and bank-or-roll choice for *seat* (see the class docstring)."""
        assert isinstance(state, TenThousandState) and state.roll is not None
        rules = TenThousandRules.of(state.game.options)
        first = state.rolls == 1
        options = state.keep_points(state.roll, first_roll=first)
        mine = state.scores[seat]
        others = [s for i, s in enumerate(state.scores) if i != seat]
        dice, total = len(state.roll), state.turn_total
        if state.last_turns() and others:
            return last_turn_keep(rules, options, total, dice, mine, max(others))
        if self.endgame and others:
            plan = endgame(rules, mine, max(others))
            if plan is not None:
                return Keep(*plan.choose(options, total, dice))
        entered = mine > 0 or rules.entry == 0
        return Keep(*strategy(rules).choose(options, total, dice, entered=entered))


def last_turn_keep(
    rules: TenThousandRules,
    options: Mapping[tuple[int, ...], int],
    total: int,
    dice: int,
    mine: int,
    leader: int,
) -> Keep:
    """The keep that maximises the chance of passing *leader* (points) in a last turn, a tie
    counting half, from turn *total* before a roll of *dice* dice (exact DP)."""
    need = leader - mine + 50
    tie_ok = mine > 0 or leader - mine >= rules.entry
    if mine == 0:
        need = max(need, rules.entry)
    table = need_table(rules, TIE_SHARE if tie_ok else 0.0)

    def score(kept: tuple[int, ...]) -> tuple[float, int, int]:
        after, left = total + options[kept], dice - len(kept) or 6
        return (table.after_keep(need - after, left), options[kept], -len(kept))

    kept = max(options, key=score)
    after, left = total + options[kept], dice - len(kept) or 6
    return Keep(kept, bank=table.banks(need - after, left))


@dataclass(frozen=True)
class OptimalBot:
    """Keeps and banks by the exact win-probability policy of :mod:`.optimal`.

    - In the last turns: as :class:`StrongBot` (the exact points-still-needed policy).
    - Otherwise, against the leading opponent: the keep and bank-or-roll choice that
      maximise the solved two-player chance of winning (:func:`~.optimal.optimal_turn`);
      exact with two players, an approximation with more (the others are ignored until the
      last turns). Under rules whose table is not stored (the default rules' ships; others
      are cached by ``parlour solve ten-thousand --optimal`` or ``parlour arena``), it plays
      as ``strong``: a move never waits minutes for a solve.
    - Alone (practice): the expected-points policy.
    """

    name: str = "optimal"

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """The keep and bank-or-roll choice for *seat* (see the class docstring)."""
        from parlour.games.ten_thousand.optimal import optimal_turn, stored_table

        assert isinstance(state, TenThousandState) and state.roll is not None
        rules = TenThousandRules.of(state.game.options)
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        mine = state.scores[seat]
        others = [s for i, s in enumerate(state.scores) if i != seat]
        dice, total = len(state.roll), state.turn_total
        if state.last_turns() and others:
            return last_turn_keep(rules, options, total, dice, mine, max(others))
        if not others or stored_table(rules) is None:
            return LEVELS["strong"].choose(state, seat, rng)
        return Keep(*optimal_turn(rules, mine, max(others)).choose(options, total, dice))


LEVELS: dict[str, ThresholdBot | StrongBot | OptimalBot] = {
    "reckless": ThresholdBot("reckless", bank_at=1000, low_at=1000, low_dice=0),
    "cautious": ThresholdBot("cautious", bank_at=350, low_at=200, low_dice=2),
    "steady": StrongBot("steady", endgame=False),
    "strong": StrongBot("strong"),
    "optimal": OptimalBot(),
}

ARENA_LEVELS: tuple[str, ...] = ()
"""Levels the arena takes besides the game's ``bot_levels`` (none now: ``optimal`` is
offered everywhere)."""


def make_bot(level: str) -> ThresholdBot | StrongBot | OptimalBot:
    """The computer player at *level*. Raises :class:`ParlourError` for an unknown level."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ParlourError(
            f"unknown Ten-Thousand level {level!r}; levels: {', '.join(LEVELS)}"
        ) from None
