"""PettingZoo: the AEC environment of every game passes PettingZoo's own API and seed tests,
and its observations, masks and rewards say what the engine says."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import parlour
from parlour.engine.errors import BadOption, IllegalMove
from parlour.engine.state import CHANCE
from parlour.games.dice.notation import Keep, Roll
from parlour.research.codecs import games, load_codec
from parlour.research.pettingzoo import env, raw_env
from tests.quick_game import QUICK_GAME

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


def test_an_action_that_is_not_an_integer_id_is_refused() -> None:
    # int() truncated 1.5 to 1 and played it; None (for a live agent) said "-1"; True was
    # played as id 1 (a bool is an int to Python; a Discrete space never holds one)
    e = raw_env("rummy")
    e.reset(seed=5)
    before = e.position.state.to_json()
    for action in (0.5, "0", None, True, False):
        with pytest.raises(IllegalMove, match=f"{action!r} is not an action id"):
            e.step(action)  # type: ignore[arg-type]
    assert e.position.state.to_json() == before
    e.step(np.int64(0))  # a numpy integer is an id: drawn from the stock
    assert e.position.state.to_json() != before


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


def _old_dice_observation(
    state: parlour.State, seat: int, target: float, n_dice: int
) -> list[float]:
    """The dice observation as the list-built encoder before the in-place one wrote it
    (the layout of docs/research.md), as a reference."""
    n = state.game.num_players
    values = [0.0] * (2 * n + 2 + n_dice + 9)
    for s, points in enumerate(state.scores):  # type: ignore[attr-defined]
        values[(s - seat) % n] = points / target
    player = state.current_player()
    if player >= 0:
        values[n + (player - seat) % n] = 1.0
    at = 2 * n
    values[at] = state.turn_total / target  # type: ignore[attr-defined]
    values[at + 1 + state.to_roll] = 1.0  # type: ignore[attr-defined]
    at += 2 + n_dice
    if state.roll is not None:  # type: ignore[attr-defined]
        for face in state.roll:  # type: ignore[attr-defined]
            values[at + face - 1] += 1.0
        values[at + 6] = float(state.rolls == 1)  # type: ignore[attr-defined]
    values[at + 7] = float(getattr(state, "final_turns", None) is not None)
    values[at + 8] = float(getattr(state, "bonus_rounds", 0))
    return values


@pytest.mark.parametrize("numbering", ["scoring", "multisets"])
@pytest.mark.parametrize(
    ("game", "options", "n_dice"),
    [("ten-thousand", {"target": 3000, "players": 3}, 6), ("greedy", {"target": 3000}, 9)],
)
def test_dice_observations_in_place_are_the_old_ones(
    game: str, options: dict[str, object], n_dice: int, numbering: str
) -> None:
    """The default environment and the in-place one (same seed, same actions) give equal
    observations, masks and rewards, each observation the reference encoder's; the
    in-place one reuses its arrays and hands out a read-only mask, the default one
    read-only arrays; and the chance draws are the numbering's stream: version 1's the
    engine's ``apply_sample`` (one random number a roll), version 0's ``sample_chance``'s
    (the same game as apply(sample_chance(rng)) with the seed's random.Random)."""
    fresh = raw_env(game, numbering=numbering, **options)
    reused = raw_env(game, in_place=True, numbering=numbering, **options)
    fresh.reset(seed=7)
    reused.reset(seed=7)
    replay = parlour.load(game, **options).new_initial_state()
    rng, pick = random.Random(7), random.Random(1)
    seen: list[int] = []
    target = float(options["target"])  # type: ignore[arg-type]

    def roll() -> None:
        if numbering == "scoring":
            replay.apply_sample(rng)
        else:
            replay.apply(replay.sample_chance(rng))

    while not all(fresh.terminations.values()):
        while replay.current_player() == CHANCE:
            roll()
        agent = fresh.agent_selection
        assert reused.agent_selection == agent
        for other in fresh.possible_agents:
            a, b = fresh.observe(other), reused.observe(other)
            seat = fresh.agent_name_mapping[other]
            expected = np.array(_old_dice_observation(replay, seat, target, n_dice), np.float32)
            assert np.array_equal(a["observation"], expected)
            assert np.array_equal(b["observation"], expected)
            assert np.array_equal(a["action_mask"], b["action_mask"])
            assert a["observation"].dtype == np.float32 and a["action_mask"].dtype == np.int8
            assert not a["observation"].flags.writeable and not a["action_mask"].flags.writeable
            assert not b["action_mask"].flags.writeable
            assert b["observation"] is reused.observe(other)["observation"]  # reused
        mask = fresh.observe(agent)["action_mask"]
        legal = [i for i in np.flatnonzero(mask) if i != fresh.codec.quit_id]  # type: ignore[attr-defined]
        choice = int(legal[pick.randrange(len(legal))])
        seen.append(choice)
        fresh.step(choice)
        reused.step(choice)
        replay.apply_legal(
            [fresh.codec.id_of(a) for a in replay.legal()].index(choice)  # type: ignore[attr-defined]
        )
        assert fresh.position.state == reused.position.state
    while replay.current_player() == CHANCE:
        roll()
    assert replay == fresh.position.state and replay.is_terminal()
    assert fresh.rewards == reused.rewards == fresh._cumulative_rewards
    assert len(seen) >= 10  # a whole game, not just its start


@pytest.mark.parametrize(
    ("game", "digest"), [("ten-thousand", "6a1a6601592a6b75"), ("greedy", "c581300d774ebc3d")]
)
def test_dice_environments_give_what_they_gave_before(game: str, digest: str) -> None:
    """Twenty seeded games through each kind of environment (default, then in place) with
    the numbering of version 0, a random agent picking from the mask: every seat's
    observation and mask at every step, and the rewards, are the bytes they were before the
    environment was made faster (their digest, recorded on commit c0131bb)."""
    found = hashlib.sha256()
    for in_place in (False, True):
        e = raw_env(game, in_place=in_place, numbering="multisets")
        assert e.metadata["name"].endswith("_v0")
        pick = random.Random(3)
        for seed in range(20):
            e.reset(seed=seed)
            while not all(e.terminations.values()):
                for agent in e.possible_agents:
                    seen = e.observe(agent)
                    found.update(seen["observation"].tobytes())
                    found.update(seen["action_mask"].tobytes())
                legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
                e.step(int(legal[pick.randrange(len(legal))]))
            found.update(repr(e.rewards).encode())
    assert found.hexdigest()[:16] == digest


def test_a_dice_observation_by_hand() -> None:
    """Ten-Thousand, two seats: seat 0 rolls 1 1 2 3 4 6 (first roll), keeps 1 1 and rolls
    on. Layout: scores 0-1, to_move 2-3, turn_total 4, to_roll 5-11, roll_counts 12-17,
    first_roll 18, last_turns 19, bonus_rounds 20."""
    codec = load_codec("ten-thousand")
    position = codec.new_position()
    position.state.apply(Roll((1, 1, 2, 3, 4, 6)))
    out = np.full(21, 9.0, np.float32)
    position.observation_into(1, out)
    expected = [0.0] * 21
    expected[3] = 1.0  # seat 0 to move: one seat after seat 1
    expected[5 + 6] = 1.0  # six dice rolled
    expected[12], expected[13], expected[14], expected[15], expected[17] = 2, 1, 1, 1, 1
    expected[18] = 1.0
    assert out.tolist() == expected
    position.apply_id(codec.id_of(Keep((1, 1), False)))
    expected = [0, 0, 0, 0, 0.02, 0, 0, 0, 0, 1] + [0] * 11  # 200 of 10,000 points; 4 dice
    assert np.array_equal(position.observation(0), np.array(expected, np.float32))
    assert not position.mask_view().any() and not position.mask_view().flags.writeable


@pytest.mark.parametrize(
    ("game", "options"), [("rummy", {"ending_score": 50}), ("crossword", {}), (QUICK_GAME, {})]
)
def test_in_place_observations_of_the_other_games(game: str, options: dict[str, object]) -> None:
    """Rummy, the crossword and the quick game (written in place from their vectors): the
    in-place env observes what the default one does, step by step, into the same array
    each time, with a read-only mask as the dice games' (docs/research.md); the default
    one's arrays are read-only too."""
    fresh, reused = raw_env(game, **options), raw_env(game, in_place=True, **options)
    fresh.reset(seed=4)
    reused.reset(seed=4)
    pick = random.Random(2)
    for _ in range(40):
        agent = fresh.agent_selection
        a, b = fresh.observe(agent), reused.observe(agent)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        assert b["observation"] is reused.observe(agent)["observation"]
        assert not a["observation"].flags.writeable and not a["action_mask"].flags.writeable
        assert not b["action_mask"].flags.writeable
        legal = np.flatnonzero(a["action_mask"])
        choice = int(legal[pick.randrange(len(legal))])
        fresh.step(choice)
        reused.step(choice)
        if all(fresh.terminations.values()):
            break
    assert fresh.position.state == reused.position.state


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("ten-thousand", {}),
        ("greedy", {}),
        ("rummy", {"ending_score": 50}),
        ("crossword", {}),
        (QUICK_GAME, {}),
    ],
)
def test_default_observations_never_change_after_they_are_returned(
    game: str, options: dict[str, object]
) -> None:
    """The default environment hands out read-only arrays (the dice games' shared, without
    a copy): every observation and mask kept from a whole seeded game still holds the
    bytes it held when it was returned, and writing to one raises ValueError."""
    e = raw_env(game, **options)
    e.reset(seed=5)
    pick = random.Random(6)
    kept: list[tuple[np.ndarray, bytes]] = []
    for _ in range(60):
        for agent in e.possible_agents:
            seen = e.observe(agent)
            for array in (seen["observation"], seen["action_mask"]):
                kept.append((array, array.tobytes()))
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[pick.randrange(len(legal))]))
        if all(e.terminations.values()):
            break
    assert len({b for _, b in kept}) > 4  # the game moved: the views differ
    assert all(array.tobytes() == held for array, held in kept)
    for array, _ in kept[:2]:
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1


@pytest.mark.parametrize("game", ["ten-thousand", "greedy"])
def test_the_scoring_numbering_gives_the_same_games_as_version_0(game: str) -> None:
    """The default environment (numbering "scoring", ``_v1``) and the version 0 one, given
    the same rolls and the same actions (each id translated through the kept dice), give the
    same observations, the same legal actions at every step (each mask's ids naming the same
    keeps and quit) and the same rewards. (Version 1 draws a roll with one random number,
    version 0 die by die: here the version 0 codec is told to draw as version 1 does, so
    that one seed gives both the same rolls.)"""
    new, old = raw_env(game, players=3), raw_env(game, players=3, numbering="multisets")
    assert new.metadata["name"].endswith("_v1") and old.metadata["name"].endswith("_v0")
    codec_new, codec_old = new.codec, old.codec
    assert codec_new.one_draw and not codec_old.one_draw  # type: ignore[attr-defined]
    codec_old.one_draw = True  # type: ignore[attr-defined]
    pick = random.Random(5)
    steps = 0
    for seed in range(5):
        new.reset(seed=seed)
        old.reset(seed=seed)
        while not all(new.terminations.values()):
            assert new.agent_selection == old.agent_selection
            for agent in new.possible_agents:
                a, b = new.observe(agent), old.observe(agent)
                assert np.array_equal(a["observation"], b["observation"])
                named = [codec_new.action_name(int(i)) for i in np.flatnonzero(a["action_mask"])]
                assert named == [
                    codec_old.action_name(int(i)) for i in np.flatnonzero(b["action_mask"])
                ]
            legal = np.flatnonzero(new.observe(new.agent_selection)["action_mask"])
            choice = int(legal[pick.randrange(len(legal))])
            action = codec_new.action_of(choice)  # type: ignore[attr-defined]
            new.step(choice)
            old.step(codec_old.id_of(action))  # type: ignore[attr-defined]
            steps += 1
        assert all(old.terminations.values()) and new.rewards == old.rewards
    assert steps >= 20


@pytest.mark.parametrize("in_place", [False, True])
@pytest.mark.parametrize("numbering", ["scoring", "multisets"])
def test_a_deep_copy_plays_on_as_the_original(in_place: bool, numbering: str) -> None:
    """``copy.deepcopy`` of an environment after some rolls (a search's usual copy; it
    raised ``TypeError``: the in-place arrays' byte views cannot be copied) plays on as the
    original: the same actions give the same observations, masks, rolls and rewards, and
    the copy writes its own arrays."""
    original = env("greedy", in_place=in_place, numbering=numbering, players=3)
    original.reset(seed=4)
    pick = random.Random(2)
    quit_id = original.unwrapped.codec.num_actions - 1

    def choose(e: Any) -> int:
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        return int(pick.choice([i for i in legal if i != quit_id]))

    for _ in range(6):
        original.step(choose(original))
    copied = copy.deepcopy(original)
    assert copied.unwrapped.position.state == original.unwrapped.position.state
    steps = 0
    while not all(original.unwrapped.terminations.values()):
        agent = original.agent_selection
        assert copied.agent_selection == agent
        seen = original.observe(agent)
        other = copied.observe(agent)
        assert other["observation"].tobytes() == seen["observation"].tobytes()
        assert np.array_equal(other["action_mask"], seen["action_mask"])
        if in_place:
            assert not np.shares_memory(other["observation"], seen["observation"])
        action = choose(original)
        original.step(action)
        copied.step(action)
        steps += 1
    assert copied.unwrapped.position.state == original.unwrapped.position.state
    assert copied.unwrapped.rewards == original.unwrapped.rewards
    assert steps >= 20
