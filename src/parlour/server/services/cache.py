"""Tables in play, kept in memory between requests, and the randomness the server draws.

An :class:`Entry` is a table at one version: its row, seats, names, log and the live
:class:`~parlour.engine.state.State` rebuilt from the log. Entries are read and changed only
under the table's lock (:meth:`TableCache.lock`); a commit replaces the entry. The database is
the authority: an entry is checked against the stored version before it is trusted, and
dropped when anything goes wrong mid-change.

Chance outcomes and computer players' choices are drawn from ``random.Random`` generators
derived from the table's secret seed and the version (:func:`table_rng`), so the same version
always gets the same roll (a retried request cannot re-roll) and the seed never leaves the
server.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

from sqlalchemy import Connection, Engine

from parlour.bots.base import Bot
from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, load
from parlour.engine.state import CHANCE, JSON, Action, State
from parlour.server.errors import Conflict, Forbidden, NotFound, ServerError
from parlour.server.settings import ChanceScript
from parlour.session import make_bot
from parlour.storage.accounts import account_names
from parlour.storage.tables import (
    ACTIVE,
    FINISHED,
    LOBBY,
    EventRow,
    SeatRow,
    TableRow,
    get_events,
    get_seats,
    get_table,
    get_version,
)

log = logging.getLogger("parlour.server")

SERVER_EVENT = -5
"""``by`` of a logged event the server made, not the game (a resignation, an abort:
:mod:`parlour.server.services.endings`): public, and skipped when the log is replayed."""


def table_rng(seed: str, purpose: str, version: int) -> random.Random:
    """A generator for one draw: *purpose* (``"chance"``, ``"bot"``) at *version* of the table
    whose secret seed is *seed*."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def draw_chance(
    state: State, seed: str, version: int, script: ChanceScript | None = None
) -> Action:
    """The chance outcome for *state* at *version* of the table whose secret seed is *seed*:
    drawn from :func:`table_rng`, unless a test's *script* (``Settings.chance_script``)
    names one in notation. Raises the engine's ``InvalidNotation`` for a bad scripted one."""
    if script is not None:
        text = script(state, seed)
        if text is not None:
            return state.parse_action(text, player=CHANCE)
    return state.sample_chance(table_rng(seed, "chance", version))


@cache
def bot_for(game: str, level: str) -> Bot:
    """The computer player of *game* at *level* (one shared instance; bots keep no state)."""
    return make_bot(find(game), level)


def seat_names(seats: list[SeatRow], names: dict[int, str]) -> list[str]:
    """Record names of the seats: the account's name, ``cpu:<level>`` or ``"open"``."""
    out = []
    for seat in seats:
        if seat.account_id is not None and not seat.removed:
            out.append(names.get(seat.account_id, f"#{seat.account_id}"))
        elif seat.account_id is not None:
            out.append(f"{names.get(seat.account_id, '?')} (cpu:{seat.bot_level})")
        elif seat.bot_level is not None:
            out.append(f"cpu:{seat.bot_level}")
        else:
            out.append("open")
    return out


class CorruptTable(ParlourError):
    """A table whose stored log does not replay (or does not hold ``version`` events)."""


@dataclass
class Entry:
    """A table at one version (see the module docstring). ``views`` and ``legal`` memoise
    observations and legal-action lists for this version."""

    table: TableRow
    seats: list[SeatRow]
    names: list[str]
    state: State
    events: list[EventRow]
    views: dict[int | None, JSON] = field(default_factory=dict)
    legal: dict[int, list[str] | None] = field(default_factory=dict)
    base: TableRow | None = None
    """The row this entry's last change was applied to, when that change only appended
    events and moved the row on (no seat changed): what the fan-out tells other processes
    the change with (:mod:`parlour.server.fanout`)."""

    @property
    def version(self) -> int:
        """The number of events in the log."""
        return self.table.version

    def seat_of(self, account_id: int) -> int | None:
        """The seat *account_id* sits in, or ``None``."""
        for seat in self.seats:
            if seat.account_id == account_id:
                return seat.seat
        return None

    def plays_itself(self, seat: int) -> bool:
        """True when a computer player moves for *seat* (a bot seat or a removed person)."""
        row = self.seats[seat]
        return row.bot_level is not None and (row.account_id is None or row.removed)

    def view(self, seat: int | None) -> JSON:
        """``state.observation(seat)``, computed once per version."""
        if seat not in self.views:
            self.views[seat] = self.state.observation(seat)
        return self.views[seat]

    def legal_for(self, seat: int, limit: int) -> list[str] | None:
        """The legal actions of *seat* in notation (empty when it may not act), or ``None``
        when there are more than *limit*."""
        if seat not in self.legal:
            if seat not in self.state.actors():
                self.legal[seat] = []
            elif limit <= 0:
                self.legal[seat] = None  # never listed (nor worked out) for this game
            else:
                actions = self.state.legal_actions(seat)
                self.legal[seat] = (
                    None
                    if len(actions) > limit
                    else [self.state.action_to_string(a) for a in actions]
                )
        return self.legal[seat]


def load_entry(connection: Connection, table_id: int) -> Entry | None:
    """Rebuild a started table from the database: its whole log is replayed from the initial
    state. ``None`` if there is no such table. Raises :class:`CorruptTable` for a log that
    does not replay."""
    table = get_table(connection, table_id)
    if table is None:
        return None
    seats = get_seats(connection, table_id)
    names = account_names(connection, [s.account_id for s in seats if s.account_id is not None])
    # read after the row: a commit in between (PostgreSQL reads each statement afresh) adds
    # events the row does not count yet; the first ``version`` are the log at the row's
    events = get_events(connection, table_id)[: table.version]
    if len(events) != table.version:
        raise CorruptTable(
            f"table {table_id}: {len(events)} events stored for version {table.version}"
        )
    try:
        state = load(table.game, **table.options).new_initial_state()
        for event in events:
            if event.by == SERVER_EVENT:  # a resignation: not the game's (services.endings)
                continue
            state.apply(state.parse_action(event.move, player=event.by), player=event.by)
    except (ParlourError, TypeError, ValueError) as err:
        raise CorruptTable(f"table {table_id}: {err}") from None
    return Entry(table, seats, seat_names(seats, names), state, events)


def caught_up(connection: Connection, entry: Entry) -> Entry | None:
    """*entry* moved on to the table as stored now, by applying only the events stored since
    its version to its state (in place: call under the table's lock, and drop the entry if
    this raises), instead of replaying the whole log. ``None`` when the table is gone, not in
    play, or not ahead of *entry* (then reload it with :func:`load_entry`). Raises
    :class:`CorruptTable` for events that do not apply."""
    table_id = entry.table.id
    table = get_table(connection, table_id)
    if table is None or table.status not in (ACTIVE, FINISHED) or table.version <= entry.version:
        return None
    seats = get_seats(connection, table_id)
    if _who(seats) == _who(entry.seats):  # the same people and computers: the same names
        names = entry.names
    else:
        ids = [s.account_id for s in seats if s.account_id is not None]
        names = seat_names(seats, account_names(connection, ids))
    added = get_events(connection, table_id, since=entry.version)[: table.version - entry.version]
    if len(added) != table.version - entry.version:
        raise CorruptTable(f"table {table_id}: events missing after version {entry.version}")
    state = entry.state
    try:
        for event in added:
            state.apply(state.parse_action(event.move, player=event.by), player=event.by)
    except (ParlourError, TypeError, ValueError) as err:
        raise CorruptTable(f"table {table_id}: {err}") from None
    return Entry(table, seats, list(names), state, [*entry.events, *added])


def _who(seats: list[SeatRow]) -> list[tuple[int | None, bool, str | None]]:
    """What a seat's record name depends on: its account, whether a computer took it over,
    and the computer's level (:func:`seat_names`)."""
    return [(s.account_id, s.removed, s.bot_level) for s in seats]


class _HasCache(Protocol):
    cache: TableCache
    engine: Engine


class TableCache:
    """Entries by table id (least recently used dropped past ``size``) and per-table locks."""

    def __init__(self, size: int = 5_000) -> None:
        self.size = size
        self._entries: OrderedDict[int, Entry] = OrderedDict()
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def lock(self, table_id: int) -> threading.Lock:
        """The lock serialising changes to *table_id* in this process."""
        with self._guard:
            found = self._locks.get(table_id)
            if found is None:
                found = self._locks[table_id] = threading.Lock()
            return found

    def get(self, table_id: int) -> Entry | None:
        """The cached entry, if any (call under the table's lock)."""
        with self._guard:
            entry = self._entries.get(table_id)
            if entry is not None:
                self._entries.move_to_end(table_id)
            return entry

    def peek(self, table_id: int) -> Entry | None:
        """The cached entry without touching the order (for readers of memoised views)."""
        with self._guard:
            return self._entries.get(table_id)

    def put(self, entry: Entry) -> None:
        """Cache *entry* (replacing the table's previous one)."""
        with self._guard:
            self._entries[entry.table.id] = entry
            self._entries.move_to_end(entry.table.id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def drop(self, table_id: int) -> None:
        """Forget the entry of *table_id* (it will be rebuilt from the database)."""
        with self._guard:
            self._entries.pop(table_id, None)


def current_entry(ctx: _HasCache, table_id: int, *, check: bool = True) -> Entry:
    """The started table *table_id* as it is now (call under its lock).

    With ``check`` the cached entry is compared with the stored version first (another
    process may have moved the table on). Raises :class:`NotFound`, :class:`Conflict` for a
    table still in the lobby, and :class:`Conflict` for a log that does not replay.
    """
    entry = ctx.cache.get(table_id)
    if entry is not None and check:
        with ctx.engine.connect() as connection:
            if get_version(connection, table_id) != entry.version:
                entry = None
    if entry is None:
        ctx.cache.drop(table_id)
        try:
            with ctx.engine.connect() as connection:
                loaded = _load(connection, table_id)
        except CorruptTable as err:
            log.error("%s", err)
            raise Conflict(f"this table cannot be played: {err}", code="corrupt") from None
        entry = loaded
        ctx.cache.put(entry)
    return entry


def no_seat(table: TableRow) -> ServerError:
    """The refusal for someone without a seat at *table*: 403 at an open table, and at an
    invite-only one the 404 a table that does not exist gets, so that a stranger learns
    nothing of it (not even that it exists, or whether it started)."""
    if table.visibility == "open":
        return Forbidden("you have no seat at this table")
    return NotFound(f"no table {table.id}")


def _load(connection: Connection, table_id: int) -> Entry:
    table = get_table(connection, table_id)
    if table is None:
        raise NotFound(f"no table {table_id}")
    if table.status == LOBBY:
        raise Conflict("the game has not started yet")
    if table.status not in (ACTIVE, FINISHED):
        raise Conflict(f"the table is {table.status}")
    entry = load_entry(connection, table_id)
    assert entry is not None
    return entry
