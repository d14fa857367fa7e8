"""Pig's rules (docs/rules/pig.md), hand-checked: turns, scores, the win, skips, refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

import parlour
from parlour.engine.errors import BadOption, IllegalMove, InvalidNotation
from parlour.engine.state import CHANCE, HOST, TERMINAL
from parlour.games.pig.notation import Die, Hold, Roll, Skip, parse
from tests.games.pig.helpers import pig


def test_a_turn_starts_with_the_roll_six_faces_one_sixth_each() -> None:
    state = pig()
    assert state.current_player() == CHANCE and state.seat == 0
    outcomes = state.chance_outcomes()
    assert [str(die) for die, _ in outcomes] == [f"die {f}" for f in range(1, 7)]
    assert {p for _, p in outcomes} == {Fraction(1, 6)}
    assert list(state.legal_actions()) == [die for die, _ in outcomes]
    assert state.legal_actions(0) == ()


def test_faces_add_to_the_turn_total_and_a_hold_banks_it() -> None:
    state = pig("die 5", "roll", "die 3")
    assert state.turn_total == 8 and state.scores == [0, 0] and state.rolls == 2
    assert state.current_player() == 0 and list(state.legal_actions()) == [Roll(), Hold()]
    state.apply(Hold())
    assert state.scores == [8, 0]
    assert state.last == {"seat": 0, "end": "hold", "points": 8}
    assert state.current_player() == CHANCE and state.seat == 1 and state.turn_total == 0


def test_a_one_loses_the_turn_total_and_passes_the_die() -> None:
    state = pig("die 6", "roll", "die 4", "roll", "die 1", scores=[30, 12])
    assert state.scores == [30, 12]
    assert state.last == {"seat": 0, "end": "pig", "points": 10}
    assert state.seat == 1 and state.current_player() == CHANCE and state.turn_total == 0


def test_a_one_on_the_first_roll_loses_nothing_but_the_turn() -> None:
    state = pig("die 1")
    assert state.last == {"seat": 0, "end": "pig", "points": 0} and state.seat == 1


def test_turns_go_round_in_seat_order() -> None:
    state = pig("die 1", "die 2", "hold", "die 3", "hold", players=3)
    assert state.scores == [0, 2, 3] and state.seat == 0 and state.turns == 3


def test_holding_to_the_target_wins_at_once_with_no_last_turns() -> None:
    state = pig("die 5", "hold", scores=[95, 99])
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.result().scores == (100, 99) and state.result().winners == (0,)
    assert state.returns() == [1.0, 0.0]
    assert state.last == {"seat": 0, "end": "hold", "points": 5}


def test_holding_past_the_target_wins_with_the_whole_score() -> None:
    state = pig("die 6", "roll", "die 6", "hold", scores=[40, 0], target=50)
    assert state.result().scores == (52, 0) and state.result().winners == (0,)


def test_reaching_the_target_without_holding_does_not_win() -> None:
    state = pig("die 4", scores=[98, 0])
    assert not state.is_terminal() and state.turn_total == 4
    state.apply(Roll())
    state.apply(Die(1), player=CHANCE)
    assert state.scores == [98, 0] and state.seat == 1 and not state.is_terminal()


def test_the_host_skip_loses_the_turn_total() -> None:
    state = pig("die 6", "roll", "die 5", "skip", scores=[10, 20])
    assert state.scores == [10, 20] and state.seat == 1 and state.current_player() == CHANCE
    assert state.last == {"seat": 0, "end": "skip", "points": 11}
    assert state.history[-1] == (HOST, Skip())


def test_the_host_skip_at_the_roll_passes_the_turn() -> None:
    state = pig("skip")
    assert state.seat == 1 and state.last == {"seat": 0, "end": "skip", "points": 0}


def test_result_before_the_end_is_refused() -> None:
    with pytest.raises(IllegalMove, match="not over"):
        pig("die 3").result()


@pytest.mark.parametrize(
    ("moves", "action", "player", "reason"),
    [
        ((), Roll(), 0, "seat 0 may not act now: waiting for a chance outcome"),
        ((), Hold(), None, "a chance outcome is a die face ('die 4'), not Hold()"),
        (("die 4",), Die(3), CHANCE, "not a chance node: to move: seat 0"),
        (("die 4",), Hold(), 1, "seat 1 may not act now: to move: seat 0"),
        (("die 4",), Die(3), 0, "die 3 is a chance outcome: a player may roll or hold"),
        (("die 4",), Skip(), 0, "skip is the host's"),
        (("die 4",), "hold", 0, "'hold' is not a Pig move"),
        (("die 4",), Roll(), 2, "there is no seat 2"),
        ((), Die(7), CHANCE, "a die shows 1 to 6, not 7"),
        ((), Roll(), CHANCE, "a chance outcome is a die face"),
        (("die 4",), Roll(), HOST, "pig takes no host event 'roll': the host may only skip"),
        (("die 5", "hold"), Die(2), HOST, "pig takes no host event 'die 2'"),
    ],
)
def test_illegal_moves_are_refused_with_the_reason_and_change_nothing(
    moves: tuple[str, ...], action: Any, player: int | None, reason: str
) -> None:
    state = pig(*moves)
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove) as refused:
        state.apply(action, player=player)
    assert reason in str(refused.value)
    assert json.dumps(state.to_json()) == before


def test_after_the_end_everything_is_refused() -> None:
    state = pig("die 6", "hold", scores=[94, 0])
    before = json.dumps(state.to_json())
    for action, player in ((Roll(), 0), (Die(2), CHANCE), (Skip(), HOST)):
        with pytest.raises(IllegalMove, match="the game is over"):
            state.apply(action, player=player)
    assert state.legal_actions() == () and json.dumps(state.to_json()) == before
    with pytest.raises(IllegalMove, match="not a chance node"):
        state.chance_outcomes()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("die 1", Die(1)),
        (" DIE 6 ", Die(6)),
        ("roll", Roll()),
        ("R", Roll()),
        ("hold", Hold()),
        ("h", Hold()),
        ("skip", Skip()),
    ],
)
def test_notation_reads_every_event(text: str, action: Any) -> None:
    assert parse(text) == action
    assert parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("   ", "empty move"),
        ("die", "write a chance outcome as 'die <face>'"),
        ("die 3 4", "write a chance outcome as 'die <face>'"),
        ("die 0", "a die shows 1 to 6, not 0"),
        ("die six", "a die shows 1 to 6, not six"),
        ("die ٣", "a die shows 1 to 6"),  # an Arabic-Indic digit is not a face
        ("roll 4", "is not a Pig move: a player's moves are 'roll' and 'hold'"),
        ("bank", "is not a Pig move"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidNotation, match=message):
        parse(text)


def test_notation_that_is_not_text_is_refused() -> None:
    with pytest.raises(InvalidNotation, match="is text, not int"):
        parse(4)  # type: ignore[arg-type]


def test_the_observation_shows_the_whole_public_position() -> None:
    state = pig("die 6", "hold", "die 4", scores=[7, 3])
    view = state.observation(1)
    assert view == {
        "game": "pig",
        "you": 1,
        "to_move": 1,
        "seat": 1,
        "scores": [13, 3],
        "target": 100,
        "turn_total": 4,
        "die": 4,
        "rolls": 1,
        "last": {"seat": 0, "end": "hold", "points": 6},
        "over": False,
        "winners": [],
    }
    assert state.observation(None) == {**view, "you": None}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "players=1: out of range, allowed 2..6"),
        ({"players": 7}, "players=7: out of range, allowed 2..6"),
        ({"target": 5}, "target=5: out of range, allowed 10..1000"),
        ({"goal": 50}, "pig has no option 'goal'"),
    ],
)
def test_options_out_of_range_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOption, match=message):
        parlour.load("pig", **options)


def test_defaults_are_two_players_to_100() -> None:
    game = parlour.load("pig")
    assert game.options == {"players": 2, "target": 100}
    assert parlour.load("PIG", players="6").num_players == 6
