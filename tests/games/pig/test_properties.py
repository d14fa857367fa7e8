"""Property tests (Hypothesis): random legal play of Pig keeps the rules' invariants, and every
position round-trips through JSON and a record."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.records import replay, to_record
from parlour.engine.state import CHANCE, HOST
from parlour.games.pig.notation import Die, Hold, Skip
from parlour.games.pig.state import PigState

PROPERTY = settings(max_examples=40, derandomize=True, deadline=None)


@PROPERTY
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 6),
    target=st.sampled_from([10, 30, 100]),
    skips=st.sampled_from([0.0, 0.05]),
)
def test_random_legal_play(seed: int, players: int, target: int, skips: float) -> None:
    """Random legal actions and sampled rolls (and now and then the host's skip) never raise;
    the turn total is the sum of the turn's faces since its last 1; a score changes only on
    its own seat's hold, by the turn total; the game ends exactly when a hold reaches the
    target, with that seat the one winner; observations are JSON; states round-trip through
    JSON, a clone and a record replay."""
    rng = random.Random(seed)
    game = parlour.load("pig", players=players, target=target)
    state = game.new_initial_state()
    assert isinstance(state, PigState)
    faces: list[int] = []
    for step in range(20_000):
        if state.is_terminal():
            break
        before_scores, seat, total = list(state.scores), state.seat, state.turn_total
        turns = state.turns
        if rng.random() < skips:
            action, player = Skip(), HOST
        elif state.is_chance_node():
            action, player = state.sample_chance(rng), CHANCE
        else:
            action, player = rng.choice(list(state.legal_actions())), seat
        state.apply(action, player=player)
        json.dumps(state.observation(None))
        if isinstance(action, Hold):
            assert state.scores[seat] == before_scores[seat] + total
            assert [s for i, s in enumerate(state.scores) if i != seat] == [
                s for i, s in enumerate(before_scores) if i != seat
            ]
            assert state.is_terminal() == (state.scores[seat] >= target)
        else:
            assert state.scores == before_scores and not state.is_terminal()
        if state.turns != turns:  # the turn ended: by a 1, a hold or a skip
            assert state.turns == turns + 1 and state.turn_total == 0
            assert state.last == {"seat": seat, "end": end_of(action), "points": total}
            faces = []
        elif isinstance(action, Die):
            faces.append(action.face)
        assert state.turn_total == sum(faces) and 1 not in faces
        if step % 37 == 0:
            _round_trips(state)
    assert state.is_terminal()
    assert state.result().winners == (state.seat,)
    assert state.scores[state.seat] >= target
    assert all(s < target for i, s in enumerate(state.scores) if i != state.seat)
    _round_trips(state)


def end_of(action: object) -> str:
    """How a turn ended by *action*, as ``PigState.last`` says it."""
    return {Hold(): "hold", Skip(): "skip", Die(1): "pig"}[action]  # type: ignore[index]


def _round_trips(state: PigState) -> None:
    game = state.game
    data = json.loads(json.dumps(state.to_json()))
    assert game.state_from_json(data) == state
    twin = state.clone()
    assert twin == state
    names = [f"p{i}" for i in range(game.num_players)]
    assert replay(json.loads(json.dumps(to_record(state, names)))) == state
    if not state.is_terminal():  # a clone is independent of its original
        actor = state.current_player()
        action = twin.sample_chance(random.Random(0)) if actor == CHANCE else Hold()
        twin.apply(action, player=actor)
        assert twin != state and len(twin.history) == len(state.history) + 1
