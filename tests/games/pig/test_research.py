"""Pig through the research adapters (its encoding, ``parlour.games.pig.research``): the
numbering and the observation are pinned; PettingZoo's and OpenSpiel's own tests run on it
with every other game in ``tests/research``, found through the registry."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import parlour.research.openspiel as po
from parlour.engine.errors import IllegalMove
from parlour.research.codecs import games, load_codec
from parlour.research.gymnasium import ParlourGymEnv


def test_pig_is_offered_by_the_adapters() -> None:
    assert "pig" in games()
    game = po.load_game("pig", players=3)
    kind = game.get_type()
    assert kind.information == kind.Information.PERFECT_INFORMATION
    assert kind.chance_mode == kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert (game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()) == (
        2,
        6,
        3,
    )
    assert kind.min_num_players == 2 and kind.max_num_players == 6


def test_ids_and_observation_are_pinned() -> None:
    codec = load_codec("pig", players=3, target=50)
    position = codec.new_position()
    assert (codec.num_actions, codec.max_chance_outcomes, codec.observation_size) == (2, 6, 13)
    assert [name for name, _ in codec.observation_layout()] == [
        "scores",
        "to_move",
        "turn_total",
        "die",
    ]
    assert [codec.action_name(i) for i in range(2)] == ["roll", "hold"]
    assert position.chance_outcomes() == [(i, pytest.approx(1 / 6)) for i in range(6)]
    assert [position.id_to_string(i) for i in range(6)] == [f"die {f}" for f in range(1, 7)]
    position.apply_id(4)  # die 5
    assert position.legal_ids() == [0, 1]
    assert position.state.turn_total == 5
    position.apply_id(1)  # hold: seat 0 has 5 points, seat 1's turn
    position.apply_id(2)  # seat 1 rolls a 3
    seen = position.observation(2).tolist()  # seat 2 sees seat 0 next, then seat 1
    assert seen[:3] == [0.0, pytest.approx(0.1), 0.0]  # scores: itself, seat 0, seat 1
    assert seen[3:6] == [0.0, 0.0, 1.0]  # seat 1 is to move
    assert seen[6] == pytest.approx(3 / 50)
    assert seen[7:] == [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]  # the die shows 3
    position.apply_id(0)  # roll
    position.apply_id(0)  # a 1: the turn total is lost, seat 2's turn
    assert position.state.seat == 2 and position.state.scores == [5, 0, 0]
    assert position.observation(2).tolist()[3:] == [1.0, 0, 0, 0, 0, 0, 0, 0, 0, 0]


def test_an_id_that_is_not_legal_is_refused_and_changes_nothing() -> None:
    position = load_codec("pig").new_position()
    before = position.state.to_json()
    for bad in (6, -1, "1", 1.0):
        with pytest.raises(IllegalMove):
            position.apply_id(bad)  # type: ignore[arg-type]
    position.apply_id(3)  # die 4
    with pytest.raises(IllegalMove):
        position.apply_id(2)  # no action 2
    assert position.state.to_json() != before and position.state.turn_total == 4


def test_a_solo_gymnasium_episode_against_hold_20() -> None:
    env = ParlourGymEnv("pig", opponent="hold-20", target=20)
    obs, _ = env.reset(seed=3)
    assert obs.shape == (11,)
    total = 0.0
    over = False
    while not over:
        obs, reward, over, _, _ = env.step(1 if obs[4] * 20 >= 10 else 0)
        total += reward
    assert total in (0.0, 1.0)
