"""Gymnasium: solo play and play against a fixed computer player pass Gymnasium's checker,
and rewards, masks and episode ends say what the engine says."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from parlour.engine.errors import IllegalMove
from parlour.games.rummy.bots import make_bot
from parlour.research.gymnasium import ParlourGymEnv


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("ten-thousand", {"players": 1, "reward": "points", "turns": 1}),
        ("greedy", {"opponent": "strong", "target": 2000}),
        ("rummy", {"opponent": "hard", "ending_score": 50}),
    ],
)
def test_gymnasium_env_checker_passes(game: str, options: dict[str, object]) -> None:
    check_env(ParlourGymEnv(game, illegal="end", **options), skip_render_check=True)


def _random_episode(env: ParlourGymEnv, seed: int) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, info["over"]
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, _, info = env.step(action)
        total += reward
        steps += 1
    return total, steps


def test_one_solo_turn_rewards_the_points_banked() -> None:
    env = ParlourGymEnv("ten-thousand", players=1, reward="points", turns=1)
    for seed in range(20):
        total, _ = _random_episode(env, seed)
        state = env.position.state
        assert state.turns == 1  # the episode is exactly one turn
        assert total == state.scores[0]
        assert state.last is not None and state.last["points"] >= 0
        assert total == (state.last["points"] if state.last["end"] == "bank" else 0)


def test_against_a_computer_player_the_reward_is_the_result() -> None:
    env = ParlourGymEnv("rummy", opponent=make_bot("hard"), seat=1, ending_score=30)
    total, _ = _random_episode(env, 3)
    result = env.position.state.result()
    assert total == (1.0 / len(result.winners) if 1 in result.winners else 0.0)


def test_the_same_seed_gives_the_same_episode() -> None:
    env = ParlourGymEnv("greedy", opponent="steady", target=2000)
    first = _random_episode(env, 7), env.position.state.to_json()
    second = _random_episode(env, 7), env.position.state.to_json()
    assert first == second


def test_illegal_actions_raise_or_end() -> None:
    env = ParlourGymEnv("ten-thousand", players=1)
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalMove):
        env.step(bad)
    env = ParlourGymEnv("ten-thousand", players=1, illegal="end")
    env.reset(seed=1)
    before = env.position.state.to_json()
    assert env.step(bad)[1:3] == (-1.0, True)
    assert env.position.state.to_json() == before


def test_an_episode_ended_by_an_illegal_action_stays_over_until_reset() -> None:
    # A legal step after illegal="end" ended the episode was played on (found by a new user).
    env = ParlourGymEnv("ten-thousand", players=1, illegal="end")
    _, info = env.reset(seed=1)
    assert info["action_mask"][1] and not info["over"]  # keep 1 bank: legal now
    before = env.position.state.to_json()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(bad)
    assert (reward, done, info["over"]) == (-1.0, True, True)
    _, reward, done, _, info = env.step(1)  # legal in the game, but the episode is over
    assert (reward, done, info["over"]) == (-1.0, True, True)
    assert env.position.state.to_json() == before
    _, info = env.reset(seed=1)
    assert not info["over"]
    assert env.step(1)[1:3] == (0.0, False)  # played now: kept a 1 and banked it
    assert env.position.state.scores == [100]  # type: ignore[attr-defined]


def test_an_action_that_is_not_an_integer_id_is_illegal() -> None:
    # 1.5 was played as id 1 (int() truncated it), "1" as 1: a Discrete space holds neither
    env = ParlourGymEnv("ten-thousand", players=1)
    _, info = env.reset(seed=1)
    assert info["action_mask"][1]  # keep 1 bank: legal, so only the type can refuse it
    before = env.position.state.to_json()
    for action in (1.5, 1.0, "1", None, True):  # True was played as id 1
        with pytest.raises(IllegalMove, match="not an action id"):
            env.step(action)  # type: ignore[arg-type]
    assert env.position.state.to_json() == before
    ended = ParlourGymEnv("ten-thousand", players=1, illegal="end")
    ended.reset(seed=1)
    assert ended.step(1.5)[1:3] == (-1.0, True)  # type: ignore[arg-type]
    assert ended.position.state.to_json() == before
    env.step(np.int64(1))  # a numpy integer is an id: kept a 1 and banked
    assert env.position.state.to_json() != before


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="needs an opponent"):
        ParlourGymEnv("rummy")
    with pytest.raises(ValueError, match="dice games only"):
        ParlourGymEnv("rummy", opponent="easy", turns=1)
    # turns=0 and -1 gave episodes over at reset, 1.5 one of two turns
    for turns in (0, -1, 1.5, True, "1"):
        with pytest.raises(ValueError, match="turns is a whole number of turns, 1 or more"):
            ParlourGymEnv("ten-thousand", players=1, turns=turns)  # type: ignore[arg-type]


def test_the_dice_numbering_is_a_parameter() -> None:
    assert ParlourGymEnv("greedy", players=2, opponent="strong").action_space.n == 573
    env = ParlourGymEnv("greedy", numbering="multisets", opponent="strong")
    assert env.action_space.n == 10009
    _, info = env.reset(seed=1)
    assert int(np.flatnonzero(info["action_mask"])[-1]) == 10008  # quit, version 0's id


def test_a_step_after_the_episode_is_over_is_refused() -> None:
    """Once the episode is over (here a farkle on the first roll of a one-turn episode, seed
    68: over at reset, the seat's next turn waiting for its roll), a step changes nothing:
    id 461 was applied as the next roll, 1 1 1 1 1 1 (the agent chose its dice), and id 0
    then kept a 1 of it."""
    env = ParlourGymEnv("ten-thousand", players=1, reward="points", turns=1)
    _, info = env.reset(seed=68)
    state = env.position.state
    assert info["over"] and state.turns == 1 and state.scores == [0]
    assert state.last is not None and state.last["end"] == "farkle"
    assert not info["action_mask"].any()
    before = state.to_json()
    for action in (461, 0):
        with pytest.raises(IllegalMove, match="the episode is over"):
            env.step(action)
    assert env.position.state.to_json() == before
    ended = ParlourGymEnv("ten-thousand", players=1, reward="points", turns=1, illegal="end")
    ended.reset(seed=68)
    assert ended.step(461)[1:3] == (-1.0, True)
    assert ended.position.state.to_json() == before


def test_a_step_after_the_last_turn_against_an_opponent_is_refused() -> None:
    """Greedy, one turn against the easy player: after the seat's turn the episode is over
    while the game goes on (the opponent's roll is next); the agent's ids are refused
    there, not read as the opponent's roll."""
    env = ParlourGymEnv("greedy", opponent="easy", turns=1)
    _random_episode(env, 4)
    state = env.position.state
    assert state.turns_played(0) == 1 and not state.over
    before = state.to_json()
    for action in (0, 1, 5003):
        with pytest.raises(IllegalMove, match="the episode is over"):
            env.step(action)
    assert env.position.state.to_json() == before
