"""Greedy rules (manual ``001``; decisions in ``docs/rules/greedy.md``).

Nine dice on the shared dice machinery (:mod:`parlour.games.dice.state`); scoring in
:mod:`parlour.games.greedy.scoring`. When all nine dice have scored within a round the player
may bank or re-roll all nine for a **bonus round**, everything still at risk (the dice
machinery's hot dice). The first player to end a turn with the target (10,000) or more wins at
once: there are no last turns. ``quit`` forfeits the game; it is allowed at any time. The
keep that starts a bonus round has the step marks ``"hot_dice"`` and ``"bonus_round"``, with
the fact ``bonus_rounds`` (this turn's count) on every step
(:meth:`~parlour.engine.state.State.describe_step`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from parlour.engine.chance import Dice
from parlour.engine.state import JSON, State
from parlour.engine.step import Step
from parlour.games.dice.notation import DiceAction, Keep, Quit
from parlour.games.dice.state import DiceState
from parlour.games.greedy.scoring import keep_options


@cache
def _actions(roll: Dice) -> tuple[Keep, ...]:
    return tuple(Keep(sub, bank) for sub in keep_options(roll) for bank in (False, True))


class GreedyState(DiceState):
    """A game of Greedy. ``bonus_rounds`` counts the bonus rounds started this turn.

    A bonus round starts when the player keeps the last of the nine dice and rolls on
    (``keep <dice> roll``); keeping them and banking (``keep <dice> bank``) ends the turn.
    """

    n_dice = 9
    allows_quit = True

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.bonus_rounds = 0

    def keep_points(self, roll: Dice, *, first_roll: bool) -> Mapping[Dice, int]:
        return keep_options(roll)

    def _actions_for(self, roll: Dice, *, first_roll: bool) -> tuple[Keep, ...]:
        return _actions(roll)

    def scoring_dice_text(self, roll: Dice, *, first_roll: bool) -> str:
        return "1s, 5s, sets of three rolled together"

    def _out_of_turn_ok(self, action: DiceAction, player: int) -> bool:
        return isinstance(action, Quit)  # a player may quit (and forfeit) at any time

    def keep_actions(self) -> tuple[Keep, ...]:
        """The legal actions without ``quit``: every keep, then bank or roll (empty when no
        player is to choose dice)."""
        if self.over or self.roll is None:
            return ()
        return _actions(self.roll)

    def _hot_dice(self) -> None:
        self.bonus_rounds += 1  # all nine have scored: re-roll all nine

    def describe_step(self, before: State, player: int, action: DiceAction) -> Step:
        step = super().describe_step(before, player, action)
        return replace(step, facts={**step.facts, "bonus_rounds": self.bonus_rounds})

    def _step_marks(self, before: DiceState) -> tuple[str, ...]:
        assert isinstance(before, GreedyState)
        return ("bonus_round",) if self.bonus_rounds > before.bonus_rounds else ()

    def _turn_ended(self, banked: bool) -> None:
        self.bonus_rounds = 0
        if banked and self.scores[self.seat] >= self.target:
            self.over = True

    def _extra_observation(self) -> dict[str, Any]:
        return {
            "bonus_rounds": self.bonus_rounds,
            "quitter": self.quitter,
            "sum": self.scores[self.seat] + self.turn_total,
        }

    def _extra_dump(self) -> JSON:
        return {"bonus_rounds": self.bonus_rounds}
