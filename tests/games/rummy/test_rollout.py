"""The search level's play-outs: hard's discard on the bits, rounds played to their end."""

from __future__ import annotations

import random

from parlour.games.rummy.bots import LEVELS
from parlour.games.rummy.cards import mask_of, parse_card, parse_cards
from parlour.games.rummy.notation import Discard
from parlour.games.rummy.rollout import (
    POLICIES,
    RolloutBot,
    danger_cards,
    hard_discard,
    play_out,
    play_out_hard,
    policy_play,
)
from parlour.games.rummy.search import round_margin
from parlour.games.rummy.simple import has_meld
from parlour.games.rummy.state import PLAY
from parlour_tools.rummy_search_bench import positions
from tests.games.rummy.conftest import act, deal


def test_a_loose_high_card_goes_first() -> None:
    # 9S KD 7D 2S are loose, 5H 6H a start: the king (10 points) goes
    state = deal(["9S KD 5H 6H KC", "JC 3D 8S 4S JD"], "QC", "7D 2C 2S")
    act(state, "draw stock", "discard KC", "draw stock", "discard 8S", "draw stock")
    assert state.hands[0] == mask_of(parse_cards(["9S", "KD", "5H", "6H", "7D", "2S"]))
    assert not danger_cards(state, 0)  # the other player took nothing from the pile
    assert hard_discard(state, 0, state.hands[0]) == parse_card("KD")


def test_a_card_that_joins_a_known_card_costs_six_points_more() -> None:
    # the other player took KC from the pile: KD costs 10 - 6 = 4, below the loose fives;
    # 9S goes (5 points, the higher rank of 9S and 7D); hard itself agrees
    state = deal(["9S KD 5H 6H KC", "JC 3D 8S 4S JD"], "QC", "7D 2S")
    act(state, "draw stock", "discard KC", "draw discard", "discard 8S", "draw stock")
    assert danger_cards(state, 0) >> parse_card("KD") & 1
    assert hard_discard(state, 0, state.hands[0]) == parse_card("9S")
    assert LEVELS["hard"].choose(state, 0, random.Random(0)) == Discard(parse_card("9S"))


def test_it_agrees_with_hard_on_every_loose_discard() -> None:
    # hands with no meld and nothing to lay off, from 6 games of hard against simple
    compared = 0
    for state, seat in positions(6, 1, 5):
        hand = state.hands[seat]
        if state.phase != PLAY or has_meld(hand) or any(m.accepts & hand for m in state.table):
            continue
        choice = LEVELS["hard"].choose(state, seat, random.Random(0))
        assert isinstance(choice, Discard)
        taken = state.taken
        allowed = hand if taken is None or hand == 1 << taken else hand & ~(1 << taken)
        assert hard_discard(state, seat, allowed) == choice.card
        compared += 1
    assert compared > 500


def test_a_play_out_ends_the_round_the_same_way_twice() -> None:
    state = deal(["5C 6C 7C 9H KD", "2H 3D 9S JD 4S"], "QC", "8C AS")
    act(state, "draw stock")
    twin = state.clone()
    play_out_hard(state)
    play_out_hard(twin)
    assert len(state.round_scores) == 1
    assert state.round_scores == twin.round_scores
    assert round_margin(state, 0) == state.round_scores[0][0] - state.round_scores[0][1]


def test_the_expert_play_out_holds_a_meld_while_the_other_hand_is_long() -> None:
    # 5C 6C 7C is a meld; laying it down leaves 9H KD 2S QH (4 cards) and the other player
    # holds 6 > 3: it is kept, and the highest loose card goes (KD and QH are 10 points, the
    # king ranks higher); hard's copy, which does not hold, lays it down
    state = deal(["5C 6C 7C 9H KD 2S", "2H 3D 8S JD 4S 10H"], "QC", "QH AS")
    act(state, "draw stock")
    assert str(policy_play(state, 0, POLICIES["expert"])) == "discard KD"
    assert str(policy_play(state, 0, POLICIES["hard"])) == "meld 5C 6C 7C"
    assert LEVELS["expert"].choose(state, 0, random.Random(0)) == Discard(parse_card("KD"))


def test_the_expert_play_out_lays_down_when_one_card_would_be_left() -> None:
    # 8C makes 5C-8C; with 9H 9S 9D only KD is left: both go down, the longer meld first
    state = deal(["5C 6C 7C 9H 9S 9D KD", "2H 3D 8S JD 4S 10H 5H"], "QC", "8C AS")
    act(state, "draw stock")
    assert str(policy_play(state, 0, POLICIES["expert"])) == "meld 5C 6C 7C 8C"


def test_the_expert_play_out_plays_as_the_expert_level() -> None:
    # every decision of 6 games of hard against the simple player: the same move as expert
    bot = RolloutBot(POLICIES["expert"])
    compared = 0
    for state, seat in positions(6, 1, 7):
        assert bot.choose(state, seat, random.Random(0)) == LEVELS["expert"].choose(
            state, seat, random.Random(0)
        )
        compared += 1
    assert compared > 1000


def test_expert_play_outs_end_the_round_the_same_way_twice() -> None:
    state = deal(["5C 6C 7C 9H KD 2S", "2H 3D 8S JD 4S 10H"], "QC", "QH AS 3C 4H")
    act(state, "draw stock")
    twin = state.clone()
    play_out(state, policy=POLICIES["expert"])
    play_out(twin, policy=POLICIES["expert"])
    assert len(state.round_scores) == 1
    assert state.round_scores == twin.round_scores


def test_the_expert_level_holds_no_meld_back_with_four_players() -> None:
    # The same hand as above, every other hand long (6 cards > 3): with three players the
    # expert level and its play-out copy hold 5C 6C 7C back; with four they lay it down (held
    # melds lost: expert won 15.6% of 800 four-player games against hard with the rule)
    hands = ["5C 6C 7C 9H KD 2S", "2H 3D 8S JD 4S 10H", "AH 2D 3S 9C 10S JH", "4D 5S 6H 8D 9S 10D"]
    for players, move in ((3, "discard KD"), (4, "meld 5C 6C 7C")):
        state = deal(hands[:players], "QC", "QH AS")
        act(state, "draw stock")
        assert str(policy_play(state, 0, POLICIES["expert"])) == move
        assert str(LEVELS["expert"].choose(state, 0, random.Random(0))) == move
