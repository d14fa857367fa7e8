"""Crossword computer players: each level's rule, legal choices in whole games, the end game,
and that no level's choice depends on what its seat cannot see
(docs/rules/crossword.md#computer-players)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import ParlourError
from parlour.games.crossword.board import ACROSS, Board
from parlour.games.crossword.bots import (
    ARENA_LEVELS,
    LEVELS,
    HardBot,
    MediumBot,
    arena_measure,
    leave_of,
    make_bot,
    seen,
)
from parlour.games.crossword.lookahead import LookaheadBot
from parlour.games.crossword.notation import Exchange, Pass, Play
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import FULL_BAG, sorted_tiles, take
from parlour.session import LocalGame
from tests.games.crossword.helpers import board

SETTINGS = settings(
    max_examples=10, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def midgame(players: int, seed: int, turns: int) -> CrosswordState:
    """A position after *turns* turns of seeded medium self-play, a seat to move."""
    state = parlour.load("crossword", players=players).new_initial_state()
    assert isinstance(state, CrosswordState)
    rng = random.Random(seed)
    bot = MediumBot()
    while True:
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if state.turns >= turns or state.is_terminal():
            return state
        state.apply(bot.choose(state, state.seat, rng))


def position(b: Board, racks: list[str], bag: str = "", **options: object) -> CrosswordState:
    """*racks* on *b* with exactly *bag* left in the bag (the other tiles are covered)."""
    game = parlour.load("crossword", players=len(racks), **options)
    covered = take(FULL_BAG, b.tiles_on_top() + "".join(racks) + bag)
    assert covered is not None
    return CrosswordState.from_position(game, b, racks, covered=covered)


POSITIONS = [midgame(2, seed, turns) for seed, turns in ((1, 4), (2, 9), (3, 14))] + [
    midgame(3, 4, 8)
]


def test_the_levels_are_registered_weakest_first() -> None:
    spec = parlour.load("crossword").spec
    assert spec.bot_levels == LEVELS == ("easy", "medium", "hard", "lookahead")
    assert [make_bot(level).name for level in LEVELS] == list(LEVELS)
    with pytest.raises(ParlourError, match="unknown Crossword level 'genius'"):
        make_bot("genius")
    local = LocalGame.new("crossword", "me,cpu:hard,cpu")
    assert [local.bots[s].name for s in (1, 2)] == ["hard", "lookahead"]


@pytest.mark.parametrize("levels", [("easy", "hard"), ("medium", "easy", "hard")])
def test_whole_games_between_levels_end_with_legal_moves(levels: tuple[str, ...]) -> None:
    game = parlour.load("crossword", players=len(levels))
    state = play_game(game, [make_bot(level) for level in levels], random.Random(len(levels)))
    assert isinstance(state, CrosswordState) and state.is_terminal()
    assert sum(state.tiles_accounted().values()) == 98
    # play_game applies each choice through the engine, which refuses illegal moves; the
    # figures the arena reads add up to the log
    for seat in range(len(levels)):
        figures = arena_measure(state, seat)
        plays = [e for e in state.log if e.get("seat") == seat and e["kind"] == "play"]
        assert figures["plays"] == len(plays)
        assert figures["play_points"] == sum(e["score"] for e in plays)
        assert figures["bingos"] == sum(e["bingo"] for e in plays)
        assert figures["covers"] == sum(1 for e in plays if e["covered"])


def test_medium_plays_the_highest_score() -> None:
    for state in POSITIONS:
        moves = state.moves(state.seat)
        choice = MediumBot().choose(state, state.seat, random.Random(0))
        best = max(m.score for m in moves)
        assert isinstance(choice, Play)
        assert {m.score for m in moves if m.play == choice} == {best}


def test_easy_plays_among_the_lower_scoring_half() -> None:
    for state in POSITIONS:
        scores = sorted(m.score for m in state.moves(state.seat))
        ceiling = scores[(len(scores) + 1) // 2 - 1]
        by_play = {m.play: m.score for m in state.moves(state.seat)}
        chosen = {make_bot("easy").choose(state, state.seat, random.Random(i)) for i in range(12)}
        assert len(chosen) > 1  # random among them
        assert all(by_play[c] <= ceiling for c in chosen)


def test_without_a_play_a_player_exchanges_or_passes() -> None:
    # J K Q V V X Z: no word in ENABLE can be made of these alone on an empty board
    full_bag = position(Board.empty(), ["JKQVVXZ", "AEINRST"], bag="EEEEEEEE")
    assert full_bag.moves(0) == []
    for level in ("easy", "medium"):
        assert make_bot(level).choose(full_bag, 0, random.Random(0)) == Exchange("JKQVVXZ")
    assert isinstance(make_bot("hard").choose(full_bag, 0, random.Random(0)), Exchange)
    low_bag = position(Board.empty(), ["JKQVVXZ", "AEINRST"], bag="EEE")
    for level in LEVELS:
        assert make_bot(level).choose(low_bag, 0, random.Random(0)) == Pass()


def test_hard_plays_for_score_plus_leave() -> None:
    hard = HardBot()
    for state in POSITIONS:
        view = seen(state, state.seat)
        moves = state.moves(state.seat)
        choice = hard.choose(state, state.seat, random.Random(0))
        best = max(hard.equity(view, m) for m in moves)
        exchange = hard.best_exchange(view)
        if isinstance(choice, Exchange):
            assert exchange is not None and choice == exchange[1] and exchange[0] > best
        else:
            (chosen,) = [m for m in moves if m.play == choice]
            assert hard.equity(view, chosen) == best
            assert exchange is None or exchange[0] <= best
            # the equity is the score plus the learned value of the tiles kept
            assert best == chosen.score + hard.leaves.value(leave_of(view.rack, chosen))


def test_hard_keeps_an_s_for_two_points() -> None:
    # Opening with A B E H L S T. BATHES from D8 scores (3*2 + 1 + 1 + 4 + 1 + 1) * 2 = 28
    # (B on a double letter, H8 doubles) and keeps L; BATHE scores 26 and keeps L S. The
    # medium player takes the 28; the hard one keeps the S, which the learned table values
    # above two points over an L alone.
    state = position(Board.empty(), ["ABEHLST", "OOOOOOO"], bag="EEEEEEEEEE")
    assert str(MediumBot().choose(state, 0, random.Random(0))) == "BATHES D8 across"
    assert str(HardBot().choose(state, 0, random.Random(0))) == "BATHE D8 across"
    leaves = HardBot().leaves
    assert leaves.value("LS") - leaves.value("L") > 2


def test_hard_goes_out_in_the_end_game_when_it_pays() -> None:
    # The bag is empty. With D S on QUICK the most points are QUICKS (21) but the D stays;
    # QUIDS (15) goes out and wins the opponent's J Z twice over: 15 + 2 * 18
    b = board(("QUICK", "H8", ACROSS))
    state = position(b, ["DS", "JZ"])
    assert state.bag == ""
    assert str(MediumBot().choose(state, 0, random.Random(0))) == "QUICKS H8 across"
    assert str(HardBot().choose(state, 0, random.Random(0))) == "QUIDS H8 across"


def shuffled_hidden(state: CrosswordState, seat: int, rng: random.Random) -> CrosswordState:
    """*state* with the tiles *seat* cannot see dealt again: other racks (same sizes) and
    the bag hold other tiles of the same unseen multiset."""
    other = state.clone()
    pool = list(state.unseen(seat))
    rng.shuffle(pool)
    for s in range(state.game.num_players):
        if s != seat:
            size = len(state.racks[s])
            other.racks[s], pool = "".join(pool[:size]), pool[size:]
    other.bag = sorted_tiles("".join(pool))
    assert other.observation(seat) == state.observation(seat)
    return other


@SETTINGS
@given(
    index=st.integers(0, 100),
    deal=st.integers(0, 2**16),
    level=st.sampled_from((*LEVELS, *ARENA_LEVELS)),
)
def test_no_level_looks_at_other_racks_or_the_bag(index: int, deal: int, level: str) -> None:
    endgame = position(board(("QUICK", "H8", ACROSS)), ["DS", "JZ", "AE"])  # 3 seats, bag 0
    state = ([*POSITIONS, endgame])[index % (len(POSITIONS) + 1)]
    seat = state.current_player()
    other = shuffled_hidden(state, seat, random.Random(deal))
    # the look-ahead without its clock (a loaded machine must not cut one run short)
    bot = (
        LookaheadBot(samples=3, width=3, seconds=math.inf)
        if level == "lookahead"
        else make_bot(level)
    )
    assert bot.choose(other, seat, random.Random(7)) == bot.choose(state, seat, random.Random(7))
