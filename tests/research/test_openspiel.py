"""OpenSpiel: every game is a registered pyspiel game of the right type, OpenSpiel's
random_sim_test passes on each, and its tensors and strings hide what they must."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import parlour.research.openspiel as po
from parlour.engine.errors import IllegalMove
from parlour.research.codecs import games

GameType = pyspiel.GameType

# Shorter games where the defaults would make random_sim_test slow; every other installed
# game with a research codec is tested with its defaults.
OPTIONS: dict[str, dict[str, object]] = {
    "ten-thousand": {"target": 3000},
    "greedy": {"target": 3000, "players": 3},
    "rummy": {"ending_score": 50, "max_rounds": 2},
}
GAMES = [(name, OPTIONS.get(name, {})) for name in games()]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_random_sim_test_passes(game: str, options: dict[str, object]) -> None:
    pyspiel.random_sim_test(
        po.load_game(game, **options), num_sims=1, serialize=False, verbose=False
    )


@pytest.mark.parametrize(
    ("game", "information", "actions", "chance"),
    [
        ("ten-thousand", GameType.Information.PERFECT_INFORMATION, 268, 923),
        ("greedy", GameType.Information.PERFECT_INFORMATION, 573, 5004),
        ("rummy", GameType.Information.IMPERFECT_INFORMATION, 1307, 52),
        ("crossword", GameType.Information.IMPERFECT_INFORMATION, 505, 26),
    ],
)
def test_game_types(game: str, information: object, actions: int, chance: int) -> None:
    loaded = po.load_game(game)
    kind = loaded.get_type()
    assert kind.short_name == po.openspiel_name(game)
    assert kind.chance_mode == GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == information
    assert kind.dynamics == GameType.Dynamics.SEQUENTIAL
    assert (loaded.num_distinct_actions(), loaded.max_chance_outcomes()) == (actions, chance)
    assert loaded.observation_tensor_size() == loaded.information_state_tensor_size()


@pytest.mark.parametrize(("game", "actions"), [("ten-thousand", 1846), ("greedy", 10009)])
def test_the_dice_numbering_version_0_is_a_parameter(game: str, actions: int) -> None:
    name = po.openspiel_name(game)
    assert pyspiel.load_game(name).get_parameters()["numbering"] == "scoring"
    loaded = pyspiel.load_game(name, {"numbering": "multisets"})
    assert loaded.num_distinct_actions() == actions
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


def test_players_is_a_parameter() -> None:
    game = pyspiel.load_game("parlour_rummy", {"players": 4})
    assert game.num_players() == 4
    assert game.get_type().max_num_players == 4 and game.get_type().min_num_players == 2


def _play_to_decision(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])


def test_rummy_tensor_shows_only_the_own_hand() -> None:
    game = po.load_game("rummy")
    state = game.new_initial_state()
    _play_to_decision(state, random.Random(2))
    for seat in range(2):
        hand = np.flatnonzero(np.array(state.observation_tensor(seat))[:52])
        assert sorted(hand.tolist()) == sorted(
            c for c in range(52) if state.position.state.hands[seat] >> c & 1
        )


def test_rummy_resample_keeps_the_information_state() -> None:
    game = po.load_game("rummy")
    state = game.new_initial_state()
    rng = random.Random(4)
    _play_to_decision(state, rng)
    state.apply_action(0)  # seat 0 draws from the stock
    seat = state.current_player()
    twin = state.resample(seat, rng)
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    assert twin.observation_tensor(seat) == state.observation_tensor(seat)
    assert twin.position.state.hands[1] != state.position.state.hands[1]
    assert twin.position.state.hands[0] == state.position.state.hands[0]


def test_crossword_draws_are_single_tiles_with_bag_probabilities() -> None:
    state = po.load_game("crossword").new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 26
    assert outcomes[4] == pytest.approx(12 / 98)  # E: 12 of the 98 tiles
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_dice_chance_ids_are_the_six_dice_rolls_and_the_history_is_the_information_state() -> None:
    state = po.load_game("ten-thousand").new_initial_state()
    outcomes = state.chance_outcomes()
    assert [i for i, _ in outcomes] == list(range(461, 923))  # after the rolls of 1-5 dice
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(461)  # 1 1 1 1 1 1
    assert str(state).splitlines()[1].startswith("turn total 0, roll [1 1 1 1 1 1]")
    assert state.information_state_string(1) == state.history_str() == "461"
    with pytest.raises(IllegalMove):
        state.apply_action(267)  # keep 6 6 6 6 6 6 bank: not these dice
