"""What a client is shown of a table: built for one account's seat (or a spectator).

The game part is only ever ``state.observation(seat)`` for the viewer's own seat
(``None`` for spectators and people without a seat), the legal actions of that seat, and the
logged events the game's visibility hook lets that seat see. Nothing else of the state, and
never the table's seed, goes into a view.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from parlour.engine.registry import find
from parlour.engine.state import JSON
from parlour.server.errors import Conflict, NotFound
from parlour.server.hooks import LobbyView, hooks_for
from parlour.server.services.cache import Entry, current_entry, seat_names
from parlour.server.services.context import ServerContext
from parlour.server.services.endings_view import ending_fields
from parlour.server.services.lobby import may_see
from parlour.server.services.payloads import legal, viewer_seat, visible_events
from parlour.storage.tables import (
    LOBBY,
    SeatRow,
    TableRow,
    get_seats,
    get_table,
    get_tables,
    open_tables,
    seats_of_tables,
    tables_of_account,
)

log = logging.getLogger("parlour.server")
DAMAGED = (ValueError, TypeError, KeyError, AttributeError)
"""What reading or showing a damaged stored table raises (JSON that is not JSON, a time that
is not a time, an unknown game, a lobby that is not an object): the table is left out of a
list, and logged, so one bad row never stops the others from being listed."""


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def seats_json(seats: Sequence[SeatRow], names: Sequence[str], you: int | None) -> list[JSON]:
    """The seats as the client sees them: kind, name, level, clock skips, and which is yours."""
    out = []
    for seat, name in zip(seats, names, strict=True):
        if seat.is_open:
            kind = "open"
        elif seat.account_id is None or seat.removed:
            kind = "cpu"
        else:
            kind = "person"
        out.append(
            {
                "seat": seat.seat,
                "kind": kind,
                "name": None if seat.is_open else name,
                "level": seat.bot_level,
                "skips": seat.skips,
                "removed": seat.removed,
                "you": seat.seat == you,
            }
        )
    return out


def _base(
    table: TableRow,
    seats: Sequence[SeatRow],
    names: Sequence[str],
    you: int | None,
    creator: str,
    member: bool,
) -> dict[str, Any]:
    spec = find(table.game)
    return {
        "id": table.id,
        "game": table.game,
        "title": spec.title,
        "status": table.status,
        "visibility": table.visibility,
        "options": dict(table.options),
        "clock_days": table.clock_days,
        "time_zone": table.time_zone,
        "max_skips": table.max_skips,
        "creator": creator,
        "created_at": _iso(table.created_at),
        "seats": seats_json(seats, names, you),
        "you": you,
        "invite_code": table.invite_code if member else None,
        "version": table.version,
        "to_move": list(table.to_move),
        "your_turn": you is not None and you in table.to_move and not seats[you].removed,
        "deadline": _iso(table.deadline),
        "result": table.result,
        "votes": list(table.lobby.get("votes", [])),
        "min_players": table.lobby.get("min_players"),
        **ending_fields(table, names),
    }


def table_view(
    ctx: ServerContext, table_id: int, account_id: int | None, *, invite: str | None = None
) -> JSON:
    """The whole table for *account_id* (``None``: anonymous spectator). Raises
    :class:`NotFound` for a table this viewer may not see.

    A table in play is served from memory (its entry, checked against the stored version);
    only a table in the lobby, or one not in memory, is read from the database."""
    if ctx.cache.peek(table_id) is not None:
        with ctx.cache.lock(table_id):
            try:
                entry = current_entry(ctx, table_id)
            except (NotFound, Conflict):
                entry = None
            if entry is not None:
                return _started_view(ctx, entry, account_id, invite)
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
        if table is None:
            raise NotFound(f"no table {table_id}")
        seats = get_seats(connection, table_id)
        ids = [s.account_id for s in seats if s.account_id is not None]
        names_by_id = ctx.account_names(connection, [*ids, table.creator_id])
    if not may_see(table, seats, account_id, invite):
        raise NotFound(f"no table {table_id}")
    you = next(
        (s.seat for s in seats if account_id is not None and s.account_id == account_id), None
    )
    member = you is not None
    creator = names_by_id.get(table.creator_id, "?")
    if table.status in (LOBBY, "cancelled"):
        spec = find(table.game)
        lobby = LobbyView(table, seats, spec)
        rule = hooks_for(spec.name).start
        refusal = rule.refuse_start(lobby, account_id) if account_id is not None else "log in first"
        out = _base(table, seats, seat_names(seats, names_by_id), you, creator, member)
        out.update(
            view=None,
            legal=[],
            events=[],
            can_start=table.status == LOBBY and member and refusal is None,
            start_refusal=refusal if table.status == LOBBY else "the table was cancelled",
        )
        return out
    with ctx.cache.lock(table_id):
        return _started_view(ctx, current_entry(ctx, table_id), account_id, invite)


def _started_view(
    ctx: ServerContext, entry: Entry, account_id: int | None, invite: str | None
) -> JSON:
    """A started table for *account_id* from its entry (call under the table's lock)."""
    table = entry.table
    if not may_see(table, entry.seats, account_id, invite):
        raise NotFound(f"no table {table.id}")
    you = viewer_seat(entry, account_id)
    creator_seat = entry.seat_of(table.creator_id)
    if creator_seat is not None and not entry.seats[creator_seat].removed:
        creator = entry.names[creator_seat]
    else:
        with ctx.engine.connect() as connection:
            creator = ctx.account_names(connection, [table.creator_id]).get(table.creator_id, "?")
    out = _base(table, entry.seats, entry.names, you, creator, you is not None)
    out.update(
        view=entry.view(you),
        legal=legal(entry, you),
        events=visible_events(entry, you, entry.events),
        can_start=False,
        start_refusal=None,
    )
    return out


def events_since(
    ctx: ServerContext, table_id: int, account_id: int | None, since: int, invite: str | None
) -> JSON:
    """The events numbered *since* and later that this viewer may see, and the version."""
    view = table_view(ctx, table_id, account_id, invite=invite)
    if view["status"] == LOBBY or view["status"] == "cancelled":
        return {"version": view["version"], "status": view["status"], "events": []}
    return {
        "version": view["version"],
        "status": view["status"],
        "events": [e for e in view["events"] if e["seq"] >= since],
    }


def list_tables(
    ctx: ServerContext,
    account_id: int | None,
    *,
    which: str,
    game: str | None,
    limit: int = 100,
    before: int | None = None,
) -> list[JSON]:
    """Summaries of open tables (``which="open"``) or this account's tables (``"mine"``;
    cancelled tables are left out): a page of the *limit* newest tables with ids below
    *before* (when given), sorted for showing: the ones where it is your turn first, then
    active, waiting and finished ones. The next page: *before* = the page's smallest id."""
    with ctx.engine.connect() as connection:
        if which == "mine":
            if account_id is None:
                return []
            kept = ("lobby", "active", "finished")
            ids = tables_of_account(
                connection, account_id, statuses=kept, limit=limit, before=before
            )
        else:
            ids = open_tables(connection, limit=limit, game=game, before=before)
        tables = _readable_tables(connection, ids)
        seats = seats_of_tables(connection, ids)
        everyone = {s.account_id for rows in seats.values() for s in rows if s.account_id}
        names = ctx.account_names(connection, [*everyone, *(t.creator_id for t in tables)])
    out = []
    for table in tables:
        if game is not None and table.game != game:
            continue
        rows = seats[table.id]
        you = next(
            (s.seat for s in rows if account_id is not None and s.account_id == account_id), None
        )
        try:
            summary = _base(
                table,
                rows,
                seat_names(rows, names),
                you,
                names.get(table.creator_id, "?"),
                you is not None,
            )
        except DAMAGED as err:
            log.warning("table %s cannot be shown (%r): left out of the list", table.id, err)
            continue
        out.append(summary)
    rank = {"active": 0, "lobby": 1}  # then finished
    out.sort(key=lambda t: (not t["your_turn"], rank.get(t["status"], 2), -t["id"]))
    return out


def _readable_tables(connection: Connection, ids: list[int]) -> list[TableRow]:
    """The tables *ids*, newest first, less any whose stored values cannot be read (each
    logged): read together, and one by one only when that fails."""
    try:
        return get_tables(connection, ids)
    except DAMAGED:
        pass
    out = []
    for table_id in ids:
        try:
            table = get_table(connection, table_id)
        except DAMAGED as err:
            log.warning("table %s cannot be read (%r): left out of the list", table_id, err)
            continue
        if table is not None:
            out.append(table)
    out.sort(key=lambda t: -t.id)
    return out
