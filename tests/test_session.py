"""Local games: parsing players, driving chance, saving and resuming."""

from __future__ import annotations

import random

import pytest

from parlour.engine.errors import BadRecord, ParlourError
from parlour.engine.registry import find
from parlour.session import LocalGame, SeatSpec, parse_players
from parlour.storage import open_database, save_game

SPEC = find("ten-thousand")


def test_parse_players() -> None:
    seats = parse_players(" me , cpu:reckless,cpu", SPEC)
    default = SPEC.bot_levels[-1]
    assert seats == [
        SeatSpec("me"),
        SeatSpec("CPU 1 (reckless)", "reckless"),
        SeatSpec(f"CPU 2 ({default})", default),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("me,cpu:genius", "unknown computer level 'genius'"),
        ("me,,bob", "empty"),
        ("me,ME", "given twice"),
        ("a,b,c,d,e,f,g", "1-6 players, not 7"),
        ("x" * 21, "over 20 characters"),
        ("a\nb,cpu", "control or invisible"),
        ("\x1b[31mred,cpu", "control or invisible"),
        ("\u200b,cpu", "control or invisible"),
    ],
)
def test_bad_players(text: str, message: str) -> None:
    with pytest.raises(ParlourError, match=message):
        parse_players(text, SPEC)


def test_in_rummy_the_person_plays_first_against_the_computer() -> None:
    # docs/rules/rummy.md: "The human player starts out playing each round", whatever the seat
    local = LocalGame.new("rummy", "cpu:easy,me")
    assert local.game.options["first"] == 1
    local.state.apply_sample(random.Random(1))  # the deal
    assert local.to_move() == 1 and local.person_to_move()
    assert LocalGame.new("rummy", "me,cpu:easy").game.options["first"] == 0
    assert LocalGame.new("rummy", "cpu:easy,me", first=1).game.options["first"] == 1
    # between people the option is as given (default: seat 0)
    assert LocalGame.new("rummy", "ann,bob").game.options["first"] == 0
    assert LocalGame.new("rummy", "ann,bob", first=1).game.options["first"] == 1


def test_in_rummy_the_computer_may_not_be_made_to_start() -> None:
    with pytest.raises(ParlourError, match="the person plays first: option first is the person's"):
        LocalGame.new("rummy", "cpu:easy,me", first=0)


def test_save_and_resume_mid_game() -> None:
    engine = open_database()
    local = LocalGame.new("ten-thousand", "ann,bob")
    rng = random.Random(5)
    local.state.apply(local.state.sample_chance(rng))
    while local.state.is_chance_node() or not local.state.legal_actions():
        local.state.apply(local.state.sample_chance(rng))
    local.state.apply(local.state.legal_actions()[0])
    save_id = local.save(engine)
    again = LocalGame.resume(engine, save_id)
    assert again.state == local.state
    assert [s.name for s in again.seats] == ["ann", "bob"]


def test_the_screen_data_is_saved_beside_an_unfinished_game_only() -> None:
    engine = open_database()
    local = LocalGame.new("rummy", "me,cpu:easy", ending_score=5, hand_size=3)
    rng = random.Random(2)
    local.state.apply(local.state.sample_chance(rng))
    local.screen = {"rummy_hands": {"0": {"order": ["2S"], "sort": None}}}
    save_id = local.save(engine)
    again = LocalGame.resume(engine, save_id)
    assert again.screen == local.screen and again.state == local.state
    while not local.state.is_terminal():
        if local.state.is_chance_node():
            local.state.apply(local.state.sample_chance(rng))
        else:
            local.state.apply(local.state.legal_actions()[0])  # draw stock, then meld or discard
    local.save(engine)
    assert LocalGame.resume(engine, save_id).screen == {}  # a finished game keeps none


def test_corrupt_save_is_refused_not_crashed() -> None:
    engine = open_database()
    save_id = save_game(
        engine,
        game="ten-thousand",
        players=["a", "b"],
        state={"options": {"players": 2}, "state": {}, "history": [["x", "y"]]},
    )
    with pytest.raises(BadRecord):
        LocalGame.resume(engine, save_id)


def test_a_person_cannot_take_a_computer_players_name() -> None:
    with pytest.raises(ParlourError, match="kept for computer players"):
        parse_players("CPU 1 (strong),bob", SPEC)


def test_a_finished_game_and_its_standings_are_saved_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A failure while recording the standings leaves the save as it was (active), so the
    next save records the game once: never a finished save that missed the standings."""
    from parlour import scorebook
    from parlour.storage import load_save
    from parlour.storage.standings import greedy_standings

    local = LocalGame.new("greedy", "Ann,cpu:easy")
    engine = open_database()
    save_id = local.save(engine)
    local.state.apply(local.state.parse_action("quit", player=0), player=0)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patched:
        patched.setattr(scorebook, "record_greedy_game", broken)
        with pytest.raises(OSError):
            local.save(engine)
    assert load_save(engine, save_id).status == "active"
    assert greedy_standings(engine) == []
    local.save(engine)
    local.save(engine)  # saving a finished game again counts nothing twice
    assert load_save(engine, save_id).status == "finished"
    [row] = greedy_standings(engine)
    assert (row.name, row.games, row.losses, row.points) == ("Ann", 1, 1, -1000)
