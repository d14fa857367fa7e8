"""Greedy computer players: legal play at every level, the win, the bonus round, the endgame."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import ParlourError
from parlour.games.dice.notation import Keep, Quit
from parlour.games.greedy import SPEC
from parlour.games.greedy.bots import ARENA_LEVELS, LEVELS, RandomKeeper, make_bot
from parlour.games.greedy.state import GreedyState
from tests.helpers import play


def position(mine: int, other: int, *moves: str, target: int = 10_000) -> GreedyState:
    """A set-up position (boardgame.io style): seat 0 to move with *mine*, seat 1 *other*."""
    state = parlour.load("greedy", target=target).new_initial_state()
    assert isinstance(state, GreedyState)
    state.scores = [mine, other]
    return play(state, *moves)  # type: ignore[return-value]


def choice(level: str, state: GreedyState) -> Keep:
    action = make_bot(level).choose(state, state.seat, random.Random(0))
    assert isinstance(action, Keep)
    return action


def test_levels_weakest_first_optimal_is_the_default() -> None:
    assert SPEC.bot_levels == ("easy", "steady", "strong", "optimal")
    assert ARENA_LEVELS == ("tournament",)
    assert set(LEVELS) == {*SPEC.bot_levels, *ARENA_LEVELS}
    with pytest.raises(ParlourError, match="levels: easy, steady, strong, optimal, tournament"):
        make_bot("grandmaster")


@pytest.mark.parametrize(
    "options", [{"players": 2}, {"players": 3, "target": 3000}, {"players": 4, "target": 2000}]
)
def test_every_level_plays_legal_games(options: dict[str, object]) -> None:
    game = parlour.load("greedy", **options)
    levels = list(SPEC.bot_levels)
    for index in range(2):
        seats = [make_bot(levels[(index + s) % len(levels)]) for s in range(game.num_players)]
        state = play_game(game, seats, random.Random(index))  # apply() refuses illegal moves
        assert state.is_terminal() and state.quitter is None
        assert max(state.scores) >= game.options["target"]


@pytest.mark.parametrize("level", ["easy", "steady", "strong"])
def test_a_bank_that_wins_is_taken(level: str) -> None:
    # 9,750 + 250 (1, 1 and 5): 10,000 wins at once, whatever the policy says of 250
    state = position(9750, 9900, "roll 1 1 5 2 3 4 6 6 2")
    assert choice(level, state) == Keep((1, 1, 5), bank=True)


@pytest.mark.parametrize("level", ["steady", "strong"])
def test_the_bonus_round_is_taken_with_everything_at_risk(level: str) -> None:
    state = position(0, 0, "roll 1 1 1 5 5 5 2 2 2")  # all nine score: 1,700
    assert choice(level, state) == Keep((1, 1, 1, 2, 2, 2, 5, 5, 5), bank=False)


def test_easy_keeps_every_scoring_die_and_banks_at_500() -> None:
    state = position(0, 0, "roll 1 5 2 2 3 3 4 4 6")
    assert choice("easy", state) == Keep((1, 5), bank=False)  # 150 with seven dice
    play(state, "keep 1 5 roll", "roll 1 1 1 2 3 4 6")
    assert choice("easy", state) == Keep((1, 1, 1), bank=True)  # 1,150
    state = position(0, 0, "roll 5 2 2 3 3 4 4 6 6", "keep 5 roll", "roll 1 5 5 2 3 3 4 6")
    assert choice("easy", state) == Keep((1, 5, 5), bank=False)  # 250, five dice left
    play(state, "keep 1 5 5 roll", "roll 1 2 3 4 6")  # 350 with four dice left
    assert choice("easy", state) == Keep((1,), bank=False)
    play(state, "keep 1 roll", "roll 5 2 3 4")  # 400 with three dice left: at least 300
    assert choice("easy", state) == Keep((5,), bank=True)


STEPS = ("roll 2 2 2 3 3 3 4 6 6", "keep 2 2 2 3 3 3 roll", "roll 1 5 2")
"""500 set aside with three dice left, then 1 5 2: keeping 1 and 5 makes 650 with one die."""


def test_strong_rolls_on_when_the_opponent_is_about_to_win() -> None:
    # behind 5,000 to 9,500: the opponent needs 500, which it nearly always makes
    state = position(5000, 9500, *STEPS)
    # playing for points banks 650 with one die left (the threshold is 550); strong rolls
    assert choice("steady", state) == Keep((1, 5), bank=True)
    assert choice("strong", state) == Keep((1, 5), bank=False)


def test_strong_plays_for_points_far_from_the_end() -> None:
    state = position(1000, 2000, *STEPS)
    assert choice("strong", state) == choice("steady", state) == Keep((1, 5), bank=True)


def test_bots_do_not_change_the_state_and_never_quit() -> None:
    state = position(5000, 9500, "roll 1 2 2 3 3 4 4 6 6")
    before = state.to_json()
    for level in SPEC.bot_levels:
        choice(level, state)
    assert state.to_json() == before
    rng = random.Random(3)
    keeper = RandomKeeper()
    picks = {keeper.choose(state, 0, rng) for _ in range(200)}
    assert picks == set(state.keep_actions()) and not any(isinstance(a, Quit) for a in picks)
