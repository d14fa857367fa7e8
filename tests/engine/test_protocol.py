"""The engine protocol, checked on every registered game."""

from __future__ import annotations

import importlib
import json
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

import parlour
from parlour.engine.errors import BadOption, IllegalMove, NotEnumerable, ParlourError, UnknownGame
from parlour.engine.records import replay, to_record
from parlour.engine.spec import GameSpec
from parlour.engine.state import HOST, State
from tests.helpers import random_game

GAMES = [spec.name for spec in parlour.games()]


def test_games_lists_ten_thousand_with_options() -> None:
    spec = next(s for s in parlour.games() if s.name == "ten-thousand")
    assert spec.min_players == 1 and spec.max_players == 6
    assert spec.options["target"].default == 10_000


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(UnknownGame, match="ten-thousand"):
        parlour.load("chess")


def test_aliases_and_case() -> None:
    assert parlour.load("Ten_Thousand").spec.name == "ten-thousand"
    assert parlour.load("10000").spec.name == "ten-thousand"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "(?s)no option 'colour'.*target"),
        ({"players": 7}, "out of range, allowed 1..6"),
        ({"players": "two"}, "must be an integer"),
        ({"target": 10_001}, "multiple of 50"),
        ({"specials_any_roll": "maybe"}, "true or false"),
    ],
)
def test_bad_options_are_refused_with_what_is_allowed(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(BadOption, match=message):
        parlour.load("ten-thousand", **options)


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_and_round_trip(name: str) -> None:
    rng = random.Random(7)
    for _ in range(3):
        game = parlour.load(name)
        state = random_game(game.new_initial_state(), rng)
        assert state.is_terminal()
        data = json.loads(json.dumps(state.to_json()))
        assert game.state_from_json(data) == state
        names = [f"p{i}" for i in range(game.num_players)]
        record = json.loads(json.dumps(to_record(state, names)))
        assert replay(record) == state


def step(state: State, rng: random.Random) -> None:
    """One random step: a sampled chance outcome, a random legal action of the first seat
    that may act (several may, in a game played on days), or, when no seat may act, the
    first host event the game accepts (its last declared first: a new day)."""
    if state.is_chance_node():
        state.apply(state.sample_chance(rng))
        return
    if not state.actors():  # a game on days, every seat has acted today: the host moves on
        for event in reversed(state.game.spec.host_events):
            try:
                state.apply(state.parse_action(event, player=HOST), player=HOST)
            except ParlourError:
                continue
            return
    seat = state.actors()[0]
    state.apply(rng.choice(list(state.legal_actions(seat))), player=seat)


def walk(state: State, rng: random.Random, steps: int) -> Iterator[State]:
    """*state* itself, before and after each of up to *steps* random steps (stopping at the
    end): look at it before asking for the next."""
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        step(state, rng)
        yield state


@pytest.mark.parametrize("name", GAMES)
def test_chance_outcomes_sum_to_one_and_the_sampler_draws_them(name: str) -> None:
    """At every chance node of two random games: where the outcomes are listed, their
    probabilities are positive and sum to one, and the sampler draws listed outcomes with
    about those frequencies; where they are not (a shuffle of a deck), the game says so with
    ``NotEnumerable``, and the sampler's outcomes are ones the rules accept, seldom the same.
    Every game reaches chance nodes."""
    rng = random.Random(5)
    listed = unlisted = 0
    for _ in range(2):
        state = parlour.load(name).new_initial_state()
        for position in walk(state, rng, 400):
            if not position.is_chance_node() or listed + unlisted >= 40:
                continue
            try:
                outcomes = position.chance_outcomes()
            except NotEnumerable:
                unlisted += 1
                drawn = [position.sample_chance(rng) for _ in range(50)]
                texts = {position.action_to_string(outcome) for outcome in drawn}
                assert len(texts) > len(drawn) // 2  # thousands of outcomes: few repeats
                for outcome in drawn[:5]:
                    position.clone().apply(outcome)
                continue
            listed += 1
            assert sum(p for _, p in outcomes) == Fraction(1)
            assert all(p > 0 for _, p in outcomes)
            probability = {position.action_to_string(a): p for a, p in outcomes}
            draws = 400
            counts = Counter(
                position.action_to_string(position.sample_chance(rng)) for _ in range(draws)
            )
            assert set(counts) <= set(probability)
            distance = sum(abs(counts[t] / draws - float(p)) for t, p in probability.items()) / 2
            assert distance < 0.2 + 0.02 * len(probability) ** 0.5
    assert listed + unlisted > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_is_independent_of_its_original(name: str) -> None:
    rng = random.Random(9)
    state = parlour.load(name).new_initial_state()
    for _ in walk(state, rng, 12):
        pass
    assert not state.is_terminal()
    original = json.dumps(state.to_json())
    views = json.dumps([state.observation(s) for s in range(state.game.num_players)])
    clone = state.clone()
    assert clone == state
    for _ in walk(clone, rng, 6):  # the clone moves on: the original stays where it was
        pass
    assert json.dumps(state.to_json()) == original
    assert json.dumps([state.observation(s) for s in range(state.game.num_players)]) == views
    moved = json.dumps(clone.to_json())
    assert moved != original
    for _ in walk(state, rng, 6):  # and the other way round
        pass
    assert json.dumps(clone.to_json()) == moved


def option_variants(spec: GameSpec) -> list[dict[str, Any]]:
    """The defaults, and each choice or flag of one option changed from its default."""
    variants: list[dict[str, Any]] = [{}]
    for option_name, option in spec.options.items():
        values = option.choices if option.choices else (True, False) if option.kind is bool else ()
        variants += [{option_name: v} for v in values if v != option.default]
    return variants


HOST_EVENTS = sorted(
    {"skip", "new-day", "bogus", *(e for s in parlour.games() for e in s.host_events)}
)


def host_event_answers(spec: GameSpec, event: str) -> Iterator[bool]:
    """For positions of random games (each option variant): True where the host event
    *event* is accepted, False where it is refused (the state unchanged)."""
    rng = random.Random(4)
    for options in option_variants(spec):
        state = parlour.load(spec.name, **options).new_initial_state()
        for position in walk(state, rng, 30):
            if position.is_terminal():
                continue
            before = json.dumps(position.to_json())
            trial = position.clone()
            try:
                trial.apply(trial.parse_action(event, player=HOST), player=HOST)
            except ParlourError:
                assert json.dumps(trial.to_json()) == before
                yield False
            else:
                assert trial.history[-1][0] == HOST
                yield True


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("event", HOST_EVENTS)
def test_declared_host_events_are_accepted_where_they_apply_and_others_refused(
    name: str, event: str
) -> None:
    spec = parlour.engine.find(name)
    answers = host_event_answers(spec, event)
    if event in spec.host_events:
        assert any(answers), f"{name} declares {event!r} but never accepts it"
    else:
        assert not any(answers), f"{name} accepts the undeclared host event {event!r}"


@pytest.mark.parametrize("name", GAMES)
def test_a_game_that_runs_on_days_declares_the_new_day(name: str) -> None:
    spec = parlour.engine.find(name)
    daily = spec.platform.daily
    if daily is None:
        return
    assert "new-day" in spec.host_events
    assert any(daily(spec.resolve_options(options)) for options in option_variants(spec))


def as_text(value: Any) -> str:
    """An option value as typed on a command line (``true``, ``10000``, ``turns``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("name", GAMES)
def test_option_defaults_resolve_and_round_trip(name: str) -> None:
    spec = parlour.engine.find(name)
    defaults = {option_name: option.default for option_name, option in spec.options.items()}
    assert spec.resolve_options({}) == defaults
    for option_name, option in spec.options.items():
        assert option.validate(option_name, option.default) == option.default
        assert option.validate(option_name, as_text(option.default)) == option.default
    game = parlour.load(name)
    assert dict(game.options) == defaults
    assert spec.resolve_options(json.loads(json.dumps(dict(game.options)))) == defaults
    assert parlour.load(name, **{k: as_text(v) for k, v in defaults.items()}).options == defaults
    assert game.num_players == spec.options["players"].default


@pytest.mark.parametrize("name", GAMES)
def test_every_level_makes_its_bot(name: str) -> None:
    """The spec's ``bot_levels`` is the one list of levels: each makes a bot of that name."""
    spec = parlour.engine.find(name)
    if not spec.bots:
        assert spec.bot_levels == ()
        return
    module, _, function = spec.bots.partition(":")
    make = getattr(importlib.import_module(module), function)
    assert [make(level).name for level in spec.bot_levels] == list(spec.bot_levels)


@pytest.mark.parametrize("name", GAMES)
def test_refused_action_leaves_state_unchanged(name: str) -> None:
    rng = random.Random(3)
    state = parlour.load(name).new_initial_state()
    state.apply(state.sample_chance(rng))
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(object())
    with pytest.raises(IllegalMove):
        state.apply(state.legal_actions()[0], player=parlour.CHANCE)
    assert json.dumps(state.to_json()) == before


def test_terminal_state_refuses_everything() -> None:
    state = random_game(parlour.load("ten-thousand").new_initial_state(), random.Random(1))
    with pytest.raises(IllegalMove, match="over"):
        state.apply(None)


@pytest.mark.parametrize("player", ["0", 1.0, True])
def test_a_player_that_is_not_an_int_is_refused(player: object) -> None:
    state = parlour.load("ten-thousand").new_initial_state()
    with pytest.raises(IllegalMove, match="a player is a seat number"):
        state.apply(state.legal_actions()[0], player=player)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", [None, 3, ["greedy"]])
def test_load_refuses_a_name_that_is_not_text(name: object) -> None:
    with pytest.raises(UnknownGame, match="no game called"):
        parlour.load(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_observation_of_a_seat_the_game_lacks_is_refused(name: str) -> None:
    state = parlour.load(name).new_initial_state()
    for seat in (-1, state.game.num_players):
        with pytest.raises(ParlourError):
            state.observation(seat)
