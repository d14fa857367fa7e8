"""OpenSpiel's MCTS and IS-MCTS as parlour computer levels: the arena knows them, and they
choose legal moves from what their seat may know."""

from __future__ import annotations

import random

import parlour
from parlour.bots.arena import parse_levels, research_levels, run_arena
from parlour.engine.registry import find
from parlour.research.bots import OpenSpielISMCTSBot, OpenSpielMCTSBot
from parlour.session import make_bot


def test_the_arena_knows_the_research_levels() -> None:
    assert research_levels(find("ten-thousand")) == ("openspiel-mcts",)
    assert research_levels(find("rummy")) == ("openspiel-ismcts",)
    assert research_levels(find("crossword")) == ()
    spec = find("ten-thousand")
    assert parse_levels("openspiel-mcts, strong", spec) == ["openspiel-mcts", "strong"]
    assert isinstance(make_bot(spec, "openspiel-mcts"), OpenSpielMCTSBot)
    assert isinstance(make_bot(find("rummy"), "openspiel-ismcts"), OpenSpielISMCTSBot)


def test_mcts_banks_a_big_turn_with_one_die_left() -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    rng = random.Random(0)
    for text in ("roll 1 1 1 5 2 3", "keep 1 1 1 5 roll", "roll 2 5"):
        state.apply(state.parse_action(text))
    action = OpenSpielMCTSBot(simulations=100).choose(state, 0, rng)
    assert str(action) == "keep 5 bank"  # 1,050 points at risk on one die


def test_ismcts_plays_legal_moves_in_an_arena() -> None:
    game = parlour.load("rummy", ending_score=5, max_rounds=1, max_turns=6)
    bots = [OpenSpielISMCTSBot(simulations=20), make_bot(find("rummy"), "hard")]
    result = run_arena(game, bots, games=2, seed=1)
    assert [b.games for b in result.bots] == [2, 2]
    assert sum(b.wins for b in result.bots) == 2
