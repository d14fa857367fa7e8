"""Greedy computer players (levels named in ``parlour play greedy --help``).

- ``easy``: keeps every scoring die and banks once the turn is worth 500, or 300 with three
  dice or fewer left to roll.
- ``steady``: the exact expected-points policy of :mod:`.solver` (it always takes the bonus
  round: nine dice cannot fail to score).
- ``strong``: ``steady``, and near the end (the leader or itself within 5,000 points of the
  target) it maximises its modelled chance of winning instead of points: it rolls on when the
  opponent is about to win (``docs/rules/greedy.md#the-strong-player``).

- ``optimal``: all game long, the exact two-player policy that maximises the chance of
  winning (:mod:`.optimal`, the race table of :mod:`.coach`); with three or more players it
  plays against the leading opponent (an approximation). The last of the game's
  ``bot_levels``, so plain ``cpu`` plays it (``docs/rules/greedy.md#playing-to-win``).

- ``tournament`` (the arena only, see :data:`ARENA_LEVELS`): the person's best play in the
  manual's tournament against ``strong``, the most expected tournament points
  (:mod:`.tournament`); it may roll on past the target, since a bigger win pays more. With
  more than two seats it plays against the leading opponent as if it were ``strong`` (an
  approximation).

Every level but ``tournament`` banks as soon as a bank wins the game, and none ever quits.
``random`` (for the
arena and benchmarks only) picks uniformly among the keeps and bank-or-roll choices.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from parlour.engine.chance import Dice
from parlour.engine.errors import ParlourError
from parlour.engine.state import State
from parlour.games.dice.notation import DiceAction, Keep
from parlour.games.greedy.solver import GreedyRules, endgame, strategy
from parlour.games.greedy.state import GreedyState

HORIZON = 5_000
"""The ``strong`` player plays for the win once the leader or itself is within this many
points of the target."""


def winning_keep(state: GreedyState) -> Keep | None:
    """The keep that banks to the target and wins now (the most points), if there is one."""
    assert state.roll is not None
    options = state.keep_points(state.roll, first_roll=state.rolls == 1)
    kept = max(options, key=lambda sub: (options[sub], len(sub)))
    if state.scores[state.seat] + state.turn_total + options[kept] >= state.target:
        return Keep(kept, bank=True)
    return None


def all_scoring(state: GreedyState) -> Dice:
    """Every scoring die of the roll (the keep with the most points)."""
    assert state.roll is not None
    options = state.keep_points(state.roll, first_roll=state.rolls == 1)
    return max(options, key=lambda sub: (options[sub], len(sub)))


@dataclass(frozen=True)
class ThresholdBot:
    """Keeps every scoring die, then banks once the turn total reaches ``bank_at`` (or
    ``low_at`` with ``low_dice`` or fewer dice left to roll)."""

    name: str
    bank_at: int
    low_at: int
    low_dice: int

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """Keep and decide bank or roll (see the class docstring)."""
        assert isinstance(state, GreedyState) and state.roll is not None
        win = winning_keep(state)
        if win is not None:
            return win
        kept = all_scoring(state)
        points = state.keep_points(state.roll, first_roll=state.rolls == 1)[kept]
        total = state.turn_total + points
        left = len(state.roll) - len(kept) or state.n_dice
        bank = total >= self.bank_at or (left <= self.low_dice and total >= self.low_at)
        return Keep(kept, bank=bank)


@dataclass(frozen=True)
class StrongBot:
    """Keeps and banks by the exact dynamic-programming policies of :mod:`.solver`.

    - A keep that banks to the target wins: it is taken.
    - With ``endgame`` (the ``strong`` level), once the leader or this player is within
      ``horizon`` points of the target: the policy that maximises the race model's chance of
      winning against the leading opponent (:func:`~.solver.endgame`).
    - Otherwise: the policy that maximises expected banked points per turn.
    """

    name: str
    endgame: bool = True
    horizon: int = HORIZON

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """The keep and bank-or-roll choice for *seat* (see the class docstring)."""
        assert isinstance(state, GreedyState) and state.roll is not None
        win = winning_keep(state)
        if win is not None:
            return win
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        dice, total = len(state.roll), state.turn_total
        mine = state.scores[seat]
        others = [s for i, s in enumerate(state.scores) if i != seat]
        if self.endgame and others:
            leader = max(others)
            if max(mine, leader) >= state.target - self.horizon:
                plan = endgame(GreedyRules(state.target), mine, leader)
                return Keep(*plan.choose(options, total, dice))
        return Keep(*strategy().choose(options, total, dice))


@dataclass(frozen=True)
class OptimalBot:
    """Keeps and banks by the exact win-probability policy (:mod:`.optimal`).

    - A keep that banks to the target wins: it is taken.
    - Otherwise, against the leading opponent: the keep and bank-or-roll choice that
      maximise the solved two-player chance of winning (:func:`.coach.greedy_turn`); exact
      with two players, an approximation with more. Under a target whose race table is not
      stored (the default 10,000's ships; others are cached by ``parlour solve greedy
      --optimal``), it plays as ``strong``: a move never waits minutes for a solve.
    - Alone (practice): as ``strong`` (the expected-points policy).
    """

    name: str = "optimal"

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """The keep and bank-or-roll choice for *seat* (see the class docstring)."""
        from parlour.games.greedy.coach import greedy_turn, stored_race_table

        assert isinstance(state, GreedyState) and state.roll is not None
        win = winning_keep(state)
        if win is not None:
            return win
        rules = GreedyRules(state.target)
        others = [s for i, s in enumerate(state.scores) if i != seat]
        if not others or stored_race_table(rules) is None:
            return LEVELS["strong"].choose(state, seat, rng)
        options = state.keep_points(state.roll, first_roll=state.rolls == 1)
        turn = greedy_turn(rules, state.scores[seat], max(others))
        return Keep(*turn.choose(options, state.turn_total, len(state.roll)))


@dataclass(frozen=True)
class TournamentBot:
    """The tournament-optimal person against ``strong`` (:func:`.tournament.best_action`).
    The first use under a target without stored tables solves them (seconds at small
    targets, about 15 minutes of CPU at 10,000; then cached in the data directory)."""

    name: str = "tournament"

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """The keep and bank-or-roll choice with the most expected tournament points."""
        from parlour.games.greedy.tournament import best_action

        assert isinstance(state, GreedyState) and state.roll is not None
        action: DiceAction = best_action(state, seat)
        return action


class RandomKeeper:
    """Uniform among the legal keeps and bank-or-roll choices; never quits (a baseline for
    the arena and benchmarks: Greedy's generic random player would quit and forfeit)."""

    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> DiceAction:
        """A uniformly random keep, then bank or roll."""
        assert isinstance(state, GreedyState)
        return rng.choice(state.keep_actions())


Bot = ThresholdBot | StrongBot | OptimalBot | TournamentBot

LEVELS: dict[str, Bot] = {
    "easy": ThresholdBot("easy", bank_at=500, low_at=300, low_dice=3),
    "steady": StrongBot("steady", endgame=False),
    "strong": StrongBot("strong"),
    "optimal": OptimalBot(),
    "tournament": TournamentBot(),
}

ARENA_LEVELS = ("tournament",)
"""Levels the arena takes besides the game's ``bot_levels``: ``tournament`` plays a
person's side of the manual's tournament against ``strong`` (the most tournament points, not
the win), so it is not offered as an opponent; the coach shows its figures to people."""


def make_bot(level: str) -> Bot:
    """The computer player at *level*. Raises :class:`ParlourError` for an unknown level."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ParlourError(f"unknown Greedy level {level!r}; levels: {', '.join(LEVELS)}") from None
