"""Paired deals for Rummy players (parlour_tools.rummy_paired)."""

from __future__ import annotations

import re

import pytest

from parlour.engine.errors import ParlourError
from parlour.games.rummy.bots import PlannerBot
from parlour.games.rummy.rollout import POLICIES, RolloutBot
from parlour.games.rummy.search import SearchBot
from parlour_tools.rummy_paired import main, paired_margins, player
from tests.tools.conftest import UsageError


def test_a_player_against_itself_gains_nothing_on_any_deal() -> None:
    # both plays of a deal are the same game with the seats swapped: the margins cancel
    assert paired_margins(player("hard"), player("hard"), 4, 1) == [0.0] * 4


def test_swapping_the_players_negates_every_margin() -> None:
    ahead = paired_margins(player("hard"), player("simple"), 6, 2)
    behind = paired_margins(player("simple"), player("hard"), 6, 2)
    assert behind == [-m for m in ahead]
    assert any(ahead)


def test_search_takes_its_settings_as_json() -> None:
    bot = player('search{"rollout": "hard", "simulations": 12}')
    assert isinstance(bot, SearchBot)
    assert (bot.rollout, bot.simulations, bot.width) == ("hard", 12, 3)


def test_hard_takes_changed_parameters_as_json() -> None:
    bot = player('hard{"reach": 4.0, "hold": 3}')
    assert isinstance(bot, PlannerBot)
    assert (bot.name, bot.reach, bot.hold, bot.gain, bot.start_bonus) == ("hard", 4.0, 3, 2.0, 10.0)


def test_a_play_out_player_is_named_rollout_and_its_policy() -> None:
    bot = player("rollout-expert")
    assert isinstance(bot, RolloutBot)
    assert (bot.name, bot.policy) == ("rollout-expert", POLICIES["expert"])
    # the expert copy plays expert's moves: every deal's two plays cancel out exactly
    assert paired_margins(bot, player("expert"), 5, 3) == [0.0] * 5
    # hard's copy does not (it lays its melds down at once)
    assert any(paired_margins(player("rollout-hard"), player("expert"), 5, 3))


def test_a_play_out_player_is_read_as_a_level_is() -> None:
    # stripped and in lower case, as every other player (was "unknown Rummy level")
    bot = player(" Rollout-Expert ")
    assert isinstance(bot, RolloutBot)
    assert (bot.name, bot.policy) == ("rollout-expert", POLICIES["expert"])


def test_search_expert_is_the_baseline_not_search_settings() -> None:
    # "search-expert" starts with "search": it was read as JSON settings "-expert" and failed
    bot = player("search-expert")
    assert isinstance(bot, SearchBot)
    assert (bot.name, bot.base) == ("search-expert", "expert")


def test_a_player_is_read_as_the_arena_reads_it() -> None:
    # a space or a capital before the settings is the same player; expert takes settings too
    assert player(' Hard {"reach": 4.0, "hold": 3} ') == player('hard{"reach": 4.0, "hold": 3}')
    bot = player('expert{"hold": 0}')
    assert isinstance(bot, PlannerBot)
    assert (bot.name, bot.hold, bot.reach) == ("expert", 0, 4.0)
    search = player('search-expert{"simulations": 30}')
    assert isinstance(search, SearchBot)
    assert (search.name, search.base, search.simulations) == ("search-expert", "expert", 30)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("search{bad", "not JSON"),
        ("search[1]", "unknown Rummy level 'search[1]'"),
        ('search{"width": 2} x', 'search{"width": 2} x: settings are not JSON (Extra data'),
        ('search{"nope": 1}', "unknown setting 'nope'"),
        ('search{"width": "x"}', "width"),
        ('search{"rollout": "fast"}', "unknown rollout 'fast'"),
        ('hard{"zzz": 1}', "unknown setting 'zzz'"),
        ('hard{"reach": "far"}', "hard: reach must be a finite number of at least 0, not 'far'"),
        ('hard{"hold": true}', "hard: hold must be a whole number of at least 0, not True"),
        # accepted before: the type was checked, not the range
        ('hard{"hold": -1}', "hard: hold must be a whole number of at least 0, not -1"),
        ('easy{"hold": 1}', "easy takes no settings"),
        ("rollout-nope", "unknown play-out player 'nope'; play-out players: simple, hard, expert"),
        ("bogus", "unknown Rummy level 'bogus'"),
        # empty braces are settings, as the arena reads them (were accepted here)
        ("easy{}", "easy{}: easy takes no settings; only medium, hard, expert, lookahead, search,"),
        ("simple{}", "simple{}: simple takes no settings"),
        ("rollout-expert{}", "rollout-expert{}: rollout-expert takes no settings"),
        ('rollout-hard{"a": 1}', 'rollout-hard{"a": 1}: rollout-hard takes no settings'),
    ],
)
def test_a_malformed_player_is_refused_with_a_clear_message(spec: str, words: str) -> None:
    with pytest.raises(ParlourError, match=re.escape(words)):
        player(spec)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["search{bad", "hard"], "search{bad: settings are not JSON"),
        (["hard", 'hard{"hold": -1}'], "hard: hold must be a whole number of at least 0"),
        (["hard", "hard", "--deals", "0"], "--deals must be at least 1"),
    ],
)
def test_the_command_prints_an_error_not_a_traceback(
    argv: list[str], words: str, usage_error: UsageError
) -> None:
    assert words in usage_error(main, argv)
