"""Statistics update when a person's game against the computer ends (scorebook hook)."""

from __future__ import annotations

import random

from parlour.games.rummy.bots import make_bot
from parlour.session import LocalGame
from parlour.storage import open_database
from parlour.storage.rummy_stats import rummy_stats


def finish(local: LocalGame, rng: random.Random) -> None:
    """Play *local* to the end, chance drawn from *rng*; the person's seat is played by the
    medium bot."""
    stand_in = make_bot("medium")
    while not local.state.is_terminal():
        if local.state.is_chance_node():
            local.state.apply(local.state.sample_chance(rng))
        elif local.bot_to_move():
            local.state.apply(local.bot_choice())
        else:
            seat = local.to_move()
            local.state.apply(stand_in.choose(local.state, seat, local.bot_rng))


def test_finished_game_against_the_computer_updates_the_person_once() -> None:
    engine = open_database()
    local = LocalGame.new("rummy", "Ann,cpu:easy", ending_score=100)
    local.save(engine)  # unfinished: nothing recorded
    assert rummy_stats(engine) == []
    finish(local, random.Random(8))
    local.save(engine)
    local.save(engine)  # saving again does not count the game twice
    (ann,) = rummy_stats(engine)
    result = local.state.result()
    rounds = [r[0] for r in local.state.round_scores]  # type: ignore[attr-defined]
    assert ann.played == 1 and ann.won == int(0 in result.winners)
    assert ann.best_game_score == result.scores[0] == sum(rounds)
    assert ann.best_round_score == max(rounds) and ann.rounds == len(rounds)


def test_games_between_people_only_are_not_counted() -> None:
    engine = open_database()
    local = LocalGame.new("rummy", "Ann,Bob", ending_score=60)
    finish(local, random.Random(2))
    local.save(engine)
    assert rummy_stats(engine) == []
