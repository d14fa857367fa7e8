"""Property tests: tiles conserved, refused plays change nothing, records replay, racks hidden."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour.engine.errors import IllegalMove
from parlour.engine.records import replay, to_record
from parlour.games.crossword.board import ACROSS, DOWN, Direction
from parlour.games.crossword.notation import Exchange, Play, Rearrange
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import FULL_BAG, RACK_SIZE, sorted_tiles, take

ALL_TILES = Counter(FULL_BAG)
SETTINGS = settings(
    max_examples=8,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def step(state: CrosswordState, rng: random.Random) -> None:
    """One event: a sampled draw, or a turn that is mostly a play; now and then a seat
    rearranges its rack."""
    if state.is_chance_node():
        state.apply(state.sample_chance(rng))
        return
    if rng.random() < 0.1:
        seat = rng.randrange(state.game.num_players)
        tiles = list(state.racks[seat])
        rng.shuffle(tiles)
        state.apply(Rearrange("".join(tiles)), player=seat)
        return
    plays = state.plays(state.seat)
    if plays and rng.random() < 0.85:
        state.apply(rng.choice(plays).play)
    else:
        state.apply(rng.choice(list(state.legal_actions())))


def new_game(lexicon: str, players: int, **options: object) -> CrosswordState:
    state = parlour.load(
        "crossword", players=players, lexicon=lexicon, **options
    ).new_initial_state()
    assert isinstance(state, CrosswordState)
    return state


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**20), players=st.integers(2, 4), cover=st.booleans())
def test_tiles_are_conserved_and_records_replay(
    small_lexicon_file: str, seed: int, players: int, cover: bool
) -> None:
    state = new_game(small_lexicon_file, players, cover_whole_word=cover)
    rng = random.Random(seed)
    while not state.is_terminal():
        step(state, rng)
        assert state.tiles_accounted() == ALL_TILES
        assert all(len(r) <= RACK_SIZE for r in state.racks)
    result = state.result()
    assert sum(result.scores) == sum(e["score"] for e in state.log if e["kind"] == "play") + sum(
        state.log[-1]["adjustments"]
    )
    data = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(data) == state
    names = [f"p{i}" for i in range(players)]
    assert replay(json.loads(json.dumps(to_record(state, names)))) == state


@pytest.fixture(scope="module")
def midgame(small_lexicon_file: str) -> list[CrosswordState]:
    """Positions from two seeded games, every other turn."""
    found = []
    for seed in (11, 12):
        state = new_game(small_lexicon_file, 2)
        rng = random.Random(seed)
        while not state.is_terminal():
            step(state, rng)
            if state.current_player() >= 0 and state.turns % 2 == 0:
                found.append(state.clone())
    return found


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    index=st.integers(0, 10_000),
    word=st.one_of(
        st.text("ACDEILNORSTU", min_size=1, max_size=6),
        st.sampled_from(["CAT", "TOE", "DOTE", "RAIN", "LOUT", "NO", "TO", "IS", "ODE"]),
    ),
    square=st.integers(0, 224),
    direction=st.sampled_from([ACROSS, DOWN]),
    legal=st.integers(-1, 1000),
)
def test_a_refused_play_changes_nothing_and_an_accepted_one_adds_its_score(
    midgame: list[CrosswordState],
    index: int,
    word: str,
    square: int,
    direction: Direction,
    legal: int,
) -> None:
    state = midgame[index % len(midgame)].clone()
    seat = state.seat
    plays = state.plays(seat)
    # half the examples try a listed legal play, the others arbitrary text
    play = plays[legal % len(plays)].play if plays and legal >= 0 else Play(word, square, direction)
    before = json.dumps(state.to_json())
    try:
        preview = state.preview(play)
    except IllegalMove:
        with pytest.raises(IllegalMove):
            state.apply(play)
        assert json.dumps(state.to_json()) == before
        return
    assert json.dumps(state.to_json()) == before  # a preview changes nothing
    score = state.scores[seat]
    state.apply(play)
    adjustment = state.log[-1]["adjustments"][seat] if state.is_terminal() else 0
    assert state.scores[seat] == score + preview.score + adjustment
    assert state.log[-1 if not state.is_terminal() else -2]["score"] == preview.score
    assert state.tiles_accounted() == ALL_TILES


@SETTINGS
@given(index=st.integers(0, 10_000), data=st.data())
def test_no_seat_sees_another_seats_rack(
    midgame: list[CrosswordState], index: int, data: st.DataObject
) -> None:
    state = midgame[index % len(midgame)]
    other = state.clone()
    # deal seat 1 a different rack from the tiles seat 0 cannot see
    pool = sorted_tiles(state.bag + state.racks[1])
    rack = "".join(data.draw(st.permutations(pool))[: len(state.racks[1])])
    rest = take(pool, rack)
    assert rest is not None
    other.racks[1], other.bag = rack, rest
    assert other.observation(0) == state.observation(0)
    assert other.observation(None) == state.observation(None)


@SETTINGS
@given(index=st.integers(0, 10_000), tiles=st.text("ACDEILNORSTUQZ", min_size=0, max_size=8))
def test_a_refused_exchange_or_rearrangement_changes_nothing(
    midgame: list[CrosswordState], index: int, tiles: str
) -> None:
    state = midgame[index % len(midgame)].clone()
    before = json.dumps(state.to_json())
    for action, player in ((Exchange(sorted_tiles(tiles)), state.seat), (Rearrange(tiles), 1)):
        try:
            state.apply(action, player=player)
        except IllegalMove:
            assert json.dumps(state.to_json()) == before
        else:
            assert state.tiles_accounted() == ALL_TILES
            return
