"""Pig's actions, its chance outcome and their text notation (``docs/rules/pig.md#notation``).

- ``die 4``: chance outcome, the face the die shows (1 to 6);
- ``roll``: the player to move rolls the die again;
- ``hold``: the player to move banks the turn total, ending the turn;
- ``skip``: host event, the player whose turn it is loses the turn and its turn total (a
  clock ran out on a server).

``r`` and ``h`` abbreviate ``roll`` and ``hold``; case and surrounding spaces do not matter.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.errors import InvalidNotation

FACES = (1, 2, 3, 4, 5, 6)
"""The faces of Pig's one six-sided die."""


@dataclass(frozen=True, slots=True)
class Die:
    """Chance outcome: the die shows ``face`` (1 to 6)."""

    face: int

    def __str__(self) -> str:
        return f"die {self.face}"


@dataclass(frozen=True, slots=True)
class Roll:
    """The player to move rolls the die again (the turn total stays at risk)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Hold:
    """The player to move adds the turn total to their score and ends the turn."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Skip:
    """Host event: the player whose turn it is loses the turn and its turn total."""

    def __str__(self) -> str:
        return "skip"


PigAction = Die | Roll | Hold | Skip
"""Every action and chance outcome of Pig."""

_WORDS: dict[str, PigAction] = {
    "roll": Roll(),
    "r": Roll(),
    "hold": Hold(),
    "h": Hold(),
    "skip": Skip(),
}


def parse(text: str) -> PigAction:
    """Parse Pig notation (see the module docstring) into an action or chance outcome.

    Parsing does not check legality (``State.apply`` does). Raises :class:`InvalidNotation`
    saying what is wrong: not text, empty, an unknown word, or a die face outside 1 to 6.

    >>> parse(" Die 4 "), parse("hold"), parse("r")
    (Die(face=4), Hold(), Roll())
    >>> parse("die 7")
    Traceback (most recent call last):
    ...
    parlour.engine.errors.InvalidNotation: 'die 7': a die shows 1 to 6, not 7
    """
    if not isinstance(text, str):
        raise InvalidNotation(f"a Pig move is text, not {type(text).__name__}")
    words = text.strip().lower().split()
    if not words:
        raise InvalidNotation("empty move: Pig's moves are 'roll' and 'hold'")
    if words[0] == "die":
        if len(words) != 2:
            raise InvalidNotation(f"{text!r}: write a chance outcome as 'die <face>', e.g. 'die 4'")
        face = words[1]
        if not (face.isascii() and face.isdigit()) or int(face) not in FACES:
            raise InvalidNotation(f"{text!r}: a die shows 1 to 6, not {face}")
        return Die(int(face))
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    raise InvalidNotation(
        f"{text!r} is not a Pig move: a player's moves are 'roll' and 'hold' (a record also "
        "holds chance's 'die <face>' and the host's 'skip')"
    )
