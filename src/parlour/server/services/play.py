"""Playing: an action from a seat, computer players' moves, and host events.

Every change goes through :func:`prepare` and a *write* (``ServerContext.write``): under the
table's lock the action is applied to the live state in memory (the engine refuses an illegal
one and changes nothing), then every chance outcome that follows is drawn with the table's
secret generator and applied; the write appends all those events to the log and moves the
table row on *only if the table is still at the version the action was made against*. Writes
from every table are grouped into shared transactions by one writer thread
(:mod:`.writer`); an action is answered only after its transaction committed.

A concurrent writer (another thread is excluded by the lock; another server process is not)
makes that conditional update match nothing: the change is abandoned, the entry is rebuilt
from the database, and the client is told its version is stale. So of two simultaneous
submissions exactly one wins. An action is refused as stale only once the database says so
(the client may have read a version this process has not seen yet).

The engine states of tables in play stay in memory between requests (``cache``), so an
action costs no replay and no read: the version guard in the write is what makes trusting
the memory safe. A table leaving the memory (or met by a second process) is rebuilt by
replaying its log (:func:`~parlour.server.services.cache.load_entry`).

A submission is written once, in steps (:data:`Steps`: a generator that yields the write it
needs stored), and driven two ways. Requests from the event loop use
:func:`submit_action_async`: when the table's lock is free and its entry is in memory (nearly
always), the steps run right there and only the commit is awaited, so a request costs no
thread; otherwise it falls back to :func:`submit_action`, the same steps in a worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial
from typing import Any

import anyio.to_thread
from sqlalchemy import Connection

from parlour.engine.errors import IllegalMove, ParlourError
from parlour.engine.state import CHANCE, HOST, JSON, Action, State
from parlour.server.errors import (
    Conflict,
    Forbidden,
    NotFound,
    NotYourTurn,
    Refused,
    StaleVersion,
)
from parlour.server.hooks import Moment, Turning, hooks_for
from parlour.server.services.cache import (
    Entry,
    bot_for,
    current_entry,
    draw_chance,
    no_seat,
    table_rng,
)
from parlour.server.services.context import ServerContext
from parlour.server.services.payloads import action_result, current_payload
from parlour.storage.tables import (
    ACTIVE,
    FINISHED,
    Append,
    EventRow,
    SeatRow,
    TableRow,
    set_seat,
)

log = logging.getLogger("parlour.server")


class _WriteLost(Exception):
    """The conditional update matched nothing: another process wrote first."""


@dataclass(frozen=True)
class Outcome:
    """A committed change: the fresh entry and the events it added (``first_seq`` on);
    ``result`` is the answer for the actor, built under the lock (see ``payloads``)."""

    entry: Entry
    first_seq: int
    result: JSON = None

    @property
    def events(self) -> list[EventRow]:
        """The events this change added."""
        return self.entry.events[self.first_seq :]


def plays_itself(row: SeatRow) -> bool:
    """True when a computer player moves for the seat (a bot seat or a removed person)."""
    return row.bot_level is not None and (row.account_id is None or row.removed)


def table_columns(
    table: TableRow,
    state: State,
    seats: Sequence[SeatRow],
    now: datetime,
    added: Sequence[tuple[int, str]],
) -> dict[str, Any]:
    """The table row's columns after *added* took *table* to *state*: who is to move, the
    clock's deadline (the game's ``deadline`` hook), and the status and result at the end."""
    terminal = state.is_terminal()
    actors = [] if terminal else list(state.actors())
    person_to_move = any(not plays_itself(seats[s]) for s in actors)
    hooks = hooks_for(table.game)
    values: dict[str, Any] = {
        "to_move": actors,
        "bot_turn": any(plays_itself(seats[s]) for s in actors),
        "deadline": None
        if terminal
        else hooks.deadline(Turning(table, state, now, added, person_to_move)),
    }
    if terminal:
        values.update(status=FINISHED, result=state.result().to_json(), finished_at=now)
    return values


@dataclass(frozen=True)
class Change:
    """A change applied to an entry's state in memory and not yet stored: the events added,
    the seats and table row after it, and the row's changed columns."""

    entry: Entry
    added: list[tuple[int, str]]
    seats: list[SeatRow]
    seat_changes: dict[int, dict[str, Any]]
    values: dict[str, Any]
    table: TableRow
    now: datetime


def prepare(
    ctx: ServerContext,
    entry: Entry,
    player: int,
    action: Action,
    *,
    seat_changes: dict[int, dict[str, Any]] | None = None,
) -> Change:
    """Apply *action* for *player* (a seat or HOST) and the chance outcomes after it to the
    entry's state, in memory. Call under the table's lock.

    Raises the engine's :class:`~parlour.engine.errors.IllegalMove` with nothing changed.
    Anything else going wrong after the action was applied drops the cached entry.
    """
    state = entry.state
    table = entry.table
    version = table.version
    state.apply(action, player=player)  # refuses with the reason and changes nothing
    try:
        added = [(player, state.action_to_string(action))]
        while state.is_chance_node():
            outcome = draw_chance(
                state, table.rng_seed, version + len(added), ctx.settings.chance_script
            )
            state.apply(outcome, player=CHANCE)
            added.append((CHANCE, state.action_to_string(outcome)))
        now = ctx.now()
        changes = seat_changes or {}
        seats = [replace(s, **changes[s.seat]) if s.seat in changes else s for s in entry.seats]
        values = table_columns(table, state, seats, now, added)
        new_table = replace(table, version=version + len(added), updated_at=now, **values)
    except BaseException:
        ctx.cache.drop(table.id)
        raise
    return Change(entry, added, seats, changes, values, new_table, now)


def store(change: Change) -> Callable[[Connection], bool]:
    """The write that stores *change*: its events, the table row and changed seats, in one
    transaction. Answers ``False``, writing nothing, when the table is no longer at the
    version the change was made against. A change that only appends (no seat changed) is an
    :class:`Append`, which the writer stores together with other tables' appends. (A finished
    game goes into the scorebook afterwards: :mod:`parlour.server.services.scores`.)"""
    table = change.entry.table
    append = Append(table.id, table.version, change.added, change.now, change.values)
    if not change.seat_changes:
        return append

    def write(connection: Connection) -> bool:
        if not append(connection):
            return False
        for seat, values in change.seat_changes.items():
            set_seat(connection, table.id, seat, **values)
        return True

    return write


def finish(ctx: ServerContext, change: Change) -> Outcome:
    """The stored *change* as the table's fresh entry (cached)."""
    entry = change.entry
    version = entry.table.version
    events = entry.events + [
        EventRow(version + i, by, move) for i, (by, move) in enumerate(change.added)
    ]
    fresh = Entry(change.table, change.seats, _names(entry, change.seats), entry.state, events)
    if not change.seat_changes:  # a plain append: the fan-out may tell it whole
        fresh.base = entry.table
    ctx.cache.put(fresh)
    if ctx.metrics is not None:
        ctx.metrics.count_events(fresh, change.added)
    return Outcome(fresh, version)


Steps = Generator[Callable[[Connection], bool], bool, Outcome]
"""A change in steps (one implementation for both callers): it yields each write it needs
stored, is sent back what the write answered (or thrown what it raised), and returns the
:class:`Outcome`. :func:`_run` drives it in a thread, :func:`_run_async` on the event loop."""


def _commit_steps(
    ctx: ServerContext,
    entry: Entry,
    player: int,
    action: Action,
    seat_changes: dict[int, dict[str, Any]] | None,
) -> Steps:
    """:func:`commit` in steps (see :data:`Steps`)."""
    change = prepare(ctx, entry, player, action, seat_changes=seat_changes)
    try:
        stored = yield store(change)
    except BaseException:  # a failed write, or cancelled while the write is under way
        ctx.cache.drop(entry.table.id)
        raise
    if not stored:
        ctx.cache.drop(entry.table.id)
        raise _WriteLost()
    return finish(ctx, change)


def _run(ctx: ServerContext, steps: Steps) -> Outcome:
    """Drive *steps* in this thread: each write is stored with ``ctx.write`` (blocking)."""
    try:
        work = next(steps)
        while True:
            try:
                stored = ctx.write(work)
            except BaseException as err:
                work = steps.throw(err)
            else:
                work = steps.send(stored)
    except StopIteration as done:
        outcome: Outcome = done.value
        return outcome


async def _run_async(ctx: ServerContext, steps: Steps) -> Outcome:
    """Drive *steps* on the event loop: each write is awaited, shielded (a request cancelled
    meanwhile lets the write finish; the steps drop the table's entry, rebuilt from the
    database at its next use)."""
    try:
        work = next(steps)
        while True:
            try:
                stored = await asyncio.shield(ctx.write_async(work))
            except BaseException as err:
                work = steps.throw(err)
            else:
                work = steps.send(stored)
    except StopIteration as done:
        outcome: Outcome = done.value
        return outcome


def commit(
    ctx: ServerContext,
    entry: Entry,
    player: int,
    action: Action,
    *,
    seat_changes: dict[int, dict[str, Any]] | None = None,
) -> Outcome:
    """Apply *action* for *player* and the chance outcomes after it, and store them (see
    the module docstring); return once committed. Call under the table's lock.

    Raises the engine's :class:`~parlour.engine.errors.IllegalMove` (nothing changed) and
    :class:`_WriteLost` when another process wrote first (the cached entry is dropped).
    """
    return _run(ctx, _commit_steps(ctx, entry, player, action, seat_changes))


def _names(entry: Entry, seats: list[SeatRow]) -> list[str]:
    names = list(entry.names)
    for old, new in zip(entry.seats, seats, strict=True):
        if new.removed and not old.removed:
            names[new.seat] = f"{names[new.seat]} (cpu:{new.bot_level})"
    return names


# --- a person's action ----------------------------------------------------------------------


def _check_text(ctx: ServerContext, text: str) -> None:
    if len(text) > ctx.settings.max_action_chars:
        raise Refused(f"an action has at most {ctx.settings.max_action_chars} characters")
    if "\x00" in text:
        raise Refused("an action may not contain NUL characters")


def _check_submission(
    entry: Entry, account_id: int, text: str, expected_version: int
) -> tuple[int, Action, dict[int, dict[str, Any]] | None]:
    """The seat, the parsed action and the seat changes for a submission; raises the refusal
    (see :func:`submit_action`)."""
    seat = entry.seat_of(account_id)
    if seat is None:
        raise no_seat(entry.table)
    if entry.seats[seat].removed:
        raise Forbidden("the clock took you out of this game: a computer plays your seat")
    if entry.table.status != ACTIVE:
        raise Conflict("the game is over")
    if expected_version != entry.version and not _passed_only_by_others(
        entry, seat, expected_version
    ):
        raise StaleVersion(
            f"the table is at version {entry.version}, not {expected_version}",
            current=current_payload(entry, seat),
        )
    action = entry.state.parse_action(text, player=seat)
    if seat not in entry.table.to_move and entry.table.to_move:
        try:  # some moves are anyone's at any time (a rack's order)
            entry.state.clone().apply(action, player=seat)
        except IllegalMove:
            raise NotYourTurn(_not_your_turn(entry)) from None
    return seat, action, ({seat: {"skips": 0}} if entry.seats[seat].skips else None)


def _not_your_turn(entry: Entry) -> str:
    """Why a seat may not act, by name ("it is not your turn: bob to move"): the engine's
    reason says seat numbers."""
    movers = [entry.names[s] for s in entry.table.to_move if 0 <= s < len(entry.names)]
    return f"it is not your turn: {' and '.join(movers)} to move"


def _passed_only_by_others(entry: Entry, seat: int, version: int) -> bool:
    """True when every event since *version* is another seat's move that no action of
    *seat* depends on (the game's ``independent`` hook: the crossword's rack orders), so an
    action made against *version* means the same now."""
    independent = hooks_for(entry.table.game).independent
    if independent is None or not 0 <= version < entry.version:
        return False
    return all(
        0 <= event.by != seat and independent(event.move) for event in entry.events[version:]
    )


def _due(ctx: ServerContext, entry: Entry) -> bool:
    """True when the table's clock has run out (host events may be due before anything)."""
    deadline = entry.table.deadline
    return deadline is not None and entry.table.status == ACTIVE and ctx.now() >= deadline


def _submission_steps(
    ctx: ServerContext,
    entry: Entry,
    account_id: int,
    text: str,
    expected_version: int,
    answer: bool,
) -> Steps:
    """A person's action at *entry* in steps (see :data:`Steps`): checked, committed, the
    listeners told, and the answer built under the lock. Raises the refusals of
    :func:`submit_action`, :class:`_WriteLost` when another process wrote first."""
    seat, action, changes = _check_submission(entry, account_id, text, expected_version)
    outcome = yield from _commit_steps(ctx, entry, seat, action, changes)
    ctx.changed(entry.table.id)
    if not answer:
        return outcome
    return replace(outcome, result=action_result(outcome.entry, seat, outcome.first_seq))


def submit_action(
    ctx: ServerContext,
    *,
    table_id: int,
    account_id: int,
    text: str,
    expected_version: int,
    answer: bool = True,
) -> Outcome:
    """A person's action in the game's notation, made against *expected_version*.

    Host events that are due (a clock that ran out, a new day) are applied first, exactly as
    the sweeper would, so a deadline holds to the second whenever the sweeper runs; the
    action then meets the table as it is (usually a stale version).

    Raises :class:`StaleVersion` (with the table as it is now, for that seat) when the
    version is not current, the engine's ``InvalidNotation``/``IllegalMove`` (422) with the
    reason, :class:`Forbidden` for someone without a seat here (or taken out by the clock),
    and :class:`Conflict` before the start or after the end. Nothing changes on a refusal.
    With ``answer=False`` the outcome has no ``result`` (a WebSocket client is sent the
    table by the hub anyway).
    """
    _check_text(ctx, text)
    for attempt in range(2):
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id, check=attempt > 0)
            try:
                for _ in range(100):
                    step = _host_step(ctx, entry) if _due(ctx, entry) else None
                    if step is None:
                        break
                    entry = step.entry
                steps = _submission_steps(ctx, entry, account_id, text, expected_version, answer)
                return _run(ctx, steps)
            except _WriteLost:
                continue
            except StaleVersion:
                if attempt > 0:
                    raise
                continue  # another process may have moved the table on: ask the database
    raise StaleVersion("another move was stored first: reload the table")


async def submit_action_async(
    ctx: ServerContext,
    *,
    table_id: int,
    account_id: int,
    text: str,
    expected_version: int,
    answer: bool = True,
) -> Outcome:
    """:func:`submit_action` for the event loop, the same steps (see the module docstring):
    same answers, same refusals."""
    _check_text(ctx, text)
    lock = ctx.cache.lock(table_id)
    if lock.acquire(blocking=False):
        try:
            entry = ctx.cache.get(table_id)
            if entry is not None and not _due(ctx, entry):
                steps = _submission_steps(ctx, entry, account_id, text, expected_version, answer)
                try:
                    return await _run_async(ctx, steps)
                except (_WriteLost, StaleVersion):
                    pass  # another process wrote first (or may have): the thread asks the database
        finally:
            lock.release()
    return await anyio.to_thread.run_sync(
        partial(
            submit_action,
            ctx,
            table_id=table_id,
            account_id=account_id,
            text=text,
            expected_version=expected_version,
            answer=answer,
        )
    )


# --- computer players -----------------------------------------------------------------------


def play_bots(ctx: ServerContext, table_id: int, *, most: int = 10_000) -> int:
    """Let computer players move at *table_id* while one is to move; return the moves made.

    A bot thinks on a copy of the state outside the lock, then submits like a client, against
    the version it saw (a stale one is simply retried).
    """
    moves = 0
    while moves < most:
        with ctx.cache.lock(table_id):
            try:
                entry = current_entry(ctx, table_id)
            except (NotFound, Conflict):
                return moves
            if entry.table.status != ACTIVE:
                return moves
            seats = [s for s in entry.state.actors() if entry.plays_itself(s)]
            if not seats:
                return moves
            seat = seats[0]
            level = entry.seats[seat].bot_level
            assert level is not None
            copy = entry.state.clone()
            version = entry.version
            seed = entry.table.rng_seed
            game = entry.table.game
        bot = bot_for(game, level)
        began = time.perf_counter()
        action = bot.choose(copy, seat, table_rng(seed, "bot", version))
        if ctx.metrics is not None:
            ctx.metrics.think.labels(game, level).observe(time.perf_counter() - began)
        text = copy.action_to_string(action)
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id, check=False)
            if entry.version != version:
                continue
            try:
                commit(ctx, entry, seat, entry.state.parse_action(text, player=seat))
            except _WriteLost:
                continue
            except ParlourError as err:  # a bot bug must not stop the table for good
                log.error("table %s: computer player %s refused: %s", table_id, level, err)
                return moves
            ctx.changed(table_id)
        moves += 1
    return moves


# --- host events ----------------------------------------------------------------------------


def _host_step(ctx: ServerContext, entry: Entry) -> Outcome | None:
    """Apply the first host event due at the table now (under its lock), or ``None`` when
    none is due. Raises :class:`_WriteLost` when another process wrote first."""
    if entry.table.status != ACTIVE:
        return None
    hooks = hooks_for(entry.table.game)
    due = hooks.host_events(Moment(entry.table, entry.seats, entry.state, ctx.now()))
    if not due:
        return None
    text = due[0]
    action = entry.state.parse_action(text, player=HOST)
    changes: dict[int, dict[str, Any]] = {}
    if text == "skip":
        # every person who may act now loses the turn (one seat; in daily mode each seat
        # that has not acted today); at max_skips in a row a computer player takes over
        for seat in entry.state.actors():
            if entry.plays_itself(seat):
                continue
            skips = entry.seats[seat].skips + 1
            changes[seat] = {"skips": skips}
            levels = entry.state.game.spec.bot_levels
            if skips >= entry.table.max_skips and levels:
                changes[seat].update(removed=True, bot_level=levels[-1])
    outcome = commit(ctx, entry, HOST, action, seat_changes=changes)
    ctx.changed(entry.table.id)
    return outcome


def apply_host_events(ctx: ServerContext, table_id: int) -> int:
    """Apply the host events due at *table_id* now (the game's hooks decide: a clock's
    ``skip``, a new day); return how many were applied.

    A ``skip`` counts against each person it passes; at the table's ``max_skips`` in a row
    that person is taken out and a computer player at the game's strongest level plays the
    seat. Idempotent: once applied, the events are no longer due.
    """
    applied = 0
    for _ in range(100):
        with ctx.cache.lock(table_id):
            try:
                entry = current_entry(ctx, table_id)
            except (NotFound, Conflict):
                return applied
            try:
                step = _host_step(ctx, entry)
            except _WriteLost:
                continue
            if step is None:
                return applied
            applied += 1
    return applied
