"""Hard's parameters (issue 18's tuning): hard's defaults, and what each new one changes."""

from __future__ import annotations

import random
from dataclasses import replace

import parlour
from parlour.bots.arena import play_game
from parlour.games.rummy.bots import EXPERT, HARD, LEVELS, PLANNERS, PlannerBot, make_bot
from parlour.games.rummy.search import SearchBot
from tests.games.rummy.conftest import act, deal


def test_the_new_parameters_default_to_hards_rules() -> None:
    # the planner built with only hard's hand-set values is hard: every parameter added for
    # the tuning defaults to what hard did before (the pinned hard games stay the same)
    assert LEVELS["hard"] is HARD
    built = PlannerBot("hard", memory=True, reach=2.0, start_bonus=10.0, take_to_meld=True)
    assert built == HARD
    assert (HARD.gain, HARD.danger_weight, HARD.hold, HARD.take_start) == (2.0, 6.0, 0, 0)
    assert not HARD.take_fit and not HARD.tie_outs and HARD.start_draws == 0.0


def test_hold_keeps_a_meld_back_while_the_other_hand_is_long() -> None:
    # 5C 6C 7C is a meld; KD and 2S are loose. The other player holds 4 cards
    state = act(deal(["5C 6C 7C KD", "2H 3D 9S JD"], "QH", "2S"), "draw stock")
    rng = random.Random(0)
    assert str(HARD.choose(state, 0, rng)) == "meld 5C 6C 7C"
    # hold 3: 4 cards is more than 3, so the meld stays in the hand and KD goes
    assert str(replace(HARD, hold=3).choose(state, 0, rng)) == "discard KD"
    # hold 4: the other player may go out soon, so the meld goes down
    assert str(replace(HARD, hold=4).choose(state, 0, rng)) == "meld 5C 6C 7C"


def test_hold_melds_when_that_leaves_at_most_one_card() -> None:
    # 8C makes 5C-8C: melding leaves KD alone, to be thrown next, so nothing is held
    state = act(deal(["5C 6C 7C KD", "2H 3D 9S JD"], "QH", "8C"), "draw stock")
    assert str(replace(HARD, hold=3).choose(state, 0, random.Random(0))) == "meld 5C 6C 7C 8C"


def test_take_start_takes_a_low_card_that_makes_a_start() -> None:
    # 6S (5 points) makes a start with 7S (hard takes only a card that makes a meld); 6H
    # makes none with 7S 2D 9H KC (9H is three ranks away)
    taker = replace(HARD, take_start=5)
    state = deal(["7S 2D 9H KC", "2H 3D 9S JD"], "6S")
    assert str(HARD.choose(state, 0, random.Random(0))) == "draw stock"
    assert str(taker.choose(state, 0, random.Random(0))) == "draw discard"
    state = deal(["7S 2D 9H KC", "2H 3D 9S JD"], "6H")
    assert str(taker.choose(state, 0, random.Random(0))) == "draw stock"


def test_the_expert_level_plays_legal_games_the_same_for_a_seed() -> None:
    game = parlour.load("rummy")
    first = play_game(game, [EXPERT, HARD], random.Random(5))
    again = play_game(game, [EXPERT, HARD], random.Random(5))
    assert first.is_terminal() and max(first.result().scores) > 500
    assert first.history == again.history  # every move went through State.apply's check


def test_expert_is_hard_tuned_and_search_expert_searches_from_it() -> None:
    assert make_bot("expert") is EXPERT and LEVELS["expert"] is EXPERT
    assert (EXPERT.reach, EXPERT.gain, EXPERT.hold, EXPERT.start_bonus) == (4.0, 3.0, 3, 10.0)
    tuned = replace(HARD, name="expert", reach=4.0, gain=3.0, hold=3)
    assert tuned == EXPERT
    bot = make_bot("search-expert")
    assert isinstance(bot, SearchBot)
    assert (bot.base, bot.simulations, bot.width, bot.confidence) == ("expert", 90, 3, 2.0)
    assert PLANNERS["expert"] is EXPERT


def test_search_expert_plays_legal_rounds_the_same_for_a_seed() -> None:
    game = parlour.load("rummy", max_rounds=1)
    expert = make_bot("search-expert")
    first = play_game(game, [expert, HARD], random.Random(8))
    again = play_game(game, [expert, HARD], random.Random(8))
    assert first.is_terminal() and len(first.round_scores) == 1
    assert first.history == again.history  # every move went through State.apply's check


def test_expert_and_search_expert_finish_legal_games_under_every_option() -> None:
    small = SearchBot(name="search-expert", simulations=12, base="expert")  # faster
    for options in ({}, {"must_discard": True}, {"players": 3}, {"players": 4, "hand_size": 9}):
        game = parlour.load("rummy", ending_score=150, **options)
        bots = [small, EXPERT, HARD, EXPERT][: game.num_players]
        state = play_game(game, bots, random.Random(6))
        assert state.is_terminal() and max(state.result().scores) > 150
