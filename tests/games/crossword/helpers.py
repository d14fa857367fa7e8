"""Helpers for the crossword tests: new games, forced draws, positions built by hand."""

from __future__ import annotations

from collections.abc import Sequence

import parlour
from parlour.engine.state import CHANCE
from parlour.games.crossword.board import Board, Direction, parse_square
from parlour.games.crossword.notation import Draw
from parlour.games.crossword.state import CrosswordState


def new(players: int = 2, **options: object) -> CrosswordState:
    state = parlour.load("crossword", players=players, **options).new_initial_state()
    assert isinstance(state, CrosswordState)
    return state


def deal(state: CrosswordState, *racks: str) -> CrosswordState:
    """Force the pending draws: one rack (its tiles, any order) per pending draw."""
    for rack in racks:
        assert state.current_player() == CHANCE, state.current_player()
        state.apply(Draw("".join(sorted(rack))), player=CHANCE)
    return state


def act(state: CrosswordState, *moves: str, seat: int | None = None) -> CrosswordState:
    """Apply *moves* in notation (``draw ...`` moves as chance outcomes)."""
    for text in moves:
        player = CHANCE if text.startswith("draw") else seat
        state.apply(state.parse_action(text), player=player)
    return state


def board(*words: tuple[str, str, Direction]) -> Board:
    """A board with each ``(word, square, direction)`` written on it, no rules checked."""
    b = Board.empty()
    for word, square, direction in words:
        b = b.with_word(word, parse_square(square), direction)
    return b


def position(
    b: Board,
    racks: Sequence[str],
    *,
    players: int | None = None,
    covered: str = "",
    scores: Sequence[int] | None = None,
    **options: object,
) -> CrosswordState:
    game = parlour.load("crossword", players=players or len(racks), **options)
    return CrosswordState.from_position(game, b, racks, covered=covered, scores=scores)
