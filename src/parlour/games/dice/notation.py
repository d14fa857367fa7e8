"""The actions and chance outcomes of the dice games, and their text notation.

Notation (``docs/records.md``):

- ``roll 1 1 3 4 5 6``: chance outcome, the faces rolled (any order; stored sorted);
- ``keep 1 1 5 roll``: set aside 1, 1, 5 and roll the remaining dice (fresh dice if none);
- ``keep 1 1 5 bank``: set them aside and bank the turn total (end the turn);
- ``skip``: the host ends the turn of the player to move, who loses the turn total (a clock
  ran out on a server);
- ``quit``: the player to move leaves, forfeiting the game (Greedy).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.chance import Dice, dice_text, parse_dice
from parlour.engine.errors import InvalidNotation


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance outcome: the dice just rolled, as a sorted tuple of faces."""

    dice: Dice

    def __str__(self) -> str:
        return f"roll {dice_text(self.dice)}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Set aside ``dice`` (a sorted multiset from the current roll, all of them scoring), then
    bank the turn total (``bank=True``) or roll the remaining dice (``bank=False``)."""

    dice: Dice
    bank: bool

    def __str__(self) -> str:
        return f"keep {dice_text(self.dice)} {'bank' if self.bank else 'roll'}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Host event: the player to move loses this turn and its turn total."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class Quit:
    """The player to move leaves the game and forfeits it."""

    def __str__(self) -> str:
        return "quit"


DiceAction = Roll | Keep | Skip | Quit


def parse(text: str, *, n_dice: int) -> DiceAction:
    """Parse dice-game notation (see the module docstring).

    Raises :class:`InvalidNotation` naming what is wrong.

    >>> parse("keep 5 1 bank", n_dice=6)
    Keep(dice=(1, 5), bank=True)
    """
    words = text.strip().lower().split()
    if not words:
        raise InvalidNotation("empty move")
    verb, rest = words[0], words[1:]
    if verb == "roll":
        return Roll(parse_dice(rest, most=n_dice))
    if verb == "keep":
        if not rest or rest[-1] not in ("roll", "bank", "r", "b"):
            raise InvalidNotation(f"{text!r}: write 'keep <dice> roll' or 'keep <dice> bank'")
        return Keep(parse_dice(rest[:-1], most=n_dice), bank=rest[-1] in ("bank", "b"))
    if verb == "skip" and not rest:
        return Skip()
    if verb == "quit" and not rest:
        return Quit()
    raise InvalidNotation(
        f"{text!r}: moves are 'roll <dice>', 'keep <dice> roll', 'keep <dice> bank', "
        "'skip' and 'quit'"
    )
