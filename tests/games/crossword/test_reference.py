"""The reference play enumerator against brute force: every word of the lexicon tried at every
square in both directions through the rules (docs/rules/crossword.md#a-play)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.engine.errors import IllegalMove
from parlour.games.crossword.board import ACROSS, DOWN, SIZE, Board, square_at
from parlour.games.crossword.lexicon import Lexicon, load_lexicon
from parlour.games.crossword.notation import Play
from parlour.games.crossword.plays import CrosswordRules, ScoredPlay, check_play
from parlour.games.crossword.state import CrosswordState
from tests.games.crossword.reference import all_plays


def brute_force(
    board: Board, rack: str, lexicon: Lexicon, rules: CrosswordRules
) -> dict[Play, int]:
    found: dict[Play, int] = {}
    for direction in (ACROSS, DOWN):
        for line in range(SIZE):
            for start in range(SIZE):
                square = square_at(line, start, direction)
                for word in lexicon.words:
                    if start + len(word) > SIZE:
                        continue
                    play = Play(word, square, direction)
                    try:
                        scored = check_play(board, play, rack, lexicon, rules)
                    except IllegalMove:
                        continue
                    assert scored.play == play, "a play is scored as declared"
                    found[play] = scored.score
    return found


def as_dict(plays: list[ScoredPlay]) -> dict[Play, int]:
    table = {s.play: s.score for s in plays}
    assert len(table) == len(plays), "a play listed twice"
    return table


def positions(lexicon_file: str, seed: int, **options: object) -> list[CrosswordState]:
    """Positions every few turns of a seeded game of random plays."""
    state = parlour.load("crossword", lexicon=lexicon_file, **options).new_initial_state()
    assert isinstance(state, CrosswordState)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < 3:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        plays = state.plays(state.seat)
        if state.turns % 4 == 3:
            found.append(state.clone())
        state.apply(rng.choice(plays).play if plays else state.legal_actions()[-1])
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "options"),
    [(1, {}), (2, {"cover_whole_word": True}), (5, {"max_stack": 2})],
)
def test_reference_finds_exactly_the_legal_plays(
    tiny_lexicon_file: str, seed: int, options: dict[str, object]
) -> None:
    states = positions(tiny_lexicon_file, seed, **options)
    assert states
    for state in states:
        rack = state.racks[state.seat]
        expected = brute_force(state.board, rack, state.lexicon, state.rules)
        assert as_dict(all_plays(state.board, rack, state.lexicon, state.rules)) == expected


def test_a_one_tile_play_is_listed_in_each_direction() -> None:
    lexicon = Lexicon.from_words(["HAT", "BAT", "BA", "HA", "AT", "TA"])
    b = Board.empty().with_word("HA", 10 * SIZE + 8, ACROSS).with_word("BA", 8 * SIZE + 10, DOWN)
    plays = all_plays(b, "T", lexicon)
    assert as_dict(plays) == brute_force(b, "T", lexicon, CrosswordRules())
    # T on K11 (double word): HAT across (4+1+1)*2 + BAT 5 = 17, BAT down (3+1+1)*2 + HAT 6 = 16
    one_tile = {str(s.play): s.score for s in plays if s.play.word in ("HAT", "BAT")}
    assert one_tile == {"HAT I11 across": 17, "BAT K9 down": 16}


def test_the_real_lexicon_opening() -> None:
    plays = all_plays(Board.empty(), "AEINRST", load_lexicon())
    # every tile is worth 1: the best is a bingo over H8 (double word) and a double letter,
    # (7 + 1) * 2 + 50 = 66, e.g. RETAINS H8 across
    assert max(s.score for s in plays) == 66
    assert Play("RETAINS", 112, ACROSS) in {s.play for s in plays if s.score == 66}
    assert all(s.bingo for s in plays if s.score > 50)
