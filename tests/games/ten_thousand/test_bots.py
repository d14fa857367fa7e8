"""Ten-Thousand computer players: legal play at every level, last turns, the endgame."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import ParlourError
from parlour.games.dice.notation import Keep
from parlour.games.ten_thousand import SPEC
from parlour.games.ten_thousand.bots import ARENA_LEVELS, LEVELS, make_bot
from parlour.games.ten_thousand.state import TenThousandState
from tests.helpers import play


def choice(level: str, state: TenThousandState) -> Keep:
    action = make_bot(level).choose(state, state.seat, random.Random(0))
    assert isinstance(action, Keep)
    return action


def test_levels_weakest_first_optimal_is_the_default() -> None:
    assert SPEC.bot_levels == ("reckless", "cautious", "steady", "strong", "optimal")
    assert set(LEVELS) == {*SPEC.bot_levels, *ARENA_LEVELS}
    with pytest.raises(ParlourError, match="levels: reckless"):
        make_bot("grandmaster")


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3, "target": 2000},
        {"players": 2, "entry": 1000, "target": 3000},
        {"players": 4, "specials_any_roll": True, "target": 3000},
    ],
)
def test_every_level_plays_legal_games(options: dict[str, object]) -> None:
    game = parlour.load("ten-thousand", **options)
    levels = list(SPEC.bot_levels)
    for index in range(2):
        seats = [make_bot(levels[(index + s) % len(levels)]) for s in range(game.num_players)]
        state = play_game(game, seats, random.Random(index))  # apply() refuses illegal moves
        assert state.is_terminal()


def last_turn_state() -> TenThousandState:
    """Three players, target 1000: seat 0 banks 1000, seat 1 banks 300; seat 2 (0) to move."""
    state = parlour.load("ten-thousand", players=3, target=1000).new_initial_state()
    assert isinstance(state, TenThousandState)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank", "roll 1 1 1 5 3 4")
    play(state, "keep 1 1 1 bank")  # seat 1: 1000 as well (last turn)
    assert state.final_turns == 1 and state.seat == 2
    return state


@pytest.mark.parametrize("level", ["steady", "strong"])
def test_last_turn_rolls_on_until_passing_the_leader(level: str) -> None:
    state = play(last_turn_state(), "roll 1 5 5 5 2 3")  # at most 600: not enough
    assert not choice(level, state).bank
    play(state, "keep 1 5 5 5 roll", "roll 1 1")  # 700 with one die, or 800 and hot dice
    assert choice(level, state) == Keep((1, 1), bank=False)
    play(state, "keep 1 1 roll", "roll 1 1 1 2 3 4")  # three 1s: 1800 passes 1000
    assert choice(level, state) == Keep((1, 1, 1), bank=True)


@pytest.mark.parametrize("level", ["steady", "strong"])
def test_last_turn_takes_a_tie_with_one_die_but_not_with_six(level: str) -> None:
    # level with the leaders (1000) after hot dice: six fresh dice pass with 97%
    state = play(last_turn_state(), "roll 5 5 5 2 3 4", "keep 5 5 5 roll", "roll 5 5 5")
    assert choice(level, state) == Keep((5, 5, 5), bank=False)
    # seat 0 leads with 1050; seat 2 reaches 1050 with one die left: passing needs a 1 or
    # a 5 (1/3), a tie is worth 1/2, so bank
    state = parlour.load("ten-thousand", players=3, target=1000).new_initial_state()
    assert isinstance(state, TenThousandState)
    play(state, "roll 1 1 1 5 2 3", "keep 1 1 1 5 bank", "roll 2 2 3 3 4 6")  # seat 1 farkles
    play(state, "roll 5 5 5 5 2 3", "keep 5 5 5 5 roll", "roll 2 5")
    assert choice(level, state) == Keep((5,), bank=True)


def endgame_state() -> TenThousandState:
    """Two players: seat 0 has 5000, seat 1 (the leader) 9700; seat 0 to move."""
    state = parlour.load("ten-thousand", players=2).new_initial_state()
    assert isinstance(state, TenThousandState)
    play(
        state,
        "roll 5 5 5 5 5 5",
        "keep 5 5 5 5 5 5 bank",  # 4000
        "roll 1 1 1 1 1 1",
        "keep 1 1 1 1 1 1 bank",  # 8000
        "roll 1 1 1 2 3 4",
        "keep 1 1 1 bank",  # 5000
        "roll 6 6 6 6 2 3",
        "keep 6 6 6 6 bank",  # 9200
        "roll 2 2 3 4 4 6",  # farkle
        "roll 5 5 5 2 3 4",
        "keep 5 5 5 bank",  # 9700
    )
    assert state.scores == [5000, 9700] and state.seat == 0
    return state


def test_strong_catches_the_leader_where_steady_plays_for_points() -> None:
    state = play(endgame_state(), "roll 1 2 3 4 6 6", "keep 1 roll", "roll 1 1 2 5 6")
    # playing for points: keep 1 1 5 (350 with two dice left) and bank
    assert choice("steady", state) == Keep((1, 1, 5), bank=True)
    # far behind a leader about to finish, 350 is not worth banking: keep one 1, roll four
    assert choice("strong", state) == Keep((1,), bank=False)


def test_bots_do_not_change_the_state() -> None:
    state = play(endgame_state(), "roll 1 2 3 4 6 6")
    before = state.to_json()
    for level in SPEC.bot_levels:
        choice(level, state)
    assert state.to_json() == before
