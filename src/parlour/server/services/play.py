"""Playing: an action from a seat, computer players' moves, and host events, each in one
short transaction.

Every change goes through :func:`_commit`: under the table's lock it applies the action to the
live state (the engine refuses an illegal one and changes nothing), then samples and applies
every chance outcome that follows with the table's secret generator, then appends all those
events to the log and updates the snapshot *only if the table is still at the version the
action was made against*. A concurrent writer (another thread is excluded by the lock;
another server process is not) makes that conditional update match nothing: the change is
abandoned, the entry is rebuilt from the database, and the client is told its version is
stale. So of two simultaneous submissions exactly one wins.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from parlour.engine.errors import ParlourError
from parlour.engine.state import CHANCE, HOST, JSON, Action
from parlour.server.errors import Conflict, Forbidden, NotFound, Refused, StaleVersion
from parlour.server.hooks import Finished, Moment, deadline_after, hooks_for
from parlour.server.services.cache import (
    Entry,
    bot_for,
    current_entry,
    draw_chance,
    table_rng,
)
from parlour.server.services.context import ServerContext
from parlour.server.services.payloads import action_result, current_payload
from parlour.storage.db import write_transaction
from parlour.storage.tables import (
    ACTIVE,
    FINISHED,
    EventRow,
    SeatRow,
    append_events,
    set_seat,
)

log = logging.getLogger("parlour.server")


class _Lost(Exception):
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


def _columns(entry: Entry, seats: Sequence[SeatRow], now: Any) -> dict[str, Any]:
    """The table row's columns for the entry's (already changed) state."""
    state = entry.state
    table = entry.table
    actors = list(state.actors()) if not state.is_terminal() else []
    probe = replace(entry, seats=list(seats))
    bot_turn = any(probe.plays_itself(s) for s in actors)
    person_to_move = any(not probe.plays_itself(s) for s in actors)
    values: dict[str, Any] = {
        "snapshot": state._dump(),
        "to_move": actors,
        "bot_turn": bot_turn,
        "deadline": deadline_after(now, table.clock_days) if person_to_move else None,
    }
    if state.is_terminal():
        values.update(status=FINISHED, result=state.result().to_json(), finished_at=now)
    return values


def commit(
    ctx: ServerContext,
    entry: Entry,
    player: int,
    action: Action,
    *,
    seat_changes: dict[int, dict[str, Any]] | None = None,
) -> Outcome:
    """Apply *action* for *player* (a seat or HOST) and the chance outcomes after it, and
    store them (see the module docstring). Call under the table's lock.

    Raises the engine's :class:`~parlour.engine.errors.IllegalMove` (nothing changed) and
    :class:`_Lost` when another process wrote first (the cached entry is dropped).
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
        seats = [replace(s, **changes.get(s.seat, {})) for s in entry.seats]
        values = _columns(entry, seats, now)
        with write_transaction(ctx.engine) as connection:
            if not append_events(
                connection, table.id, expected_version=version, events=added, now=now, **values
            ):
                raise _Lost()
            for seat, change in changes.items():
                set_seat(connection, table.id, seat, **change)
            new_table = replace(table, version=version + len(added), updated_at=now, **values)
            hook = hooks_for(table.game).on_finished
            if hook is not None and state.is_terminal():
                hook(Finished(connection, new_table, seats, entry.names, state))
    except BaseException:
        ctx.cache.drop(table.id)
        raise
    events = entry.events + [EventRow(version + i, by, move) for i, (by, move) in enumerate(added)]
    fresh = Entry(new_table, seats, _names(entry, seats), state, events)
    ctx.cache.put(fresh)
    return Outcome(fresh, version)


def _names(entry: Entry, seats: list[SeatRow]) -> list[str]:
    names = list(entry.names)
    for old, new in zip(entry.seats, seats, strict=True):
        if new.removed and not old.removed:
            names[new.seat] = f"{names[new.seat]} (cpu:{new.bot_level})"
    return names


def submit_action(
    ctx: ServerContext, *, table_id: int, account_id: int, text: str, expected_version: int
) -> Outcome:
    """A person's action in the game's notation, made against *expected_version*.

    Raises :class:`StaleVersion` (with the table as it is now, for that seat) when the
    version is not current, the engine's ``InvalidNotation``/``IllegalMove`` (422) with the
    reason, :class:`Forbidden` for someone without a seat here (or taken out by the clock),
    and :class:`Conflict` before the start or after the end. Nothing changes on a refusal.
    """
    if len(text) > ctx.settings.max_action_chars:
        raise Refused(f"an action has at most {ctx.settings.max_action_chars} characters")
    if "\x00" in text:
        raise Refused("an action may not contain NUL characters")
    for attempt in range(2):
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id, check=attempt > 0)
            seat = entry.seat_of(account_id)
            if seat is None:
                raise Forbidden("you have no seat at this table")
            if entry.seats[seat].removed:
                raise Forbidden("the clock took you out of this game: a computer plays your seat")
            if entry.table.status != ACTIVE:
                raise Conflict("the game is over")
            if expected_version != entry.version:
                raise StaleVersion(
                    f"the table is at version {entry.version}, not {expected_version}",
                    current=current_payload(entry, seat),
                )
            action = entry.state.parse_action(text, player=seat)
            changes = {seat: {"skips": 0}} if entry.seats[seat].skips else None
            try:
                outcome = commit(ctx, entry, seat, action, seat_changes=changes)
            except _Lost:
                continue
            ctx.changed(table_id)
            return replace(outcome, result=action_result(outcome.entry, seat, outcome.first_seq))
    raise StaleVersion("another move was stored first: reload the table")


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
        action = bot.choose(copy, seat, table_rng(seed, "bot", version))
        text = copy.action_to_string(action)
        with ctx.cache.lock(table_id):
            entry = current_entry(ctx, table_id, check=False)
            if entry.version != version:
                continue
            try:
                commit(ctx, entry, seat, entry.state.parse_action(text, player=seat))
            except _Lost:
                continue
            except ParlourError as err:  # a bot bug must not stop the table for good
                log.error("table %s: computer player %s refused: %s", table_id, level, err)
                return moves
            ctx.changed(table_id)
        moves += 1
    return moves


def apply_host_events(ctx: ServerContext, table_id: int) -> int:
    """Apply the host events due at *table_id* now (the game's hooks decide: a clock's
    ``skip``, a new day); return how many were applied.

    A ``skip`` counts against the seat to move; at the table's ``max_skips`` in a row that
    person is taken out and a computer player at the game's default level plays the seat.
    Idempotent: once applied, the events are no longer due.
    """
    applied = 0
    for _ in range(100):
        with ctx.cache.lock(table_id):
            try:
                entry = current_entry(ctx, table_id)
            except (NotFound, Conflict):
                return applied
            if entry.table.status != ACTIVE:
                return applied
            hooks = hooks_for(entry.table.game)
            due = hooks.host_events(Moment(entry.table, entry.seats, entry.state, ctx.now()))
            if not due:
                return applied
            text = due[0]
            action = entry.state.parse_action(text, player=HOST)
            changes: dict[int, dict[str, Any]] = {}
            skipped = entry.state.current_player()
            if text == "skip" and skipped >= 0 and not entry.plays_itself(skipped):
                row = entry.seats[skipped]
                skips = row.skips + 1
                changes[skipped] = {"skips": skips}
                if skips >= entry.table.max_skips:
                    levels = entry.state.game.spec.bot_levels
                    if levels:
                        changes[skipped].update(removed=True, bot_level=levels[-1])
            try:
                commit(ctx, entry, HOST, action, seat_changes=changes)
            except _Lost:
                continue
            ctx.changed(table_id)
            applied += 1
    return applied
