"""Crossword scoring (manual: "SCORING"; ``docs/rules/crossword.md#scoring``).

- **Main word**: the sum of its letters' values; each tile placed on an empty square is
  multiplied by that square's letter premium; then the sum is multiplied by the word premium of
  every square that got its first tile in this play (two double-word squares: x4; two
  triple-word squares: x9). A premium square is used once, by the first tile placed on it:
  a tile covering it later scores its plain value.
- **Other words** formed or changed (the perpendicular word through each placed tile: the
  words "you connect to") score their letters' plain values: "any other word that crosses
  that location will receive the basic tile value only". Option ``premiums_in_cross_words``
  gives them the new tile's premiums too (standard Scrabble).
- Using all 7 tiles of the rack in one play adds 50 (:data:`~.tiles.BINGO_BONUS`; added by
  :func:`parlour.games.crossword.plays.check_play`).
- At the end (:func:`end_adjustments`) each player loses the value of their unplayed tiles and
  a player who emptied their rack gains everyone else's.

>>> from parlour.games.crossword.board import Board, CENTRE, ACROSS
>>> score_word("QUICK", CENTRE - 2, ACROSS, Board.empty(), main=True)
40
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.games.crossword.board import (
    EMPTY,
    LETTER_MULTIPLIER,
    WORD_MULTIPLIER,
    Board,
    Direction,
    square_name,
)
from parlour.games.crossword.tiles import TILE_VALUES, rack_value


@dataclass(frozen=True, slots=True)
class Word:
    """A word a play formed or changed: the ``word``, its first ``square`` and
    ``direction``, its ``points`` and whether it is the ``main`` word."""

    word: str
    square: int
    direction: Direction
    points: int
    main: bool

    def __str__(self) -> str:
        return f"{self.word} {square_name(self.square)} {self.direction.value} ({self.points})"


def score_word(
    word: str,
    square: int,
    direction: Direction,
    board: Board,
    *,
    main: bool,
    premiums_in_cross_words: bool = False,
    new_squares: frozenset[int] | None = None,
) -> int:
    """Points for *word* laid from *square* in *direction* on *board* (the board before the
    play). Premiums count on the squares that are empty on *board* (they are being covered
    for the first time), for the main word, or for any word with
    *premiums_in_cross_words*. ``new_squares`` limits the premium squares to those the play
    puts a tile on (default: every empty square of the word, which is the same thing for a
    legal play).
    """
    use_premiums = main or premiums_in_cross_words
    step = direction.step
    letters = board.letters
    total = 0
    multiplier = 1
    for i, letter in enumerate(word):
        sq = square + i * step
        value = TILE_VALUES[letter]
        if use_premiums and letters[sq] == EMPTY and (new_squares is None or sq in new_squares):
            value *= LETTER_MULTIPLIER[sq]
            multiplier *= WORD_MULTIPLIER[sq]
        total += value
    return total * multiplier


def score_words(
    board: Board,
    words: Sequence[tuple[str, int, Direction, bool]],
    placed: Sequence[tuple[int, str]],
    premiums_in_cross_words: bool = False,
) -> tuple[Word, ...]:
    """Score each ``(word, first square, direction, is main)`` a play forms on *board* (the
    board before the play), where the play puts the tiles *placed* (``(square, letter)``)."""
    new = frozenset(sq for sq, _ in placed)
    return tuple(
        Word(
            word,
            start,
            direction,
            score_word(
                word,
                start,
                direction,
                board,
                main=main,
                premiums_in_cross_words=premiums_in_cross_words,
                new_squares=new,
            ),
            main,
        )
        for word, start, direction, main in words
    )


def end_adjustments(racks: Sequence[str], out: int | None) -> list[int]:
    """Points each seat gains (positive) or loses (negative) at the end.

    Each seat loses the value of the tiles left on its rack; the seat *out* (who emptied
    their rack, if any) gains the sum of everyone else's.

    >>> end_adjustments(["", "QA", "ZE"], out=0)
    [22, -11, -11]
    >>> end_adjustments(["E", "QA"], out=None)
    [-1, -11]
    """
    left = [rack_value(r) for r in racks]
    adjust = [-v for v in left]
    if out is not None:
        adjust[out] += sum(left)
    return adjust
