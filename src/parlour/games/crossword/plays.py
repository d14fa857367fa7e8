"""What makes a crossword play legal, and what it forms (``docs/rules/crossword.md#a-play``).

:func:`check_play` is the one place the rules of a play live. It is a pure function of the
board, the play, the rack, the lexicon and the house rules, so a move generator can call it
to check its own plays, and the game state calls it before every play.

A play gives the whole word as it will read, its first square and a direction (the manual's
"PLAY WORD" prompts). Each square of the word is either

- **empty**: a tile from the rack goes there ("placed");
- **the same letter**: kept (no tile; a tile never covers its own letter);
- **another letter**: a tile from the rack covers it ("covered"; the old tile leaves the game).

The play is legal only if the word fits on the board; the squares just before and after it
are empty (a word is written in full); at least one tile is placed or covers; the rack holds
the letters; the first play covers H8 and every later play uses or touches (orthogonally) a
tile on the board; no existing word has all its tiles covered (unless ``cover_whole_word``);
no stack grows past ``max_stack``; and every word formed or changed is in the lexicon: the
main word and, through each placed or covering tile, the perpendicular word.

A play that puts only one tile from the rack is scored as declared: its direction says which
word is the played word (premiums apply to it) and which the cross word, so ``SHAM K5 down``
and ``SO K5 across`` with the same S are two plays with their own scores
(``docs/rules/crossword.md#one-tile-plays``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import IllegalMove
from parlour.games.crossword.board import (
    ACROSS,
    CENTRE,
    DOWN,
    EMPTY,
    SIZE,
    Board,
    Direction,
    line_of,
    square_name,
)
from parlour.games.crossword.lexicon import MAX_WORD, MIN_WORD, Lexicon
from parlour.games.crossword.notation import Play
from parlour.games.crossword.scoring import Word, score_words
from parlour.games.crossword.tiles import BINGO_BONUS, RACK_SIZE, is_letters, take


@dataclass(frozen=True, slots=True)
class CrosswordRules:
    """The house rules that change what a play may do (game options of the same names).

    ``cover_whole_word``: a play may cover every tile of an existing word (default: no).
    ``max_stack``: the most tiles a square may hold, 0 for no limit (1 forbids covering).
    ``premiums_in_cross_words``: cross words use the premiums of newly covered squares too
    (standard Scrabble); by default only the main word does (the manual).
    """

    cover_whole_word: bool = False
    max_stack: int = 0
    premiums_in_cross_words: bool = False

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> CrosswordRules:
        """The rules of a game's resolved options."""
        return cls(
            cover_whole_word=bool(options.get("cover_whole_word", False)),
            max_stack=int(options.get("max_stack", 0)),
            premiums_in_cross_words=bool(options.get("premiums_in_cross_words", False)),
        )


DEFAULT_RULES = CrosswordRules()
"""The manual's rules (every option at its default)."""


@dataclass(frozen=True, slots=True)
class ScoredPlay:
    """A legal play and everything it does.

    ``play``: the play as declared; ``placed``: ``(square, letter)`` for each tile the
    rack puts down, in reading order, covering or not; ``covered``: the letters those tiles
    cover (sorted; they leave the game); ``tiles``: the rack letters used, in reading order;
    ``words``: the words formed or changed, the main word first, with their points;
    ``bingo``: all 7 tiles of a full rack used; ``score``: total points, bonus included.
    """

    play: Play
    placed: tuple[tuple[int, str], ...]
    covered: str
    tiles: str
    words: tuple[Word, ...]
    bingo: bool
    score: int

    @property
    def is_cover(self) -> bool:
        """True if the play covers at least one tile."""
        return bool(self.covered)


def _where(square: int) -> str:
    return square_name(square)


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def play_from_tiles(
    board: Board, tiles: Sequence[tuple[int, str]], *, direction: Direction | None = None
) -> Play:
    """The play that lays *tiles* (``(square, letter)``, in any order) on *board*: its
    direction and the whole word they make with the tiles already in line with them. For
    interfaces where a player puts tiles on squares one by one.

    A single tile reads in *direction* when given (it decides the played word, see
    :func:`check_play`), else across if it has a neighbour across, else down; two or more
    tiles read along their line (*direction* is then ignored). Raises
    :class:`IllegalMove` for no tiles, two tiles on one square, tiles not in one row or
    column, a gap (an empty square between them), or a tile on its own letter. The play is
    not checked otherwise: pass it to :func:`check_play`.

    >>> cat = Board.empty().with_word("CAT", 111, ACROSS)
    >>> str(play_from_tiles(cat, [(114, "S")]))
    'CATS G8 across'
    >>> str(play_from_tiles(cat, [(128, "O")], direction=DOWN))
    'TO I8 down'
    """
    if not tiles:
        raise IllegalMove("put at least one tile on the board")
    squares = sorted(sq for sq, _ in tiles)
    if len(set(squares)) != len(squares):
        raise IllegalMove("two tiles on one square")
    for sq, letter in tiles:
        if board.letters[sq] == letter:
            raise IllegalMove(f"{letter} on {_where(sq)} would cover its own letter")
    rows = {sq // SIZE for sq in squares}
    cols = {sq % SIZE for sq in squares}
    if len(squares) == 1:
        if direction is None:
            _, word = board.with_tiles(tiles).word_at(squares[0], ACROSS)
            direction = ACROSS if len(word) >= MIN_WORD else DOWN
    elif len(rows) == 1:
        direction = ACROSS
    elif len(cols) == 1:
        direction = DOWN
    else:
        raise IllegalMove("the tiles of a play go in one row or one column")
    step = direction.step
    for sq in range(squares[0], squares[-1], step):
        if board.letters[sq] == EMPTY and sq not in squares:
            raise IllegalMove(f"gap at {_where(sq)}: a play's tiles make one unbroken word")
    after = board.with_tiles(tiles)
    start, word = after.word_at(squares[0], direction)
    return Play(word, start, direction)


def check_play(
    board: Board, play: Play, rack: str, lexicon: Lexicon, rules: CrosswordRules | None = None
) -> ScoredPlay:
    """Check *play* on *board* for a player holding *rack*, and score it.

    Returns the :class:`ScoredPlay` (the play, tiles, words, points). The declared
    direction decides the played word, for one tile too. Raises
    :class:`IllegalMove` with the first reason the play is refused, in this order: the word's
    form, fitting on the board, the squares before and after, tiles placed, stack height,
    the rack, the centre or a connection, covering a whole word, then the lexicon. Changes
    nothing.

    >>> from parlour.games.crossword.lexicon import Lexicon
    >>> from parlour.games.crossword.notation import parse
    >>> lex = Lexicon.from_words(["QUICK", "QUACK"])
    >>> first = check_play(Board.empty(), parse("QUICK H8 across"), "QUICKXY", lex)
    >>> first.score, first.tiles
    (50, 'QUICK')
    >>> board = Board.empty().with_tiles(first.placed)
    >>> cover = check_play(board, parse("QUACK H8 across"), "AEIOU", lex)
    >>> cover.placed, cover.covered, cover.score
    (((114, 'A'),), 'I', 20)
    """
    rules = rules or DEFAULT_RULES
    word, start, direction = play.word, play.square, play.direction
    if not is_letters(word):
        raise IllegalMove(f"{word!r} is not a word: letters A-Z only")
    if not MIN_WORD <= len(word) <= MAX_WORD:
        letters = "1 letter" if len(word) == 1 else f"{len(word)} letters"
        raise IllegalMove(f"{word} has {letters}: a word has {MIN_WORD}-{MAX_WORD}")
    if not 0 <= start < SIZE * SIZE:
        raise IllegalMove(f"square {start} is not on the board")
    _, first = line_of(start, direction)
    last = first + len(word) - 1
    if last >= SIZE:
        raise IllegalMove(
            f"{play} does not fit on the board: {len(word)} letters from {_where(start)} "
            f"{direction.value} run {last - SIZE + 1} past the edge"
        )
    step = direction.step
    letters = board.letters
    end = start + step * (len(word) - 1)
    if first > 0 and letters[start - step] != EMPTY:
        before = start - step
        raise IllegalMove(
            f"{_where(before)}, just before {word}, holds {letters[before]}: a play gives the "
            "whole word as it will read, so start it there"
        )
    if last < SIZE - 1 and letters[end + step] != EMPTY:
        after = end + step
        raise IllegalMove(
            f"{_where(after)}, just after {word}, holds {letters[after]}: a play gives the "
            "whole word as it will read, so continue it there"
        )

    placed: list[tuple[int, str]] = []
    covered: list[str] = []
    kept = 0
    for i, letter in enumerate(word):
        sq = start + i * step
        here = letters[sq]
        if here == letter:
            kept += 1
            continue
        if here != EMPTY:
            if rules.max_stack and board.heights[sq] >= rules.max_stack:
                raise IllegalMove(
                    f"{_where(sq)} already holds {_tiles(board.heights[sq])}: the most a "
                    f"square may hold is {rules.max_stack} (option max_stack)"
                )
            covered.append(here)
        placed.append((sq, letter))
    if not placed:
        raise IllegalMove(
            f"{word} is already on the board at {_where(start)} {direction.value}: a play "
            "places at least one tile (a tile never covers its own letter)"
        )
    tiles = "".join(letter for _, letter in placed)
    if take(rack, tiles) is None:
        rest = list(tiles)
        for t in rack:
            if t in rest:
                rest.remove(t)
        missing = "".join(rest)
        raise IllegalMove(
            f"{play} needs the tiles {tiles} and your rack ({rack or 'empty'}) lacks {missing}"
        )

    if board.is_empty():
        if not any(sq == CENTRE for sq, _ in placed):
            raise IllegalMove(f"the first play must cover the centre square H8; {play} does not")
    elif not kept and not covered and not _touches(board, placed, direction):
        raise IllegalMove(
            f"{play} neither uses nor touches a tile on the board: every play after the first "
            "must join the words already there (diagonal contact does not count)"
        )

    if not rules.cover_whole_word and covered:
        _check_no_whole_word_covered(board, play, placed)

    words = _words_formed(board, play, placed, lexicon)
    scored_words = score_words(board, words, placed, rules.premiums_in_cross_words)
    bingo = len(placed) == RACK_SIZE
    score = sum(w.points for w in scored_words) + (BINGO_BONUS if bingo else 0)
    return ScoredPlay(
        play=play,
        placed=tuple(placed),
        covered="".join(sorted(covered)),
        tiles=tiles,
        words=scored_words,
        bingo=bingo,
        score=score,
    )


def _touches(board: Board, placed: list[tuple[int, str]], direction: Direction) -> bool:
    """True if a placed tile has an occupied orthogonal neighbour across the line."""
    letters = board.letters
    step = direction.other.step
    for sq, _ in placed:
        _, pos = line_of(sq, direction.other)
        if pos > 0 and letters[sq - step] != EMPTY:
            return True
        if pos < SIZE - 1 and letters[sq + step] != EMPTY:
            return True
    return False


def _check_no_whole_word_covered(board: Board, play: Play, placed: list[tuple[int, str]]) -> None:
    """Refuse a play that covers every tile of a word already on the board in its line."""
    placed_squares = {sq for sq, _ in placed}
    run: list[int] = []
    for sq in [*play.squares(), -1]:
        if sq >= 0 and board.letters[sq] != EMPTY:
            run.append(sq)
            continue
        if len(run) >= MIN_WORD and all(s in placed_squares for s in run):
            old = "".join(board.letters[s] for s in run)
            raise IllegalMove(
                f"{play} covers every tile of {old} ({_where(run[0])}): a play may change a "
                "word but not cover all of it (option cover_whole_word)"
            )
        run = []


def _words_formed(
    board: Board, play: Play, placed: list[tuple[int, str]], lexicon: Lexicon
) -> list[tuple[str, int, Direction, bool]]:
    """``(word, first square, direction, is main)`` for the main word and each perpendicular
    word through a placed tile; raises :class:`IllegalMove` for a word not in the lexicon."""
    if play.word not in lexicon:
        raise IllegalMove(f"{play.word} is not in the lexicon")
    found = [(play.word, play.square, play.direction, True)]
    across = play.direction.other
    after = board.with_tiles(placed)
    for sq, _ in placed:
        start, word = after.word_at(sq, across)
        if len(word) < MIN_WORD:
            continue
        if word not in lexicon:
            raise IllegalMove(
                f"{play} makes {word} ({_where(start)} {across.value}), which is not in the lexicon"
            )
        found.append((word, start, across, False))
    return found
