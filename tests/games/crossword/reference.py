"""Every legal play in a position: a simple, exact reference enumerator.

This is the plain method, written to be obviously right rather than fast: from every square
that may start a word (the edge, or an empty square before it) it extends the word square by
square, placing a rack tile on an empty square, keeping the letter on an occupied one or
covering it with a different rack tile, and prunes with the lexicon's prefixes
(:meth:`Lexicon.has_prefix`), the perpendicular words (cross-checks, computed for occupied
squares too, since a cover re-spells the perpendicular word) and the distance to the nearest
square a play may join at. Every candidate is then passed to
:func:`~parlour.games.crossword.plays.check_play`, the single source of the rules, so the
list holds exactly the plays the engine accepts, each once (a one-tile play once per
direction it makes a word in).

The move generator (a word graph with anchors) replaces it for speed; this one stays as the
oracle the generator is tested against. It lives with the tests, not in the game package,
because only tests use it (``test_reference``, ``test_movegen``, ``test_analysis`` and the
terminal app's tests); mypy checks it strictly all the same (``[tool.mypy] files``).
"""

from __future__ import annotations

from parlour.engine.errors import IllegalMove
from parlour.games.crossword.board import (
    ACROSS,
    CENTRE,
    DOWN,
    EMPTY,
    SIZE,
    Board,
    Direction,
    square_at,
)
from parlour.games.crossword.lexicon import Lexicon
from parlour.games.crossword.notation import Play
from parlour.games.crossword.plays import CrosswordRules, ScoredPlay, check_play
from parlour.games.crossword.tiles import LETTERS, take

ANY = frozenset(LETTERS)


def cross_check(
    board: Board, square: int, direction: Direction, lexicon: Lexicon
) -> frozenset[str]:
    """The letters a tile placed on (or covering) *square* may have, given the word it makes
    across *direction* (the perpendicular). Every letter when it would have no neighbour there.
    """
    start, word = board.word_at(square, direction.other)
    if len(word) == 1:
        return ANY
    index = (square - start) // direction.other.step
    prefix, suffix = word[:index], word[index + 1 :]
    return frozenset(x for x in LETTERS if prefix + x + suffix in lexicon)


def all_plays(
    board: Board, rack: str, lexicon: Lexicon, rules: CrosswordRules | None = None
) -> list[ScoredPlay]:
    """Every legal play on *board* with *rack*, scored, each once (a one-tile play once
    per direction it makes a word in), in a fixed order (by direction, line, start square, word).
    """
    if not rack:
        return []
    rules = rules or CrosswordRules()
    first = board.is_empty()
    found: dict[Play, ScoredPlay] = {}
    prefixes: dict[str, bool] = {}  # lexicon.has_prefix, remembered for this call
    for direction in (ACROSS, DOWN):
        for line in range(SIZE):
            lines = _line_plays(board, line, direction, rack, lexicon, rules, first, prefixes)
            for scored in lines:
                found.setdefault(scored.play, scored)
    return list(found.values())


def _line_plays(
    board: Board,
    line: int,
    direction: Direction,
    rack: str,
    lexicon: Lexicon,
    rules: CrosswordRules,
    first: bool,
    prefixes: dict[str, bool],
) -> list[ScoredPlay]:
    squares = [square_at(line, p, direction) for p in range(SIZE)]
    letters = [board.letters[sq] for sq in squares]
    perpendicular = direction.other.step
    anchors = []
    for p, sq in enumerate(squares):
        if first:
            anchors.append(sq == CENTRE)
            continue
        has_neighbour = _occupied(board, sq, -perpendicular) or _occupied(board, sq, perpendicular)
        anchors.append(letters[p] != EMPTY or has_neighbour)
    if not any(anchors):
        return []
    # need[p]: empty squares from p up to and including the next anchor (rack tiles needed
    # before the word joins the board); None when no anchor lies ahead
    need: list[int | None] = [None] * (SIZE + 1)
    for p in range(SIZE - 1, -1, -1):
        if anchors[p]:
            need[p] = 1 if letters[p] == EMPTY else 0
        else:
            ahead = need[p + 1]
            if ahead is not None:
                need[p] = ahead + (1 if letters[p] == EMPTY else 0)
    cross: dict[int, frozenset[str]] = {}

    def allowed(p: int) -> frozenset[str]:
        if p not in cross:
            cross[p] = cross_check(board, squares[p], direction, lexicon)
        return cross[p]

    def is_prefix(text: str) -> bool:
        known = prefixes.get(text)
        if known is None:
            known = prefixes[text] = lexicon.has_prefix(text)
        return known

    results: list[ScoredPlay] = []
    can_cover = rules.max_stack != 1

    def extend(start: int, p: int, word: str, left: str, placed: int, joined: bool) -> None:
        ends = p == SIZE or letters[p] == EMPTY
        if len(word) >= 2 and placed and joined and ends and word in lexicon:
            try:
                play = Play(word, squares[start], direction)
                results.append(check_play(board, play, rack, lexicon, rules))
            except IllegalMove:
                pass
        if p == SIZE:
            return
        if not joined:
            ahead = need[p]
            if ahead is None or ahead > len(left):
                return
        here = letters[p]
        if here == EMPTY:
            fits = allowed(p)
            for x in sorted(set(left)):
                if x in fits and is_prefix(word + x):
                    rest = take(left, x)
                    assert rest is not None
                    extend(start, p + 1, word + x, rest, placed + 1, joined or anchors[p])
            return
        if is_prefix(word + here):
            extend(start, p + 1, word + here, left, placed, True)
        if can_cover:
            fits = allowed(p)
            for x in sorted(set(left)):
                if x != here and x in fits and is_prefix(word + x):
                    rest = take(left, x)
                    assert rest is not None
                    extend(start, p + 1, word + x, rest, placed + 1, True)

    for start in range(SIZE):
        if start == 0 or letters[start - 1] == EMPTY:
            extend(start, start, "", rack, 0, False)
    return results


def _occupied(board: Board, square: int, offset: int) -> bool:
    """True if the square *offset* away from *square* (same row for +-1) holds a tile."""
    target = square + offset
    if abs(offset) == 1 and target // SIZE != square // SIZE:
        return False
    return 0 <= target < SIZE * SIZE and board.letters[target] != EMPTY
