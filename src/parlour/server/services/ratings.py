"""Ratings: a rating per game for every account and every computer level, with openskill's
Plackett-Luce model (2 to 6 players and more, ties allowed), updated once per finished rated
table, and read for the leaderboard and the player page.

Who is rated: every seat of a finished table created rated (``lobby["rated"]``, the
default). A person is rated under their account (``account:<id>``) even if the clock took
them out or they resigned (a computer finished the seat for them); a computer seat under its
level (``cpu:<level>``, a pseudo-account per game). A key seated twice (two computers of one
level) is rated once, from its best place. A table is rated only if at least two keys are.

Places: resigned seats last (tied with each other); then the result's winners (tied: a
shared win is a tie); then the others by their final score, more points placing higher,
equal scores tied.

Exactly once: :func:`rate_table` writes the new ratings and the table's ``rated_games`` row
in one transaction, after reading whether that row exists, with rating writes of the game
taking turns (:func:`~parlour.storage.ratings.lock_game_ratings`); it is called after the
commit that finished the game and again by the sweeper for any finished table not yet
scored, so a crash in between rates the table later, never twice.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection

from parlour.server.services.cache import Entry
from parlour.server.services.context import ServerContext
from parlour.storage.ratings import (
    RatingRow,
    claim_rated_game,
    get_ratings,
    is_rated,
    lock_game_ratings,
    save_ratings,
)
from parlour.storage.tables import FINISHED, SeatRow

log = logging.getLogger("parlour.server")

MODEL = PlackettLuce()
"""openskill's Plackett-Luce model with its defaults (mu 25, sigma 25/3)."""
PROVISIONAL_GAMES = 5
"""A rating is provisional until its player has finished this many rated games."""


def player_key(seat: SeatRow) -> str | None:
    """The rated key of *seat*: ``account:<id>`` for a person, ``cpu:<level>`` for a computer
    seat, ``None`` for an open one."""
    if seat.account_id is not None:
        return f"account:{seat.account_id}"
    if seat.bot_level is not None:
        return f"cpu:{seat.bot_level}"
    return None


def conservative(mu: float, sigma: float) -> float:
    """The displayed rating: ``mu - 3 * sigma`` (openskill's ordinal), one decimal."""
    return round(mu - 3 * sigma, 1)


def places(result: dict[str, Any], resigned: Sequence[int]) -> list[int]:
    """Each seat's place (1 is best; equal places are ties) from a table's *result*
    (``scores``, ``winners``) and its *resigned* seats (see the module docstring)."""
    scores = list(result["scores"])
    winners = set(result["winners"])
    out = set(resigned)

    def key(seat: int) -> tuple[bool, bool, int]:
        return (seat in out, seat not in winners, 0 if seat in winners else -int(scores[seat]))

    order = sorted(range(len(scores)), key=key)
    place = [0] * len(scores)
    for index, seat in enumerate(order):
        same = index and key(order[index - 1]) == key(seat)
        place[seat] = place[order[index - 1]] if same else index + 1
    return place


@dataclass(frozen=True)
class Rated:
    """One rated seat of a table: its key, account, place, and whether it won."""

    seat: int
    key: str
    account_id: int | None
    place: int
    won: bool


def rated_seats(entry: Entry) -> list[Rated]:
    """The seats a finished *entry* rates (empty when it rates nothing: casual, not
    finished, no result, or fewer than two keys)."""
    table = entry.table
    if table.status != FINISHED or not table.lobby.get("rated", True):
        return []
    result = table.result
    if not isinstance(result, dict) or "scores" not in result or "winners" not in result:
        return []
    resigned = list(table.lobby.get("resigned", []))
    place = places(result, resigned)
    best: dict[str, Rated] = {}
    for seat in entry.seats:
        key = player_key(seat)
        if key is None:
            continue
        won = seat.seat in result["winners"] and seat.seat not in resigned
        found = best.get(key)
        if found is None or place[seat.seat] < found.place:
            best[key] = Rated(seat.seat, key, seat.account_id, place[seat.seat], won)
    return list(best.values()) if len(best) >= 2 else []


def rate_table(ctx: ServerContext, entry: Entry) -> bool:
    """Update the ratings for the finished table *entry* once (see the module docstring);
    True if it changed ratings now, False if it rates nothing or was rated before."""
    seats = rated_seats(entry)
    if not seats:
        return False
    table = entry.table
    now = ctx.now()

    def work(connection: Connection) -> bool:
        lock_game_ratings(connection, table.game)
        if is_rated(connection, table.id):
            return False
        found = get_ratings(connection, table.game, [s.key for s in seats])
        before = [
            MODEL.rating(found[s.key].mu, found[s.key].sigma) if s.key in found else MODEL.rating()
            for s in seats
        ]
        after = MODEL.rate([[r] for r in before], ranks=[s.place for s in seats])
        rows: list[RatingRow] = []
        changes: list[dict[str, Any]] = []
        for seat, old, (new,) in zip(seats, before, after, strict=True):
            had = found.get(seat.key)
            rows.append(
                RatingRow(
                    table.game,
                    seat.key,
                    seat.account_id,
                    float(new.mu),
                    float(new.sigma),
                    (had.games if had else 0) + 1,
                    (had.wins if had else 0) + int(seat.won),
                    now,
                )
            )
            changes.append(
                {
                    "seat": seat.seat,
                    "player": seat.key,
                    "place": seat.place,
                    "before": conservative(old.mu, old.sigma),
                    "after": conservative(new.mu, new.sigma),
                }
            )
        if not claim_rated_game(connection, table.id, table.game, now, changes):
            return False
        save_ratings(connection, rows, set(found))
        return True

    return ctx.write(work)
