"""Greedy turns: bonus rounds, the immediate win, quitting (docs/rules/greedy.md)."""

from __future__ import annotations

import json

import pytest

import parlour
from parlour.engine.errors import IllegalMove
from parlour.engine.records import replay, to_record
from parlour.engine.state import CHANCE, HOST
from parlour.games.dice.notation import Keep, Quit, Skip
from parlour.games.greedy.state import GreedyState
from tests.helpers import play


def new(players: int = 2, **options: object) -> GreedyState:
    state = parlour.load("greedy", players=players, **options).new_initial_state()
    assert isinstance(state, GreedyState)
    return state


def test_first_roll_is_nine_dice() -> None:
    state = new()
    assert state.current_player() == CHANCE and state.to_roll == 9
    play(state, "roll 1 2 2 3 4 4 6 6 6", "keep 6 6 6 roll")
    assert state.to_roll == 6 and state.turn_total == 600


def test_no_points_forfeits_the_round() -> None:
    state = play(new(), "roll 1 2 2 3 4 4 6 6 6", "keep 1 6 6 6 roll", "roll 2 2 3 3 4")
    assert state.scores == [0, 0] and state.seat == 1
    assert state.last == {"seat": 0, "end": "farkle", "points": 700, "roll": [2, 2, 3, 3, 4]}


def test_bonus_round_bank() -> None:
    state = play(new(), "roll 1 1 1 5 5 5 2 2 2", "keep 1 1 1 5 5 5 2 2 2 bank")
    assert state.scores == [1700, 0]


def test_bonus_round_reroll_keeps_points_at_risk() -> None:
    state = play(
        new(),
        "roll 1 2 2 2 3 3 4 4 6",
        "keep 1 2 2 2 roll",  # 300, five dice left
        "roll 1 1 1 5 5",
        "keep 1 1 1 5 5 roll",  # 1100: all nine have scored
    )
    assert state.turn_total == 1400 and state.to_roll == 9 and state.bonus_rounds == 1
    play(state, "roll 1 2 2 3 3 4 4 6 6", "keep 1 bank")
    assert state.scores == [1500, 0]


def test_farkle_in_bonus_round_loses_everything() -> None:
    state = play(
        new(), "roll 1 1 1 5 5 5 2 2 2", "keep 1 1 1 5 5 5 2 2 2 roll", "roll 2 2 3 4 4 6 6 3 4"
    )
    # 4 4 4 is a set: not a farkle yet
    assert state.current_player() == 0
    play(state, "keep 4 4 4 roll", "roll 2 2 3 3 6 6")
    assert state.scores == [0, 0] and state.seat == 1 and state.bonus_rounds == 0


def test_immediate_win_without_last_turns() -> None:
    state = new(3, target=1000)
    play(state, "roll 1 1 1 2 3 4 4 6 6", "keep 1 1 1 bank")
    assert state.is_terminal()
    assert state.result().winners == (0,) and state.result().scores == (1000, 0, 0)


def test_quit_forfeits_at_any_time() -> None:
    state = play(new(), "roll 1 1 1 2 3 4 4 6 6", "keep 1 1 1 bank")
    assert state.current_player() == CHANCE
    state.apply(Quit(), player=0)  # seat 0 leaves while the dice are with seat 1
    assert state.is_terminal()
    assert state.result().winners == (1,)
    assert state.result().scores == (1000, 0)


def test_illegal_keep_is_refused_and_changes_nothing() -> None:
    state = play(new(), "roll 1 2 2 3 4 4 6 6 6")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove, match="does not score"):
        state.apply(Keep((1, 2, 2), bank=True))
    with pytest.raises(IllegalMove, match="not among the dice"):
        state.apply(Keep((5,), bank=True))
    assert json.dumps(state.to_json()) == before


def test_host_skip_loses_the_turn_total() -> None:
    state = play(new(), "roll 1 2 2 3 4 4 6 6 6", "keep 6 6 6 roll")
    state.apply(Skip(), player=HOST)
    assert state.seat == 1 and state.scores == [0, 0]
    assert state.last == {"seat": 0, "end": "skip", "points": 600}


def test_sum_box_in_observation() -> None:
    state = play(
        new(),
        "roll 1 1 1 2 3 4 4 6 6",
        "keep 1 1 1 bank",
        "roll 1 1 1 2 3 4 4 6 6",
        "keep 1 1 1 bank",
        "roll 5 2 2 3 4 4 6 6 3",
        "keep 5 roll",
    )
    assert state.observation(0)["sum"] == 1050


def test_bonus_rounds_repeat_and_the_bank_keeps_everything() -> None:
    state = play(
        new(),
        "roll 1 1 1 5 5 5 2 2 2",
        "keep 1 1 1 5 5 5 2 2 2 roll",  # 1,700: bonus round 1
        "roll 1 2 2 3 3 3 4 4 6",
        "keep 1 3 3 3 roll",  # 400, five dice left
        "roll 6 6 6 1 5",
        "keep 1 5 6 6 6 roll",  # 750: all nine again, bonus round 2
    )
    assert state.bonus_rounds == 2 and state.to_roll == 9 and state.turn_total == 2850
    assert state.observation(0)["bonus_rounds"] == 2
    play(state, "roll 1 2 2 3 3 4 4 6 6", "keep 1 bank")
    assert state.scores == [2950, 0] and state.bonus_rounds == 0 and state.seat == 1


def test_keep_actions_are_the_legal_actions_without_quit() -> None:
    state = play(new(), "roll 1 2 2 2 3 4 4 6 6")
    assert list(state.keep_actions()) == [
        a for a in state.legal_actions() if not isinstance(a, Quit)
    ]
    assert len(state.keep_actions()) == 6  # 1, 2 2 2, 1 2 2 2; each then roll or bank
    assert Quit() in state.legal_actions()
    play(state, "keep 1 bank")
    assert state.keep_actions() == ()  # a chance node: nobody chooses dice


def test_record_with_a_quit_out_of_turn_replays_exactly() -> None:
    state = play(new(), "roll 1 1 1 2 3 4 4 6 6", "keep 1 1 1 bank", "roll 5 2 2 3 4 4 6 6 3")
    state.apply(Quit(), player=0)  # seat 0 leaves while seat 1 chooses
    record = json.loads(json.dumps(to_record(state, ["ann", "cpu:strong"])))
    assert record["events"][-1] == {"by": 0, "move": "quit"}
    assert record["result"] == {"scores": [1000, 0], "winners": [1]}
    again = replay(record)
    assert again == state and again.quitter == 0


def test_a_keep_that_does_not_score_is_explained_in_greedys_terms() -> None:
    """Greedy has sets of three, not Ten-Thousand's groups (four 2s are a set and a 2 that
    does not score), and no three pairs or straights."""
    state = play(new(), "roll 2 2 2 2 3 4 4 6 6")
    with pytest.raises(IllegalMove) as refused:
        state.apply(Keep((2, 2, 2, 2), bank=False))
    reason = str(refused.value)
    assert reason.startswith("2 2 2 2 does not score as a whole")
    assert "sets of three" in reason and "groups" not in reason and "pairs" not in reason
