"""Squares, the premium layout, tiles and the notation."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine.errors import InvalidNotation
from parlour.engine.state import HOST
from parlour.games.crossword.board import (
    ACROSS,
    CENTRE,
    DOUBLE_LETTER,
    DOUBLE_WORD,
    DOWN,
    TRIPLE_LETTER,
    TRIPLE_WORD,
    Board,
    parse_square,
    premium_name,
    square_name,
)
from parlour.games.crossword.notation import (
    Draw,
    Exchange,
    NewDay,
    Pass,
    Play,
    Rearrange,
    Skip,
    parse,
)
from parlour.games.crossword.tiles import (
    FULL_BAG,
    TILE_COUNTS,
    TILE_VALUES,
    count_draws,
    draws,
    sub_multisets,
)


def names(squares: frozenset[int]) -> set[str]:
    return {square_name(s) for s in squares}


def test_squares() -> None:
    assert CENTRE == parse_square("H8") == 112
    assert square_name(0) == "A1" and square_name(14) == "O1" and square_name(224) == "O15"
    for text in ("P1", "A0", "A16", "8H", "", "H"):
        with pytest.raises(InvalidNotation):
            parse_square(text)


def test_premium_layout() -> None:
    assert names(TRIPLE_WORD) == {"A1", "H1", "O1", "A8", "O8", "A15", "H15", "O15"}
    assert len(DOUBLE_WORD) == 17 and {
        "B2",
        "E5",
        "K5",
        "N2",
        "B14",
        "E11",
        "K11",
        "N14",
        "H8",
    } <= names(DOUBLE_WORD)
    assert len(TRIPLE_LETTER) == 12 and len(DOUBLE_LETTER) == 24
    assert premium_name(parse_square("F6")) == "TL" and premium_name(parse_square("D8")) == "DL"
    # the layout is symmetric under the board's eight symmetries
    for group in (TRIPLE_WORD, DOUBLE_WORD, TRIPLE_LETTER, DOUBLE_LETTER):
        for sq in group:
            row, col = divmod(sq, 15)
            for r, c in [(col, row), (row, 14 - col), (14 - row, col), (14 - col, 14 - row)]:
                assert r * 15 + c in group


def test_tiles() -> None:
    assert len(FULL_BAG) == 98 and TILE_COUNTS["E"] == 12 and TILE_COUNTS["Z"] == 1
    assert sum(TILE_VALUES[t] for t in FULL_BAG) == 187
    assert count_draws(FULL_BAG, 3) == len(set(draws(FULL_BAG, 3))) == 3137
    assert count_draws(FULL_BAG, 7) == 2_484_184
    assert count_draws(FULL_BAG, 7, limit=5000) == 5001
    assert len(sub_multisets("AEIOUUV")) == 2 * 2 * 2 * 2 * 3 * 2 - 1


def test_board_lines_and_words() -> None:
    b = (
        Board.empty()
        .with_word("CAT", parse_square("G8"), ACROSS)
        .with_word("AX", parse_square("H8"), DOWN)
    )
    assert b.line(7, ACROSS) == "......CAT......" and b.line(7, DOWN)[7:9] == "AX"
    assert b.word_at(parse_square("H9"), ACROSS) == (parse_square("H9"), "X")
    assert b.word_at(parse_square("J8"), ACROSS) == (parse_square("G8"), "CAT.")
    assert b.tiles_on_top() == "ACTX" and not b.is_empty()
    assert (
        Board.from_rows(["", "", "", "", "", "", "", "......CAT"]).letters
        == Board.empty().with_word("CAT", parse_square("G8"), ACROSS).letters
    )


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("QUACK H8 across", Play("QUACK", 112, ACROSS)),
        ("quack h8 d", Play("QUACK", 112, DOWN)),
        ("exchange VQW", Exchange("QVW")),
        ("pass", Pass()),
        ("rack TSENIAR", Rearrange("TSENIAR")),
        ("draw ZAB", Draw("ABZ")),
        ("skip", Skip()),
        ("new-day", NewDay()),
    ],
)
def test_notation_round_trip(text: str, action: object) -> None:
    assert parse(text) == action
    assert parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("QUACK Z9 across", "not a square"),
        ("QUACK H8 sideways", "across' or 'down"),
        ("QU4CK H8 across", "not a word"),
        ("exchange 12", "not tiles"),
        ("castle", "moves are"),
        ("pass now", "moves are"),
    ],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(InvalidNotation, match=message):
        parse(text)


def test_a_players_bad_notation_lists_only_player_moves() -> None:
    state = parlour.load("crossword").new_initial_state()
    with pytest.raises(InvalidNotation) as refused:
        state.parse_action("castle", player=0)
    assert str(refused.value) == (
        "'castle': moves are '<WORD> <square> across|down' (e.g. 'QUACK H8 across'), "
        "'exchange <tiles>', 'pass' and 'rack <tiles>'"
    )
    # the host's and chance's moves are listed for them (and for records, player=None)
    for player in (HOST, None):
        with pytest.raises(InvalidNotation, match="'draw <tiles>', 'skip' and 'new-day'"):
            state.parse_action("castle", player=player)
