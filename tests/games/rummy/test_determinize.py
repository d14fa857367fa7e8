"""Re-dealing the cards a seat cannot see (the search level's worlds)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.games.rummy.cards import FULL_DECK, mask_of, parse_cards
from parlour.games.rummy.determinize import (
    determinize,
    disagreements,
    hidden_cards,
    may_hold,
    passed_over,
)
from parlour.games.rummy.melds import melds_in
from parlour.games.rummy.state import RummyState
from tests.games.rummy.conftest import act, deal
from tests.games.rummy.test_properties import hidden_reshuffled


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def played_states(count: int, seed: int) -> list[RummyState]:
    """States along random games, at every decision of either seat."""
    rng = random.Random(seed)
    game = parlour.load("rummy")
    states: list[RummyState] = []
    while len(states) < count:
        state = game.new_initial_state()
        assert isinstance(state, RummyState)
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            states.append(state.clone())
            state.apply(rng.choice(list(state.legal_actions())))
    return states


def test_a_world_keeps_everything_the_seat_sees_and_re_deals_the_rest() -> None:
    rng = random.Random(1)
    moved = 0
    for state in played_states(300, 2):
        seat = state.current_player()
        world = determinize(state, seat, rng)
        assert world.view(seat) == state.view(seat)
        assert world.observation(seat) == state.observation(seat)
        assert hidden_cards(world, seat) == hidden_cards(state, seat)
        other = 1 - seat
        truth = mask_of(state.stock) | state.hands[other] & ~state.known[other]
        assert hidden_cards(state, seat) == truth  # found from what the seat sees
        assert world.hands[other] & state.known[other] == state.known[other]
        # every card is somewhere, once
        everywhere = [*world.hands, mask_of(world.stock), mask_of(world.discard)]
        everywhere += [meld.mask for meld in world.table]
        assert sum(x.bit_count() for x in everywhere) == 52
        total = 0
        for x in everywhere:
            total |= x
        assert total == FULL_DECK
        moved += world.stock != state.stock
        assert world.history == []
        world.apply(world.legal_actions()[0])  # a world is a playable state
    assert moved > 250


def test_a_world_does_not_depend_on_the_hidden_cards() -> None:
    for state in played_states(150, 3):
        seat = state.current_player()
        twin = hidden_reshuffled(state, seat, random.Random(9))
        a = determinize(state, seat, random.Random(5))
        b = determinize(twin, seat, random.Random(5))
        assert (a.hands, a.stock) == (b.hands, b.stock)


def test_passed_over_follows_the_discard_pile() -> None:
    state = deal(["5C 6C 9H KD 2S", "2H 3D 9S JD 4S"], "7H", "QC 8D AS")
    act(state, "draw stock", "discard QC")  # seat 0 passed over the upcard 7H
    act(state, "draw discard", "discard 2H")  # seat 1 took QC
    act(state, "draw stock", "discard 8D")  # seat 0 passed over 2H
    assert passed_over(state) == [m("7H 2H"), 0]
    act(state, "draw stock")  # seat 1 passed over 8D
    assert passed_over(state) == [m("7H 2H"), m("8D")]


def test_disagreements_count_melds_held_and_passed_cards_that_fitted() -> None:
    assert disagreements(m("7S 7H 7D 2C"), 0) == 1
    assert disagreements(m("7S 7H 2C"), m("7C")) == 1  # 7C would have made a set
    assert disagreements(m("7S 8H 2C"), m("7C 9S")) == 0


def test_worlds_prefer_hands_that_agree_with_the_play() -> None:
    # seat 1's five cards are hidden from seat 0: how often does a world give seat 1 a meld
    # it would have laid down, with the preference (8 tries) and without (1)?
    state = deal(["5C 6C 9H KD 2S", "2H 3D 9S JD 4S"], "7H")
    act(state, "draw stock")
    with_pref = without = 0
    for i in range(300):
        rng = random.Random(i)
        with_pref += disagreements(determinize(state, 0, rng, tries=8).hands[1], 0)
        rng = random.Random(i)
        without += disagreements(determinize(state, 0, rng, tries=1).hands[1], 0)
    assert with_pref < without / 4


def test_may_hold_follows_the_hand_counts_at_each_players_last_turn() -> None:
    state = deal(["5C 6C 7C 9H KD", "2H 3D 9S JD 4S"], "QC", "8D AS 3S 10H 5H")
    assert may_hold(state, 3) == [True, True]  # no turn yet: any hand may hold
    act(state, "draw stock", "discard KD")  # seat 0 ends its turn against 5 cards
    assert may_hold(state, 3) == [True, True]
    assert may_hold(state, 5) == [False, True]  # 5 is not more than 5: it would have melded
    act(state, "draw stock", "discard JD")  # seat 1: 5 cards against seat 0's 5
    act(state, "draw stock", "meld 5C 6C 7C", "discard 3S")  # seat 0 down to 2 cards
    assert may_hold(state, 3) == [True, True]
    act(state, "draw stock", "discard AS")  # seat 1 ends its turn against 2 cards
    assert may_hold(state, 3) == [True, False]
    assert may_hold(state, 1) == [True, True]
    act(state, "host skip")  # seat 0 skipped before drawing: its count and last turn stand
    assert may_hold(state, 3) == [True, False]
    assert state.hands[0].bit_count() == 2


def test_may_hold_counts_a_skip_after_the_draw() -> None:
    state = deal(["5C 6C 7C 9H KD", "2H 3D 9S JD 4S"], "QC", "8D AS 3S 10H 5H")
    act(state, "draw stock", "host skip")  # seat 0 drew 8D and the skip threw it: 5 cards
    act(state, "draw stock", "discard JD")  # seat 1 ends its turn against 5 cards
    assert may_hold(state, 4) == [True, True]
    assert may_hold(state, 5) == [True, False]


def test_a_hold_below_zero_is_refused() -> None:
    state = deal(["5C 6C 7C 9H KD", "2H 3D 9S JD 4S"], "QC")
    with pytest.raises(ValueError, match="at least 0"):
        may_hold(state, -1)
    with pytest.raises(ValueError, match="at least 0"):
        determinize(state, 0, random.Random(0), held=-1)


def test_disagreements_of_a_hand_that_may_hold_its_melds() -> None:
    assert disagreements(m("7S 7H 7D 2C"), 0, melds=False) == 0  # a held set
    assert disagreements(m("7S 7H 7D"), 0, melds=False) == 1  # it would have gone out
    assert disagreements(m("7S 7H 2C"), m("7C"), melds=False) == 1  # 7C passed over
    # a card taken from the pile was taken to make a meld: 2C in none disagrees, 7D agrees
    assert disagreements(m("7S 7H 2C 9D"), 0, melds=False, taken=m("2C")) == 1
    assert disagreements(m("7S 7H 7D 2C"), 0, melds=False, taken=m("7D")) == 0
    assert disagreements(m("7S 7H 7D 2C"), 0, taken=m("7D")) == 1  # the meld itself, held


def test_held_worlds_keep_a_taken_card_in_a_meld() -> None:
    # seat 1 took KD (to make K K K with KC KS) and still holds it with 9 hidden cards:
    # expert takes a card only to meld it, and holds the meld while seat 0 has more than 3
    # cards. How often is KD in a meld of seat 1's re-dealt hand, with the held reading and
    # with the default one (16 tries each, the same random sources)?
    state = deal(["5C 6C 9H KD 2S QH 4D AC 10C 3H", "2H 3D 9S JD 4S 7H KC JC KS 5S"], "8S", "QD AH")
    act(state, "draw stock", "discard KD", "draw discard", "discard 2H")
    act(state, "draw stock")
    assert state.known[1] == m("KD")
    taken = m("KD")
    held = plain = 0
    for i in range(200):
        for setting in (3, 0):
            hand = determinize(state, 0, random.Random(i), tries=16, held=setting).hands[1]
            kept = any(meld & taken for meld in melds_in(hand))
            if setting:
                held += kept
            else:
                plain += kept
    assert held > 150  # 182 of 200 when written
    assert plain < 10  # 0: the default reading has seat 1 lay every meld down
