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
from parlour.games.dice.notation import Quit, Skip
from parlour.games.greedy.scoring import best_score, keep_options, selection_points
from parlour.games.greedy.state import GreedyState

PROPERTY = settings(max_examples=30, derandomize=True, deadline=None)


@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    target=st.sampled_from([1000, 2000, 3000]),
    skips=st.sampled_from([0.0, 0.02]),
    quits=st.sampled_from([0.0, 0.005]),
)
def test_random_legal_play(
    seed: int, players: int, target: int, skips: float, quits: float
) -> None:
    """Random legal actions (the host's skips, quits by any seat at any time) never raise;
    scores never go down and stay multiples of 50; the Sum is the score plus the turn total;
    observations are JSON; sampled states round-trip through JSON and a record replay; the
    game ends only by a bank to the target (won by the banker) or by a quit."""
    game = parlour.load("greedy", players=players, target=target)
    state = game.new_initial_state()
    assert isinstance(state, GreedyState)
    rng = random.Random(seed)
    saved: dict[int, dict[str, object]] = {}
    while not state.is_terminal():
        before = list(state.scores)
        if rng.random() < quits:
            state.apply(Quit(), player=rng.randrange(players))
        elif rng.random() < skips:
            state.apply(Skip(), player=HOST)
        elif state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.keep_actions()))
        assert all(now >= then for now, then in zip(state.scores, before, strict=True))
        assert state.turn_total >= 0 and state.turn_total % 50 == 0
        assert all(score % 50 == 0 for score in state.scores)
        view = state.observation(state.seat)
        assert json.loads(json.dumps(view)) == view
        assert view["sum"] == state.scores[state.seat] + state.turn_total
        if rng.random() < 0.05:
            data = json.loads(json.dumps(state.to_json()))
            assert game.state_from_json(data) == state
            saved[len(state.history)] = data
    result = state.result()
    if state.quitter is None:
        (winner,) = result.winners  # the first to bank to the target, alone
        assert result.scores[winner] >= target
        assert sorted(result.scores)[-2] < target
        assert state.last is not None and state.last["seat"] == winner
    else:
        assert state.quitter not in result.winners
    record = json.loads(json.dumps(to_record(state, [f"p{i}" for i in range(players)])))
    assert replay(record) == state
    for upto, data in saved.items():
        assert replay(record, upto=upto) == game.state_from_json(data)


rolls = st.lists(st.sampled_from(FACES), min_size=1, max_size=9).map(lambda d: tuple(sorted(d)))


@settings(max_examples=300, derandomize=True)
@given(roll=rolls)
def test_scoring_is_consistent(roll: tuple[int, ...]) -> None:
    """Every keep is part of the roll, scores as a whole, and is worth a positive multiple
    of 50; the best score is the best keep, and its parts and unscored dice are the roll;
    a roll has points exactly when it holds a 1, a 5 or three of a kind; nine dice always
    score."""
    table = keep_options(roll)
    assert set(table) <= set(sub_multisets(roll))
    assert all(points > 0 and points % 50 == 0 for points in table.values())
    assert all(selection_points(kept) == points for kept, points in table.items())
    scored = best_score(roll)
    assert scored.points == max(table.values(), default=0)
    used = sorted([d for part in scored.parts for d in part.dice] + list(scored.unscored))
    assert tuple(used) == roll
    counts = Counter(roll)
    assert bool(table) == (1 in counts or 5 in counts or max(counts.values()) >= 3)
    if len(roll) == 9:
        assert table
