"""The crossword board: 15x15 squares, premium squares, and the tiles on it.

Squares are numbered ``row * 15 + col`` (0..224): columns A-O are 0-14, rows 1-15 are 0-14,
so ``H8`` (the centre) is square 112. A square's name is its column letter then its row
number, as in the manual's prompts ("location across, location down").

A :class:`Board` is immutable and compact, made for a move generator to read quickly:

- ``letters``: a 225-character ``str``, the top letter of each square or ``"."`` if empty
  (``letters[row * 15 : row * 15 + 15]`` is a row, ``letters[col::15]`` a column);
- ``heights``: 225 bytes, how many tiles are stacked on each square (0 empty, 1 a plain tile,
  2 or more a covered square).

A premium square is used the first time a tile is placed on it, so a premium is available
exactly when its square is empty (``heights[sq] == 0``): no separate flags are needed.

>>> board = Board.empty().with_word("QUICK", parse_square("H8"), ACROSS)
>>> board.line(7, ACROSS)
'.......QUICK...'
>>> square_name(112), parse_square("o15"), board.height(parse_square("H8"))
('H8', 224, 1)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parlour.engine.errors import InvalidNotation

SIZE = 15
"""Squares per row and per column."""
SQUARES = SIZE * SIZE
"""Squares on the board (225)."""
EMPTY = "."
"""The letter of an empty square in :attr:`Board.letters`."""
COLUMNS = "ABCDEFGHIJKLMNO"
"""Column names, left to right."""
CENTRE = 7 * SIZE + 7
"""Square H8, which the first play must cover."""


class Direction(enum.Enum):
    """The direction a word reads: ``ACROSS`` (left to right) or ``DOWN`` (top to bottom)."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> int:
        """Square-number step to the next square in this direction (1 or 15)."""
        return 1 if self is Direction.ACROSS else SIZE

    @property
    def other(self) -> Direction:
        """The perpendicular direction."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


ACROSS = Direction.ACROSS
DOWN = Direction.DOWN


def square_name(square: int) -> str:
    """``112`` -> ``"H8"`` (column letter, row number)."""
    row, col = divmod(square, SIZE)
    return f"{COLUMNS[col]}{row + 1}"


def parse_square(text: str) -> int:
    """``"H8"`` (or ``"h8"``) -> ``112``. Raises :class:`InvalidNotation` for anything else.

    >>> parse_square("A1"), parse_square("O15")
    (0, 224)
    """
    name = text.strip().upper()
    if len(name) >= 2 and name[0] in COLUMNS and name[1:].isdigit():
        row = int(name[1:])
        if 1 <= row <= SIZE:
            return (row - 1) * SIZE + COLUMNS.index(name[0])
    raise InvalidNotation(f"{text!r} is not a square: columns A-O then rows 1-15, e.g. H8")


def coords(square: int) -> tuple[int, int]:
    """``(row, col)`` of *square*, each 0-14."""
    return divmod(square, SIZE)


def line_of(square: int, direction: Direction) -> tuple[int, int]:
    """``(line, position)``: the row (across) or column (down) *square* is on, and its
    index along that line."""
    row, col = divmod(square, SIZE)
    return (row, col) if direction is ACROSS else (col, row)


def square_at(line: int, position: int, direction: Direction) -> int:
    """Inverse of :func:`line_of`."""
    return line * SIZE + position if direction is ACROSS else position * SIZE + line


# --- premium squares (the "classic premium layout") -------------------------------


def _squares(names: str) -> frozenset[int]:
    return frozenset(parse_square(n) for n in names.split())


def _mirrors(squares: Iterable[int]) -> frozenset[int]:
    found = set()
    for sq in squares:
        row, col = divmod(sq, SIZE)
        for r in (row, SIZE - 1 - row):
            for c in (col, SIZE - 1 - col):
                found.add(r * SIZE + c)
    return frozenset(found)


TRIPLE_WORD = _squares("A1 H1 O1 A8 O8 A15 H15 O15")
DOUBLE_WORD = _mirrors(_squares("B2 C3 D4 E5")) | {CENTRE}
TRIPLE_LETTER = _squares("B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10")
DOUBLE_LETTER = _squares(
    "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"
)

LETTER_MULTIPLIER: tuple[int, ...] = tuple(
    3 if sq in TRIPLE_LETTER else 2 if sq in DOUBLE_LETTER else 1 for sq in range(SQUARES)
)
"""By square: the letter premium (1, 2 or 3), used only by a tile placed on an empty square."""
WORD_MULTIPLIER: tuple[int, ...] = tuple(
    3 if sq in TRIPLE_WORD else 2 if sq in DOUBLE_WORD else 1 for sq in range(SQUARES)
)
"""By square: the word premium (1, 2 or 3), used only when a tile is placed on it empty."""


def premium_name(square: int) -> str:
    """``"TW"``, ``"DW"``, ``"TL"``, ``"DL"`` or ``""`` for a plain square."""
    if square in TRIPLE_WORD:
        return "TW"
    if square in DOUBLE_WORD:
        return "DW"
    if square in TRIPLE_LETTER:
        return "TL"
    if square in DOUBLE_LETTER:
        return "DL"
    return ""


# --- the board ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """The tiles on the board (see the module docstring). Immutable; build new boards with
    :meth:`with_tiles`."""

    letters: str
    """225 characters: the top letter of each square, ``"."`` if empty."""
    heights: bytes
    """225 bytes: tiles stacked on each square (0 empty)."""

    @classmethod
    def empty(cls) -> Board:
        """A board with no tiles."""
        return cls(EMPTY * SQUARES, bytes(SQUARES))

    @classmethod
    def from_rows(cls, rows: Sequence[str], heights: dict[int, int] | None = None) -> Board:
        """A board from up to 15 rows of text (``"."`` or space for empty, letters for tiles;
        short rows and missing rows are empty). Every tile has height 1 unless *heights*
        (square -> height) says otherwise. For tests and diagrams.

        Raises ``ValueError`` for a row over 15 squares or a character that is not a letter.
        """
        if len(rows) > SIZE:
            raise ValueError(f"{len(rows)} rows given, the board has {SIZE}")
        cells = []
        for row in rows:
            text = row.replace(" ", EMPTY).upper()
            if len(text) > SIZE or any(c != EMPTY and not "A" <= c <= "Z" for c in text):
                raise ValueError(f"bad board row {row!r}")
            cells.append(text.ljust(SIZE, EMPTY))
        letters = "".join(cells).ljust(SQUARES, EMPTY)
        h = bytearray(0 if c == EMPTY else 1 for c in letters)
        for sq, height in (heights or {}).items():
            if letters[sq] == EMPTY or not 1 <= height <= 255:
                raise ValueError(f"height {height} at {square_name(sq)} does not fit its tile")
            h[sq] = height
        return cls(letters, bytes(h))

    def letter(self, square: int) -> str:
        """The top letter on *square*, or ``"."``."""
        return self.letters[square]

    def height(self, square: int) -> int:
        """How many tiles are stacked on *square* (0 when empty)."""
        return self.heights[square]

    def is_empty(self) -> bool:
        """True before the first play."""
        return not any(self.heights)

    def line(self, index: int, direction: Direction) -> str:
        """Row *index* (across) or column *index* (down) as 15 characters."""
        if direction is ACROSS:
            return self.letters[index * SIZE : index * SIZE + SIZE]
        return self.letters[index::SIZE]

    def rows(self) -> list[str]:
        """The 15 rows, top (row 1) first."""
        return [self.line(r, ACROSS) for r in range(SIZE)]

    def tiles_on_top(self) -> str:
        """Every top letter on the board, sorted."""
        return "".join(sorted(self.letters.replace(EMPTY, "")))

    def word_at(self, square: int, direction: Direction) -> tuple[int, str]:
        """The run of tiles through *square* in *direction*: ``(first square, letters)``.

        The square itself counts as occupied even if empty (so this gives the word a tile
        placed there would join); the letter there is the board's (``"."`` if empty).
        """
        step = direction.step
        row_start = square - (square % SIZE) if direction is ACROSS else square % SIZE
        row_end = row_start + step * (SIZE - 1)
        start = square
        while start != row_start and self.letters[start - step] != EMPTY:
            start -= step
        end = square
        while end != row_end and self.letters[end + step] != EMPTY:
            end += step
        return start, self.letters[start : end + 1 : step]

    def with_tiles(self, placements: Iterable[tuple[int, str]]) -> Board:
        """A new board with each ``(square, letter)`` tile put on top (covering any tile
        there: the height grows by one)."""
        letters = list(self.letters)
        heights = bytearray(self.heights)
        for sq, letter in placements:
            letters[sq] = letter
            heights[sq] += 1
        return Board("".join(letters), bytes(heights))

    def with_word(self, word: str, square: int, direction: Direction) -> Board:
        """A new board with *word* written from *square*, a tile on every square whose
        letter differs (no rule is checked: for tests and diagrams)."""
        step = direction.step
        return self.with_tiles(
            (square + i * step, c)
            for i, c in enumerate(word.upper())
            if self.letters[square + i * step] != c
        )

    def __str__(self) -> str:
        head = "   " + " ".join(COLUMNS)
        body = [f"{r + 1:>2} " + " ".join(self.line(r, ACROSS)) for r in range(SIZE)]
        return "\n".join([head, *body])
