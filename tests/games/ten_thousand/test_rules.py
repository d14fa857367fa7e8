"""Ten-Thousand turns, farkles, hot dice, last turns, house rules (docs/rules/ten-thousand.md)."""

from __future__ import annotations

import json

import pytest

import parlour
from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE, HOST, TERMINAL
from parlour.games.dice.notation import Keep, Roll, Skip
from parlour.games.ten_thousand.state import TenThousandState
from tests.helpers import play


def new(players: int = 2, **options: object) -> TenThousandState:
    state = parlour.load("ten-thousand", players=players, **options).new_initial_state()
    assert isinstance(state, TenThousandState)
    return state


def test_turn_starts_with_a_roll_of_six() -> None:
    state = new()
    assert state.current_player() == CHANCE
    assert len(state.chance_outcomes()) == 462
    with pytest.raises(IllegalMove, match="6 dice are rolled here"):
        state.apply(Roll((1, 2, 3)))


def test_keep_and_bank() -> None:
    state = play(new(), "roll 1 1 2 3 4 6", "keep 1 1 bank")
    assert state.scores == [200, 0]
    assert state.seat == 1 and state.current_player() == CHANCE


def test_keep_and_roll_on_accumulates_turn_total() -> None:
    state = play(new(), "roll 1 2 3 4 4 6", "keep 1 roll", "roll 5 2 2 3 6")
    assert state.turn_total == 100 and state.to_roll == 5
    play(state, "keep 5 bank")
    assert state.scores == [150, 0]


def test_only_scoring_dice_may_be_kept() -> None:
    state = play(new(), "roll 1 2 3 4 4 6")
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove, match="does not score"):
        state.apply(Keep((1, 2), bank=True))
    with pytest.raises(IllegalMove, match="not among the dice rolled"):
        state.apply(Keep((5,), bank=True))
    with pytest.raises(IllegalMove, match="at least one"):
        state.apply(Keep((), bank=True))
    assert json.dumps(state.to_json()) == before


def test_farkle_loses_the_turn_total() -> None:
    state = play(new(), "roll 1 2 3 4 4 6", "keep 1 roll", "roll 2 2 3 4 6")
    assert state.scores == [0, 0]
    assert state.seat == 1 and state.turn_total == 0
    assert state.last == {"seat": 0, "end": "farkle", "points": 100, "roll": [2, 2, 3, 4, 6]}


def test_hot_dice_twice_in_a_turn() -> None:
    state = play(
        new(),
        "roll 1 1 1 5 5 5",
        "keep 1 1 1 5 5 5 roll",  # 1500, hot dice
        "roll 2 2 2 3 3 3",
        "keep 2 2 2 3 3 3 roll",  # 500, hot dice again
        "roll 1 2 3 4 6 6",
    )
    assert state.turn_total == 2000 and state.to_roll == 6
    play(state, "keep 1 bank")
    assert state.scores == [2100, 0]


def test_farkle_after_hot_dice() -> None:
    state = play(new(), "roll 1 2 3 4 5 6", "keep 1 2 3 4 5 6 roll", "roll 2 2 3 3 4 6")
    assert state.scores == [0, 0] and state.seat == 1
    assert state.last is not None and state.last["points"] == 1500


def test_three_pairs_and_straight_only_on_first_roll() -> None:
    # later roll: pairs of twos, fours and sixes are a farkle
    state = play(new(), "roll 1 2 3 4 6 6", "keep 1 roll", "roll 2 2 4 4 6")
    assert state.seat == 1 and state.scores == [0, 0]
    # a straight of five on a later roll scores only its 1 and 5
    state = play(new(), "roll 1 2 3 4 6 6", "keep 1 roll", "roll 1 2 3 5 6")
    with pytest.raises(IllegalMove):
        state.apply(Keep((1, 2, 3, 5, 6), bank=True))
    state = play(new(), "roll 2 2 4 4 6 6", "keep 2 2 4 4 6 6 bank")
    assert state.scores[0] == 1000
    state = play(new(), "roll 1 2 3 4 5 6", "keep 1 2 3 4 5 6 bank")
    assert state.scores[0] == 1500


def test_straight_after_hot_dice_is_not_a_first_roll() -> None:
    state = play(new(), "roll 1 1 1 5 5 5", "keep 1 1 1 5 5 5 roll", "roll 1 2 3 4 5 6")
    with pytest.raises(IllegalMove):
        state.apply(Keep((1, 2, 3, 4, 5, 6), bank=True))
    play(state, "keep 1 5 bank")
    assert state.scores[0] == 1650


def test_specials_any_roll_option() -> None:
    state = play(
        new(specials_any_roll=True),
        "roll 1 1 1 5 5 5",
        "keep 1 1 1 5 5 5 roll",
        "roll 1 2 3 4 5 6",
        "keep 1 2 3 4 5 6 bank",
    )
    assert state.scores[0] == 3000


def test_last_turns_with_three_players() -> None:
    state = new(3, target=1000)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank")  # seat 0 reaches 1000
    assert state.last_turns() and state.final_turns == 2
    play(state, "roll 5 5 5 5 2 3", "keep 5 5 5 5 bank")  # seat 1: 1000
    assert not state.is_terminal()
    # seat 2's last turn: hot dice twice still all one turn
    play(state, "roll 2 2 2 2 2 2", "keep 2 2 2 2 2 2 bank")  # seat 2: 1600
    assert state.current_player() == TERMINAL
    result = state.result()
    assert result.scores == (1000, 1000, 1600) and result.winners == (2,)
    # no further turn for seat 0
    with pytest.raises(IllegalMove, match="over"):
        state.apply(Roll((1, 1, 1, 1, 1, 1)))


def test_shared_win_at_equal_highest_scores() -> None:
    state = new(2, target=1000)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank", "roll 1 1 1 2 3 4", "keep 1 1 1 bank")
    assert state.result().winners == (0, 1)
    assert state.returns() == [0.5, 0.5]


def test_reaching_target_in_last_turns_does_not_restart_them() -> None:
    state = new(3, target=1000)
    play(
        state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank", "roll 1 1 1 1 2 3", "keep 1 1 1 1 bank"
    )  # seat 1: 2000 in its last turn
    assert state.final_turns == 1
    play(state, "roll 2 3 3 4 4 6")  # seat 2 farkles on its last turn
    assert state.is_terminal() and state.result().winners == (1,)


def test_single_player_practice_ends_at_target() -> None:
    state = new(1, target=1000)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 bank")
    assert not state.is_terminal()
    play(state, "roll 1 1 1 1 2 3", "keep 1 1 1 1 bank")
    assert state.is_terminal() and state.result().winners == (0,)


def test_entry_score_option() -> None:
    state = play(new(entry=500), "roll 1 1 2 3 4 6")
    with pytest.raises(IllegalMove, match="first bank must be at least 500"):
        state.apply(Keep((1, 1), bank=True))
    assert Keep((1, 1), bank=True) not in state.legal_actions()
    assert Keep((1, 1), bank=False) in state.legal_actions()
    play(state, "keep 1 1 roll", "roll 1 1 1 2", "keep 1 1 1 bank")
    assert state.scores == [1200, 0]
    # seat 1 has not entered: 50 is refused
    play(state, "roll 2 3 4 6 6 5")
    with pytest.raises(IllegalMove, match="first bank"):
        state.apply(Keep((5,), bank=True))
    play(state, "keep 5 roll", "roll 2 3 4 6 6")  # farkle
    # once entered, any bank is allowed
    play(state, "roll 1 2 3 4 6 6", "keep 1 bank")
    assert state.scores == [1300, 0]


def test_observation_is_json_and_shows_last_turns() -> None:
    state = new(2, target=1000)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank", "roll 1 2 3 4 6 6")
    view = state.observation(1)
    assert json.loads(json.dumps(view)) == view
    assert view["last_turns"] is True and view["roll"] == [1, 2, 3, 4, 6, 6]
    assert view["to_move"] == 1 and view["scores"] == [1000, 0]


def test_groups_count_only_within_one_roll() -> None:
    # three 4s set aside, then a single 4 on the next roll is no group: a farkle
    state = play(new(), "roll 4 4 4 2 3 6", "keep 4 4 4 roll", "roll 4 2 3")
    assert state.seat == 1 and state.scores == [0, 0]
    assert state.last == {"seat": 0, "end": "farkle", "points": 400, "roll": [2, 3, 4]}


def test_six_of_a_kind_is_a_group_not_three_pairs() -> None:
    state = play(new(), "roll 2 2 2 2 2 2", "keep 2 2 2 2 2 2 bank")
    assert state.scores == [1600, 0]  # the manual's table: six 2s are 1600, not 1000


def test_singles_may_be_taken_from_three_pairs() -> None:
    state = play(new(), "roll 1 1 3 3 5 5", "keep 1 roll")
    assert state.turn_total == 100 and state.to_roll == 5
    state = play(new(), "roll 1 1 3 3 5 5", "keep 1 1 3 3 5 5 roll")
    assert state.turn_total == 1000 and state.to_roll == 6  # hot dice


def test_host_skip_loses_the_turn_total() -> None:
    state = play(new(), "roll 1 1 2 3 4 6", "keep 1 1 roll", "roll 1 2 3 4")
    with pytest.raises(IllegalMove, match="not a move for a player"):
        state.apply(Skip())
    state.apply(Skip(), player=HOST)
    assert state.scores == [0, 0] and state.seat == 1 and state.turn_total == 0
    assert state.last == {"seat": 0, "end": "skip", "points": 200}
    with pytest.raises(IllegalMove, match="may only skip"):
        state.apply(Roll((1, 1, 1, 1, 1, 1)), player=HOST)


def test_host_skip_in_the_last_turns_uses_up_the_turn() -> None:
    state = new(2, target=1000)
    play(state, "roll 1 1 1 2 3 4", "keep 1 1 1 bank")
    state.apply(Skip(), player=HOST)  # seat 1's last turn runs out
    assert state.is_terminal() and state.result().winners == (0,)


def test_turns_played_by_seat() -> None:
    state = new(3)
    play(state, "roll 1 2 3 4 6 6", "keep 1 bank", "roll 2 2 3 3 4 6", "roll 1 2 3 4 6 6")
    assert [state.turns_played(s) for s in range(3)] == [1, 1, 0]


def test_a_refused_keep_names_three_pairs_where_they_score() -> None:
    """After hot dice, six fresh dice are not a first roll: three pairs score there only with
    the house rule, and the reason says so either way."""
    moves = ["roll 1 1 1 5 5 5", "keep 1 1 1 5 5 5 roll", "roll 2 2 3 3 5 5"]
    state = play(new(), *moves)
    with pytest.raises(IllegalMove) as refused:
        state.apply(Keep((2, 2, 3, 3), bank=False))
    assert str(refused.value).endswith("(1s, 5s, groups)")
    house = play(new(specials_any_roll=True), *moves)
    with pytest.raises(IllegalMove) as refused:
        house.apply(Keep((2, 2, 3, 3), bank=False))
    assert str(refused.value).endswith("(1s, 5s, groups, three pairs, straight)")
