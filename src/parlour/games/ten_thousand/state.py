"""Ten-Thousand rules (manual ``000``; decisions in ``docs/rules/ten-thousand.md``).

Six dice; the dice machinery is :mod:`parlour.games.dice.state`, the scoring is
:mod:`parlour.games.ten_thousand.scoring`. When a player banks to the target (10,000) or more,
every other player gets exactly one more turn ("Last rolls"); then the highest score wins and
equal highest scores share the win. The bank that starts the last turns has the step mark
``"last_turns"`` (:meth:`~parlour.engine.state.State.describe_step`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from parlour.engine.chance import Dice
from parlour.games.dice.notation import Keep
from parlour.games.dice.state import DiceState
from parlour.games.ten_thousand.scoring import keep_options


@cache
def _actions(roll: Dice, specials: bool) -> tuple[Keep, ...]:
    table = keep_options(roll, specials=specials)
    return tuple(Keep(sub, bank) for sub in table for bank in (False, True))


@cache
def _keeps(roll: Dice, specials: bool) -> Mapping[Dice, int]:
    return keep_options(roll, specials=specials)


class TenThousandState(DiceState):
    """A game of Ten-Thousand. ``final_turns`` counts the last turns still to play once
    someone has banked to the target (``None`` before that)."""

    n_dice = 6

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.specials_any_roll: bool = bool(game.options.get("specials_any_roll", False))
        self.final_turns: int | None = None

    def _scoring_key(self) -> object:
        return bool(self.game.options.get("specials_any_roll", False))

    def _specials(self, roll: Dice, first_roll: bool) -> bool:
        return first_roll or (self.specials_any_roll and len(roll) == 6)

    def keep_points(self, roll: Dice, *, first_roll: bool) -> Mapping[Dice, int]:
        return _keeps(roll, self._specials(roll, first_roll))

    def _actions_for(self, roll: Dice, *, first_roll: bool) -> tuple[Keep, ...]:
        return _actions(roll, self._specials(roll, first_roll))

    def scoring_dice_text(self, roll: Dice, *, first_roll: bool) -> str:
        if self._specials(roll, first_roll):
            return "1s, 5s, groups, three pairs, straight"
        return "1s, 5s, groups"

    def _turn_ended(self, banked: bool) -> None:
        if self.final_turns is not None:
            self.final_turns -= 1  # that was one of the last turns
        elif banked and self.scores[self.seat] >= self.target:
            self.final_turns = self.game.num_players - 1
        if self.final_turns == 0:
            self.over = True

    def _step_marks(self, before: DiceState) -> tuple[str, ...]:
        assert isinstance(before, TenThousandState)
        began = before.final_turns is None and self.final_turns is not None
        return ("last_turns",) if began else ()

    def last_turns(self) -> bool:
        """True once someone has reached the target and the others play their last turns."""
        return self.final_turns is not None

    def _extra_observation(self) -> dict[str, Any]:
        return {
            "last_turns": self.final_turns is not None,
            "final_turns": self.final_turns,
            "entry": self.entry,
        }

    def _extra_dump(self) -> dict[str, Any]:
        return {"final_turns": self.final_turns}
