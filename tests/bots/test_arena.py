"""The game-agnostic arena: seats rotate, figures add up, seeds and jobs reproduce runs; the
players' text is read into levels and their settings."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import parlour
from parlour.bots import RandomBot
from parlour.bots.arena import (
    Player,
    json_settings,
    parse_levels,
    parse_player,
    parse_players,
    run_arena,
    split_players,
)
from parlour.engine.errors import ParlourError
from parlour.engine.registry import find
from parlour.engine.state import State
from parlour.games.ten_thousand.bots import make_bot


def first_seat(state: State, seat: int) -> dict[str, float]:
    return {"first": 1.0 if seat == 0 else 0.0, "games": 1.0}


def test_seats_rotate_and_figures_add_up() -> None:
    game = parlour.load("ten-thousand", players=3, target=1000)
    bots = [RandomBot(), make_bot("cautious"), make_bot("reckless")]
    result = run_arena(game, bots, games=9, seed=4, measure=first_seat)
    assert [b.name for b in result.bots] == ["random", "cautious", "reckless"]
    assert all(b.games == 9 and b.extra == {"first": 3.0, "games": 9.0} for b in result.bots)
    assert sum(b.wins for b in result.bots) == pytest.approx(9)
    for b in result.bots:
        low, high = b.interval
        assert 0 <= low <= b.win_rate <= high <= 1
    assert result.games_per_second > 0
    data = result.to_json()
    assert data["games"] == 9 and data["bots"][0]["first"] == 3.0


def test_same_seed_same_games_for_any_number_of_jobs() -> None:
    game = parlour.load("ten-thousand", players=2, target=2000)
    bots = [make_bot("cautious"), make_bot("reckless")]
    one = run_arena(game, bots, games=12, seed=9)
    again = run_arena(game, bots, games=12, seed=9)
    two = run_arena(game, bots, games=12, seed=9, jobs=2)
    other = run_arena(game, bots, games=12, seed=10)
    figures = [(b.wins, b.points) for b in one.bots]
    assert figures == [(b.wins, b.points) for b in again.bots]
    assert figures == [(b.wins, b.points) for b in two.bots] and two.jobs == 2
    assert figures != [(b.wins, b.points) for b in other.bots]


def test_same_level_twice_is_numbered_and_bad_input_refused() -> None:
    game = parlour.load("ten-thousand", players=2, target=1000)
    result = run_arena(game, [RandomBot(), RandomBot()], games=2)
    assert [b.name for b in result.bots] == ["random#1", "random#2"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        run_arena(game, [RandomBot()] * 3, games=1)
    with pytest.raises(ValueError, match="0 or more"):
        run_arena(game, [RandomBot()] * 2, games=-1)


def test_the_same_label_twice_is_numbered_after_the_level() -> None:
    # "hard reach=3#1" read as a reach of "3#1"; the number now follows the level
    game = parlour.load("ten-thousand", players=3, target=1000)
    labels = ["random reach=3", "random reach=3", "random"]
    result = run_arena(game, [RandomBot()] * 3, games=1, labels=labels)
    assert [b.name for b in result.bots] == ["random#1 reach=3", "random#2 reach=3", "random#3"]


def test_players_split_at_the_commas_outside_braces() -> None:
    text = 'search{"budget": 200, "base": "expert"}, hard{"reach": 4.0, "gain": 3.0},easy'
    assert split_players(text) == [
        'search{"budget": 200, "base": "expert"}',
        ' hard{"reach": 4.0, "gain": 3.0}',
        "easy",
    ]
    # a comma or a brace inside a JSON string is text; a quote outside braces is nothing
    assert split_players('a{"n": "x,}{y\\"z"},b"c') == ['a{"n": "x,}{y\\"z"}', 'b"c']
    assert split_players("a{{}},b") == ["a{{}}", "b"]
    assert split_players("") == [""]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('search{"base": "expert",hard', "a brace not closed in"),
        ('search{"name": "x}', "a brace not closed in"),
        ('search{"a": 1}},hard', "a brace closed but not opened in"),
        ("}easy{", "a brace closed but not opened in"),
    ],
)
def test_unbalanced_braces_are_refused(text: str, words: str) -> None:
    with pytest.raises(ParlourError, match=re.escape(f"{words} {text!r}")):
        split_players(text)


def test_a_player_is_its_level_and_its_settings() -> None:
    player = parse_player(' Search {"budget": 200, "base": "expert"} ')
    assert player == Player(
        "search", {"budget": 200, "base": "expert"}, 'Search {"budget": 200, "base": "expert"}'
    )
    assert parse_player("Hard") == Player("hard", {}, "Hard")
    assert parse_player("hard{}") == Player("hard", {}, "hard{}")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("search{bad}", "search{bad}: settings are not JSON (Expecting property name"),
        ('search{"a": 1} x', 'search{"a": 1} x: settings are not JSON (Extra data'),
        ("search{}[]", "search{}[]: settings are not JSON (Extra data"),
        ("  ", "an empty level in '  '"),
        ('{"a": 1}', "an empty level in '{\"a\": 1}'"),
        # a key twice: JSON's reader kept the last, silently (at any depth, escaped or not)
        ('hard{"reach": 1, "reach": 4}', """hard{"reach": 1, "reach": 4}: 'reach' given twice"""),
        ('hard{"reach": 1, "re\\u0061ch": 4}', "'reach' given twice in the settings"),
        ('hard{"name": {"a": 1, "a": 2}}', "'a' given twice in the settings"),
        # what Python's reader refuses beyond JSON's grammar: no ValueError, RecursionError
        ('hard{"hold": 1' + "0" * 5000 + "}", "settings hold a number of too many digits"),
        ('hard{"hold": ' + "[" * 100_000 + "]" * 100_000 + "}", "settings are not JSON (nested"),
    ],
    ids=lambda value: value[:30] if isinstance(value, str) else None,
)
def test_a_malformed_player_is_refused(text: str, words: str) -> None:
    with pytest.raises(ParlourError, match=re.escape(words)):
        parse_player(text)


def test_players_for_a_game_with_settings_where_allowed() -> None:
    spec = find("rummy")
    players = parse_players(
        'Search{"base": "expert", "melds": true}, hard{"reach": 4.0},easy',
        spec,
        extra=("search",),
        settable=("hard", "search"),
    )
    assert [(p.level, p.settings) for p in players] == [
        ("search", {"base": "expert", "melds": True}),
        ("hard", {"reach": 4.0}),
        ("easy", {}),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('easy{"a": 1},hard', 'easy{"a": 1}: easy takes no settings; only hard take settings'),
        ("easy,,hard", "an empty level in 'easy,,hard': write levels separated by commas"),
        ("easy,genius", "unknown computer level 'genius'; levels are: easy, medium, hard, expert"),
        ('genius{"a": 1},hard', "unknown computer level 'genius'"),
        ("easy", "an arena takes 2-4 players for Rummy, not 1"),
        ('hard{"a": ","},hard,hard,hard,hard', "an arena takes 2-4 players for Rummy, not 5"),
    ],
)
def test_players_refused_for_a_game(text: str, words: str) -> None:
    with pytest.raises(ParlourError, match=re.escape(words)):
        parse_players(text, find("rummy"), settable=("hard",))


def test_levels_take_no_settings() -> None:
    spec = find("ten-thousand")
    assert parse_levels("strong, Cautious", spec) == ["strong", "cautious"]
    with pytest.raises(ParlourError, match=re.escape("strong{}: strong takes no settings")):
        parse_levels("strong{},cautious", spec)
    # a comma in braces is no longer a third player
    with pytest.raises(ParlourError, match=re.escape('strong{"a": 1, "b": 2}: strong takes no')):
        parse_levels('strong{"a": 1, "b": 2},cautious', spec)


@dataclass
class Knobs:
    name: str = "knobs"
    width: int = 3
    deep: bool = False


def test_settings_are_checked_against_the_fields_and_labelled_by_what_differs() -> None:
    assert json_settings("knobs", {"width": 2}, Knobs) == {"width": 2}
    with pytest.raises(
        ParlourError, match=re.escape("k{}: unknown setting 'size'; settings: name, width, deep")
    ):
        json_settings("k{}", {"size": 2}, Knobs)
    player = Player("knobs", {"width": 3, "deep": True, "name": "mine"})
    assert player.label(Knobs()) == "knobs deep=true name=mine"
    assert player.label() == "knobs width=3 deep=true name=mine"
    assert Player("knobs", {"width": 3}).label(Knobs()) == "knobs"
    assert Player("knobs").label(Knobs()) == "knobs"
