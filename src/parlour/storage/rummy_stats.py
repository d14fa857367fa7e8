"""Rummy statistics per person: games played, won, lost, win rate, best game score, best and
average round score, current and longest winning streak (``docs/rules/rummy.md#statistics``).

Stores plain values handed in by the scorebook; never imports the game. Each finished game
is recorded once: its ``game_key`` (a digest of players and history) is kept, and a second
call with the same key changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session

from parlour.storage.db import writing
from parlour.storage.models import RummyRecordedGame, RummyStat, utcnow
from parlour.storage.standings import name_key


@dataclass(frozen=True)
class PersonGame:
    """One person's finished game: ``name``, ``won``, final ``game_score`` and the
    ``round_scores`` (points)."""

    name: str
    won: bool
    game_score: int
    round_scores: tuple[int, ...]


@dataclass(frozen=True)
class PersonStats:
    """One person's Rummy statistics (scores in points; rates 0..1; ``None`` when there is
    no game or round yet)."""

    name: str
    played: int
    won: int
    lost: int
    best_game_score: int | None
    best_round_score: int | None
    rounds: int
    round_points: int
    current_streak: int
    longest_streak: int

    @property
    def win_rate(self) -> float | None:
        """Games won per game played."""
        return self.won / self.played if self.played else None

    @property
    def average_round_score(self) -> float | None:
        """Mean round score over every round played (points)."""
        return self.round_points / self.rounds if self.rounds else None

    def to_json(self) -> dict[str, object]:
        """Every figure, including the derived ``win_rate`` and ``average_round_score``."""
        return {
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "win_rate": self.win_rate,
            "best_game_score": self.best_game_score,
            "best_round_score": self.best_round_score,
            "average_round_score": self.average_round_score,
            "rounds": self.rounds,
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
        }


def record_rummy_game(
    engine: Engine | Connection, game_key: str, people: Sequence[PersonGame]
) -> bool:
    """Add one finished game to each person's statistics, in one transaction.

    Returns ``False`` (and changes nothing) if *game_key* was recorded before. Raises
    :class:`~parlour.engine.errors.ParlourError` for an empty or over-long name.
    """
    keys = [name_key(p.name) for p in people]
    with writing(engine) as connection, Session(bind=connection) as session:
        if session.get(RummyRecordedGame, game_key) is not None:
            return False
        session.add(RummyRecordedGame(game_key=game_key, recorded_at=utcnow()))
        for key, person in zip(keys, people, strict=True):
            row = session.get(RummyStat, key)
            if row is None:
                row = RummyStat(
                    key=key,
                    name=person.name.strip(),
                    played=0,
                    won=0,
                    lost=0,
                    rounds=0,
                    round_points=0,
                    current_streak=0,
                    longest_streak=0,
                )
                session.add(row)
            row.played += 1
            row.won += int(person.won)
            row.lost += int(not person.won)
            if row.best_game_score is None or person.game_score > row.best_game_score:
                row.best_game_score = person.game_score
            if person.round_scores:
                best_round = max(person.round_scores)
                if row.best_round_score is None or best_round > row.best_round_score:
                    row.best_round_score = best_round
            row.rounds += len(person.round_scores)
            row.round_points += sum(person.round_scores)
            row.current_streak = row.current_streak + 1 if person.won else 0
            row.longest_streak = max(row.longest_streak, row.current_streak)
            row.updated_at = utcnow()
        session.flush()
    return True


def _stats(row: RummyStat) -> PersonStats:
    return PersonStats(
        row.name,
        row.played,
        row.won,
        row.lost,
        row.best_game_score,
        row.best_round_score,
        row.rounds,
        row.round_points,
        row.current_streak,
        row.longest_streak,
    )


def rummy_stats(engine: Engine, name: str | None = None) -> list[PersonStats]:
    """Everyone's statistics (most games won first, then name), or only *name*'s."""
    query = select(RummyStat).order_by(RummyStat.won.desc(), RummyStat.key)
    if name is not None:
        query = query.where(RummyStat.key == name_key(name))
    with Session(engine) as session:
        return [_stats(row) for row in session.scalars(query)]
