"""The dice games' observation vectors against the documented layout spelt out here (scores
/ target with the observing seat first, to_move one-hot, turn_total, to_roll, roll_counts,
first_roll, last_turns, bonus_rounds), where the codec's per-score bytes could go wrong:
every player count, two environments of different targets in one process, copies, bonus
rounds, and more distinct scores than the codec keeps."""

from __future__ import annotations

import copy
import pickle
import random
import struct
from typing import Any

import numpy as np
import pytest

from parlour.engine.errors import BadOption
from parlour.research.codecs import load_codec
from parlour.research.dice import SCORE_PARTS, DiceCodec, multisets
from parlour.research.pettingzoo import raw_env


def _layout(state: Any, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    """*seat*'s vector as docs/research.md describes it, from the engine state's attributes."""
    n, target, n_dice = len(state.scores), state.target, state.n_dice
    showing = state.roll is not None and not state.over
    values = [state.scores[(seat + k) % n] / target for k in range(n)]
    to_move = [0.0] * n
    if showing:
        to_move[(state.seat - seat) % n] = 1.0
    to_roll = [0.0] * (n_dice + 1)
    to_roll[len(state.roll) if showing else state.to_roll] = 1.0
    counts = [0.0] * 6
    for face in state.roll if showing else ():
        counts[face - 1] += 1.0
    values += [*to_move, state.turn_total / target, *to_roll, *counts]
    values.append(float(showing and state.rolls == 1))
    values.append(float(getattr(state, "final_turns", None) is not None))
    values.append(float(getattr(state, "bonus_rounds", 0)))
    return np.array(values, np.float32)


def _step(environment: Any, pick: random.Random) -> None:
    """One random decision, never Greedy's quit (so that games go to their end)."""
    mask = environment.observe(environment.agent_selection)["action_mask"]
    quit_id = environment.codec.quit_id if environment.codec.greedy else -1
    legal = [int(i) for i in np.flatnonzero(mask) if i != quit_id]
    environment.step(legal[pick.randrange(len(legal))])


def _check(environment: Any) -> None:
    state = environment.position.state
    for agent, seat in environment.agent_name_mapping.items():
        seen = environment.observe(agent)["observation"]
        assert seen.tobytes() == _layout(state, seat).tobytes(), (agent, state.scores)


@pytest.mark.parametrize(
    ("game", "players"), [("ten-thousand", p) for p in range(1, 7)] + [("greedy", 6)]
)
def test_two_targets_in_one_process_each_see_their_own(game: str, players: int) -> None:
    """Two environments of one game, targets 1,000 and 100,000, stepped in turns (both
    kinds of arrays), each seat's vector the layout's at every step, through whole games;
    Ten-Thousand with odd player counts has an entry threshold; every 20th step a deepcopy
    or a pickled copy plays on as the original does."""
    extra: dict[str, object] = {"entry": 500} if game == "ten-thousand" and players % 2 else {}
    small = raw_env(game, players=players, target=1000, **extra)
    large = raw_env(game, players=players, target=100_000, in_place=True, **extra)
    small.reset(seed=players)
    large.reset(seed=players)
    pick, ended, step = random.Random(players), 0, 0
    while ended < 3:  # three whole games of the small target
        step += 1
        for environment in (small, large):
            _check(environment)
            if all(environment.terminations.values()):
                ended += environment is small
                environment.reset()
            elif step % 20 == 0:
                twin = (
                    copy.deepcopy(environment)
                    if step % 40
                    else pickle.loads(pickle.dumps(environment))
                )
                _check(twin)
                draws = random.Random(step)
                _step(twin, copy.deepcopy(draws))
                _step(environment, draws)
                assert twin.position.state == environment.position.state
                _check(twin)
            else:
                _step(environment, pick)
    for environment, target in ((small, 1000), (large, 100_000)):  # each codec its own
        parts = environment.codec.score_parts
        assert parts and all(parts[s] == struct.pack("f", s / target) for s in parts)


def test_greedy_bonus_rounds_and_the_end_by_hand() -> None:
    """Three seats, target 1,000: seat 0 rolls nine 1s four times, rolling all nine on each
    time (a bonus round each: 3,000 points a roll of nine 1s), then banks 15,000 and wins."""
    codec = load_codec("greedy", players=3, target=1000)
    assert isinstance(codec, DiceCodec)
    position = codec.new_position()
    nines = multisets(9).index((1,) * 9)
    keep = 2 * codec.keep_index[(1,) * 9]
    for rounds in range(1, 5):
        position.apply_id(nines)
        position.apply_id(keep)  # roll all nine on
        seen = position.observation(1)
        # seat 1 sees: scores 0-2, to_move 3-5 (none: chance), turn_total 6, to_roll 7-16,
        # roll_counts 17-22, first_roll 23, last_turns 24, bonus_rounds 25
        assert seen[6] == 3.0 * rounds and seen[7 + 9] == 1.0 and seen[25] == rounds
        assert not seen[:6].any() and not seen[17:25].any()
    position.apply_id(nines)
    position.apply_id(keep + 1)  # bank 15,000
    assert position.state.over and position.state.scores == [15_000, 0, 0]
    for seat in range(3):
        expected = [0.0] * 26
        expected[(0 - seat) % 3] = 15.0  # seat 0's score, from each seat's own place
        expected[7 + 9] = 1.0  # between rolls: the next roll would throw all nine
        assert position.observation(seat).tolist() == expected
        assert position.observation_bytes(seat) == _layout(position.state, seat).tobytes()


def test_more_distinct_scores_than_the_codec_keeps() -> None:
    """The codec keeps SCORE_PARTS scores' bytes and no more; a score past them is packed
    each time, with the same value."""
    codec = load_codec("greedy", target=1000)
    assert isinstance(codec, DiceCodec)
    for score in range(0, 50 * (SCORE_PARTS + 1000), 50):
        assert np.frombuffer(codec.score_part(score), np.float32)[0] == np.float32(score / 1000)
    assert len(codec.score_parts) == SCORE_PARTS
    position = codec.new_position()
    position.state.scores[1] = 50 * (SCORE_PARTS + 999)  # not kept
    assert position.observation(0)[1] == np.float32(50 * (SCORE_PARTS + 999) / 1000)
    assert len(codec.score_parts) == SCORE_PARTS


@pytest.mark.parametrize("target", [1, 137, 10**9, 999, 1025, 0])
@pytest.mark.parametrize("game", ["ten-thousand", "greedy"])
def test_targets_off_the_options_range_are_refused(game: str, target: int) -> None:
    """The target is 1,000..100,000, a multiple of 50 (``parlour games``)."""
    with pytest.raises(BadOption):
        raw_env(game, target=target)
