"""The engine's simulation fast path (State.legal / apply_legal / apply_sample): it applies
only actions the rules have just listed, and gives the very games the checked path gives."""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.chance import roll_outcomes
from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE
from parlour.games.dice.state import _cumulative


def _fast_game(name: str, seed: int, **options: object) -> parlour.State:
    game = parlour.load(name, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_sample(rng)
        else:
            state.apply_legal(rng.randrange(len(state.legal())))
    return state


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("ten-thousand", {"target": 2000}),
        ("greedy", {"target": 2000}),
        ("rummy", {"ending_score": 50, "max_rounds": 3}),
    ],
)
def test_fast_games_replay_through_the_checked_path(name: str, options: dict[str, object]) -> None:
    for seed in range(3):
        fast = _fast_game(name, seed, **options)
        checked = fast.game.new_initial_state()
        for player, action in fast.history:
            checked.apply(action, player=player)  # every event passes every check
        assert checked == fast
        assert fast.game.state_from_json(fast.to_json()) == fast


def _bench_game(name: str, seed: int, **options: object) -> parlour.State:
    """A random game as the bench plays it: ``apply_legal(int(rng.random() * len(legal())))``
    and ``apply_sample(rng)``, one ``random.Random(seed)`` for both."""
    state = parlour.load(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_sample(rng)
        else:
            state.apply_legal(int(rng.random() * len(state.legal())))
    return state


@pytest.mark.parametrize(
    ("name", "options", "digest"),
    [
        ("ten-thousand", {}, "10cc6f686bdb295f"),
        ("greedy", {}, "782794bbf19a6e25"),
        ("rummy", {"ending_score": 50, "max_rounds": 2}, "25715eedb8461819"),
    ],
)
def test_the_fast_path_plays_the_games_it_played_before(
    name: str, options: dict[str, object], digest: str
) -> None:
    """Seeds 0-99 give the very games the fast path gave before it was made faster (the
    digest of their histories in notation, recorded on commit c0131bb): a faster path
    draws the same random numbers in the same order and applies the same actions."""
    found = hashlib.sha256()
    for seed in range(100):
        found.update(repr(_bench_game(name, seed, **options).to_json()["history"]).encode())
    assert found.hexdigest()[:16] == digest


def test_the_first_fast_events_of_a_seed() -> None:
    """Seed 0 of Ten-Thousand (bench loop): the first four events, in notation, and the end
    (315 events; seat 1 wins 10,000 to 9,350), as the fast path played them before."""
    state = _bench_game("ten-thousand", 0)
    first = [state.action_to_string(a) for _, a in state.history[:4]]
    assert first == ["roll 2 3 4 4 5 6", "keep 5 bank", "roll 1 2 3 4 4 5", "keep 5 bank"]
    assert len(state.history) == 315
    assert state.result().scores == (9350, 10000) and state.result().winners == (1,)


def test_apply_legal_needs_a_fresh_listing() -> None:
    state = parlour.load("rummy").new_initial_state()
    state.apply(state.sample_chance(random.Random(1)))
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(0)  # nothing listed yet
    state.legal()
    state.apply_legal(0)  # draw from the stock
    before = state.to_json()
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(0)  # the listing was of the position before the draw
    listed = state.legal()
    for bad in (len(listed), -1, True, 0.0):
        with pytest.raises(IllegalMove):
            state.apply_legal(bad)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_a_resample_of_the_hands_ends_the_listing() -> None:
    """Resampling for the seat not to move deals the mover's hand again: the listing made
    before held a discard of 4S, a card seat 0 no longer holds, and apply_legal played it
    (53 cards in the game, 4S twice). Now it asks for a new listing, changing nothing."""
    from parlour.games.rummy.cards import parse_card
    from parlour.games.rummy.notation import DISCARDS
    from parlour.research.pettingzoo import raw_env
    from parlour.research.rummy import resample

    env = raw_env("rummy")
    env.reset(seed=2)
    position = env.position
    state = position.state
    state.apply(state.parse_action("draw stock"))
    listed = list(state.legal())
    index = listed.index(DISCARDS[parse_card("4S")])
    resample(position, 1, random.Random(0))
    assert not state.hands[0] >> parse_card("4S") & 1  # seat 0's hand was dealt again
    before = state.to_json()
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(index)
    assert state.to_json() == before
    state.apply_legal(list(state.legal()).index(DISCARDS[min(state.hands[0].bit_length() - 1, 51)]))
    dealt = [c for h in state.hands for c in range(52) if h >> c & 1] + state.stock + state.discard
    assert sorted(dealt) == list(range(52))


def test_apply_sample_only_at_chance_nodes() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    state.apply_sample(random.Random(0))
    with pytest.raises(IllegalMove, match="not a chance node"):
        state.apply_sample(random.Random(0))
    assert len(state.history) == 1 and state.history[0][0] == CHANCE


def test_rummy_deals_sample_chances_deck_only_at_the_deal() -> None:
    """Rummy's apply_sample deals the deck sample_chance draws from the same seed (its
    shuffle spelt out: random.shuffle's draws), and refuses after the deal, changing
    nothing."""
    state = parlour.load("rummy").new_initial_state()
    expected = state.sample_chance(random.Random(5))
    assert state.apply_sample(random.Random(5)) == expected
    assert state.history == [(CHANCE, expected)]
    order = list(range(52))
    random.Random(5).shuffle(order)
    assert list(expected.order) == order  # type: ignore[attr-defined]
    before = state.to_json()
    with pytest.raises(IllegalMove, match="not a chance node: to move: seat 0"):
        state.apply_sample(random.Random(5))
    assert state.to_json() == before


def test_the_fast_roll_has_the_exact_probabilities() -> None:
    for n in range(1, 10):
        rolls, cum = _cumulative(n)
        exact = roll_outcomes(n)
        assert [r.dice for r in rolls] == [d for d, _ in exact]
        total = Fraction(0)
        for (_, p), c in zip(exact, cum, strict=True):
            total += p
            assert c == pytest.approx(float(total), abs=1e-12)
        assert cum[-1] == pytest.approx(1.0, abs=1e-12)


def test_fast_rolls_of_one_die_are_uniform() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    state.to_roll = 1
    rng = random.Random(5)
    counts = [0] * 6
    for _ in range(60_000):
        counts[state.draw_chance(rng).dice[0] - 1] += 1
    assert all(abs(c - 10_000) < 5 * 91 for c in counts)  # within 5 standard deviations


# --- properties (Hypothesis): the fast path and the checked path agree ----------------------

PROPERTY = settings(max_examples=25, derandomize=True, deadline=None)

GAMES = st.sampled_from(
    [
        ("ten-thousand", {"target": 1500}),
        ("ten-thousand", {"target": 1500, "players": 3, "entry": 350, "specials_any_roll": True}),
        ("greedy", {"target": 1500}),
        ("greedy", {"target": 1500, "players": 3}),
        ("rummy", {"ending_score": 40, "max_rounds": 2}),
        ("rummy", {"players": 3, "ending_score": 40, "max_rounds": 2, "must_discard": True}),
    ]
)


@PROPERTY
@given(game=GAMES, seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 10**6)))
def test_fast_and_checked_paths_give_identical_states(
    game: tuple[str, dict[str, object]], seed: int, picks: list[int]
) -> None:
    """The same choices give the same states, event by event: the fast path (legal,
    apply_legal, apply_sample) and the checked apply of the actions the checked path lists
    (chance: the outcome the fast path drew, which the checked apply accepts)."""
    name, options = game
    fast = parlour.load(name, **options).new_initial_state()
    checked = fast.game.new_initial_state()
    rng = random.Random(seed)
    for pick in [*picks, *range(400)]:
        if fast.is_terminal():
            break
        if fast.current_player() == CHANCE:
            checked.apply(fast.apply_sample(rng), player=CHANCE)
        else:
            listed = fast.legal()
            assert list(listed) == list(checked.legal_actions())
            done = fast.apply_legal(pick % len(listed))
            checked.apply(listed[pick % len(listed)])
            assert done == listed[pick % len(listed)]
        assert fast == checked
    if fast.is_terminal():
        assert checked.is_terminal() and fast.result() == checked.result()


@PROPERTY
@given(game=GAMES, seed=st.integers(0, 2**32 - 1))
def test_sample_and_apply_draws_sample_chances_stream(
    game: tuple[str, dict[str, object]], seed: int
) -> None:
    """sample_and_apply gives the very game apply(sample_chance(rng)) gives."""
    name, options = game
    ours = parlour.load(name, **options).new_initial_state()
    theirs = ours.game.new_initial_state()
    rng_ours, rng_theirs, choose = random.Random(seed), random.Random(seed), random.Random(seed)
    for _ in range(300):
        if ours.is_terminal():
            break
        if ours.current_player() == CHANCE:
            outcome = ours.sample_and_apply(rng_ours)
            theirs.apply(theirs.sample_chance(rng_theirs))
            assert theirs.history[-1] == (CHANCE, outcome)
        else:
            action = choose.choice(list(ours.legal_actions()))
            ours.apply(action)
            theirs.apply(action)
        assert ours == theirs
    with pytest.raises(IllegalMove):
        while ours.current_player() == CHANCE:
            ours.sample_and_apply(rng_ours)
        ours.sample_and_apply(rng_ours)  # not a chance node


def test_a_stale_or_outside_listing_is_refused_by_the_dice_fast_path() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    rng = random.Random(3)
    while state.current_player() == CHANCE or not state.legal():
        state.apply_sample(rng)
    with pytest.raises(IllegalMove, match="not a chance node"):
        state.apply_sample(rng)
    before = state.to_json()
    for bad in (len(state.legal()), -1, True, 0.5):
        with pytest.raises(IllegalMove):
            state.apply_legal(bad)  # type: ignore[arg-type]
    state.history.append(state.history[-1])  # any event since the listing makes it stale
    with pytest.raises(IllegalMove, match="legal"):
        state.apply_legal(0)
    state.history.pop()
    assert state.to_json() == before


@PROPERTY
@given(
    game=st.sampled_from(
        [
            ("ten-thousand", {"target": 1500, "entry": 350}),
            ("greedy", {"target": 1500}),
        ]
    ),
    seed=st.integers(0, 2**32 - 1),
    picks=st.lists(st.integers(-3, 10**4), min_size=1, max_size=120),
)
def test_dice_ids_through_the_fast_path_are_checked_ids(
    game: tuple[str, dict[str, object]], seed: int, picks: list[int]
) -> None:
    """A dice position applies a legal id as the engine's checked apply of its action
    does, and refuses any other id (IllegalMove, nothing changed), as the checked apply
    does; its mask is the legal ids'."""
    from parlour.research.codecs import load_codec

    name, options = game
    codec = load_codec(name, **options)
    position = codec.new_position()
    checked = position.state.clone()
    rng = random.Random(seed)
    for pick in picks:
        if position.is_terminal():
            break
        if position.is_chance():
            position.sample_and_apply(rng)
            checked.apply(position.state.history[-1][1], player=CHANCE)
            continue
        legal = position.legal_ids()
        assert list(np.flatnonzero(position.action_mask())) == legal
        action_id = legal[pick % len(legal)] if pick % 3 else pick  # legal or anything
        before = position.state.to_json()
        if action_id in legal:
            position.apply_id(action_id)
            checked.apply(codec.action_of(action_id))  # type: ignore[attr-defined]
        else:
            with pytest.raises(IllegalMove):
                position.apply_id(action_id)
            assert position.state.to_json() == before
        assert position.state == checked
