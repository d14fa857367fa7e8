"""Paired deals for Rummy players (parlour_tools.rummy_paired)."""

from __future__ import annotations

from parlour.games.rummy.bots import PlannerBot
from parlour.games.rummy.rollout import POLICIES, RolloutBot
from parlour.games.rummy.search import SearchBot
from parlour_tools.rummy_paired import paired_margins, player


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
