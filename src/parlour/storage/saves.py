"""Saved local games: save, list, load and delete (one row per game, updated in place)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session

from parlour.engine.errors import ParlourError
from parlour.storage.db import writing
from parlour.storage.models import SavedGame, utcnow


@dataclass(frozen=True)
class SaveInfo:
    """A saved game as listed: ``id``, ``game`` name, ``players``, ``status``, ``updated_at``
    (``None`` when unreadable), the ``state`` JSON, and ``damage``: what of the row could not
    be read (empty for a sound row)."""

    id: int
    game: str
    players: list[str]
    status: str
    updated_at: datetime | None
    state: dict[str, Any]
    damage: tuple[str, ...] = ()

    @property
    def damaged(self) -> bool:
        """True when part of the row could not be read (it can still be deleted)."""
        return bool(self.damage)


def _info(row: SavedGame) -> SaveInfo:
    # A damaged row (unreadable JSON or time, or JSON of the wrong kind) still gets an entry:
    # no players, an empty state (which resuming refuses with the reason), no time.
    damage = []
    players = row.players
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        players = []
        damage.append("players")
    state = row.state
    if not isinstance(state, dict):
        state = {}
        damage.append("state")
    if row.updated_at is None:
        damage.append("time saved")
    return SaveInfo(
        row.id, row.game, list(players), row.status, row.updated_at, dict(state), tuple(damage)
    )


def save_game(
    engine: Engine | Connection,
    *,
    game: str,
    players: list[str],
    state: dict[str, Any],
    finished: bool = False,
    save_id: int | None = None,
) -> int:
    """Insert a save (``save_id=None``) or update save *save_id*; return its id.

    Raises :class:`ParlourError` if *save_id* does not exist, or is a finished game and
    *state* is not that game (a second window on the same save played on after it ended: a
    finished game never becomes another game, nor active again). *engine* may be a
    connection in a transaction (see :func:`parlour.storage.db.writing`).
    """
    with writing(engine) as connection, Session(bind=connection) as session:
        if save_id is None:
            row = SavedGame(game=game, players=players, state=state)
            session.add(row)
        else:
            found = session.get(SavedGame, save_id)
            if found is None:
                raise ParlourError(f"no saved game {save_id}")
            if found.status == "finished" and (found.state != state or not finished):
                raise ParlourError(
                    f"saved game {save_id} is already over (it was finished elsewhere); "
                    "this copy of it is not saved"
                )
            row = found
            row.state = state
            row.players = players
        row.status = "finished" if finished else "active"
        row.updated_at = utcnow()
        session.flush()
        return row.id


def list_saves(
    engine: Engine, *, game: str | None = None, status: str | None = "active"
) -> list[SaveInfo]:
    """Saved games, newest first; filter by *game* name and *status* (``None``: all)."""
    query = select(SavedGame).order_by(SavedGame.updated_at.desc(), SavedGame.id.desc())
    if game is not None:
        query = query.where(SavedGame.game == game)
    if status is not None:
        query = query.where(SavedGame.status == status)
    with Session(engine) as session:
        return [_info(row) for row in session.scalars(query)]


def load_save(engine: Engine, save_id: int) -> SaveInfo:
    """The save *save_id*. Raises :class:`ParlourError` if there is none."""
    with Session(engine) as session:
        row = session.get(SavedGame, save_id)
        if row is None:
            raise ParlourError(f"no saved game {save_id}")
        return _info(row)


def delete_save(engine: Engine, save_id: int) -> None:
    """Delete save *save_id* (no error if it is already gone)."""
    with Session(engine) as session, session.begin():
        row = session.get(SavedGame, save_id)
        if row is not None:
            session.delete(row)
