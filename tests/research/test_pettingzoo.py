"""PettingZoo: the AEC environment of every game passes PettingZoo's own API and seed tests,
and its observations, masks and rewards say what the engine says."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import parlour
from parlour.engine.errors import BadOption, IllegalMove
from parlour.research.codecs import games
from parlour.research.pettingzoo import env, raw_env

# Smaller games where the defaults would make the API tests slow; every other installed game
# with a research codec is tested with its defaults.
OPTIONS: dict[str, tuple[dict[str, object], int]] = {
    "greedy": ({"players": 3}, 400),
    "rummy": ({"ending_score": 50}, 400),
    "crossword": ({}, 120),
}
GAMES = [(name, *OPTIONS.get(name, ({}, 400))) for name in games()]


def test_every_installed_game_is_offered() -> None:
    assert set(games()) == {spec.name for spec in parlour.games()}
    assert len(games()) >= 5  # the four of the first release, and the games found since


@pytest.mark.parametrize(("game", "options", "cycles"), GAMES)
def test_pettingzoo_api_test_passes(game: str, options: dict[str, object], cycles: int) -> None:
    api_test(env(game, **options), num_cycles=cycles)


@pytest.mark.parametrize(("game", "options", "cycles"), GAMES)
def test_pettingzoo_seed_test_passes(game: str, options: dict[str, object], cycles: int) -> None:
    seed_test(lambda: env(game, **options), num_cycles=cycles // 4)


def test_the_mask_is_the_engines_legal_actions() -> None:
    e = raw_env("ten-thousand")
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    legal = e.position.state.legal_actions()
    assert int(mask.sum()) == len(legal)
    names = sorted(e.codec.action_name(int(i)) for i in np.flatnonzero(mask))
    assert names == sorted(str(a) for a in legal)
    other = e.possible_agents[1 - e.agent_name_mapping[agent]]
    assert int(e.observe(other)["action_mask"].sum()) == 0


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("rummy")
    e.reset(seed=5)
    before = e.position.state.to_json()
    with pytest.raises(IllegalMove):
        e.step(2 + 51)  # a discard before drawing
    assert e.position.state.to_json() == before


def test_rewards_at_the_end_are_the_engines_returns() -> None:
    e = raw_env("greedy", target=1000)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    while not all(e.terminations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    winners = e.position.state.result().winners
    assert {a: r for a, r in e.rewards.items()} == {
        f"player_{s}": (1.0 / len(winners) if s in winners else 0.0) for s in range(2)
    }


def test_options_reach_the_game() -> None:
    e = raw_env("rummy", players=3, hand_size=5)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert bin(e.position.state.hands[0]).count("1") == 5
    with pytest.raises(BadOption):
        raw_env("crossword", turn_mode="daily")


def test_render_is_text() -> None:
    e = raw_env("ten-thousand", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text.startswith("Ten-Thousand:")
