"""The server tables' schema: a game's row, its seats, its event log and the server leases,
as SQLAlchemy models, and the frozen rows read back from them (see
:mod:`parlour.storage.tables`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from parlour.storage.models import Base

LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
CANCELLED = "cancelled"
STATUSES = (LOBBY, ACTIVE, FINISHED, CANCELLED)
ONE_SEAT_WHERE = "account_id IS NOT NULL AND NOT removed"
"""The seats the one-seat-per-account index covers: a person's, not taken out by the clock."""


class GameTable(Base):
    """One game on the server (see :mod:`parlour.storage.tables`). ``rng_seed`` never leaves it."""

    __tablename__ = "game_tables"
    # the lobby: open waiting tables newest first, read from the index; also every query by
    # status (migration 0011_ops)
    __table_args__ = (Index("ix_game_tables_lobby", "status", "visibility", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    visibility: Mapped[str] = mapped_column(String(8))
    invite_code: Mapped[str] = mapped_column(String(64))
    creator_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    clock_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_skips: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    """The table's IANA time zone: where midnight is for crossword daily mode."""
    rng_seed: Mapped[str] = mapped_column(String(64))
    to_move: Mapped[list[int]] = mapped_column(JSON)
    bot_turn: Mapped[bool] = mapped_column(Boolean, index=True)
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    result: Mapped[Any] = mapped_column(JSON, nullable=True)
    lobby: Mapped[dict[str, Any]] = mapped_column(JSON)
    scored: Mapped[bool] = mapped_column(Boolean, default=False)
    """The finished game is in the scorebook (standings, statistics)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TableSeat(Base):
    """A seat: empty (open), a person (``account_id``) or a computer player (``bot_level``).

    ``skips`` counts turns lost to the clock; ``removed`` marks a person the clock took out,
    whose seat a computer player now plays. An account holds at most one seat at a table
    that is not ``removed`` (a unique index; migration ``0006_one_seat_per_account``).
    """

    __tablename__ = "table_seats"
    __table_args__ = (
        # "My tables": an account's seats, newest table first (migration 0011_ops)
        Index("ix_table_seats_account_table", "account_id", "table_id"),
        Index(
            "ix_table_seats_one_per_account",
            "table_id",
            "account_id",
            unique=True,
            sqlite_where=text(ONE_SEAT_WHERE),
            postgresql_where=text(ONE_SEAT_WHERE),
        ),
    )

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(40), nullable=True)
    skips: Mapped[int] = mapped_column(Integer, default=0)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)


class TableEvent(Base):
    """One event of a table's log: number ``seq``, who (``by``: seat, -1 chance, -4 host),
    the move in notation, and when it was stored."""

    __tablename__ = "table_events"

    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    by: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(2000))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerLease(Base):
    """A named lease one server process holds for a while (the clock sweeper on SQLite)."""

    __tablename__ = "server_leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


TABLES = cast(Table, GameTable.__table__)
"""The ``game_tables`` table (its columns' types bind the hand-written statements)."""


@dataclass(frozen=True)
class TableRow:
    """A table as read (the columns of :class:`GameTable`)."""

    id: int
    game: str
    options: dict[str, Any]
    status: str
    visibility: str
    invite_code: str
    creator_id: int
    clock_days: int | None
    max_skips: int
    version: int
    time_zone: str
    rng_seed: str
    to_move: list[int]
    bot_turn: bool
    deadline: datetime | None
    result: Any
    lobby: dict[str, Any]
    scored: bool
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True)
class SeatRow:
    """A seat as read (the columns of :class:`TableSeat`, less the table id)."""

    seat: int
    account_id: int | None
    bot_level: str | None
    skips: int
    removed: bool

    @property
    def is_open(self) -> bool:
        """True for a seat waiting for a person to join."""
        return self.account_id is None and self.bot_level is None


@dataclass(frozen=True)
class EventRow:
    """An event as read: ``seq``, ``by`` and ``move`` (notation)."""

    seq: int
    by: int
    move: str
