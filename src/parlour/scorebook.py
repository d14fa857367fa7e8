"""The scorebook: what a finished game adds to people's records across games.

Each game declares what a finished game adds (``GameSpec.platform.contributions``, plain
:class:`~parlour.engine.platform.Contributions`): tournament standings (Greedy's person
against the computer, ``docs/rules/greedy.md``) and statistics (Rummy's games with a computer
player, ``docs/rules/rummy.md#statistics``). The scorebook stores them, by person name, in
the standings and the statistics books of :mod:`parlour.storage`; it knows no game.
Local games (:mod:`parlour.session`) and the server call :func:`record_finished_game` once per
finished game.

The two books are one each (their tables predate games declaring contributions): a second
game declaring standings or statistics would share them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from sqlalchemy import Connection, Engine

from parlour.engine.platform import Contributions
from parlour.engine.state import State
from parlour.storage.rummy_stats import PersonGame, record_rummy_game
from parlour.storage.standings import record_greedy_game


def persons(people: Sequence[str | None]) -> list[bool]:
    """``True`` for each seat a person plays (a name), ``False`` for a computer player's
    (``None``)."""
    return [name is not None for name in people]


def contributions(state: State, people: Sequence[str | None]) -> Contributions:
    """What the finished game *state* adds to the records, as its game declares it.

    *people* has one entry per seat: the person's name, or ``None`` for a computer player.
    Raises ``IllegalMove`` if the game is not over.
    """
    state.require_terminal()
    return state.game.spec.platform.contributions(state, persons(people))


def game_key(state: State, people: Sequence[str | None]) -> str:
    """A digest of who played and every event: the same finished game gives the same key, so
    it is counted once however often it is recorded."""
    text = json.dumps([state.game.spec.name, list(people), state.to_json()["history"]])
    return hashlib.sha256(text.encode()).hexdigest()


def _name(people: Sequence[str | None], seat: int) -> str:
    name = people[seat]
    if name is None:
        raise ValueError(f"seat {seat} is a computer player: it has no records")
    return name


def record_finished_game(
    engine: Engine | Connection, state: State, people: Sequence[str | None]
) -> None:
    """Record a finished game in the scorebook (a no-op for games that add nothing).

    *people* has one entry per seat: the person's name, or ``None`` for a computer player.
    *engine* may be a connection in a transaction, to record the game together with its
    save. Raises ``IllegalMove`` if the game is not over, ``ValueError`` if the game reports
    a computer player's seat.
    """
    added = contributions(state, people)
    for game in added.standings:
        name = _name(people, game.seat)
        record_greedy_game(engine, name, won=game.won, points=game.points, margin=game.margin)
    if added.statistics:
        record_rummy_game(
            engine,
            game_key(state, people),
            [
                PersonGame(_name(people, game.seat), game.won, game.game_score, game.round_scores)
                for game in added.statistics
            ],
        )
