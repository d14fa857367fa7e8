"""The engine protocol, checked on every registered game."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

import parlour
from parlour.engine.errors import BadOption, IllegalMove, NotEnumerable, ParlourError, UnknownGame
from parlour.engine.records import replay, to_record
from tests.helpers import random_game

GAMES = [spec.name for spec in parlour.games()]


def test_games_lists_ten_thousand_with_options() -> None:
    spec = next(s for s in parlour.games() if s.name == "ten-thousand")
    assert spec.min_players == 1 and spec.max_players == 6
    assert spec.options["target"].default == 10_000


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame, match="ten-thousand"):
        parlour.load("chess")


def test_aliases_and_case() -> None:
    assert parlour.load("Ten_Thousand").spec.name == "ten-thousand"
    assert parlour.load("10000").spec.name == "ten-thousand"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "(?s)no option 'colour'.*target"),
        ({"players": 7}, "out of range, allowed 1..6"),
        ({"players": "two"}, "must be an integer"),
        ({"target": 10_001}, "multiple of 50"),
        ({"specials_any_roll": "maybe"}, "true or false"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(BadOption, match=message):
        parlour.load("ten-thousand", **options)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_and_round_trip(name: str) -> None:
    rng = random.Random(7)
    for _ in range(3):
        game = parlour.load(name)
        state = random_game(game.new_initial_state(), rng)
        assert state.is_terminal()
        data = json.loads(json.dumps(state.to_json()))
        assert game.state_from_json(data) == state
        names = [f"p{i}" for i in range(game.num_players)]
        record = json.loads(json.dumps(to_record(state, names)))
        assert replay(record) == state


@pytest.mark.parametrize("name", GAMES)
def test_chance_outcomes_sum_to_one_where_listed(name: str) -> None:
    state = parlour.load(name).new_initial_state()
    assert state.is_chance_node()
    try:
        outcomes = state.chance_outcomes()
    except NotEnumerable:
        return
    assert sum(p for _, p in outcomes) == Fraction(1)
    assert all(p > 0 for _, p in outcomes)


@pytest.mark.parametrize("name", GAMES)
def test_refused_action_leaves_state_unchanged(name: str) -> None:
    rng = random.Random(3)
    state = parlour.load(name).new_initial_state()
    state.apply(state.sample_chance(rng))
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(object())
    with pytest.raises(IllegalMove):
        state.apply(state.legal_actions()[0], player=parlour.CHANCE)
    assert json.dumps(state.to_json()) == before


def test_terminal_state_refuses_everything() -> None:
    state = random_game(parlour.load("ten-thousand").new_initial_state(), random.Random(1))
    with pytest.raises(IllegalMove, match="over"):
        state.apply(None)


@pytest.mark.parametrize("player", ["0", 1.0, True])
def test_a_player_that_is_not_an_int_is_refused(player: object) -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    with pytest.raises(IllegalMove, match="a player is a seat number"):
        state.apply(state.legal_actions()[0], player=player)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [None, 3, ["greedy"]])
def test_load_refuses_a_name_that_is_not_text(name: object) -> None:
    with pytest.raises(UnknownGame, match="no game called"):
        parlour.load(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_observation_of_a_seat_the_game_lacks_is_refused(name: str) -> None:
    state = parlour.load(name).new_initial_state()
    for seat in (-1, state.game.num_players):
        with pytest.raises(ParlourError):
            state.observation(seat)
