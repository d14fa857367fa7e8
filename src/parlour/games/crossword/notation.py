"""Crossword actions and chance outcomes, and their text notation (``docs/records.md``).

===========================  =======  ===========================================================
text                         by       meaning
===========================  =======  ===========================================================
``QUACK H8 across``          seat     play: the whole word as it will read, its first square,
                                      ``across``/``down`` (``a``/``d`` for short)
``exchange QVW``             seat     return those rack tiles to the bag and draw as many
``exchange``                 seat     an exchange of 0 tiles: read as ``pass`` (the same turn)
``pass``                     seat     do nothing this turn
``rack RETAINS``             seat     rearrange the rack into this order (any time)
``draw AEINRST``             chance   the tiles drawn from the bag (sorted; a multiset)
``skip``                     host     the seat(s) to move pass (a clock ran out)
``new-day``                  host     daily mode: a new day begins, every seat may act again
===========================  =======  ===========================================================

>>> parse("quack h8 a")
Play(word='QUACK', square=112, direction=<Direction.ACROSS: 'across'>)
>>> str(parse("exchange vqw")), str(parse("draw ZAB")), str(parse("exchange"))
('exchange QVW', 'draw ABZ', 'pass')
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.errors import InvalidNotation
from parlour.games.crossword.board import ACROSS, DOWN, Direction, parse_square, square_name
from parlour.games.crossword.tiles import is_letters, sorted_tiles


@dataclass(frozen=True, slots=True)
class Play:
    """A play: ``word`` (upper case, as it will read on the board) from ``square`` (0-224)
    in ``direction``. Which squares get a tile follows from the board (see
    :func:`parlour.games.crossword.plays.check_play`)."""

    word: str
    square: int
    direction: Direction

    def __str__(self) -> str:
        return f"{self.word} {square_name(self.square)} {self.direction.value}"

    def squares(self) -> range:
        """The squares the word spans, in reading order."""
        step = self.direction.step
        return range(self.square, self.square + step * len(self.word), step)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Return ``tiles`` (a sorted multiset from the rack, 1-7 tiles) and draw as many."""

    tiles: str

    def __str__(self) -> str:
        return f"exchange {self.tiles}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Rearrange:
    """Put the rack in the order ``rack`` (the same tiles). Allowed at any time."""

    rack: str

    def __str__(self) -> str:
        return f"rack {self.rack}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance outcome: ``tiles`` drawn from the bag, a sorted multiset."""

    tiles: str

    def __str__(self) -> str:
        return f"draw {self.tiles}"


@dataclass(frozen=True, slots=True)
class Skip:
    """Host event: the seat to move passes (turns mode); in daily mode every seat that has
    not acted today passes."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class NewDay:
    """Host event, daily mode: a new day begins (midnight in the game's time zone)."""

    def __str__(self) -> str:
        return "new-day"


CrosswordAction = Play | Exchange | Pass | Rearrange | Draw | Skip | NewDay

_DIRECTIONS = {"across": ACROSS, "a": ACROSS, "down": DOWN, "d": DOWN}
_MOVES = "moves are '<WORD> <square> across|down' (e.g. 'QUACK H8 across'), 'exchange <tiles>'"
_PLAYER_HELP = f"{_MOVES}, 'pass' and 'rack <tiles>'"
_HELP = f"{_MOVES}, 'pass', 'rack <tiles>', 'draw <tiles>', 'skip' and 'new-day'"


def _tiles(text: str, what: str) -> str:
    tiles = text.upper()
    if not is_letters(tiles):
        raise InvalidNotation(f"{text!r} is not {what}: letters A-Z")
    return tiles


def parse(text: str, *, by_seat: bool = False) -> CrosswordAction:
    """Parse crossword notation (see the module docstring). Case is ignored.

    Raises :class:`InvalidNotation` naming what is wrong; with *by_seat* (text a player
    typed) the error lists only the moves a player makes, not chance's or the host's.
    Parsing checks the form only; legality is the rules' business.
    """
    words = text.strip().split()
    if not words:
        raise InvalidNotation("empty move")
    verb = words[0].lower()
    if len(words) == 1:
        if verb in ("pass", "exchange"):  # exchanging 0 tiles returns and draws nothing
            return Pass()
        if verb == "skip":
            return Skip()
        if verb in ("new-day", "newday"):
            return NewDay()
    elif len(words) == 2:
        if verb == "exchange":
            return Exchange(sorted_tiles(_tiles(words[1], "tiles to exchange")))
        if verb == "rack":
            return Rearrange(_tiles(words[1], "a rack"))
        if verb == "draw":
            return Draw(sorted_tiles(_tiles(words[1], "tiles drawn")))
    elif len(words) == 3:
        word, square, direction = words
        if direction.lower() not in _DIRECTIONS:
            raise InvalidNotation(f"{text!r}: the direction is 'across' or 'down'")
        return Play(_tiles(word, "a word"), parse_square(square), _DIRECTIONS[direction.lower()])
    raise InvalidNotation(f"{text!r}: {_PLAYER_HELP if by_seat else _HELP}")
