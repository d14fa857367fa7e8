"""Tables: create, list, view, join, leave, start (the lobby), and download a record."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, status

from parlour.engine.records import to_record
from parlour.server.deps import AccountDep, CtxDep, MaybeAccountDep
from parlour.server.errors import Conflict
from parlour.server.schemas import (
    ErrorOut,
    EventsOut,
    JoinIn,
    NewTableIn,
    StepsOut,
    TableOut,
    TableSummary,
)
from parlour.server.services import lobby, steps, views
from parlour.server.services.cache import current_entry

router = APIRouter(prefix="/tables", tags=["tables"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422)
}
TableId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Invite = Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post("", status_code=status.HTTP_201_CREATED, response_model=TableOut, responses=ERRORS)
def create(body: NewTableIn, ctx: CtxDep, account: AccountDep) -> Any:
    """Create a table (you sit in the ``"me"`` seat). With ``start`` and no open seat, the
    game starts at once."""
    table_id = lobby.create_table(
        ctx,
        account_id=account.id,
        request=lobby.NewTable(
            game=body.game,
            seats=body.seats,
            options=dict(body.options),
            visibility=body.visibility,
            clock_days=body.clock_days,
            max_skips=body.max_skips,
            start=body.start,
            min_players=body.min_players,
            time_zone=body.time_zone,
            rated=body.rated,
        ),
    )
    return views.table_view(ctx, table_id, account.id)


@router.get("", response_model=list[TableSummary], responses=ERRORS)
def list_tables(
    ctx: CtxDep,
    account: MaybeAccountDep,
    which: Literal["open", "mine"] = "open",
    game: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z0-9-]+$")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
) -> Any:
    """Open tables waiting for players, or your tables (``which=mine``; your turn first):
    the ``limit`` newest, with ids below ``before`` when given. The next page: ``before`` =
    the smallest ``id`` of this one (an empty page: no more)."""
    return views.list_tables(
        ctx, account.id if account else None, which=which, game=game, limit=limit, before=before
    )


@router.get("/{table_id}", response_model=TableOut, responses=ERRORS)
def get_table(
    table_id: TableId, ctx: CtxDep, account: MaybeAccountDep, invite: Invite = None
) -> Any:
    """The table for you: your seat's observation, legal actions and the events you may
    see (spectators: the public view). Invite-only tables need a seat or the invite code."""
    return views.table_view(ctx, table_id, account.id if account else None, invite=invite)


@router.get("/{table_id}/events", response_model=EventsOut, responses=ERRORS)
def get_events(
    table_id: TableId,
    ctx: CtxDep,
    account: MaybeAccountDep,
    since: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    invite: Invite = None,
) -> Any:
    """The events numbered ``since`` and later that you may see (resynchronising)."""
    return views.events_since(ctx, table_id, account.id if account else None, since, invite)


@router.get("/{table_id}/steps", response_model=StepsOut, responses=ERRORS)
def get_steps(
    table_id: TableId, ctx: CtxDep, account: MaybeAccountDep, invite: Invite = None
) -> Any:
    """What each event you may see did, as the rules tell it (whose turn it concerned, its
    points, score changes and marks): for telling an old event in words after a reload."""
    return steps.event_steps(ctx, table_id, account.id if account else None, invite)


@router.post("/{table_id}/join", response_model=TableOut, responses=ERRORS)
def join(table_id: TableId, body: JoinIn, ctx: CtxDep, account: AccountDep) -> Any:
    """Take the first open seat (invite-only tables: give the code)."""
    lobby.join_table(ctx, table_id=table_id, account_id=account.id, invite=body.invite)
    return views.table_view(ctx, table_id, account.id)


@router.post("/{table_id}/leave", response_model=TableOut, responses=ERRORS)
def leave(table_id: TableId, ctx: CtxDep, account: AccountDep) -> Any:
    """Leave before the start (the creator leaving cancels the table). The answer is the
    table as its invite code shows it (the leaver held the code while seated)."""
    invite = lobby.leave_table(ctx, table_id=table_id, account_id=account.id)
    return views.table_view(ctx, table_id, account.id, invite=invite)


@router.post("/{table_id}/vote", response_model=TableOut, responses=ERRORS)
def vote(table_id: TableId, ctx: CtxDep, account: AccountDep) -> Any:
    """Vote to begin now. What votes do is the game's start rule (the crossword: the game
    begins once the minimum number of players voted); elsewhere they are only shown."""
    lobby.vote_start(ctx, table_id=table_id, account_id=account.id)
    return views.table_view(ctx, table_id, account.id)


@router.post("/{table_id}/start", response_model=TableOut, responses=ERRORS)
def start(table_id: TableId, ctx: CtxDep, account: AccountDep) -> Any:
    """Start the table (by default: the creator, once every seat is filled)."""
    lobby.start_table(ctx, table_id=table_id, account_id=account.id)
    return views.table_view(ctx, table_id, account.id)


@router.get(
    "/{table_id}/record",
    responses={**ERRORS, 200: {"description": "The game record (docs/records.md)."}},
)
def record(table_id: TableId, ctx: CtxDep, account: MaybeAccountDep, invite: Invite = None) -> Any:
    """The finished game as a record (``docs/records.md``); 409 while it is in play."""
    view = views.table_view(ctx, table_id, account.id if account else None, invite=invite)
    if view["status"] != "finished":
        raise Conflict("a record is available once the game is over")
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        return to_record(
            entry.state,
            entry.names,
            table=table_id,
            finished=None
            if entry.table.finished_at is None
            else entry.table.finished_at.isoformat(),
        )
