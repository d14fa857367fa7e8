"""The scorebook: what a finished game adds to people's records across games.

Greedy person-vs-computer games update the tournament standings (``docs/rules/greedy.md``).
Local games (:mod:`parlour.session`) and the server call :func:`record_finished_game` once per
finished game.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Engine

from parlour.engine.state import State
from parlour.games.greedy.standings import standings_entry
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


def record_finished_game(engine: Engine, state: State, people: Sequence[str | None]) -> None:
    """Record a finished game in the scorebook (a no-op for games that keep no records).

    *people* has one entry per seat: the person's name, or ``None`` for a computer player.
    Raises ``IllegalMove`` if the game is not over.
    """
    state.require_terminal()
    person = greedy_counts(state, people)
    if person is not None:
        entry = standings_entry(state, person)
        name = people[person]
        assert name is not None
        record_greedy_game(engine, name, won=entry.won, points=entry.points, margin=entry.margin)
