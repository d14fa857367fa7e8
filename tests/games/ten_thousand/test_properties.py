"""Property tests (Hypothesis): random legal play, scores, turn totals, JSON and records."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.chance import FACES, sub_multisets
from parlour.engine.records import replay, to_record
from parlour.engine.state import HOST
from parlour.games.dice.notation import Skip
from parlour.games.ten_thousand.scoring import best_score, keep_options
from parlour.games.ten_thousand.state import TenThousandState

PROPERTY = settings(max_examples=30, derandomize=True, deadline=None)


@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(1, 6),
    target=st.sampled_from([1000, 2000, 3000]),
    entry=st.sampled_from([0, 350, 1000]),
    specials=st.booleans(),
    skips=st.sampled_from([0.0, 0.02]),
)
def test_random_legal_play(
    seed: int, players: int, target: int, entry: int, specials: bool, skips: float
) -> None:
    """Random legal actions (and the host's skips) never raise; scores never go down; turn
    totals are never negative; observations are JSON; sampled states round-trip through
    JSON and through a record replay."""
    game = parlour.load(
        "ten-thousand", players=players, target=target, entry=entry, specials_any_roll=specials
    )
    state = game.new_initial_state()
    assert isinstance(state, TenThousandState)
    rng = random.Random(seed)
    saved: dict[int, dict[str, object]] = {}
    while not state.is_terminal():
        before = list(state.scores)
        if rng.random() < skips:
            state.apply(Skip(), player=HOST)
        elif state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
        assert all(now >= then for now, then in zip(state.scores, before, strict=True))
        assert state.turn_total >= 0
        assert all(score % 50 == 0 for score in state.scores)
        view = state.observation(state.seat)
        assert json.loads(json.dumps(view)) == view
        if rng.random() < 0.05:
            data = json.loads(json.dumps(state.to_json()))
            assert game.state_from_json(data) == state
            saved[len(state.history)] = data
    result = state.result()
    assert max(result.scores) >= target  # only reaching the target ends the game
    assert all(result.scores[w] == max(result.scores) for w in result.winners)
    record = json.loads(json.dumps(to_record(state, [f"p{i}" for i in range(players)])))
    assert replay(record) == state
    for upto, data in saved.items():
        assert replay(record, upto=upto) == game.state_from_json(data)


rolls = st.lists(st.sampled_from(FACES), min_size=1, max_size=6).map(lambda d: tuple(sorted(d)))


@settings(max_examples=200, derandomize=True)
@given(roll=rolls, first=st.booleans())
def test_scoring_is_consistent(roll: tuple[int, ...], first: bool) -> None:
    """Every keep is part of the roll and worth a positive multiple of 50; the best score is
    the best keep, and its parts and unscored dice are the roll."""
    table = keep_options(roll, specials=first)
    assert set(table) <= set(sub_multisets(roll))
    assert all(points > 0 and points % 50 == 0 for points in table.values())
    scored = best_score(roll, first_roll=first)
    assert scored.points == max(table.values(), default=0)
    used = sorted([d for part in scored.parts for d in part.dice] + list(scored.unscored))
    assert tuple(used) == roll
    # a farkle, by the manual: no 1, no 5, no three of a kind, no first-roll special
    counts = Counter(roll)
    special = first and len(roll) == 6 and sorted(counts.values()) in ([1] * 6, [2, 2, 2])
    scores = 1 in counts or 5 in counts or max(counts.values()) >= 3 or special
    assert bool(table) == scores
