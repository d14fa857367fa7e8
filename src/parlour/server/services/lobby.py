"""The lobby: create a table, join, leave before the start, start, and list tables.

A table is created with its game, options and one entry per seat: ``"me"`` (the creator),
``"open"`` (for a person to join) or ``"cpu"``/``"cpu:<level>"`` (a computer player). Open
tables are listed for everyone; invite-only tables are joined with their invite code (the
join link). When a table starts is the game's start rule (:mod:`parlour.server.hooks`): by
default the creator starts it once every seat is filled.

Racing requests: every lobby write locks the table's row first (``SELECT ... FOR UPDATE`` on
PostgreSQL; SQLite's write transactions take turns) and decides on the table and seats read
after that, in the same transaction; a start (by hand, or by itself after a join or a vote)
is stored in the transaction of the request that caused it. So requests of any number of
threads and processes take effect one after another, each is answered with what it did, and
the database never holds two seats of one account at a table (a unique index,
``0006_one_seat_per_account``). A create or join also locks the account's row before it
counts the account's tables, so racing joins at different tables keep the table limit. The
process that started a game puts it in memory after the commit; the others load it from
the database.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, load
from parlour.engine.state import CHANCE
from parlour.server.errors import Conflict, Forbidden, NotFound, Refused
from parlour.server.hooks import LobbyView, NotYours, hooks_for
from parlour.server.services.cache import Entry, draw_chance, no_seat, seat_names
from parlour.server.services.context import ServerContext
from parlour.server.services.play import table_columns
from parlour.server.settings import CLOCK_DAYS
from parlour.storage.tables import (
    ACTIVE,
    CANCELLED,
    LOBBY,
    EventRow,
    SeatRow,
    TableRow,
    append_events,
    claim_seat,
    count_unfinished,
    get_seats,
    get_table,
    insert_seats,
    insert_table,
    replace_seats,
    set_seat,
    update_table,
)

MAX_SKIPS_RANGE = (1, 10)


@dataclass(frozen=True)
class NewTable:
    """What a creator asks for (see :func:`create_table`)."""

    game: str
    seats: Sequence[str]
    options: dict[str, Any]
    visibility: str = "open"
    clock_days: int | None = None
    max_skips: int | None = None
    start: bool = False
    min_players: int | None = None
    time_zone: str | None = None
    rated: bool = True


def check_time_zone(name: str) -> str:
    """*name* if it is an IANA time zone this machine knows (``Europe/Paris``, ``UTC``).
    Raises :class:`Refused` with the reason otherwise."""
    if not name or len(name) > 64 or name.startswith("/") or ".." in name:
        raise Refused(f"{name!r} is not a time zone: give an IANA name like 'Europe/Paris'")
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refused(
            f"unknown time zone {name!r}: give an IANA name like 'Europe/Paris' or 'UTC'"
        ) from None
    return name


def _seat_rows(spec_name: str, seats: Sequence[str], creator: int) -> list[SeatRow]:
    spec = find(spec_name)
    rows: list[SeatRow] = []
    mine = 0
    for index, raw in enumerate(seats):
        item = raw.strip().lower()
        if item == "me":
            mine += 1
            rows.append(SeatRow(index, creator, None, 0, False))
        elif item == "open":
            rows.append(SeatRow(index, None, None, 0, False))
        elif item == "cpu" or item.startswith("cpu:"):
            if not spec.bot_levels:
                raise Refused(f"{spec.title} has no computer players yet")
            level = item[4:].strip() or spec.bot_levels[-1]
            if level not in spec.bot_levels:
                raise Refused(
                    f"unknown computer level {level!r}; levels are: {', '.join(spec.bot_levels)}"
                )
            rows.append(SeatRow(index, None, level, 0, False))
        else:
            raise Refused(f"seat {index}: {raw!r} is not 'me', 'open', 'cpu' or 'cpu:<level>'")
    if mine != 1:
        raise Refused("exactly one seat is 'me' (the creator sits at the table)")
    return rows


def create_table(ctx: ServerContext, *, account_id: int, request: NewTable) -> int:
    """Create a table; return its id (it starts at once if ``request.start`` and every seat is
    filled). Raises :class:`Refused` with the reason for an unknown game, bad options, seats
    or clock, or when the creator already sits at ``max_open_tables`` unfinished tables."""
    try:
        spec = find(request.game)
    except ParlourError as err:
        raise Refused(str(err)) from None
    rows = _seat_rows(spec.name, request.seats, account_id)
    given = dict(request.options)
    if "players" in given and given["players"] != len(rows):
        raise Refused(f"options say {given['players']} players but {len(rows)} seats are given")
    given["players"] = len(rows)
    for name in given:
        option = spec.options.get(name.replace("-", "_"))
        if option is not None and option.file:
            # a file option (a word list) names a path on the server's disk: never from a client
            raise Refused(f"option {name!r} names a file, which a server game cannot use")
    try:
        options = spec.resolve_options(given)
    except ParlourError as err:
        raise Refused(str(err)) from None
    if request.visibility not in ("open", "invite"):
        raise Refused("visibility is 'open' or 'invite'")
    if request.clock_days is not None and request.clock_days not in CLOCK_DAYS:
        raise Refused(
            f"a clock has {', '.join(map(str, CLOCK_DAYS))} days per move, or none (unlimited)"
        )
    why = hooks_for(spec.name).check_table(options, request.clock_days)
    if why is not None:
        raise Refused(why)
    time_zone = check_time_zone(request.time_zone or ctx.settings.default_time_zone)
    lobby: dict[str, Any] = {"rated": bool(request.rated)}
    if request.min_players is not None:
        if not spec.min_players <= request.min_players <= len(rows):
            raise Refused(
                f"min_players is {spec.min_players}-{len(rows)} for {spec.title} "
                f"with {len(rows)} seats, not {request.min_players}"
            )
        lobby["min_players"] = request.min_players
    max_skips = ctx.settings.default_max_skips if request.max_skips is None else request.max_skips
    if not MAX_SKIPS_RANGE[0] <= max_skips <= MAX_SKIPS_RANGE[1]:
        raise Refused(f"max_skips is {MAX_SKIPS_RANGE[0]}-{MAX_SKIPS_RANGE[1]}")
    now = ctx.now()
    invite_code = secrets.token_urlsafe(12)
    seed = ctx.settings.new_seed()

    def work(connection: Connection) -> tuple[int, Entry | None]:
        if count_unfinished(connection, account_id, lock=True) >= ctx.settings.max_open_tables:
            raise Refused(
                f"you already sit at {ctx.settings.max_open_tables} unfinished tables: "
                "finish or leave one first"
            )
        table_id = insert_table(
            connection,
            game=spec.name,
            options=options,
            status=LOBBY,
            visibility=request.visibility,
            invite_code=invite_code,
            creator_id=account_id,
            clock_days=request.clock_days,
            max_skips=max_skips,
            version=0,
            time_zone=time_zone,
            rng_seed=seed,
            to_move=[],
            bot_turn=False,
            deadline=None,
            result=None,
            lobby=lobby,
            scored=False,
            created_at=now,
            updated_at=now,
        )
        insert_seats(connection, table_id, rows)
        # the crossword with every seat taken begins at once
        return table_id, _start_if_due(ctx, connection, _locked(connection, table_id))

    table_id, started = ctx.write(work)
    _published(ctx, table_id, started)
    if started is None and request.start:
        start_table(ctx, table_id=table_id, account_id=account_id)
    return table_id


def _lobby(ctx: ServerContext, table_id: int) -> tuple[TableRow, list[SeatRow]]:
    with ctx.engine.connect() as connection:
        table = get_table(connection, table_id)
        if table is None:
            raise NotFound(f"no table {table_id}")
        return table, get_seats(connection, table_id)


def _locked(connection: Connection, table_id: int) -> TableRow:
    """The table's row, locked until the transaction ends (every lobby write begins here, so
    lobby writes to one table take effect one after another). Raises :class:`NotFound`."""
    table = get_table(connection, table_id, lock=True)
    if table is None:
        raise NotFound(f"no table {table_id}")
    return table


def _cancelled_or_started(table: TableRow, started: str) -> Conflict:
    """The refusal at a table no longer in the lobby: *started*, or that it was cancelled."""
    if table.status == CANCELLED:
        return Conflict("the table is cancelled (its creator left)")
    return Conflict(started)


def may_see(
    table: TableRow, seats: Sequence[SeatRow], account_id: int | None, invite: str | None
) -> bool:
    """Open tables are public; an invite-only one is seen by its players and with its code."""
    if table.visibility == "open":
        return True
    if account_id is not None and any(s.account_id == account_id for s in seats):
        return True
    return invite is not None and secrets.compare_digest(
        invite.encode(), table.invite_code.encode()
    )


def join_table(
    ctx: ServerContext, *, table_id: int, account_id: int, invite: str | None = None
) -> None:
    """Take the first open seat (and begin the game if the start rule says it now begins by
    itself). Raises :class:`NotFound` for an invite-only table without its code,
    :class:`Conflict` when already seated, started, cancelled or full, and :class:`Refused`
    at the open-tables limit."""
    table, seats = _lobby(ctx, table_id)
    if not may_see(table, seats, account_id, invite):
        raise NotFound(f"no table {table_id} (an invite-only table needs its join link)")

    def work(connection: Connection) -> Entry | None:
        current = _locked(connection, table_id)
        seats = get_seats(connection, table_id)
        if any(s.account_id == account_id for s in seats):
            raise Conflict("you already sit at this table")
        if current.status != LOBBY:
            raise _cancelled_or_started(current, "the game has already started")
        if count_unfinished(connection, account_id, lock=True) >= ctx.settings.max_open_tables:
            raise Refused(f"you already sit at {ctx.settings.max_open_tables} unfinished tables")
        for seat in seats:
            if seat.is_open and claim_seat(connection, table_id, seat.seat, account_id):
                break
        else:
            raise Conflict("the table is full")
        return _start_if_due(ctx, connection, current)

    try:
        started = ctx.write(work)
    except IntegrityError:  # the unique seat index: a write that did not lock the row first
        raise Conflict("you already sit at this table") from None
    _published(ctx, table_id, started)


def leave_table(ctx: ServerContext, *, table_id: int, account_id: int) -> str:
    """Leave before the start, taking your vote with you (the creator leaving cancels the
    table). Returns the table's invite code, which the leaver held as a player (so the answer
    can show an invite-only table to them once more). Raises :class:`Conflict` after the
    start (or at a cancelled table) and :class:`Forbidden` for someone not seated."""

    def work(connection: Connection) -> str:
        table = _locked(connection, table_id)
        mine = [s.seat for s in get_seats(connection, table_id) if s.account_id == account_id]
        if not mine:
            raise no_seat(table)
        if table.status != LOBBY:
            raise _cancelled_or_started(
                table, "the game has started: leaving is only possible before the start"
            )
        if account_id == table.creator_id:
            update_table(connection, table_id, status=CANCELLED, updated_at=ctx.now())
            return table.invite_code
        set_seat(connection, table_id, mine[0], account_id=None)
        votes = [v for v in table.lobby.get("votes", []) if v != mine[0]]
        lobby = {**table.lobby, "votes": votes}
        update_table(connection, table_id, lobby=lobby, updated_at=ctx.now())
        return table.invite_code

    invite = ctx.write(work)
    ctx.changed(table_id)
    return invite


def vote_start(ctx: ServerContext, *, table_id: int, account_id: int) -> None:
    """Vote to begin now (kept in the table's ``lobby["votes"]``, seats in vote order). The
    game's start rule decides what votes do (the crossword: the game begins, in the vote's
    transaction, once the minimum voted); by default they are only shown. Raises
    :class:`Conflict` for a second vote or a started (or cancelled) table and
    :class:`Forbidden` for someone not seated."""

    def work(connection: Connection) -> Entry | None:
        table = _locked(connection, table_id)
        seats = get_seats(connection, table_id)
        mine = [s.seat for s in seats if s.account_id == account_id]
        if not mine:
            raise no_seat(table)
        if table.status != LOBBY:
            raise _cancelled_or_started(
                table, "the game has already started: votes are for the lobby"
            )
        votes = list(table.lobby.get("votes", []))
        if mine[0] in votes:
            raise Conflict("you have already voted to begin")
        now = ctx.now()
        lobby = {**table.lobby, "votes": [*votes, mine[0]]}
        update_table(connection, table_id, lobby=lobby, updated_at=now)
        return _start_if_due(ctx, connection, replace(table, lobby=lobby, updated_at=now))

    _published(ctx, table_id, ctx.write(work))


def start_table(ctx: ServerContext, *, table_id: int, account_id: int) -> None:
    """Start the table if its start rule lets *account_id* do so now. Raises
    :class:`Conflict` for a table not in the lobby (started, or cancelled), and with the
    rule's reason :class:`Forbidden` (not yours to start: another's table) or
    :class:`Conflict` (not now: seats still open)."""

    def work(connection: Connection) -> Entry:
        table = _locked(connection, table_id)
        seats = get_seats(connection, table_id)
        if not any(s.account_id == account_id for s in seats):
            raise no_seat(table)
        if table.status != LOBBY:
            raise _cancelled_or_started(table, "the game has already started")
        spec = find(table.game)
        why = hooks_for(spec.name).start.refuse_start(LobbyView(table, seats, spec), account_id)
        if isinstance(why, NotYours):
            raise Forbidden(why)
        if why is not None:
            raise Conflict(why)
        return _begin(ctx, connection, table, seats)

    _published(ctx, table_id, ctx.write(work))


def _start_if_due(ctx: ServerContext, connection: Connection, table: TableRow) -> Entry | None:
    """Begin *table* (its row locked, as this transaction changed it) if its start rule says
    it begins by itself now; the started game, or ``None``."""
    seats = get_seats(connection, table.id)
    spec = find(table.game)
    if not hooks_for(spec.name).start.starts_by_itself(LobbyView(table, seats, spec)):
        return None
    return _begin(ctx, connection, table, seats)


def _begin(
    ctx: ServerContext, connection: Connection, table: TableRow, seats: list[SeatRow]
) -> Entry:
    """Start *table* with *seats* (both read in this transaction, the row locked): the first
    chance outcomes, the seats the start rule keeps, the row made active. Returns the game
    as it will be held in memory once committed. Raises :class:`Conflict` for options the
    game refuses."""
    spec = find(table.game)
    before = seats
    options, seats = hooks_for(spec.name).start.start_options(LobbyView(table, seats, spec))
    renumber = seats != before
    seats = [replace(s, seat=i) for i, s in enumerate(seats)]
    # what the seats decide (Rummy: the only person against the computer plays first)
    options = spec.seat_options(options, [s.bot_level is None for s in seats])
    try:
        game = load(spec.name, **options)
    except ParlourError as err:
        raise Conflict(f"the table cannot start: {err}") from None
    state = game.new_initial_state()
    added: list[tuple[int, str]] = []
    while state.is_chance_node():
        outcome = draw_chance(state, table.rng_seed, len(added), ctx.settings.chance_script)
        state.apply(outcome, player=CHANCE)
        added.append((CHANCE, state.action_to_string(outcome)))
    now = ctx.now()
    values = table_columns(table, state, seats, now, added)
    if not update_table(
        connection,
        table.id,
        where_status=LOBBY,
        where_version=0,
        status=ACTIVE,
        options=options,
        started_at=now,
    ):
        raise Conflict("the table has already started")  # not with the row locked
    if renumber:
        replace_seats(connection, table.id, seats)
    ok = append_events(connection, table.id, expected_version=0, events=added, now=now, **values)
    assert ok
    names = ctx.account_names(connection, [s.account_id for s in seats if s.account_id])
    started = replace(
        table,
        status=ACTIVE,
        options=options,
        started_at=now,
        updated_at=now,
        version=len(added),
        **values,
    )
    events = [EventRow(i, by, move) for i, (by, move) in enumerate(added)]
    return Entry(started, seats, seat_names(seats, names), state, events)


def _published(ctx: ServerContext, table_id: int, started: Entry | None) -> None:
    """After the commit: a game this request started goes into memory at once (followers
    get it and computer players wake), unless something newer is there; listeners hear of
    the change."""
    if started is not None:
        with ctx.cache.lock(table_id):
            held = ctx.cache.get(table_id)
            if held is None or held.version <= started.version:
                ctx.cache.put(started)
    ctx.changed(table_id)
