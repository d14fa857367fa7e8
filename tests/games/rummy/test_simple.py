"""The simple player (the baseline the levels are measured against): its three rules."""

from __future__ import annotations

import random

import pytest

from parlour.games.rummy.bots import make_bot
from parlour.games.rummy.cards import mask_of, parse_card, parse_cards
from parlour.games.rummy.melds import melds_in
from parlour.games.rummy.notation import DISCARDS
from parlour.games.rummy.simple import (
    SimpleBot,
    completes_meld,
    has_meld,
    in_start,
    loose_discard,
    simple_discard,
    starts,
)
from tests.games.rummy.conftest import act, deal


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def c(text: str) -> int:
    return parse_card(text)


def test_completes_meld_knows_sets_and_runs_with_the_ace_at_both_ends() -> None:
    assert completes_meld(m("7S 7H 2C"), c("7D"))
    assert completes_meld(m("QH KH"), c("AH"))  # Q-K-A
    assert completes_meld(m("2H 3H"), c("AH"))  # A-2-3
    assert not completes_meld(m("KH 2H"), c("AH"))  # no K-A-2
    assert completes_meld(m("5D 7D"), c("6D"))
    assert not completes_meld(m("5D 8D 6S"), c("6D"))


def test_completes_meld_and_has_meld_agree_with_the_meld_finder() -> None:
    rng = random.Random(0)
    for _ in range(3_000):
        cards = rng.sample(range(52), rng.randint(2, 12))
        card, hand = cards[0], mask_of(cards[1:])
        assert completes_meld(hand, card) == any(x >> card & 1 for x in melds_in(hand | 1 << card))
        assert has_meld(hand) == bool(melds_in(hand))


def test_starts_finds_pairs_and_near_cards_with_the_ace_at_both_ends() -> None:
    assert starts(m("7S 7H 2C")) == m("7S 7H")
    assert starts(m("AH KH 5D")) == m("AH KH")  # Q-K-A wants the queen
    assert starts(m("AH 3H 5D")) == m("AH 3H")  # A-2-3 wants the two
    assert starts(m("2H KH 5D 8D")) == 0  # K-A-2 is no run; 5D 8D are three apart


def test_the_fast_discard_is_the_simple_discard() -> None:
    # loose_discard (the play-outs' path, on the bits) against in_start and simple_discard
    rng = random.Random(1)
    checked = 0
    for _ in range(3_000):
        cards = rng.sample(range(52), rng.randint(1, 12))
        hand = mask_of(cards)
        assert starts(hand) == mask_of([x for x in cards if in_start(hand, x)])
        if not has_meld(hand):
            taken = cards[0]
            allowed = hand if hand == 1 << taken else hand & ~(1 << taken)
            slow = simple_discard(hand, [DISCARDS[x] for x in cards if allowed >> x & 1])
            assert DISCARDS[loose_discard(hand, allowed)] == slow
            checked += 1
    assert checked > 1_000


def test_two_card_starts() -> None:
    hand = m("7S 7H 9D JD KC AC 4S")
    assert in_start(hand, c("7S")) and in_start(hand, c("7H"))  # a pair
    assert in_start(hand, c("9D")) and in_start(hand, c("JD"))  # 9-J wants the ten
    assert in_start(hand, c("KC")) and in_start(hand, c("AC"))  # K-A wants the queen
    assert not in_start(hand, c("4S"))  # 7S is three away


def test_takes_the_discard_only_when_it_completes_a_meld() -> None:
    bot = SimpleBot()
    state = deal(["5C 6C 9H KD 2S 4D 8S", "2H 3D 9S JD 4S 10H QS"], "7C", "2C")
    assert str(bot.choose(state, 0, random.Random(0))) == "draw discard"
    # 3D would lower nothing and makes no meld: the simple player draws from the stock
    state = deal(["5C 6C 9H KD 2S 4D 8S", "2H 3D 9S JD 4S 10H QS"], "3H", "2C")
    assert str(bot.choose(state, 0, random.Random(0))) == "draw stock"


def test_melds_everything_then_discards_its_highest_loose_card() -> None:
    state = deal(["5C 6C 7C 8S 8H 8D KD AS 2S", "2H 3D 9S JD 4S 10H QS 3C 4C"], "9C", "QD")
    act(state, "draw stock")  # QD: with KD a start
    played = []
    while state.current_player() == 0:
        action = SimpleBot().choose(state, 0, random.Random(0))
        played.append(str(action))
        state.apply(action)
    assert sorted(played[:2]) == ["meld 5C 6C 7C", "meld 8S 8H 8D"]
    # left: KD QD (a start), AS 2S (a start): every card is in a start, so the highest goes
    assert played[2:] == ["discard AS"]


def test_discards_the_highest_card_outside_starts() -> None:
    state = deal(["9H KD 2S 3S 8C", "2H 3D 9S JD 4S"], "QC", "AH")
    act(state, "draw stock")  # AH: alone
    assert str(SimpleBot().choose(state, 0, random.Random(0))) == "discard AH"
    state = deal(["9H KD 2S 3S 8C", "2H 3D 9S JD 4S"], "QC", "5D")
    act(state, "draw stock")  # 5D: alone; KD is the highest loose card
    assert str(SimpleBot().choose(state, 0, random.Random(0))) == "discard KD"


@pytest.mark.parametrize("level", ["simple"])
def test_the_arena_baseline_is_made_by_make_bot(level: str) -> None:
    assert isinstance(make_bot(level), SimpleBot)
