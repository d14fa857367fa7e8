"""The engine's part of a step's summary (State.describe_step, for a game that adds nothing):
who acted, the action's notation, the seat, and the mark of the step that ends the game."""

from __future__ import annotations

import random

import parlour
from parlour.engine.state import CHANCE
from parlour.engine.step import Step


def test_a_game_that_adds_nothing_gets_the_engines_summary() -> None:
    state = parlour.load("rummy", players=2).new_initial_state()
    deal = state.sample_chance(random.Random(1))
    summary = state.step(deal, player=CHANCE)
    assert summary == Step(CHANCE, state.action_to_string(deal), None)
    move = state.legal_actions()[0]
    seat = state.current_player()
    assert state.step(move) == Step(seat, state.action_to_string(move), seat)


def test_the_last_step_is_marked_game_over() -> None:
    state = parlour.load("ten-thousand", players=1, target=1000).new_initial_state()
    first = state.step(state.parse_action("roll 1 1 1 2 3 4", player=CHANCE), player=CHANCE)
    assert "game_over" not in first.marks
    summary = state.step(state.parse_action("keep 1 1 1 bank"))  # one player: over at 1000
    assert state.is_terminal()
    assert summary.marks[-1] == "game_over"
