"""Ratings: one per game for every account and every computer level, and the rated games.

A player is named by a key: ``account:<id>`` for a person, ``cpu:<level>`` for a computer
level (a pseudo-account per game). ``player_ratings`` holds each key's skill estimate in a
game (``mu``, ``sigma``: the rating library's numbers) and how many rated games it played and
won; ``rated_games`` has one row per rated table, written in the same transaction as the
ratings it changed, so a table is rated at most once (:func:`claim_rated_game`). Storage
knows no rating formula: the numbers come from :mod:`parlour.server.services.ratings`.
Migration ``0010_ratings_endings``.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from parlour.storage.models import Base


class PlayerRating(Base):
    """One player's rating in one game (see the module docstring)."""

    __tablename__ = "player_ratings"

    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedGame(Base):
    """A table whose result changed ratings; ``changes`` lists, per rated seat, the player
    key, the place and the rating before and after."""

    __tablename__ = "rated_games"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)


@dataclass(frozen=True)
class RatingRow:
    """A rating as read (the columns of :class:`PlayerRating`)."""

    game: str
    player: str
    account_id: int | None
    mu: float
    sigma: float
    games: int
    wins: int
    updated_at: datetime


_COLUMNS = (
    PlayerRating.game,
    PlayerRating.player,
    PlayerRating.account_id,
    PlayerRating.mu,
    PlayerRating.sigma,
    PlayerRating.games,
    PlayerRating.wins,
    PlayerRating.updated_at,
)


def _row(row: Any) -> RatingRow:
    moment = row.updated_at
    if moment is not None and moment.tzinfo is None:  # SQLite reads naive UTC
        moment = moment.replace(tzinfo=UTC)
    return RatingRow(
        row.game, row.player, row.account_id, row.mu, row.sigma, row.games, row.wins, moment
    )


def lock_game_ratings(connection: Connection, game: str) -> None:
    """Make rating writes for *game* take turns until the transaction ends (PostgreSQL: a
    transaction advisory lock per game; SQLite's write transactions are exclusive already),
    so two games ending at once never both start from the same rating."""
    if connection.dialect.name == "postgresql":
        key = zlib.crc32(f"parlour-ratings:{game}".encode())
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def claim_rated_game(
    connection: Connection,
    table_id: int,
    game: str,
    at: datetime,
    changes: list[dict[str, Any]],
) -> bool:
    """Record *table_id* as rated; ``False`` (writing nothing) if it was rated before. Call
    after :func:`lock_game_ratings`, in the transaction that saves the new ratings."""
    found = connection.execute(
        select(RatedGame.table_id).where(RatedGame.table_id == table_id)
    ).first()
    if found is not None:
        return False
    connection.execute(
        insert(RatedGame).values(table_id=table_id, game=game, rated_at=at, changes=changes)
    )
    return True


def is_rated(connection: Connection, table_id: int) -> bool:
    """True once *table_id* changed ratings."""
    return (
        connection.execute(select(RatedGame.table_id).where(RatedGame.table_id == table_id)).first()
        is not None
    )


def get_ratings(connection: Connection, game: str, players: Iterable[str]) -> dict[str, RatingRow]:
    """The stored ratings of *players* (keys) in *game*; players never rated are left out."""
    keys = list(players)
    if not keys:
        return {}
    rows = connection.execute(
        select(*_COLUMNS).where(PlayerRating.game == game, PlayerRating.player.in_(keys))
    )
    return {row.player: _row(row) for row in rows}


def save_ratings(connection: Connection, rows: Sequence[RatingRow], existing: set[str]) -> None:
    """Store *rows*: players in *existing* (keys read in this transaction) are updated, the
    others inserted."""
    for row in rows:
        values = {
            "account_id": row.account_id,
            "mu": row.mu,
            "sigma": row.sigma,
            "games": row.games,
            "wins": row.wins,
            "updated_at": row.updated_at,
        }
        if row.player in existing:
            connection.execute(
                update(PlayerRating)
                .where(PlayerRating.game == row.game, PlayerRating.player == row.player)
                .values(values)
            )
        else:
            connection.execute(
                insert(PlayerRating).values(game=row.game, player=row.player, **values)
            )


def leaderboard(connection: Connection, game: str, *, limit: int = 100) -> list[RatingRow]:
    """The ratings in *game*, best first (``mu - 3 * sigma``, the conservative estimate;
    then more games, then the key)."""
    rows = connection.execute(
        select(*_COLUMNS)
        .where(PlayerRating.game == game)
        .order_by(
            (PlayerRating.mu - 3 * PlayerRating.sigma).desc(),
            PlayerRating.games.desc(),
            PlayerRating.player,
        )
        .limit(limit)
    )
    return [_row(row) for row in rows]


def ratings_of(connection: Connection, player: str) -> list[RatingRow]:
    """Every game's rating of *player* (a key), by game."""
    rows = connection.execute(
        select(*_COLUMNS).where(PlayerRating.player == player).order_by(PlayerRating.game)
    )
    return [_row(row) for row in rows]


def rated_changes(
    connection: Connection, table_ids: Iterable[int]
) -> dict[int, list[dict[str, Any]]]:
    """The rating changes of the rated tables among *table_ids*, by table id."""
    ids = list(table_ids)
    if not ids:
        return {}
    rows = connection.execute(
        select(RatedGame.table_id, RatedGame.changes).where(RatedGame.table_id.in_(ids))
    )
    return {row.table_id: list(row.changes or []) for row in rows}


def count_rated(connection: Connection, table_id: int) -> int:
    """How many ``rated_games`` rows name *table_id* (0 or 1: for tests of exactly once)."""
    from sqlalchemy import func

    return int(
        connection.execute(
            select(func.count()).select_from(RatedGame).where(RatedGame.table_id == table_id)
        ).scalar_one()
    )
