"""The tables, as SQLAlchemy 2 declarative models. Alembic migrations create them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Dialect, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    """Now, in UTC (the storage layer's clock; the rules have none)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base of every parlour table."""


class ReadableJSON(TypeDecorator[Any]):
    """JSON that reads a damaged value (text that is not JSON, as a file edited or cut short
    may hold) as ``None`` instead of raising, so one bad row cannot stop the others from being
    listed, resumed or deleted. Written like ``JSON``; the column in the schema is ``JSON``."""

    impl = JSON
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], Any] | None:
        process = JSON().dialect_impl(dialect).result_processor(dialect, coltype)
        if process is None:
            return None
        parse = process

        def tolerant(value: Any) -> Any:
            try:
                return parse(value)
            except ValueError:  # json.JSONDecodeError
                return None

        return tolerant


class ReadableDateTime(TypeDecorator[datetime]):
    """A timestamp (``DateTime(timezone=True)``) that reads a damaged value (text that is not
    a time, as a file edited by hand may hold) as ``None`` instead of raising, like
    :class:`ReadableJSON`. Written like ``DateTime``."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], Any] | None:
        process = DateTime(timezone=True).dialect_impl(dialect).result_processor(dialect, coltype)

        def tolerant(value: Any) -> Any:
            try:
                value = process(value) if process is not None else value
            except (ValueError, TypeError):  # SQLite: not an ISO time
                return None
            return value if isinstance(value, datetime) else None

        return tolerant


class SavedGame(Base):
    """A local game: its players, its state as JSON (snapshot + history), and its status.

    ``status`` is ``"active"`` (can be resumed) or ``"finished"``.
    """

    __tablename__ = "saved_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[list[str]] = mapped_column(ReadableJSON)
    state: Mapped[dict[str, Any]] = mapped_column(ReadableJSON)
    status: Mapped[str] = mapped_column(String(16), default="active", index=True)
    created_at: Mapped[datetime | None] = mapped_column(
        ReadableDateTime, nullable=False, default=utcnow
    )
    updated_at: Mapped[datetime | None] = mapped_column(
        ReadableDateTime, nullable=False, default=utcnow
    )
    """When it was last saved; ``None`` read back from a damaged value."""


class GreedyStanding(Base):
    """Greedy tournament standings of one person (``key`` is the trimmed lower-case name)."""

    __tablename__ = "greedy_standings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    best_margin: Mapped[int | None] = mapped_column(Integer, nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RummyStat(Base):
    """Rummy statistics of one person (``key`` is the trimmed lower-case name).

    ``rounds`` and ``round_points`` give the average round score; streaks count games won in
    a row (the current one and the longest).
    """

    __tablename__ = "rummy_stats"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    best_game_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    best_round_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    round_points: Mapped[int] = mapped_column(Integer, default=0)
    current_streak: Mapped[int] = mapped_column(Integer, default=0)
    longest_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RummyRecordedGame(Base):
    """A finished Rummy game already counted in the statistics (by its digest)."""

    __tablename__ = "rummy_stats_games"

    game_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
