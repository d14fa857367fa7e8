"""The search level: legal moves only, the same moves for the same seed, no peeking."""

from __future__ import annotations

import random
from typing import Any

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import EXPERT, HARD, make_bot
from parlour.games.rummy.cards import mask_of, parse_cards
from parlour.games.rummy.notation import DISCARDS, DRAW_DISCARD, DRAW_STOCK, Meld
from parlour.games.rummy.rollout import POLICIES, play_out
from parlour.games.rummy.search import SearchBot, meld_or_hold, round_margin, shortlist
from parlour.games.rummy.simple import SimpleBot
from parlour.games.rummy.state import RummyState
from tests.games.rummy.conftest import act, deal
from tests.games.rummy.test_properties import hidden_reshuffled

SMALL = SearchBot(simulations=12, draws=True)
"""A small budget (the same code, faster tests), searching the draws too."""
MELDS = SearchBot(simulations=12, draws=True, rollout="expert", base="expert", melds=True)
"""The same from expert's choices, with expert's play-outs and the meld-or-hold search."""
HELD = SearchBot(simulations=12, draws=True, rollout="expert", base="expert", held=3)
"""The same without the meld search, its worlds read as hands that hold melds back."""


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def test_the_default_budget() -> None:
    bot = make_bot("search")
    assert isinstance(bot, SearchBot)
    assert (bot.simulations, bot.check, bot.tries, bot.width) == (90, 10, 8, 3)
    assert bot.confidence == 2.0
    assert not bot.draws
    assert bot.rollout == "simple"


def test_shortlist_puts_loose_high_cards_first() -> None:
    cards = parse_cards(["AS", "7H", "7D", "KC", "QC", "2D", "9S"])
    order = [str(d) for d in shortlist(mask_of(cards), [DISCARDS[c] for c in cards], 4)]
    assert order == ["discard AS", "discard 9S", "discard 2D", "discard KC"]


def test_play_out_ends_the_round_and_measures_the_margin() -> None:
    state = deal(["5C 6C 7C 9H KD", "2H 3D 9S JD 4S"], "QC", "8C AS")
    act(state, "draw stock")
    play_out(state)
    assert len(state.round_scores) == 1
    scores = state.round_scores[0]
    assert round_margin(state, 0) == scores[0] - scores[1]


def test_it_takes_the_discard_that_goes_out() -> None:
    # 4C completes 2C 3C 4C and 9H 9S 9D is melded: the discard takes the player out at once
    state = deal(["2C 3C 9H 9S 9D KS", "2H 3D 8S JD 4S 10H"], "4C", "QD AH")
    assert str(SMALL.choose(state, 0, random.Random(0))) == "draw discard"


def test_the_same_seed_gives_the_same_game() -> None:
    game = parlour.load("rummy", max_rounds=1)
    first = play_game(game, [SMALL, SimpleBot()], random.Random(4))
    again = play_game(game, [SMALL, SimpleBot()], random.Random(4))
    assert first.history == again.history
    assert first.is_terminal()


@pytest.mark.parametrize("bot", [SMALL, MELDS, HELD])
def test_choices_do_not_depend_on_hidden_cards(bot: SearchBot) -> None:
    rng = random.Random(42)
    game = parlour.load("rummy")
    state = game.new_initial_state()
    assert isinstance(state, RummyState)
    checked = 0
    while checked < 60:
        if state.is_terminal():
            state = game.new_initial_state()
            assert isinstance(state, RummyState)
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_player()
        seed = rng.random()
        choice = bot.choose(state, seat, random.Random(seed))
        twin = hidden_reshuffled(state, seat, rng)
        assert bot.choose(twin, seat, random.Random(seed)) == choice
        checked += 1
        state.apply(choice)


def test_choices_do_not_depend_on_hidden_cards_with_three_players() -> None:
    # a touchy search (no confidence margin, four discards, the draw too) with hard's
    # play-outs, two other hands and the stock re-dealt behind the searching seat's back
    bot = SearchBot(simulations=10, check=2, width=4, confidence=0.0, draws=True, rollout="hard")
    rng = random.Random(7)
    game = parlour.load("rummy", players=3)
    state = game.new_initial_state()
    assert isinstance(state, RummyState)
    moves = set()
    for _ in range(40):
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        seat = state.current_player()
        seed = rng.random()
        choice = bot.choose(state, seat, random.Random(seed))
        for _ in range(2):
            twin = hidden_reshuffled(state, seat, rng)
            assert bot.choose(twin, seat, random.Random(seed)) == choice
        moves.add(type(choice).__name__)
        state.apply(choice)
    assert {"Draw", "Discard"} <= moves


@pytest.mark.parametrize("bot", [SMALL, MELDS, HELD])
def test_it_finishes_legal_games_under_every_option(bot: SearchBot) -> None:
    for options in ({}, {"must_discard": True}, {"players": 3}, {"players": 4, "hand_size": 9}):
        game = parlour.load("rummy", ending_score=150, **options)
        bots = [bot, SimpleBot(), make_bot("hard"), bot][: game.num_players]
        state = play_game(game, bots, random.Random(3))  # apply() checks every move
        assert state.is_terminal()
        assert max(state.result().scores) > 150


def test_no_clock_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # the budget is work, not time: the search module sees a time module with no clock in it
    # (only sleep, to let other threads run), so any reading of a clock would fail here
    import time
    from types import SimpleNamespace

    import parlour.games.rummy.search as search

    monkeypatch.setattr(search, "time", SimpleNamespace(sleep=time.sleep))
    game = parlour.load("rummy", max_rounds=1)
    first = play_game(game, [SMALL, SimpleBot()], random.Random(4))
    assert first.is_terminal()
    monkeypatch.setattr(search.threading, "active_count", lambda: 2)  # as on the server
    again = play_game(game, [SMALL, SimpleBot()], random.Random(4))
    assert again.history == first.history


def test_the_budget_counts_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    # A draw: two choices (stock, discard) share 12 simulations, 6 worlds (no check before the
    # 10th world, so none is dropped).
    import parlour.games.rummy.search as search

    made: list[int] = []
    real = search.determinize

    def counting(*args: Any, **kwargs: Any) -> RummyState:
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "determinize", counting)
    state = deal(["2C 3C 9H 9S 9D KS", "2H 3D 8S JD 4S 10H"], "4C", "QD AH")
    choice = SMALL.best(state, 0, [(DRAW_STOCK,), (DRAW_DISCARD,)], random.Random(0))
    assert len(made) == 6
    assert choice[0] in state.legal_actions(0)


def test_a_choice_is_clear_beyond_two_standard_errors() -> None:
    bot = SearchBot()
    # differences 10, 10, 10: no spread, mean 10 above 0
    assert bot._clear(30, 300, 3, 1)
    assert not bot._clear(30, 300, 3, -1)
    # differences 20, 0, 10: mean 10, variance 100, standard error 5.77; 10 < 2 x 5.77
    assert not bot._clear(30, 500, 3, 1)
    # differences -20, -20, -20, -10: mean -17.5, variance 25, standard error 2.5
    assert bot._clear(-70, 1300, 4, -1)
    assert not bot._clear(10, 100, 1, 1)  # one world says nothing


@pytest.mark.parametrize(
    ("margins", "worlds", "chosen"),
    [
        # both others lose 10 and 5 points in every world: dropped at the first check (10
        # worlds), which ends the decision on hard's choice
        ((0, -10, -5), 10, 0),
        # the second gains 5 in every world: the first is dropped after 10 worlds (3 play-outs
        # each, 30 spent), then worlds cost 2 play-outs: (90 - 30) / 2 = 30 more, 40 in all
        ((0, -10, 5), 40, 2),
        # level with hard: never clear either way, the whole budget (30 worlds of 3), hard's
        ((0, 0, 0), 30, 0),
    ],
)
def test_clearly_worse_choices_are_dropped(
    monkeypatch: pytest.MonkeyPatch, margins: tuple[int, int, int], worlds: int, chosen: int
) -> None:
    import parlour.games.rummy.search as search

    made: list[int] = []
    real = search.determinize

    def counting(*args: Any, **kwargs: Any) -> RummyState:
        made.append(1)
        return real(*args, **kwargs)

    state = deal(["2C 3C 9H 9S KD", "2H 3D 8S JD 4S"], "QC", "5D AH")
    act(state, "draw stock")
    candidates = [(DISCARDS[m(t).bit_length() - 1],) for t in ("KD", "5D", "9H")]
    by_action = dict(zip(candidates, margins, strict=True))
    monkeypatch.setattr(search, "determinize", counting)
    monkeypatch.setattr(SearchBot, "_margin", lambda self, world, seat, a: by_action[a])
    choice = SearchBot().best(state, 0, candidates, random.Random(0))
    assert len(made) == worlds
    assert choice == candidates[chosen]


def test_play_outs_by_hard_give_legal_games_the_same_for_a_seed() -> None:
    bot = SearchBot(simulations=12, draws=True, rollout="hard")
    game = parlour.load("rummy", ending_score=150)
    first = play_game(game, [bot, make_bot("hard")], random.Random(6))  # apply() checks moves
    again = play_game(game, [bot, make_bot("hard")], random.Random(6))
    assert first.is_terminal()
    assert first.history == again.history


def test_meld_or_hold_gives_the_base_players_line_first() -> None:
    # 5C 6C 7C with 9H KD 2S QH left, the other hand long: expert holds (discard KD), hard
    # lays down (the meld, then KD); each line is the whole turn
    state = deal(["5C 6C 7C 9H KD 2S", "2H 3D 8S JD 4S 10H"], "QC", "QH AS")
    act(state, "draw stock")
    hold, lay = (
        (DISCARDS[m("KD").bit_length() - 1],),
        (Meld(m("5C 6C 7C")), DISCARDS[m("KD").bit_length() - 1]),
    )
    rng = random.Random(0)
    assert meld_or_hold(state, 0, EXPERT, EXPERT.choose(state, 0, rng)) == [hold, lay]
    assert meld_or_hold(state, 0, HARD, HARD.choose(state, 0, rng)) == [lay, hold]
    # no meld in the plan: nothing to search
    plain = deal(["5C 6C 9C 9H KD 2S", "2H 3D 8S JD 4S 10H"], "QC", "QH AS")
    act(plain, "draw stock")
    assert meld_or_hold(plain, 0, EXPERT, EXPERT.choose(plain, 0, rng)) == []


def test_expert_play_outs_and_meld_search_give_legal_games_the_same_for_a_seed() -> None:
    bot = SearchBot(simulations=12, draws=True, rollout="expert", base="expert", melds=True)
    game = parlour.load("rummy", ending_score=150)
    first = play_game(game, [bot, make_bot("expert")], random.Random(8))  # apply() checks moves
    again = play_game(game, [bot, make_bot("expert")], random.Random(8))
    assert first.is_terminal()
    assert first.history == again.history


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": -5}, "simulations"),
        ({"simulations": 1.5}, "simulations"),
        ({"width": 0}, "width"),
        ({"width": -3}, "width"),
        ({"check": 0}, "check"),
        ({"tries": 0}, "tries"),
        ({"confidence": -1.0}, "confidence"),
        ({"confidence": float("nan")}, "confidence"),
        ({"rollout": "nope"}, "rollout"),
        ({"base": "medium"}, "base"),
        # JSON settings can give a list or an object: no name (was a TypeError: unhashable)
        ({"rollout": ["simple"]}, "unknown rollout \\['simple'\\]"),
        ({"base": {"hard": 1}}, "unknown base \\{'hard': 1\\}"),
        ({"draws": "yes"}, "draws"),
        ({"melds": 1}, "melds"),
        ({"name": 5}, "name"),
        ({"name": ""}, "name"),
        ({"held": -1}, "held"),
        ({"held": 1.5}, "held"),
        ({"held": True}, "held"),
        ({"held": "3"}, "held"),
    ],
)
def test_odd_settings_are_refused_with_the_setting_named(
    settings: dict[str, Any], words: str
) -> None:
    # refused when the player is made, not at the first searched discard (an unknown
    # rollout was a KeyError there; a check of 0 a ZeroDivisionError; a width or budget of 0
    # or less silently searched one world)
    with pytest.raises(ParlourError, match=words):
        SearchBot(**settings)


def test_a_setting_out_of_range_names_the_player() -> None:
    with pytest.raises(ParlourError, match=r"^search-expert: check must be a whole number"):
        SearchBot(name="search-expert", base="expert", check=0)
    with pytest.raises(ParlourError, match=r"^search: check must be a whole number"):
        SearchBot(check=0)


def test_a_whole_confidence_is_kept_as_a_float_within_a_float_range() -> None:
    # 10**400 from JSON passed the check and was an OverflowError at the first search
    with pytest.raises(ParlourError, match="confidence must be a number of at least 0, not a"):
        SearchBot(confidence=10**400)
    assert type(SearchBot(confidence=3).confidence) is float
    assert SearchBot(confidence=10**308).confidence == 1e308


def test_the_smallest_settings_are_accepted() -> None:
    bot = SearchBot(simulations=1, width=1, check=1, tries=1, confidence=0.0, base="expert")
    state = deal(["2C 3C 9H 9S 9D KS QH 5D", "2H 3D 8S JD 4S 10H 5S 6H"], "4C", "QD AH 7C")
    act(state, "draw stock", "meld 9S 9H 9D")
    assert bot.choose(state, 0, random.Random(1)) in state.legal_actions(0)


def test_a_play_out_ends_by_the_turn_safeguard_when_the_game_has_none() -> None:
    # With max_turns 0 (no limit), expert's play-out of this deal never ends: two holding
    # players take each other's discards for ever. The play-out stopped at its step limit
    # with the round unfinished, and the margin read a round that was not played
    # (IndexError here, in the first round). A play-out now ends as the game's default
    # safeguard would end it (500 turns from the position), so the margin is that game's.
    deal_236 = parlour.load("rummy").new_initial_state().sample_chance(random.Random(236))
    margins = []
    for max_turns in (0, 500):
        state = parlour.load("rummy", max_turns=max_turns).new_initial_state()
        state.apply(deal_236)
        assert isinstance(state, RummyState)
        bot = SearchBot(rollout="expert", base="expert")
        margins.append(bot._margin(state, 0, (DRAW_STOCK,)))
        assert state.round_scores == []  # the world itself is not played
    assert margins[0] == margins[1]
    looped = parlour.load("rummy", max_turns=0).new_initial_state()
    looped.apply(deal_236)
    assert isinstance(looped, RummyState)
    play_out(looped, policy=POLICIES["expert"])
    assert looped.round_scores == []  # the loop itself, as found


GAME_OF_SEED_4 = """
import random, parlour
from parlour.bots.arena import play_game
from parlour.games.rummy.bots import make_bot
from parlour.games.rummy.search import SearchBot
bot = SearchBot(simulations=12, draws=True, rollout="expert", base="expert", melds=True)
game = parlour.load("rummy", max_rounds=1)
print([str(a) for _, a in play_game(game, [bot, make_bot("expert")], random.Random(4)).history])
"""


def test_the_same_seed_gives_the_same_game_in_other_processes() -> None:
    # string hashing differs between processes (PYTHONHASHSEED): no set or dict order of
    # strings may steer the search
    import os
    import subprocess
    import sys

    games = []
    for hash_seed in ("1", "2"):
        source = os.path.dirname(os.path.dirname(parlour.__file__))  # the parlour under test
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": source}
        done = subprocess.run(
            [sys.executable, "-c", GAME_OF_SEED_4], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        games.append(done.stdout)
    here = play_game(
        parlour.load("rummy", max_rounds=1), [MELDS, make_bot("expert")], random.Random(4)
    )
    assert games[0] == games[1] == f"{[str(a) for _, a in here.history]}\n"


def test_a_lay_off_is_played_at_once_even_with_a_meld_held() -> None:
    # expert holds 5C 6C 7C (the other hand has 5 cards) and lays 9H off onto 9S 9D 9C: the
    # search plays the lay-off without searching, though meld_or_hold finds two lines here
    # (rummy_search_bench counted such decisions as searched)
    state = deal(["5C 6C 7C 9H KD 2S 8S QH", "9S 9D 9C 2H 3D 8D JD 4S"], "10H", "AS JH 5D 10S 10D")
    act(state, "draw stock", "discard AS", "draw stock", "meld 9S 9D 9C", "discard JH")
    act(state, "draw stock")
    bot = SearchBot(base="expert", melds=True, rollout="expert")
    lay_off = EXPERT.choose(state, 0, random.Random(0))
    assert str(lay_off) == "layoff 9H on 1"
    assert len(meld_or_hold(state, 0, EXPERT, lay_off)) == 2
    assert bot.lines(state, 0, random.Random(0)) == [(lay_off,)]
    assert bot.choose(state, 0, random.Random(0)) == lay_off


def test_held_worlds_reach_the_re_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # the search's setting is the re-deal's: every world of a searched discard is made with it
    import parlour.games.rummy.search as search

    seen: list[int] = []
    real = search.determinize

    def spying(*args: Any, **kwargs: Any) -> RummyState:
        seen.append(kwargs["held"])
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "determinize", spying)
    state = deal(["2C 3C 9H 9S KD", "2H 3D 8S JD 4S"], "QC", "5D AH")
    act(state, "draw stock")
    for held, bot in ((3, HELD), (0, SearchBot(simulations=12))):
        seen.clear()
        assert len(bot.lines(state, 0, random.Random(0))) > 1  # a searched discard
        assert bot.choose(state, 0, random.Random(0)) in state.legal_actions(0)
        assert seen and set(seen) == {held}


def test_held_worlds_give_the_same_game_for_a_seed() -> None:
    game = parlour.load("rummy", max_rounds=1)
    first = play_game(game, [HELD, make_bot("expert")], random.Random(5))  # apply() checks
    again = play_game(game, [HELD, make_bot("expert")], random.Random(5))
    assert first.is_terminal()
    assert first.history == again.history
