"""Hand-checked plays: legality and points (docs/rules/crossword.md#a-play, #scoring)."""

from __future__ import annotations

import pytest

from parlour.engine.errors import IllegalMove, InvalidNotation
from parlour.games.crossword.board import ACROSS, DOWN, Board, parse_square
from parlour.games.crossword.lexicon import load_lexicon
from parlour.games.crossword.notation import Play, parse
from parlour.games.crossword.plays import CrosswordRules, ScoredPlay, check_play, play_from_tiles
from tests.games.crossword.helpers import board

LEX = load_lexicon()
CAT = board(("CAT", "G8", ACROSS))  # G8 C, H8 A (the centre's double word used), I8 T


def score(b: Board, text: str, rack: str, rules: CrosswordRules | None = None) -> ScoredPlay:
    return check_play(b, parse(text), rack, LEX, rules)


def words(scored: ScoredPlay) -> list[tuple[str, int]]:
    return [(w.word, w.points) for w in scored.words]


def refused(
    b: Board, text: str, rack: str, match: str, rules: CrosswordRules | None = None
) -> None:
    with pytest.raises(IllegalMove, match=match):
        score(b, text, rack, rules)


# --- the first play ------------------------------------------------------------------------


def test_first_play_on_h8_doubles_the_word() -> None:
    # C3 A1 T1 = 5, H8 is a double-word square: 10
    assert score(Board.empty(), "CAT G8 across", "CATXXXX").score == 10
    assert score(Board.empty(), "CAT H6 down", "ACT").score == 10
    # Q on H8 (double word), K on L8 (double letter): (10+1+1+3+5*2) * 2 = 50
    quick = score(Board.empty(), "QUICK H8 across", "QUICKER")
    assert quick.score == 50 and quick.tiles == "QUICK" and not quick.bingo


def test_first_play_must_cover_the_centre() -> None:
    refused(Board.empty(), "CAT A1 across", "CAT", "centre square H8")
    refused(Board.empty(), "CAT I8 across", "CAT", "centre square H8")


# --- parallel plays, premiums ----------------------------------------------------------------


def test_parallel_play_scores_each_two_letter_word_once_at_plain_value() -> None:
    # TO under AT of CAT: T on H9, O on I9 (double letter). Main word TO = 1 + 1*2 = 3;
    # the words connected to: AT (H8-H9) = 2 and TO (I8-I9) = 2, plain values.
    scored = score(CAT, "TO H9 across", "OT")
    assert words(scored) == [("TO", 3), ("AT", 2), ("TO", 2)]
    assert scored.score == 7
    # standard Scrabble option: the O's double letter counts in its cross word too
    scrabble = score(CAT, "TO H9 across", "OT", CrosswordRules(premiums_in_cross_words=True))
    assert words(scrabble) == [("TO", 3), ("AT", 2), ("TO", 3)] and scrabble.score == 8


def test_parallel_play_under_a_whole_word() -> None:
    # ADO under HAT: A on G9 and O on I9 are double letters: main word 1*2 + 2 + 1*2 = 6;
    # HA 4+1, AD 1+2, TO 1+1 at plain value (the A's and O's premiums are not used again)
    b = board(("HAT", "G8", ACROSS))
    scored = score(b, "ADO G9 across", "ADO")
    assert words(scored) == [("ADO", 6), ("HA", 5), ("AD", 3), ("TO", 2)]
    assert scored.score == 16


def test_play_through_two_double_word_squares_is_quadrupled() -> None:
    b = board(("SCAT", "H5", DOWN))
    # GLASSES E5-K5 keeps the S on H5; E5 and K5 are double-word squares:
    # (2+1+1+1+1+1+1) * 2 * 2 = 32, no cross words
    scored = score(b, "GLASSES E5 across", "GLASESX")
    assert scored.tiles == "GLASES" and words(scored) == [("GLASSES", 32)]
    assert scored.score == 32


def test_premium_square_is_not_used_twice() -> None:
    # H8 already has a tile: neither keeping it nor covering it doubles the word again
    assert words(score(CAT, "CATS G8 across", "S")) == [("CATS", 6)]
    cot = score(CAT, "COT G8 across", "O")
    assert words(cot) == [("COT", 5)] and cot.covered == "A"


# --- covering -------------------------------------------------------------------------------


def test_quick_to_quack() -> None:
    quick = board(("QUICK", "H8", ACROSS))
    scored = score(quick, "QUACK H8 across", "AEIOU")
    # one tile: A covers the I on J8 (its premium long used): 10+1+1+3+5 = 20
    assert scored.placed == ((parse_square("J8"), "A"),)
    assert scored.covered == "I" and scored.tiles == "A" and scored.score == 20
    after = quick.with_tiles(scored.placed)
    assert after.line(7, ACROSS)[7:12] == "QUACK" and after.height(parse_square("J8")) == 2


def test_cover_changing_a_perpendicular_word() -> None:
    b = board(("CAT", "G8", ACROSS), ("AX", "H8", DOWN))
    # O covers the shared A: COT (5) and the changed down word OX (1+8), plain values
    scored = score(b, "COT G8 across", "O")
    assert words(scored) == [("COT", 5), ("OX", 9)] and scored.score == 14
    # U would turn AX into UX, which is not a word
    refused(b, "CUT G8 across", "U", "makes UX")


def test_covering_a_whole_word_is_refused_by_default() -> None:
    refused(CAT, "DOG G8 across", "DOG", "covers every tile of CAT")
    allowed = score(CAT, "DOG G8 across", "DOG", CrosswordRules(cover_whole_word=True))
    assert allowed.covered == "ACT" and allowed.score == 5


def test_a_tile_never_covers_its_own_letter() -> None:
    refused(CAT, "CAT G8 across", "CAT", "already on the board")
    # keeping the same letters uses no rack tile for them
    assert score(CAT, "CATS G8 across", "S").tiles == "S"


def test_max_stack_limits_covering() -> None:
    quack = board(("QUICK", "H8", ACROSS)).with_word("QUACK", parse_square("H8"), ACROSS)
    refused(quack, "QUICK H8 across", "I", "already holds 2 tiles", CrosswordRules(max_stack=2))
    assert score(quack, "QUICK H8 across", "I", CrosswordRules(max_stack=3)).score == 20
    refused(CAT, "COT G8 across", "O", "at most|most a square", CrosswordRules(max_stack=1))


# --- where a play may go ---------------------------------------------------------------------


def test_touching_only_diagonally_is_refused() -> None:
    refused(CAT, "OX J9 across", "OX", "neither uses nor touches")


def test_a_gap_is_refused() -> None:
    with pytest.raises(IllegalMove, match="letters A-Z"):
        check_play(CAT, Play("C.T", parse_square("G8"), ACROSS), "CT", LEX)
    with pytest.raises(InvalidNotation):
        parse("C.T G8 across")
    # tiles laid one by one (the cursor in the terminal game) with an empty square between
    with pytest.raises(IllegalMove, match="gap at K8"):
        play_from_tiles(CAT, [(parse_square("J8"), "S"), (parse_square("L8"), "X")])


def test_play_from_tiles_builds_the_whole_word() -> None:
    play = play_from_tiles(CAT, [(parse_square("J8"), "S")])
    assert play == Play("CATS", parse_square("G8"), ACROSS)
    assert play_from_tiles(CAT, [(parse_square("H9"), "T"), (parse_square("I9"), "O")]) == Play(
        "TO", parse_square("H9"), ACROSS
    )
    assert play_from_tiles(CAT, [(parse_square("I9"), "O")]) == Play("TO", parse_square("I8"), DOWN)
    with pytest.raises(IllegalMove, match="one row or one column"):
        play_from_tiles(CAT, [(parse_square("J8"), "S"), (parse_square("K9"), "O")])


def test_play_from_tiles_takes_a_one_tile_plays_direction() -> None:
    k5 = parse_square("K5")
    s_on_k5 = [(k5, "S")]
    assert play_from_tiles(SHAM, s_on_k5) == Play("SO", k5, ACROSS)
    assert play_from_tiles(SHAM, s_on_k5, direction=DOWN) == Play("SHAM", k5, DOWN)
    assert play_from_tiles(SHAM, s_on_k5, direction=ACROSS) == Play("SO", k5, ACROSS)


def test_an_extended_word_must_be_written_in_full() -> None:
    refused(CAT, "TS I8 across", "S", "H8, just before TS, holds A")
    refused(CAT, "CA G8 across", "S", "I8, just after CA, holds T")
    refused(board(("CAT", "G8", ACROSS)), "SCA F8 across", "S", "just after")
    assert score(CAT, "CATS G8 across", "S").score == 6
    assert score(CAT, "SCAT F8 across", "S").score == 6


def test_a_one_letter_word_is_refused_in_good_english() -> None:
    refused(Board.empty(), "Q H8 across", "Q", "Q has 1 letter: a word has 2-15")


def test_word_must_fit_on_the_board() -> None:
    refused(Board.empty(), "QUICKLY L8 across", "QUICKLY", "does not fit")


def test_rack_must_hold_the_tiles() -> None:
    refused(CAT, "CATS G8 across", "XYZ", r"lacks S")
    refused(Board.empty(), "ZZZ H8 across", "Z", "lacks ZZ")


def test_words_must_be_in_the_lexicon() -> None:
    refused(Board.empty(), "CTA G8 across", "CAT", "CTA is not in the lexicon")
    refused(CAT, "TX H9 across", "TX", "makes TX|TX is not")


# --- one-tile plays ---------------------------------------------------------------------------


# HAM down from K6 and NO down from L4: an S on K5 (double word) makes SHAM down and SO across
SHAM = board(("HAM", "K6", DOWN), ("NO", "L4", DOWN))


def test_one_tile_play_declared_down_scores_the_down_word() -> None:
    # SHAM is the played word: (1+4+1+3)*2 = 18 on K5's double word; SO plain 1+1 = 2: 20
    scored = score(SHAM, "SHAM K5 down", "S")
    assert scored.play == Play("SHAM", parse_square("K5"), DOWN)
    assert words(scored) == [("SHAM", 18), ("SO", 2)] and scored.score == 20


def test_one_tile_play_declared_across_scores_the_across_word() -> None:
    # the same S declared across: SO (1+1)*2 = 4 is played, SHAM plain 1+4+1+3 = 9: 13
    scored = score(SHAM, "SO K5 across", "S")
    assert scored.play == Play("SO", parse_square("K5"), ACROSS)
    assert words(scored) == [("SO", 4), ("SHAM", 9)] and scored.score == 13
    assert scored.placed == score(SHAM, "SHAM K5 down", "S").placed == ((parse_square("K5"), "S"),)


def test_one_tile_play_each_direction_is_its_own_play() -> None:
    # T on K11 (double word) makes HAT across and BAT down
    b = board(("HA", "I11", ACROSS), ("BA", "K9", DOWN))
    across = score(b, "HAT I11 across", "T")
    down = score(b, "BAT K9 down", "T")
    assert words(across) == [("HAT", 12), ("BAT", 5)] and across.score == 17  # (4+1+1)*2 + 5
    assert words(down) == [("BAT", 10), ("HAT", 6)] and down.score == 16  # (3+1+1)*2 + 6


def test_one_tile_play_with_no_neighbour_across_stays_down() -> None:
    scored = score(CAT, "TO I8 down", "O")
    assert scored.play == Play("TO", parse_square("I8"), DOWN)
    assert words(scored) == [("TO", 3)]  # T 1 + O on I9 (double letter) 2


# --- bingo ------------------------------------------------------------------------------------


def test_bingo_for_seven_tiles() -> None:
    # R on H8 (double word), I on L8 (double letter): (1+1+1+1+2+1+1)*2 + 50 = 66
    scored = score(Board.empty(), "RETAINS H8 across", "AEINRST")
    assert scored.bingo and scored.score == 66


def test_no_bingo_for_a_last_rack_of_four() -> None:
    # CATALOG keeps CAT and places A L O G: 3+1+1+1+1*2+1+2 = 11, no bonus
    scored = score(CAT, "CATALOG G8 across", "AGLO")
    assert len(scored.tiles) == 4 and not scored.bingo and scored.score == 11
