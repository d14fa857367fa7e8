"""Every legal play in a position, fast: anchors and cross-checks over the word graph, cover
plays included (``docs/rules/crossword.md#move-generator``).

The method is Appel and Jacobson's ("The world's fastest Scrabble program", CACM 31(5), 1988),
widened for a game where a tile may cover another:

- **Cross-checks.** For each square, and each direction a play can run, the letters a rack
  tile may have there so that the perpendicular word it makes is in the lexicon, with the
  plain points of that word's other letters. An *occupied* square has one too: covering its
  letter re-spells the whole perpendicular word through it. The check is computed from the
  whole perpendicular word (its letters before and after the square), so a cover anywhere in
  that word changes it: nothing is kept between positions but a memo keyed by those letters.
- **Anchors.** A play must contain a *connection square*: an occupied square (kept or
  covered) or an empty square with a perpendicular neighbour; on the empty board, H8. Each
  play is generated once, from the leftmost (topmost) connection square it contains: its
  *anchor*. Left of the anchor lie only empty squares with no neighbour, so the *left part* is
  any prefix in the word graph spelt from the rack; the rack's prefixes are listed once per
  call and tried at every anchor they fit.
- **Extending right** from the anchor square by square, following the word graph: an empty
  square takes a rack tile allowed by its cross-check; an occupied square keeps its letter
  or, if its stack may grow, is covered by a different rack tile allowed by its cross-check.
  A word may end where the next square is empty or off the board, once it has placed a tile
  and has two letters or more. A run of two or more board tiles must keep at least one of
  them (unless ``cover_whole_word``).
- **Scores** are summed on the way: the main word's letters (premiums only on empty squares),
  the word multipliers, and each cross word (plain, or with the new tile's premiums under
  ``premiums_in_cross_words``), plus 50 for seven tiles.
- **One-tile plays** are listed in each direction the tile makes a word in: the declared
  direction decides the played word, so a tile with a word across and a word down gives two
  plays with their own scores.

The result agrees exactly with :func:`~parlour.games.crossword.plays.check_play`: the tests run
every generated play through it (same play, score and words) and compare the list with the
reference enumerator (``tests/games/crossword/reference.py``) and with brute force.

>>> from parlour.games.crossword.board import parse_square
>>> from parlour.games.crossword.lexicon import Lexicon
>>> gen = MoveGenerator.for_lexicon(Lexicon.from_words(["QUICK", "QUACK", "ICK"]))
>>> opening = gen.moves(Board.empty(), "QUICKAB")
>>> len(opening), max(opening).score, str(max(opening).play)
(26, 60, 'QUICK D8 across')
>>> board = Board.empty().with_word("QUICK", parse_square("H8"), ACROSS)
>>> [(str(m.play), m.score, m.tiles, m.covers) for m in gen.moves(board, "AEIOU")]
[('QUACK H8 across', 20, 'A', 1)]
"""

from __future__ import annotations

import re
from typing import NamedTuple

from parlour.games.crossword.board import (
    ACROSS,
    CENTRE,
    DOWN,
    EMPTY,
    LETTER_MULTIPLIER,
    SIZE,
    SQUARES,
    WORD_MULTIPLIER,
    Board,
    Direction,
)
from parlour.games.crossword.lexicon import MIN_WORD, Lexicon
from parlour.games.crossword.notation import Play
from parlour.games.crossword.plays import DEFAULT_RULES, CrosswordRules, ScoredPlay
from parlour.games.crossword.scoring import Word
from parlour.games.crossword.tiles import BINGO_BONUS, LETTERS, RACK_SIZE, TILE_VALUES
from parlour.games.crossword.wordgraph import TERMINAL, WordGraph, load_word_graph

FULL = (1 << 26) - 1
"""The cross-check of a square with no perpendicular word: every letter."""
NO_CROSS = -1
"""The cross-word base of a square with no perpendicular word."""
VALUES = [TILE_VALUES[letter] for letter in LETTERS]
"""Tile values by letter code (0 for A)."""
MEMO_LIMIT = 200_000
"""The cross-check memo is cleared when it grows past this many entries."""

_A = ord("A")
_RUNS = re.compile(r"[A-Z]+")
_LINES = {
    ACROSS: [list(range(row * SIZE, row * SIZE + SIZE)) for row in range(SIZE)],
    DOWN: [list(range(col, SQUARES, SIZE)) for col in range(SIZE)],
}


class Move(NamedTuple):
    """A legal play as the generator finds it: its ``score`` (points, bingo included), the
    ``word`` as it reads, its first ``square`` and ``direction``, the rack letters it uses
    (``tiles``, reading order) and how many tiles it ``covers``. :meth:`scored` gives the
    full :class:`~parlour.games.crossword.plays.ScoredPlay`."""

    score: int
    word: str
    square: int
    direction: Direction
    tiles: str
    covers: int

    @property
    def play(self) -> Play:
        """The play, in the notation's form."""
        return Play(self.word, self.square, self.direction)

    @property
    def bingo(self) -> bool:
        """True if all seven tiles of a full rack are used."""
        return len(self.tiles) == RACK_SIZE

    def scored(self, board: Board, rules: CrosswordRules = DEFAULT_RULES) -> ScoredPlay:
        """The :class:`ScoredPlay` of this move on *board* (the board it was generated on):
        tiles placed and covered, each word with its points, as
        :func:`~parlour.games.crossword.plays.check_play` reports them."""
        return expand(board, self, rules)


class CrossChecks(NamedTuple):
    """For plays in one direction, by square: ``masks`` the letters a rack tile may have
    there (bit 0 is A) and ``bases`` the plain points of the perpendicular word's other
    letters, or :data:`NO_CROSS` when the square has no perpendicular word."""

    masks: list[int]
    bases: list[int]


class MoveGenerator:
    """Lists every legal play for a rack on a board, for one lexicon's word graph and one
    set of house rules. Keeps a memo of cross-checks (by the perpendicular word's letters),
    so reuse one generator for a game: :meth:`for_lexicon` shares one per lexicon and rules.
    """

    def __init__(self, graph: WordGraph, rules: CrosswordRules = DEFAULT_RULES) -> None:
        self.graph = graph
        self.rules = rules
        self._memo: dict[str, tuple[int, int]] = {}

    @classmethod
    def for_lexicon(cls, lexicon: Lexicon, rules: CrosswordRules = DEFAULT_RULES) -> MoveGenerator:
        """The shared generator for *lexicon* (its word graph loaded or built, through the
        cache in the data directory) and *rules*."""
        key = (lexicon.digest, rules)
        found = _SHARED.get(key)
        if found is None:
            found = _SHARED[key] = cls(load_word_graph(lexicon), rules)
        return found

    # --- cross-checks -------------------------------------------------------------------

    def cross_checks(self, board: Board, direction: Direction) -> CrossChecks:
        """The cross-checks of every square for plays in *direction* (see
        :class:`CrossChecks`): empty squares next to a tile across the line, and occupied
        squares whose perpendicular word has two letters or more."""
        masks = [FULL] * SQUARES
        bases = [NO_CROSS] * SQUARES
        other = direction.other
        lines = _LINES[other]
        memo = self._memo
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        for index in range(SIZE):
            text = board.line(index, other)
            runs = [(m.start(), m.end()) for m in _RUNS.finditer(text)]
            if not runs:
                continue
            squares = lines[index]
            before: dict[int, str] = {}
            after: dict[int, str] = {}
            for start, end in runs:
                word = text[start:end]
                if start > 0:
                    after[start - 1] = word
                if end < SIZE:
                    before[end] = word
                if end - start >= MIN_WORD:
                    for p in range(start, end):
                        i = p - start
                        key = f"{word[:i]}.{word[i + 1 :]}"
                        found = memo.get(key)
                        if found is None:
                            found = memo[key] = self._check(word[:i], word[i + 1 :])
                        masks[squares[p]], bases[squares[p]] = found
            for p in before.keys() | after.keys():
                prefix, suffix = before.get(p, ""), after.get(p, "")
                key = f"{prefix}.{suffix}"
                found = memo.get(key)
                if found is None:
                    found = memo[key] = self._check(prefix, suffix)
                masks[squares[p]], bases[squares[p]] = found
        return CrossChecks(masks, bases)

    def _check(self, prefix: str, suffix: str) -> tuple[int, int]:
        """(letters x with prefix + x + suffix a word, plain points of prefix + suffix)."""
        masks = self.graph.masks
        edges = self.graph.edges
        base = sum(TILE_VALUES[c] for c in prefix) + sum(TILE_VALUES[c] for c in suffix)
        node = 0
        for c in prefix:
            node = edges.get(node << 5 | (ord(c) - _A), -1)
            if node < 0:
                return 0, base
        rest = [ord(c) - _A for c in suffix]
        mask = 0
        letters = masks[node] & FULL
        while letters:
            low = letters & -letters
            letters ^= low
            end = edges[node << 5 | (low.bit_length() - 1)]
            for code in rest:
                end = edges.get(end << 5 | code, -1)
                if end < 0:
                    break
            else:
                if masks[end] & TERMINAL:
                    mask |= low
        return mask, base

    # --- plays ---------------------------------------------------------------------------

    def moves(self, board: Board, rack: str) -> list[Move]:
        """Every legal play for *rack* (letters A-Z) on *board*, each once (a one-tile play
        once per direction it makes a word in), in a fixed order (across before down, line
        by line, anchor by anchor). Empty for an empty rack."""
        if not rack:
            return []
        counts = [0] * 26
        for tile in rack:
            counts[ord(tile) - _A] += 1
        found: list[Move] = []
        prefixes = self._prefixes(counts)
        for direction in (ACROSS, DOWN):
            checks = self.cross_checks(board, direction)
            for index in range(SIZE):
                self._line(board, direction, index, counts, checks, prefixes, found)
        return found

    def plays(self, board: Board, rack: str) -> list[ScoredPlay]:
        """Every legal play for *rack* on *board* as :class:`ScoredPlay` (see :meth:`moves`)."""
        rules = self.rules
        return [expand(board, move, rules) for move in self.moves(board, rack)]

    def _prefixes(self, counts: list[int]) -> list[tuple[int, int, str, tuple[int, ...], int]]:
        """Every non-empty prefix in the word graph spelt from the rack *counts*, as
        ``(length, node, letters, letter codes, rack mask left)``, shortest first."""
        masks = self.graph.masks
        edges = self.graph.edges
        found: list[tuple[int, int, str, tuple[int, ...], int]] = []
        rack_mask = 0
        for code, n in enumerate(counts):
            if n:
                rack_mask |= 1 << code

        def grow(node: int, letters: str, codes: tuple[int, ...], left: int) -> None:
            options = masks[node] & left
            while options:
                low = options & -options
                options ^= low
                code = low.bit_length() - 1
                child = edges[node << 5 | code]
                n = counts[code] - 1
                counts[code] = n
                rest = left if n else left ^ low
                word, more = letters + LETTERS[code], (*codes, code)
                found.append((len(word), child, word, more, rest))
                grow(child, word, more, rest)
                counts[code] = n + 1

        grow(WordGraph.ROOT, "", (), rack_mask)
        found.sort(key=lambda entry: entry[0])
        return found

    def _line(
        self,
        board: Board,
        direction: Direction,
        index: int,
        counts: list[int],
        checks: CrossChecks,
        prefixes: list[tuple[int, int, str, tuple[int, ...], int]],
        found: list[Move],
    ) -> None:
        """Add the plays of one row (across) or column (down) to *found*."""
        squares = _LINES[direction][index]
        letters = board.letters
        heights = board.heights
        rules = self.rules
        first = board.is_empty()
        # per position on the line (16: the last is off the board, an empty end)
        codes = [-1] * (SIZE + 1)
        for p, sq in enumerate(squares):
            if letters[sq] != EMPTY:
                codes[p] = ord(letters[sq]) - _A
        if first:
            if CENTRE not in squares:
                return
            anchors = [squares.index(CENTRE)]
        else:
            bases_all = checks.bases
            anchors = [
                p
                for p in range(SIZE)
                if (codes[p] >= 0 or bases_all[squares[p]] != NO_CROSS)
                and (p == 0 or codes[p - 1] < 0)
            ]
            if not anchors:
                return
        cross = [checks.masks[sq] for sq in squares]
        base = [checks.bases[sq] for sq in squares]
        lm = [LETTER_MULTIPLIER[sq] if codes[p] < 0 else 1 for p, sq in enumerate(squares)]
        wm = [WORD_MULTIPLIER[sq] if codes[p] < 0 else 1 for p, sq in enumerate(squares)]
        stack_ok = rules.max_stack != 1
        coverable = [
            codes[p] >= 0 and stack_ok and (not rules.max_stack or heights[sq] < rules.max_stack)
            for p, sq in enumerate(squares)
        ]
        # run_start[p]: an occupied square starting a run; run_end[p]: the last square of a
        # run of 2+ tiles (the play must have kept one of them by then)
        run_start = [codes[p] >= 0 and (p == 0 or codes[p - 1] < 0) for p in range(SIZE)]
        run_end = [
            codes[p] >= 0 and codes[p + 1] < 0 and p > 0 and codes[p - 1] >= 0 for p in range(SIZE)
        ]
        whole_ok = rules.cover_whole_word
        premium_cross = rules.premiums_in_cross_words
        graph = self.graph
        masks = graph.masks
        edges = graph.edges
        values = VALUES
        alphabet = LETTERS
        emit = found.append

        def extend(
            p: int,
            node: int,
            rack: int,
            main: int,
            mult: int,
            crossed: int,
            placed: int,
            word: str,
            used: str,
            covers: int,
            whole: bool,
        ) -> None:
            # The word so far fills the squares before p, a square on the board: try each
            # letter square p may take. A word may end after p when the next square is empty
            # or off the board; the search goes on into an empty next square only if some
            # rack tile fits there (checked here, saving a call), into a tile always.
            here = codes[p]
            node_mask = masks[node]
            after = p + 1
            ends = codes[after] < 0
            more = after < SIZE
            if here < 0:
                options = rack & cross[p] & node_mask
                factor = lm[p]
                times = wm[p]
                xb = base[p]
                while options:
                    low = options & -options
                    options ^= low
                    code = low.bit_length() - 1
                    child = edges[node << 5 | code]
                    n = counts[code] - 1
                    left = rack if n else rack ^ low
                    value = values[code] * factor
                    if xb < 0:
                        add = 0
                    elif premium_cross:
                        add = (xb + value) * times
                    else:
                        add = xb + values[code]
                    letter = alphabet[code]
                    if ends:
                        child_mask = masks[child]
                        if child_mask & TERMINAL and word:
                            total = (main + value) * mult * times + crossed + add
                            if placed == RACK_SIZE - 1:
                                total += BINGO_BONUS
                            start = squares[after - len(word) - 1]
                            spelt = word + letter
                            emit(Move(total, spelt, start, direction, used + letter, covers))
                        if not (more and left & cross[after] & child_mask):
                            continue
                    counts[code] = n
                    extend(
                        after,
                        child,
                        left,
                        main + value,
                        mult * times,
                        crossed + add,
                        placed + 1,
                        word + letter,
                        used + letter,
                        covers,
                        False,
                    )
                    counts[code] = n + 1
                return
            if run_start[p]:
                whole = True
            if node_mask >> here & 1:  # keep the board's letter
                child = edges[node << 5 | here]
                letter = alphabet[here]
                go = True
                if ends:
                    child_mask = masks[child]
                    if child_mask & TERMINAL and placed:
                        total = (main + values[here]) * mult + crossed
                        if placed == RACK_SIZE:
                            total += BINGO_BONUS
                        start = squares[after - len(word) - 1]
                        emit(Move(total, word + letter, start, direction, used, covers))
                    go = more and bool(rack & cross[after] & child_mask)
                if go:
                    extend(
                        after,
                        child,
                        rack,
                        main + values[here],
                        mult,
                        crossed,
                        placed,
                        word + letter,
                        used,
                        covers,
                        False,
                    )
            if not coverable[p] or (run_end[p] and whole and not whole_ok):
                return
            options = rack & cross[p] & node_mask & ~(1 << here)
            xb = base[p]
            while options:
                low = options & -options
                options ^= low
                code = low.bit_length() - 1
                child = edges[node << 5 | code]
                n = counts[code] - 1
                left = rack if n else rack ^ low
                value = values[code]
                add = xb + value if xb >= 0 else 0
                letter = alphabet[code]
                if ends:
                    child_mask = masks[child]
                    if child_mask & TERMINAL and word:
                        total = (main + value) * mult + crossed + add
                        if placed == RACK_SIZE - 1:
                            total += BINGO_BONUS
                        start = squares[after - len(word) - 1]
                        spelt = word + letter
                        emit(Move(total, spelt, start, direction, used + letter, covers + 1))
                    if not (more and left & cross[after] & child_mask):
                        continue
                counts[code] = n
                extend(
                    after,
                    child,
                    left,
                    main + value,
                    mult,
                    crossed + add,
                    placed + 1,
                    word + letter,
                    used + letter,
                    covers + 1,
                    whole,
                )
                counts[code] = n + 1

        rack_mask = 0
        for code, n in enumerate(counts):
            if n:
                rack_mask |= 1 << code
        for anchor in anchors:
            # the left part: empty squares with no perpendicular neighbour before the anchor
            room = 0
            q = anchor - 1
            while q >= 0 and codes[q] < 0 and base[q] == NO_CROSS:
                room += 1
                q -= 1
            if q >= 0 and codes[q] >= 0:
                room -= 1  # the square before a word must be empty
            extend(anchor, WordGraph.ROOT, rack_mask, 0, 1, 0, 0, "", "", 0, True)
            if room <= 0:
                continue
            here = codes[anchor]
            if here < 0:
                place, keep = cross[anchor], 0
            else:
                place = cross[anchor] & ~(1 << here) if coverable[anchor] else 0
                keep = 1 << here
            for length, node, text, left_codes, left_rack in prefixes:
                if length > room:
                    break
                if not masks[node] & (place & left_rack | keep):
                    continue
                main = 0
                mult = 1
                p = anchor - length
                for code in left_codes:
                    main += values[code] * lm[p]
                    mult *= wm[p]
                    counts[code] -= 1
                    p += 1
                extend(anchor, node, left_rack, main, mult, 0, length, text, text, 0, True)
                for code in left_codes:
                    counts[code] += 1


def expand(board: Board, move: Move, rules: CrosswordRules = DEFAULT_RULES) -> ScoredPlay:
    """The :class:`ScoredPlay` of a generated *move* on *board*: the tiles it places and
    covers and each word it forms with its points (the main word first, then the cross
    words in reading order), computed the way :mod:`.scoring` does."""
    step = move.direction.step
    letters = board.letters
    placed: list[tuple[int, str]] = []
    covered: list[str] = []
    main_total = 0
    multiplier = 1
    words: list[Word] = []
    for i, letter in enumerate(move.word):
        sq = move.square + i * step
        here = letters[sq]
        value = TILE_VALUES[letter]
        if here == letter:
            main_total += value
            continue
        placed.append((sq, letter))
        if here == EMPTY:
            main_total += value * LETTER_MULTIPLIER[sq]
            multiplier *= WORD_MULTIPLIER[sq]
        else:
            main_total += value
            covered.append(here)
        start, text = _cross_word(board, sq, letter, move.direction.other)
        if len(text) >= MIN_WORD:
            total = sum(TILE_VALUES[c] for c in text)
            if rules.premiums_in_cross_words and here == EMPTY:
                total = (total + value * (LETTER_MULTIPLIER[sq] - 1)) * WORD_MULTIPLIER[sq]
            words.append(Word(text, start, move.direction.other, total, False))
    main = Word(move.word, move.square, move.direction, main_total * multiplier, True)
    return ScoredPlay(
        play=move.play,
        placed=tuple(placed),
        covered="".join(sorted(covered)),
        tiles=move.tiles,
        words=(main, *words),
        bingo=len(placed) == RACK_SIZE,
        score=move.score,
    )


def _cross_word(board: Board, square: int, letter: str, direction: Direction) -> tuple[int, str]:
    """The word through *square* in *direction* with *letter* there: (first square, text)."""
    start, text = board.word_at(square, direction)
    offset = (square - start) // direction.step
    return start, text[:offset] + letter + text[offset + 1 :]


_SHARED: dict[tuple[str, CrosswordRules], MoveGenerator] = {}
