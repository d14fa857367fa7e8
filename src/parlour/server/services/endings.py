"""Ending a game other than by its rules, and starting the next one: resign, abort, rematch.

**Resign** (every game, any time while it is in play, in turn or not): the seat loses. It is
an event of the table's log, by the server (``by`` = :data:`~.cache.SERVER_EVENT`, move
``resign <seat>``), stored like any action: against the version the player saw, guarded by
the version like a move (:func:`~.play.store`), so of a resignation and a move made against
the same version exactly one is applied and the other is refused (stale, or the game is
over). What happens then is the same for every game (the Board Game Arena way):

- when the resigning seat leaves at most one other seat in the game, or no other person
  still playing, or the game has no computer player: the game ends now. The seats that did
  not resign are ranked by their score so far (the ``scores`` of the game's public
  observation), the best of them win; the result carries ``resigned``;
- otherwise a computer player at the game's strongest level plays the seat to the end, as
  when the clock takes a person out (``removed``), and the game goes on for the others; the
  resigned seat ranks last whatever its score (:mod:`.ratings`).

**Abort** (before any seat's first move: only chance outcomes, such as the deal, are in the
log): the table is cancelled (``cancelled``, ``ended.how = "aborted"``) and counts for
nobody: no scorebook, no statistics, no rating. Also a server event, so it races moves the
same way.

**Rematch** (a finished game): each person of the table offers or accepts
(``lobby["rematch"]["seats"]``); when every person has, a new table is made and started in
the same transaction: the same seats (people and computer levels), options, clock, rating
mode and visibility, the seat order rotated by one (the second seat first). The finished
table's row is locked first (every lobby write begins so), so racing acceptances make one
new table, and the later one is refused with the table's number.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection

from parlour.engine.registry import find
from parlour.server.errors import Conflict, NotFound, Refused, StaleVersion
from parlour.server.services import play
from parlour.server.services.cache import SERVER_EVENT, Entry, current_entry, no_seat
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import _begin, _published
from parlour.server.services.payloads import current_payload
from parlour.server.services.play import Change, finish, store, table_columns
from parlour.storage.tables import (
    ACTIVE,
    CANCELLED,
    FINISHED,
    LOBBY,
    SeatRow,
    count_unfinished,
    get_seats,
    get_table,
    insert_seats,
    insert_table,
    update_table,
)


@dataclass(frozen=True)
class Ended:
    """What a resignation or an abort did: the table, the seat, the version after it, the
    table's status then, and the game's result if it ended."""

    table: int
    seat: int
    version: int
    status: str
    result: Any


def _seat_or_refuse(entry: Entry, account_id: int) -> int:
    seat = entry.seat_of(account_id)
    if seat is None:
        raise no_seat(entry.table)
    if entry.table.status != ACTIVE:
        raise Conflict("the game is over")
    return seat


def _scores_now(entry: Entry) -> list[int]:
    """The scores so far: the game's public observation's ``scores`` (every game here has
    them), zeros for a game whose observation has none."""
    n = entry.state.game.num_players
    seen = entry.view(None)
    scores = seen.get("scores") if isinstance(seen, dict) else None
    if isinstance(scores, list) and len(scores) == n and all(isinstance(s, int) for s in scores):
        return list(scores)
    return [0] * n


def _resign_change(ctx: ServerContext, entry: Entry, seat: int) -> Change:
    table = entry.table
    now = ctx.now()
    resigned = sorted({*table.lobby.get("resigned", []), seat})
    lobby = {**table.lobby, "resigned": resigned, "ended": {"how": "resigned", "seat": seat}}
    added = [(SERVER_EVENT, f"resign {seat}")]
    levels = entry.state.game.spec.bot_levels
    others = [s.seat for s in entry.seats if s.seat not in resigned]
    people = [
        s.seat
        for s in entry.seats
        if s.seat != seat and s.account_id is not None and not s.removed and s.seat in others
    ]
    changes: dict[int, dict[str, Any]] = {}
    if len(others) <= 1 or not people or not levels:
        scores = _scores_now(entry)
        best = max(scores[s] for s in others) if others else 0
        winners = [s for s in others if scores[s] == best]
        values: dict[str, Any] = {
            "to_move": [],
            "bot_turn": False,
            "deadline": None,
            "status": FINISHED,
            "result": {"scores": scores, "winners": winners, "resigned": resigned},
            "finished_at": now,
        }
        seats = list(entry.seats)
    else:
        changes[seat] = {"removed": True, "bot_level": levels[-1]}
        seats = [replace(s, **changes[s.seat]) if s.seat in changes else s for s in entry.seats]
        values = table_columns(table, entry.state, seats, now, added)
    values["lobby"] = lobby
    new_table = replace(table, version=table.version + 1, updated_at=now, **values)
    return Change(entry, added, seats, changes, values, new_table, now)


def _abort_change(ctx: ServerContext, entry: Entry, seat: int) -> Change:
    table = entry.table
    now = ctx.now()
    lobby = {**table.lobby, "ended": {"how": "aborted", "seat": seat}}
    values: dict[str, Any] = {
        "to_move": [],
        "bot_turn": False,
        "deadline": None,
        "status": CANCELLED,
        "finished_at": now,
        "lobby": lobby,
    }
    new_table = replace(table, version=table.version + 1, updated_at=now, **values)
    return Change(
        entry, [(SERVER_EVENT, f"abort {seat}")], list(entry.seats), {}, values, new_table, now
    )


def _store_alone(change: Change) -> Any:
    """:func:`~.play.store` as a write of its own (never batched with other tables' plain
    appends: an ending also sets the table's ``lobby``)."""
    write = store(change)

    def alone(connection: Connection) -> bool:
        return bool(write(connection))

    return alone


def _end(
    ctx: ServerContext, table_id: int, account_id: int, version: int | None, how: str
) -> Ended:
    """A resignation (*how* ``"resign"``) or an abort, under the table's lock (see the
    module docstring); raises the refusals of :func:`resign` and :func:`abort`."""
    for attempt in range(2):
        with ctx.cache.lock(table_id):
            try:
                entry = current_entry(ctx, table_id)
            except Conflict as err:
                if "not started" in err.detail:
                    raise Conflict("the game has not started: leave the table instead") from None
                raise
            seat = _seat_or_refuse(entry, account_id)
            if entry.seats[seat].removed:
                raise Conflict(
                    "you are out of this game already (you resigned, or the clock took you out)"
                )
            if how == "resign":
                if version is not None and version != entry.version:
                    raise StaleVersion(
                        f"the table is at version {entry.version}, not {version}",
                        current=current_payload(entry, seat),
                    )
                change = _resign_change(ctx, entry, seat)
            else:
                if any(e.by >= 0 for e in entry.events):
                    raise Conflict(
                        "a move was made already: abort is only possible before the first "
                        "move (resign instead)"
                    )
                change = _abort_change(ctx, entry, seat)
            try:
                stored = ctx.write(_store_alone(change))
            except BaseException:
                ctx.cache.drop(table_id)
                raise
            if not stored:  # another process wrote first: ask the database again
                ctx.cache.drop(table_id)
                if attempt == 0 and version is None:
                    continue
                raise StaleVersion("another move was stored first: reload the table")
            if how == "resign":
                finish(ctx, change)
            else:
                ctx.cache.drop(table_id)  # a cancelled table is not held in memory
            ctx.changed(table_id)
            return Ended(
                table_id,
                seat,
                change.table.version,
                change.table.status,
                change.table.result,
            )
    raise StaleVersion("another move was stored first: reload the table")


def resign(ctx: ServerContext, *, table_id: int, account_id: int, version: int) -> Ended:
    """Resign *account_id*'s seat at *table_id*, made against *version* (see the module
    docstring). Raises :class:`StaleVersion` (``current``: the table now) for another
    version, :class:`Conflict` before the start, after the end or for a seat already out,
    and the no-seat refusal (403, or 404 at an invite-only table) for someone not seated.
    Nothing changes on a refusal.

    A game that declares its own way to give up (``Platform.resign_move``: Greedy's
    ``quit``) is resigned by playing that move for the seat, with the refusals of an action
    (:func:`~.play.submit_action`), so the game ends by its rules and its standings count it.
    """
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
    move = None if table is None else find(table.game).platform.resign_move
    if move is None:
        return _end(ctx, table_id, account_id, version, "resign")
    outcome = play.submit_action(
        ctx, table_id=table_id, account_id=account_id, text=move, expected_version=version
    )
    done = outcome.entry
    seat = done.seat_of(account_id)
    assert seat is not None
    return Ended(table_id, seat, done.version, done.table.status, done.table.result)


def abort(ctx: ServerContext, *, table_id: int, account_id: int) -> Ended:
    """Abort *table_id* before the first move: it is cancelled and counts for nobody.
    Raises :class:`Conflict` once a seat has moved (resign instead), before the start (leave
    instead) and after the end, and the no-seat refusal for someone not seated."""
    return _end(ctx, table_id, account_id, None, "abort")


@dataclass(frozen=True)
class Rematch:
    """A rematch offer or acceptance: the seats (of the finished table) that accepted so
    far, the seats still to accept, and the new table once every person accepted."""

    table: int
    seats: list[int]
    waiting: list[int]
    new_table: int | None


def rematch(ctx: ServerContext, *, table_id: int, account_id: int) -> Rematch:
    """Offer a rematch of the finished *table_id*, or accept one (see the module docstring).
    Raises :class:`NotFound`, the no-seat refusal, :class:`Conflict` while the game is not
    over, for a second offer by the same person, and once the rematch is made (the detail
    names the new table), and :class:`Refused` when a person of the table already sits at
    the most unfinished tables."""

    def work(connection: Connection) -> tuple[Rematch, Entry | None]:
        table = get_table(connection, table_id, lock=True)
        if table is None:
            raise NotFound(f"no table {table_id}")
        seats = get_seats(connection, table_id)
        mine = [s.seat for s in seats if s.account_id == account_id]
        if not mine:
            raise no_seat(table)
        if table.status != FINISHED:
            raise Conflict("a rematch is offered once the game is over")
        offer = dict(table.lobby.get("rematch") or {})
        if offer.get("table") is not None:
            raise Conflict(f"the rematch is already made: table {offer['table']}")
        accepted = list(offer.get("seats", []))
        if mine[0] in accepted:
            raise Conflict("you have already offered or accepted the rematch")
        accepted.append(mine[0])
        people = [s.seat for s in seats if s.account_id is not None]
        waiting = [s for s in people if s not in accepted]
        started: Entry | None = None
        new_id: int | None = None
        if not waiting:
            new_id, started = _new_table(ctx, connection, table_id, seats)
        offer.update(seats=accepted, table=new_id)
        update_table(connection, table_id, lobby={**table.lobby, "rematch": offer})
        return Rematch(table_id, accepted, waiting, new_id), started

    outcome, started = ctx.write(work)
    with ctx.cache.lock(table_id):
        ctx.cache.drop(table_id)  # the row's lobby changed
    if outcome.new_table is not None:
        _published(ctx, outcome.new_table, started)
    ctx.changed(table_id)
    return outcome


def _new_table(
    ctx: ServerContext, connection: Connection, old_id: int, seats: list[SeatRow]
) -> tuple[int, Entry]:
    """The rematch table of *old_id* (row locked, in this transaction), started."""
    old = get_table(connection, old_id)
    assert old is not None
    for seat in seats:
        if seat.account_id is None:
            continue
        if count_unfinished(connection, seat.account_id, lock=True) >= (
            ctx.settings.max_open_tables
        ):
            names = ctx.account_names(connection, [seat.account_id])
            raise Refused(
                f"{names.get(seat.account_id, 'a player')} already sits at "
                f"{ctx.settings.max_open_tables} unfinished tables"
            )
    turned = seats[1:] + seats[:1]
    rows = [
        SeatRow(i, s.account_id, None if s.account_id is not None else s.bot_level, 0, False)
        for i, s in enumerate(turned)
    ]
    now = ctx.now()
    options = {k: v for k, v in old.options.items()}
    find(old.game)  # the game is still registered (raises otherwise)
    new_id = insert_table(
        connection,
        game=old.game,
        options=options,
        status=LOBBY,
        visibility=old.visibility,
        invite_code=secrets.token_urlsafe(12),
        creator_id=old.creator_id,
        clock_days=old.clock_days,
        max_skips=old.max_skips,
        version=0,
        time_zone=old.time_zone,
        rng_seed=ctx.settings.new_seed(),
        to_move=[],
        bot_turn=False,
        deadline=None,
        result=None,
        lobby={"rated": bool(old.lobby.get("rated", True)), "rematch_of": old_id},
        scored=False,
        created_at=now,
        updated_at=now,
    )
    insert_seats(connection, new_id, rows)
    table = get_table(connection, new_id, lock=True)
    assert table is not None
    return new_id, _begin(ctx, connection, table, rows)


def table_event(table_id: int, event: str, **extra: Any) -> dict[str, Any]:
    """The WebSocket ``table_event`` message: ``{"type": "table_event", "table", "event"}``
    plus *extra* (``seat``, ``name``, ``status``, ``version``, ``new_table``, ...)."""
    return {"type": "table_event", "table": table_id, "event": event, **extra}
