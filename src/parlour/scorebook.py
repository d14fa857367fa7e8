"""The scorebook: what a finished game adds to people's records across games.

Greedy person-vs-computer games update the tournament standings (``docs/rules/greedy.md``);
Rummy games with at least one computer player update each person's Rummy statistics
(``docs/rules/rummy.md#statistics``).
Local games (:mod:`parlour.session`) and the server call :func:`record_finished_game` once per
finished game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from sqlalchemy import Connection, Engine

from parlour.engine.state import State
from parlour.games.greedy.standings import standings_entry
from parlour.games.rummy.stats import seat_facts
from parlour.storage.rummy_stats import PersonGame, record_rummy_game
from parlour.storage.standings import record_greedy_game


def greedy_counts(state: State, people: Sequence[str | None]) -> int | None:
    """The seat of the person in a Greedy game that counts for the standings, or ``None``.

    *people* has one entry per seat: the person's name, or ``None`` for a computer player.
    Only the manual's game counts: two seats, one person against one computer player, to the
    default target of 10,000.
    """
    if state.game.spec.name != "greedy" or state.game.num_players != 2:
        return None
    if state.game.options.get("target") != 10_000:
        return None
    humans = [seat for seat, name in enumerate(people) if name is not None]
    return humans[0] if len(humans) == 1 else None


def rummy_counts(state: State, people: Sequence[str | None]) -> list[int]:
    """The seats of the people in a Rummy game whose statistics it updates: every person's
    seat, when at least one seat is a computer player (a person's game with the computer);
    none otherwise."""
    if state.game.spec.name != "rummy" or all(name is not None for name in people):
        return []
    return [seat for seat, name in enumerate(people) if name is not None]


def game_key(state: State, people: Sequence[str | None]) -> str:
    """A digest of who played and every event: the same finished game gives the same key, so
    it is counted once however often it is recorded."""
    text = json.dumps([state.game.spec.name, list(people), state.to_json()["history"]])
    return hashlib.sha256(text.encode()).hexdigest()


def record_finished_game(
    engine: Engine | Connection, state: State, people: Sequence[str | None]
) -> None:
    """Record a finished game in the scorebook (a no-op for games that keep no records).

    *people* has one entry per seat: the person's name, or ``None`` for a computer player.
    *engine* may be a connection in a transaction, to record the game together with its
    save. Raises ``IllegalMove`` if the game is not over.
    """
    state.require_terminal()
    person = greedy_counts(state, people)
    if person is not None:
        entry = standings_entry(state, person)
        name = people[person]
        assert name is not None
        record_greedy_game(engine, name, won=entry.won, points=entry.points, margin=entry.margin)
    rummy_seats = rummy_counts(state, people)
    if rummy_seats:
        facts = seat_facts(state)
        record_rummy_game(
            engine,
            game_key(state, people),
            [
                PersonGame(
                    str(people[seat]),
                    facts[seat].won,
                    facts[seat].game_score,
                    facts[seat].round_scores,
                )
                for seat in rummy_seats
            ],
        )
