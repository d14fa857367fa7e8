"""Paired deals for Rummy players (parlour_tools.rummy_paired)."""

from __future__ import annotations

from parlour.games.rummy.bots import PlannerBot
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
