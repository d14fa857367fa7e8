"""Rummy rules on forced deals, each score checked by hand (issue 4, "Tests")."""

from __future__ import annotations

import json

import pytest

import parlour
from parlour.engine.errors import BadOption, IllegalMove, InvalidNotation, NotEnumerable
from parlour.engine.state import CHANCE, HOST, TERMINAL, Result
from parlour.games.rummy.cards import parse_card, parse_cards
from parlour.games.rummy.notation import Deal, parse
from parlour.games.rummy.state import DEAL, OVER, PLAY, RummyState
from tests.games.rummy.conftest import act, deal


def hand(state: RummyState, seat: int) -> list[str]:
    return state.observation(seat)["hand"]


def refused(state: RummyState, move: str, reason: str, player: int | None = None) -> None:
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove, match=reason):
        state.apply(state.parse_action(move), player=player)
    assert json.dumps(state.to_json()) == before


def test_deal_hands_upcard_and_stock() -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C")
    assert hand(state, 0) == ["5H", "6H", "7H", "QD", "QC"]  # deck order: suits S H D C
    assert sorted(hand(state, 1)) == sorted(["8H", "2C", "3D", "9S", "JD"])
    obs = state.observation(0)
    assert obs["discard_top"] == "4C" and obs["stock_count"] == 52 - 10 - 1
    assert state.current_player() == 0 and state.stock[-1] == parse_cards(["AS"])[0]


def test_default_deal_is_ten_cards_each() -> None:
    state = parlour.load("rummy").new_initial_state()
    assert state.current_player() == CHANCE
    with pytest.raises(NotEnumerable):
        state.chance_outcomes()
    state.apply(Deal(tuple(range(52))))
    assert [len(hand(state, s)) for s in (0, 1)] == [10, 10]
    assert state.observation(0)["stock_count"] == 31
    four = parlour.load("rummy", players=4).new_initial_state()
    four.apply(Deal(tuple(range(52))))
    assert four.observation(0)["hand_counts"] == [7, 7, 7, 7]


def test_hand_size_must_leave_a_stock() -> None:
    with pytest.raises(BadOption, match="leave no stock"):
        parlour.load("rummy", players=4, hand_size=13).new_initial_state()
    state = parlour.load("rummy", players=3, hand_size=12).new_initial_state()
    state.apply(Deal(tuple(range(52))))
    assert state.observation(0)["stock_count"] == 52 - 36 - 1


def test_a_deal_must_be_the_whole_deck() -> None:
    state = parlour.load("rummy").new_initial_state()
    with pytest.raises(IllegalMove, match="missing 2S"):
        state.apply(Deal((0, 0, *range(2, 52))), player=CHANCE)
    with pytest.raises(IllegalMove, match="51 cards"):
        state.apply(Deal(tuple(range(51))), player=CHANCE)


def test_lay_off_onto_the_opponents_meld_scores_for_the_one_who_laid_it_off() -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    act(state, "draw stock", "meld 5H 6H 7H", "discard AS")
    act(state, "draw stock", "layoff 8H on 1", "discard JD")
    assert state.observation(None)["table"] == [
        {"kind": "run", "cards": ["5H", "6H", "7H", "8H"], "owners": [0, 0, 0, 1]}
    ]
    # Seat 0 draws QS and melds the three queens: the hand is empty, the round ends at once
    # with no discard.
    act(state, "draw stock", "meld QS QC QD")
    assert state.round_scores == [[15 + 30, 5 - (5 + 5 + 5 + 5)]]  # [45, -15]
    assert state.scores == [45, -15]
    assert state.last_round is not None
    assert state.last_round["ended"] == "out" and state.last_round["out"] == 0
    assert state.phase == DEAL and state.round == 2 and state.current_player() == CHANCE


def test_going_out_with_the_must_discard_option() -> None:
    state = deal(["5H 6H 7H QC QD 2S", "8H 2C 3D 9S JD 4D"], "4C", "AS 10C QS", must_discard=True)
    act(state, "draw stock", "meld 5H 6H 7H", "discard AS")
    act(state, "draw stock", "discard JD")
    act(state, "draw stock", "meld QS QC QD")
    assert hand(state, 0) == ["2S"] and state.phase == PLAY  # not out: a discard is owed
    act(state, "discard 2S")
    assert state.round_scores == [[45, -(5 + 5 + 5 + 5 + 5 + 5)]]
    # Melding the last cards is refused under the option:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS", must_discard=True)
    act(state, "draw stock", "meld 5H 6H 7H", "discard AS", "draw stock", "discard JD")
    act(state, "draw stock")
    refused(state, "meld QS QC QD", "must keep a card to discard")


def test_card_just_taken_may_not_be_discarded() -> None:
    state = deal(["5H 6H 9C QC QD", "8H 2C 3D 9S JD"], "7H", "AS 10C")
    act(state, "draw discard")
    assert state.taken == parse_cards(["7H"])[0]
    refused(state, "discard 7H", "just taken from the discard pile")
    assert parse("discard 7H") not in state.legal_actions()
    act(state, "discard 9C")
    act(state, "draw discard")  # seat 1 may take 9C, which seat 0 discarded
    refused(state, "discard 9C", "may not be discarded this turn")


def test_a_meld_may_not_leave_only_the_card_just_taken() -> None:
    state = deal(["5H 6H 7H", "8H 2C 3D"], "KS", "AS")
    act(state, "draw discard")
    refused(state, "meld 5H 6H 7H", "leave only KS")
    act(state, "discard 5H")


def test_stock_running_out_ends_the_round_after_that_turn() -> None:
    state = deal(["AS 2S 3S 9H 9D 4C 6C 8C JD KD", "5H 6D 7S 10C QH 2D 4H 8S JS 3C"], "KC")
    for _ in range(30):  # each draws from the stock and throws that card away
        act(state, "draw stock")
        act(state, f"discard {state.observation(state.seat)['drawn']}")
    assert state.observation(0)["stock_count"] == 1 and state.seat == 0
    act(state, "draw stock")  # the last card: the turn goes on
    assert state.observation(0)["stock_count"] == 0 and state.phase == PLAY
    act(state, "meld AS 2S 3S", f"discard {state.observation(0)['drawn']}")
    # 25 on the table less 9H 9D 4C 6C 8C JD KD (45); seat 1 holds 60 points.
    assert state.round_scores == [[25 - 45, -60]]
    assert state.last_round is not None and state.last_round["ended"] == "stock"
    assert state.phase == DEAL and state.round == 2


def test_a_round_of_discard_takers_ends_at_the_turn_limit() -> None:
    """Two players who only take the discard never shrink the stock: ``max_turns`` ends the
    round as if the stock had run out (docs/rules/rummy.md, safeguards)."""
    state = deal(["5H 9C QC", "8H 2C 3D"], "7H", "AS 10C", max_turns=4)
    act(state, "draw discard", "discard 9C")  # turn 1: 5H 7H QC
    act(state, "draw discard", "discard 2C")  # turn 2: 8H 3D 9C
    act(state, "draw discard", "discard 5H")  # turn 3: 7H QC 2C
    assert state.turns == 3 and state.phase != DEAL
    act(state, "draw discard", "discard 3D")  # turn 4: the limit
    assert state.last_round is not None and state.last_round["ended"] == "turns"
    # nothing on the table: 7H QC 2C (5 + 10 + 5), 8H 9C 5H (5 + 5 + 5)
    assert state.round_scores == [[-20, -15]]
    assert state.phase == DEAL and state.round == 2 and state.turns == 0
    assert parlour.load("rummy").options["max_turns"] == 500


def test_a_tie_at_the_top_plays_another_round() -> None:
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "KD", "8C 8D", ending_score=5)
    act(state, "draw stock", "meld 2S 3S 4S", "discard 8C")
    act(state, "draw stock", "meld 2H 3H 4H", "discard 8D")
    while state.phase != DEAL:  # the clock runs out on every turn until the stock is gone
        act(state, "host skip")
    assert state.scores == [10, 10]  # both over 5, tied at the top
    assert state.current_player() == CHANCE and state.round == 2
    from parlour.games.rummy.state import arrange_deck

    hands = [parse_cards(["2S", "3S", "4S", "5S"]), parse_cards(["5H", "7D", "9S", "JC"])]
    state.apply(arrange_deck(hands, parse_cards(["KD"])[0], parse_cards(["8C"])), player=CHANCE)
    act(state, "draw stock", "meld 2S 3S 4S 5S", "discard 8C")
    assert state.current_player() == TERMINAL and state.phase == OVER
    assert state.result() == Result((10 + 20, 10 - 25), (0,))


def test_alternate_start_option() -> None:
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "KD", "8C", alternate_start=True)
    act(state, "draw stock", "meld 2S 3S 4S", "discard 8C")
    while state.phase != DEAL:
        act(state, "host skip")
    assert state.starter == 1 and state.seat == 1
    state.apply(state.sample_chance(__import__("random").Random(1)))
    assert state.current_player() == 1


def test_first_option_starts_every_round() -> None:
    # the platform sets it to the person's seat against the computer: here seat 1
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "KD", "8C", first=1)
    assert state.current_player() == 1 and hand(state, 1) == ["2H", "3H", "4H", "9D"]
    act(state, "draw stock", "meld 2H 3H 4H", "discard 8C")
    while state.phase != DEAL:
        act(state, "host skip")
    assert state.round == 2 and state.starter == 1 and state.seat == 1
    state.apply(state.sample_chance(__import__("random").Random(1)))
    assert state.current_player() == 1


def test_first_option_with_alternate_start_moves_on_from_there() -> None:
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "KD", "8C", first=1, alternate_start=True)
    assert state.current_player() == 1
    act(state, "draw stock", "meld 2H 3H 4H", "discard 8C")
    while state.phase != DEAL:
        act(state, "host skip")
    assert state.starter == 0 and state.seat == 0


def test_first_option_must_be_a_seat() -> None:
    with pytest.raises(BadOption, match="first=2: there is no seat 2"):
        parlour.load("rummy", first=2).new_initial_state()
    assert parlour.load("rummy", players=3, first=2).new_initial_state().current_player() == CHANCE


def test_the_round_safeguard_ends_the_game_with_the_highest_score_winning_below_zero() -> None:
    # max_turns=1: the round ends after one turn, scored as when the stock runs out;
    # max_rounds=1: that ends the game, though nobody is over the ending score
    state = deal(["2S 3S 4S 9C", "2H 3H 4H KD"], "QH", "8C", max_rounds=1, max_turns=1)
    act(state, "draw stock", "discard 9C")
    assert state.phase == OVER and state.last_round is not None
    assert state.last_round["ended"] == "turns"
    # nothing on the table: seat 0 keeps 2S 3S 4S 8C (4 x 5 = 20), seat 1 2H 3H 4H KD (25)
    assert state.result() == Result((-20, -25), (0,))
    assert state.observation(None)["ended_by"] == "max_rounds"
    assert state.observation(1)["winners"] == [0]


def test_the_round_safeguard_shares_a_tie_at_the_top() -> None:
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "QH", "8C", max_rounds=1, max_turns=1)
    act(state, "draw stock", "discard 9C")
    assert state.result() == Result((-20, -20), (0, 1))  # without the safeguard: another round
    assert state.ended_by() == "max_rounds"


def test_a_game_over_the_ending_score_ends_by_the_score() -> None:
    state = deal(["2S 3S 4S 9C", "2H 3H 4H 9D"], "QH", "8C", ending_score=5, max_turns=1)
    act(state, "draw stock", "meld 2S 3S 4S", "discard 9C")
    # seat 0: 15 on the table less 8C (5) = 10, over 5; seat 1: -20
    assert state.result() == Result((10, -20), (0,)) and state.ended_by() == "ending_score"


def test_host_skip() -> None:
    state = deal(["5H 6H 9C QC QD", "8H 2C 3D 9S JD"], "7H", "AS 10C KH")
    act(state, "host skip")  # before drawing: the top stock card goes to the discard pile
    assert state.observation(0)["discard_top"] == "AS" and state.seat == 1
    assert len(hand(state, 0)) == 5
    act(state, "draw stock", "host skip")  # after a stock draw: that card is discarded
    assert state.observation(0)["discard_top"] == "10C" and len(hand(state, 1)) == 5
    act(state, "draw discard", "host skip")  # after taking 10C: the highest other card
    assert state.observation(0)["discard_top"] == "QD" and "10C" in hand(state, 0)  # QD before QC
    refused(state, "draw stock", "only skip", player=HOST)
    fresh = parlour.load("rummy").new_initial_state()
    assert isinstance(fresh, RummyState)
    refused(fresh, "skip", "no turn to skip", player=HOST)


@pytest.mark.parametrize(
    ("moves", "move", "reason"),
    [
        ([], "discard 5H", "draw first"),
        ([], "meld 5H 6H 7H", "draw first"),
        (["draw stock"], "draw stock", "you have drawn"),
        (["draw stock"], "meld 5H 6H 8C", "do not hold 8C"),
        (["draw stock"], "meld QC QD AS", "not a set"),
        (["draw stock"], "discard 2H", "do not hold 2H"),
        (["draw stock"], "layoff QC on 1", "no meld 1 on the table"),
        (["draw stock", "meld 5H 6H 7H"], "layoff QC on 1", "QC does not fit meld 1"),
        (
            ["draw stock", "meld 5H 6H 7H"],
            "layoff QC on 3",
            r"no meld 3 on the table \(melds 1-1\)",
        ),
    ],
)
def test_refused_moves_say_why_and_change_nothing(moves: list[str], move: str, reason: str) -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    act(state, *moves)
    refused(state, move, reason)


def test_malformed_actions_from_python_are_refused() -> None:
    from parlour.games.rummy.notation import Discard, LayOff, Meld

    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    act(state, "draw stock")
    before = state.to_json()
    for action in (
        Discard(99),
        LayOff(-1, 0),
        Meld(0),
        Meld(1 << 60),
        # wrong types (TypeError before): a bool is not a card, nor a float or None
        Discard(True),
        Discard(None),  # type: ignore[arg-type]
        LayOff(1.5, 0),  # type: ignore[arg-type]
        LayOff(parse_card("QC"), "1"),  # type: ignore[arg-type]
        Meld(7.0),  # type: ignore[arg-type]
    ):
        with pytest.raises(IllegalMove):
            state.apply(action)
        assert state.to_json() == before


def test_a_deal_of_things_that_are_not_cards_is_refused() -> None:
    state = parlour.load("rummy").new_initial_state()
    for order in (tuple(str(c) for c in range(52)), None, (*range(51), 51.0)):
        with pytest.raises(IllegalMove, match="a deal is a tuple of cards 0-51"):
            state.apply(Deal(order), player=CHANCE)  # type: ignore[arg-type]
    assert state.history == []


def test_moves_out_of_turn_are_refused() -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    refused(state, "draw stock", "seat 1 may not act now", player=1)
    assert state.legal_actions(1) == ()


def test_bad_notation() -> None:
    for text in (
        "",
        "meld",
        "layoff 5H",
        "layoff 5H on 0",
        "discard",
        "draw pile",
        "hello",
        "meld 5H 5H 6H",
        "layoff 6S on \u00b2",  # a superscript two: isdigit() but not a number for int()
        "layoff 6S \u00b2",
        "layoff 6S on \u0663",  # an Arabic-Indic three: only ASCII digits number melds
        "layoff 6S on " + "9" * 5000,  # longer than int() reads
    ):
        with pytest.raises(InvalidNotation):
            parse(text)


def test_legal_actions_are_all_accepted() -> None:
    state = deal(["5H 6H 7H 7S 7D", "8H 2C 3D 9S JD"], "4C", "7C 10C QS")
    act(state, "draw stock")
    texts = sorted(str(a) for a in state.legal_actions())
    assert "meld 5H 6H 7H" in texts and "meld 7S 7D 7C" in texts and "meld 7S 7H 7D 7C" in texts
    for action in state.legal_actions():
        state.clone().apply(action)


def test_other_hands_and_the_stock_are_not_in_an_observation() -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    act(state, "draw stock")  # seat 0 draws AS: only seat 0 learns which card
    seen_by_1 = json.dumps(state.observation(1))
    for text in ["5H", "6H", "7H", "QC", "QD", "AS", "10C", "QS"]:
        assert f'"{text}"' not in seen_by_1
    assert state.observation(1)["hand_counts"] == [6, 5]
    assert state.observation(0)["drawn"] == "AS" and state.observation(1)["drawn"] is None
    act(state, "discard QC", "draw discard")  # seat 1 takes QC: now everyone knows it
    assert state.observation(0)["known"] == [[], ["QC"]]
    spectator = json.dumps(state.observation(None))
    assert state.observation(None)["hand"] == [] and '"8H"' not in spectator
