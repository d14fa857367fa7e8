"""Rummy computer players: legal choices, the exact split, and no peeking at hidden cards."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import (
    EXPERT,
    HARD,
    LEVELS,
    PlannerBot,
    layoff_closure,
    make_bot,
    outs,
)
from parlour.games.rummy.cards import mask_of, parse_cards
from parlour.games.rummy.melds import TableMeld
from parlour.games.rummy.search import SearchBot
from parlour.games.rummy.state import RummyState
from tests.games.rummy.conftest import act, deal
from tests.games.rummy.test_properties import hidden_reshuffled


def m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def test_levels_and_unknown_level() -> None:
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    levels = ("easy", "medium", "hard", "expert", "lookahead")
    assert parlour.load("rummy").spec.bot_levels == levels
    assert [make_bot(level).name for level in levels] == list(levels)
    assert make_bot("search").name == "search"
    # every level make_bot makes is named (simple was left out)
    known = "levels: easy, medium, hard, expert, lookahead, simple, search, search-expert"
    with pytest.raises(ParlourError, match=known):
        make_bot("genius")
    assert make_bot("simple").name == "simple"


def test_settings_change_only_the_parameters_named() -> None:
    bot = make_bot("hard", {"reach": 4.0, "gain": 3.0})
    assert bot == replace(HARD, reach=4.0, gain=3.0) and bot.name == "hard"
    assert make_bot("expert", {"hold": 0}) == replace(EXPERT, hold=0)
    assert make_bot("medium", {"outs_weight": 1}) == PlannerBot("medium", False, outs_weight=1)
    search = make_bot("search-expert", {"simulations": 40})
    assert search == SearchBot(name="search-expert", base="expert", simulations=40)
    assert make_bot("search", {"width": 2}) == SearchBot(width=2)
    # the top level is the held-worlds search from expert, played out by expert
    top = SearchBot(name="lookahead", base="expert", rollout="expert", held=3)
    assert make_bot("lookahead") == top and make_bot("lookahead", {}) is make_bot("lookahead")
    assert make_bot("lookahead", {"simulations": 30}) == replace(top, simulations=30)
    # no settings, or empty ones, are the level itself
    assert make_bot("hard", {}) is HARD and make_bot("hard") is HARD


@pytest.mark.parametrize(
    ("level", "settings", "words"),
    [
        ("easy", {"reach": 4.0}, "easy takes no settings; players that take settings: medium,"),
        ("simple", {"width": 2}, "simple takes no settings"),
        ("hard", {"width": 2}, "hard: unknown setting 'width'; settings: name, memory,"),
        ("search", {"reach": 4.0}, "search: unknown setting 'reach'"),
        ("hard", {"hold": -1}, "hard: hold must be a whole number of at least 0, not -1"),
        ("genius", {"hold": 1}, "unknown Rummy level 'genius'; levels: easy, medium, hard,"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(
    level: str, settings: dict[str, object], words: str
) -> None:
    with pytest.raises(ParlourError, match=re.escape(words)):
        make_bot(level, settings)
    assert (HARD.hold, HARD.reach) == (0, 2.0)  # the level itself unchanged


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        # hold -1 was accepted, and held melds back all round (every hand has more than -1)
        ("hold", -1, "hold must be a whole number of at least 0, not -1"),
        ("hold", 2.0, "hold must be a whole number of at least 0, not 2.0"),
        ("hold", True, "hold must be a whole number of at least 0, not True"),
        ("take_start", -1, "take_start must be a whole number of at least 0, not -1"),
        # no sample: a ZeroDivisionError at the first draw weighed (memory, no take_to_meld)
        ("samples", 0, "samples must be a whole number of at least 1, not 0"),
        ("samples", "12", "samples must be a whole number of at least 1, not '12'"),
        ("outs_weight", -0.5, "outs_weight must be a finite number of at least 0, not -0.5"),
        ("danger_weight", -1, "danger_weight must be a finite number of at least 0, not -1"),
        # a negative reach made each card's chance to meld negative (1 - miss ** -draws)
        ("reach", -1.0, "reach must be a finite number of at least 0, not -1.0"),
        ("reach", float("inf"), "reach must be a finite number of at least 0, not inf"),
        ("reach", float("nan"), "reach must be a finite number of at least 0, not nan"),
        ("reach", "far", "reach must be a finite number of at least 0, not 'far'"),
        ("start_bonus", -10.0, "start_bonus must be a finite number of at least 0, not -10.0"),
        ("gain", -2.0, "gain must be a finite number of at least 0, not -2.0"),
        ("gain", False, "gain must be a finite number of at least 0, not False"),
        ("start_draws", -3.0, "start_draws must be a finite number of at least 0, not -3.0"),
        ("memory", 1, "memory must be true or false, not 1"),
        ("take_to_meld", "yes", "take_to_meld must be true or false, not 'yes'"),
        ("tie_outs", None, "tie_outs must be true or false, not None"),
        ("take_fit", 0, "take_fit must be true or false, not 0"),
    ],
)
def test_a_planner_refuses_each_setting_out_of_range(key: str, value: object, words: str) -> None:
    with pytest.raises(ParlourError, match=re.escape(f"hard: {words}")):
        replace(HARD, **{key: value})


def test_a_planner_takes_whole_numbers_as_floats_within_a_float_range() -> None:
    # JSON gives any whole number: 10**400 passed the check and was an OverflowError when a
    # game met it ("int too large to convert to float"), 10**308 when reach times the draws
    # left passed a float's range
    with pytest.raises(
        ParlourError,
        match=re.escape("hard: reach must be a finite number of at least 0, not a whole number"),
    ):
        replace(HARD, reach=10**400)
    weights = ("outs_weight", "danger_weight", "reach", "start_bonus", "gain", "start_draws")
    huge = replace(HARD, **dict.fromkeys(weights, 10**308))
    assert all(type(getattr(huge, key)) is float for key in weights)
    assert replace(HARD, reach=4).reach == 4.0
    game = parlour.load("rummy", ending_score=150)
    state = play_game(game, [huge, make_bot("expert")], random.Random(3))
    assert state.is_terminal()


@pytest.mark.parametrize("name", ["", 5, None])
def test_a_planner_needs_a_name(name: object) -> None:
    with pytest.raises(
        ParlourError, match=re.escape(f"planner: name must be a non-empty text, not {name!r}")
    ):
        PlannerBot(name, memory=True)  # type: ignore[arg-type]


def test_a_planner_at_every_lower_bound_plays_a_whole_game() -> None:
    low = replace(
        HARD,
        samples=1,
        take_start=0,
        hold=0,
        outs_weight=0,
        danger_weight=0.0,
        reach=0,
        start_bonus=0.0,
        gain=0,
        start_draws=0.0,
    )
    game = parlour.load("rummy", ending_score=150)
    state = play_game(game, [low, make_bot("expert")], random.Random(3))  # apply() checks moves
    assert state.is_terminal()


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_planners_meld_the_exact_split(level: str) -> None:
    # 5C 6C 7C 8C 8S 8H: longest run first (5C-8C) would strand 8S 8H; the exact split is
    # 5C 6C 7C + 8S 8H 8C, leaving only the card to discard.
    state = deal(["5C 6C 7C 8C 8S 8H KD", "2H 3D 9S JD 4S 10H QS"], "4C", "2C")
    act(state, "draw stock")
    bot = make_bot(level)
    rng = random.Random(0)
    played = []
    while state.current_player() == 0:
        action = bot.choose(state, 0, rng)
        played.append(str(action))
        state.apply(action)
    assert played[:2] == ["meld 8S 8H 8C", "meld 5C 6C 7C"] or played[:2] == [
        "meld 5C 6C 7C",
        "meld 8S 8H 8C",
    ]
    assert played[-1] == "discard KD"  # the highest card


def test_easy_melds_what_it_sees_and_discards_its_highest_card() -> None:
    state = deal(["5C 6C 7C 8C 8S 8H KD", "2H 3D 9S JD 4S 10H QS"], "4C", "2C")
    act(state, "draw stock")
    bot = make_bot("easy")
    rng = random.Random(0)
    assert str(bot.choose(state, 0, rng)) == "meld 5C 6C 7C 8C"  # the largest meld it sees
    act(state, "meld 5C 6C 7C 8C")
    while state.current_player() == 0:
        action = bot.choose(state, 0, rng)
        state.apply(action)
    assert state.discard[-1] == parse_cards(["KD"])[0]


def test_takes_the_discard_only_when_it_helps() -> None:
    state = deal(["5C 6C 9H KD 2S 4D 8S", "2H 3D 9S JD 4S 10H QS"], "7C", "2C")
    for level in ("easy", "medium", "hard"):
        assert str(make_bot(level).choose(state, 0, random.Random(1))) == "draw discard"
    state = deal(["5C 6C 9H KD 2S 4D 8S", "2H 3D 9S JD 4S 10H QS"], "QH", "2C")
    for level in ("easy", "medium", "hard"):
        assert str(make_bot(level).choose(state, 0, random.Random(1))) == "draw stock"


def test_layoff_closure_follows_a_chain() -> None:
    table = [TableMeld.laid_down(m("5H 6H 7H"), 1)]
    assert layoff_closure(table, m("8H 9H 2C")) == m("8H 9H")
    assert layoff_closure(table, m("9H 2C")) == 0
    assert layoff_closure(table, m("4H 3H 9H")) == m("4H 3H")
    sets = [TableMeld.laid_down(m("9S 9H 9C"), 0)]
    assert layoff_closure(sets, m("9D 10D 8D")) == m("9D")  # a set opens nothing further
    high = [TableMeld.laid_down(m("JS QS KS"), 0)]
    assert layoff_closure(high, m("AS 2S 10S")) == m("AS 10S")  # K-A, never on to 2


def test_outs_count_live_cards() -> None:
    hand = m("7S 7H 9D 10D")
    live = (1 << 52) - 1 & ~hand
    assert outs(parse_cards(["7S"])[0], hand, live) == 2  # 7D, 7C
    assert outs(parse_cards(["9D"])[0], hand, live) == 2  # 8D, JD
    assert outs(parse_cards(["9D"])[0], hand, live & ~m("8D")) == 1


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_choices_do_not_depend_on_hidden_cards(level: str) -> None:
    bot = make_bot(level)
    rng = random.Random(42)
    game = parlour.load("rummy")
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        assert isinstance(state, RummyState)
        while not state.is_terminal() and checked < 400:
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player()
            seed = rng.random()
            choice = bot.choose(state, seat, random.Random(seed))
            for _ in range(2):
                twin = hidden_reshuffled(state, seat, rng)
                assert twin.hands[seat] == state.hands[seat]
                assert bot.choose(twin, seat, random.Random(seed)) == choice
            checked += 1
            state.apply(choice)
    assert checked == 400


@pytest.mark.parametrize(
    "options", [{}, {"must_discard": True}, {"players": 3}, {"players": 4, "hand_size": 9}]
)
def test_every_level_finishes_games(options: dict[str, object]) -> None:
    game = parlour.load("rummy", **options)
    bots = [make_bot(level) for level in ("easy", "medium", "hard", "hard")[: game.num_players]]
    state = play_game(game, bots, random.Random(3))
    assert state.is_terminal()
    assert max(state.result().scores) > 500


def test_hard_keeps_a_start_over_a_loose_card() -> None:
    # KD QD wait for JD or AD; 5S, 3C and 8H are loose. A start melds often enough in a short
    # round (docs/rules/rummy.md#why-simple-wins): hard throws the highest loose card
    state = deal(["KD QD 5S 3C", "2H 3D 9S JS"], "4H", "8H")
    act(state, "draw stock")
    assert str(make_bot("hard").choose(state, 0, random.Random(0))) == "discard 8H"


def test_hard_takes_a_discard_that_makes_a_meld() -> None:
    # 9D makes 9D 10D JD: points on the table now, which the deadwood after a sampled stock
    # draw (old hard's test, which said "draw stock" here) does not count
    state = deal(["10D 3S 5S JD 4S", "6H AH QS JH QD"], "9D")
    assert str(make_bot("hard").choose(state, 0, random.Random(0))) == "draw discard"
    state = deal(["10D 3S 5S JD 4S", "6H AH QS JH QD"], "9C")
    assert str(make_bot("hard").choose(state, 0, random.Random(0))) == "draw stock"
