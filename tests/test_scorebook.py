"""The scorebook: Greedy tournament standings from finished person-vs-computer games."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli.main import app
from parlour.engine.errors import ParlourError
from parlour.games.dice.notation import Quit
from parlour.scorebook import record_finished_game
from parlour.session import LocalGame, SeatSpec
from parlour.storage import open_database
from parlour.storage.standings import greedy_standings, name_key, record_greedy_game
from tests.helpers import play


def finished_greedy(person_score: int, computer_score: int, *, person_wins: bool):
    """A finished 2-seat Greedy game with the given scores, seat 0 the person."""
    state = parlour.load("greedy").new_initial_state()
    state.scores = [person_score, computer_score]  # a set-up position (boardgame.io style)
    state.seat = 0 if person_wins else 1
    play(state, "roll 1 1 1 2 3 4 4 6 6", "keep 1 1 1 bank")
    assert state.is_terminal()
    return state


def test_win_loss_and_quit_update_standings() -> None:
    engine = open_database()
    people = ["Ann", None]
    # win with 10,250 (9,250 + 1,000): 5,000 + 10 x 250
    record_finished_game(engine, finished_greedy(9_250, 8_000, person_wins=True), people)
    # loss to a computer on 10,400: -(1,000 + 5 x 400)
    record_finished_game(engine, finished_greedy(6_000, 9_400, person_wins=False), people)
    # quit while the computer has 4,000: -(1,000 + 0)
    state = parlour.load("greedy").new_initial_state()
    state.scores = [7_000, 4_000]
    state.apply(Quit(), player=0)
    record_finished_game(engine, state, [" ann ", None])
    [row] = greedy_standings(engine)
    assert (row.name, row.games, row.wins, row.losses) == ("Ann", 3, 1, 2)
    assert row.points == 7_500 - 3_000 - 1_000
    assert row.best_margin == 10_250 - 8_000


def test_other_games_and_mixes_do_not_count() -> None:
    engine = open_database()
    record_finished_game(engine, finished_greedy(9_250, 0, person_wins=True), ["a", "b"])
    record_finished_game(engine, finished_greedy(9_250, 0, person_wins=True), [None, None])
    assert greedy_standings(engine) == []


def test_sorted_by_points() -> None:
    engine = open_database()
    record_greedy_game(engine, "low", won=False, points=-1000, margin=None)
    record_greedy_game(engine, "high", won=True, points=5000, margin=10)
    assert [r.name for r in greedy_standings(engine)] == ["high", "low"]


@pytest.mark.parametrize(("name", "message"), [("   ", "empty"), ("x" * 21, "over 20")])
def test_bad_names_refused(name: str, message: str) -> None:
    with pytest.raises(ParlourError, match=message):
        name_key(name)


def test_local_game_records_once_when_finished() -> None:
    engine = open_database()
    game = parlour.load("greedy")
    # Greedy's bots are not needed to finish a game by quitting: build the seats directly.
    local = LocalGame.__new__(LocalGame)
    local.game, local.save_id, local.screen = game, None, {}
    local.seats = [SeatSpec("Bo"), SeatSpec("CPU 1 (strong)", "strong")]
    local.state = game.new_initial_state()
    local.state.apply(Quit(), player=0)
    local.save(engine)
    local.save(engine)  # saving again does not count the game twice
    [row] = greedy_standings(engine)
    assert (row.games, row.losses, row.points) == (1, 1, -1000)


def test_standings_command_json() -> None:
    engine = open_database()
    record_greedy_game(engine, "Ann", won=True, points=5000, margin=300)
    out = CliRunner().invoke(app, ["standings", "greedy", "--json"])
    assert out.exit_code == 0, out.output
    assert '"points": 5000' in out.stdout and '"best_margin": 300' in out.stdout


def test_a_second_window_on_the_same_save_cannot_reopen_a_finished_game() -> None:
    """Two windows resume one save; one forfeits (counted), the other plays on: its saves are
    refused, so the game stays finished and is counted once."""
    engine = open_database()
    local = LocalGame.new("greedy", "Bo,cpu:easy")
    play(local.state, "roll 1 1 1 2 2 3 4 6 6")
    save_id = local.save(engine)
    first, second = LocalGame.resume(engine, save_id), LocalGame.resume(engine, save_id)
    first.state.apply(Quit(), player=0)
    first.save(engine)
    play(second.state, "keep 1 1 1 roll", "roll 1 2 2 3 4 6")
    with pytest.raises(ParlourError, match="already over"):
        second.save(engine)
    play(second.state, "keep 1 bank")  # ...and finishing it there does not count it again
    with pytest.raises(ParlourError, match="already over"):
        second.save(engine)
    again = LocalGame.resume(engine, save_id)
    assert again.state == first.state and again.state.is_terminal()
    [row] = greedy_standings(engine)
    assert (row.games, row.losses, row.points) == (1, 1, -1000)


def test_the_scorebook_records_what_a_game_declares_without_knowing_the_game() -> None:
    """A game the scorebook has never heard of (Ten-Thousand under another name) that
    declares contributions gets them recorded: standings by seat, statistics once."""
    import random
    from dataclasses import replace

    from parlour.engine.platform import Contributions, Platform, StandingsGame, StatisticsGame
    from parlour.engine.state import Game
    from parlour.storage.rummy_stats import rummy_stats
    from tests.helpers import random_game

    def declared(state, persons):  # type: ignore[no-untyped-def]
        seats = [seat for seat, person in enumerate(persons) if person]
        return Contributions(
            standings=tuple(StandingsGame(s, True, 100 + s, 7) for s in seats),
            statistics=tuple(StatisticsGame(s, False, 50, (20, 30)) for s in seats),
        )

    spec = replace(
        parlour.engine.find("ten-thousand"),
        name="not-a-known-game",
        platform=Platform(contributions=declared),
    )
    game = Game(spec, spec.resolve_options({"players": 2, "target": 1_000}))
    state = random_game(game.new_initial_state(), random.Random(2))
    engine = open_database()
    for _ in range(2):  # the statistics count one game once; the standings each call
        record_finished_game(engine, state, [None, "Bea"])
    [row] = greedy_standings(engine)
    assert (row.name, row.games, row.wins, row.points, row.best_margin) == ("Bea", 2, 2, 202, 7)
    [stats] = rummy_stats(engine)
    assert (stats.name, stats.played, stats.lost, stats.best_round_score) == ("Bea", 1, 1, 30)


def test_a_game_reporting_a_computer_seat_is_refused() -> None:
    from dataclasses import replace

    from parlour.engine.platform import Contributions, Platform, StandingsGame

    spec = replace(
        parlour.engine.find("greedy"),
        platform=Platform(
            contributions=lambda state, persons: Contributions(
                standings=(StandingsGame(1, True, 5, None),)
            )
        ),
    )
    state = finished_greedy(9_250, 0, person_wins=True)
    state.game.spec = spec
    with pytest.raises(ValueError, match="seat 1 is a computer player"):
        record_finished_game(open_database(), state, ["Ann", None])
