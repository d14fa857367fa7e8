"""The engine's part of a step's summary (State.describe_step, for a game that adds nothing):
who acted, the action's notation, the seat, and the mark of the step that ends the game."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.engine.state import CHANCE
from parlour.engine.step import Step


def test_a_game_that_adds_nothing_gets_the_engines_summary() -> None:
    state = parlour.load("crossword", players=2).new_initial_state()  # it adds nothing yet
    rng = random.Random(1)
    while state.is_chance_node():  # the racks are drawn
        draw = state.sample_chance(rng)
        assert state.step(draw, player=CHANCE) == Step(CHANCE, state.action_to_string(draw), None)
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


@pytest.mark.parametrize("name", [spec.name for spec in parlour.games()])
def test_every_step_of_a_random_game_is_described(name: str) -> None:
    """In every game: each summary names the event and its maker, only the last step is
    marked game over, and where a game tells score changes they add up, step by step, to the
    scores its observation shows."""
    state = parlour.load(name, players=2).new_initial_state()
    rng = random.Random(7)
    totals = [0, 0]
    for _ in range(300):
        if state.is_terminal():
            break
        who = state.current_player()
        if who == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(list(state.legal_actions()))
        summary = state.step(action, player=who)
        assert (summary.by, summary.action) == (who, state.action_to_string(action))
        assert summary.has("game_over") == state.is_terminal()
        if summary.score_changes:
            totals = [t + c for t, c in zip(totals, summary.score_changes, strict=True)]
            assert totals == state.observation(None)["scores"]
