"""Greedy tournament standings per person: games, wins, losses, points, best margin.

Names are matched case-insensitively after trimming (``"  Ann "`` is ``ann``); the name as
first given is kept for display.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session

from parlour.engine.errors import ParlourError
from parlour.storage.db import writing
from parlour.storage.models import GreedyStanding, utcnow

MAX_NAME = 20


def name_key(name: str) -> str:
    """The key a person's name is stored under: trimmed, lower case.

    Raises :class:`ParlourError` for an empty name or one over 20 characters.
    """
    trimmed = name.strip()
    if not trimmed:
        raise ParlourError("a name is needed for the standings (it is empty)")
    if len(trimmed) > MAX_NAME:
        raise ParlourError(f"name {trimmed!r} is over {MAX_NAME} characters")
    return trimmed.lower()


@dataclass(frozen=True)
class Standing:
    """One person's row: ``points`` are tournament points, ``best_margin`` game points."""

    name: str
    games: int
    wins: int
    losses: int
    points: int
    best_margin: int | None


def record_greedy_game(
    engine: Engine | Connection, name: str, *, won: bool, points: int, margin: int | None
) -> Standing:
    """Add one finished game to *name*'s standings; return the updated row.

    A read-modify-write in one write transaction (SQLite: ``BEGIN IMMEDIATE``, PostgreSQL:
    the row locked), so games finished at the same moment are all counted.
    """
    key = name_key(name)
    with writing(engine) as connection, Session(bind=connection) as session:
        row = session.get(GreedyStanding, key, with_for_update=True)
        if row is None:
            row = GreedyStanding(
                key=key, name=name.strip(), games=0, wins=0, losses=0, points=0, best_margin=None
            )
            session.add(row)
        row.games += 1
        row.wins += int(won)
        row.losses += int(not won)
        row.points += points
        if margin is not None and (row.best_margin is None or margin > row.best_margin):
            row.best_margin = margin
        row.updated_at = utcnow()
        session.flush()
        return _standing(row)


def _standing(row: GreedyStanding) -> Standing:
    return Standing(row.name, row.games, row.wins, row.losses, row.points, row.best_margin)


def greedy_standings(engine: Engine) -> list[Standing]:
    """Every person's standings, most tournament points first (then most wins, then name)."""
    query = select(GreedyStanding).order_by(
        GreedyStanding.points.desc(), GreedyStanding.wins.desc(), GreedyStanding.key
    )
    with Session(engine) as session:
        return [_standing(row) for row in session.scalars(query)]
