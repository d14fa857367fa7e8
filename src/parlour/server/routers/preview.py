"""Previews (what an action would do, changing nothing), the coach, and replays and reviews
of finished games."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from parlour.server.deps import AccountDep, CtxDep, MaybeAccountDep
from parlour.server.schemas import (
    CoachOut,
    ErrorOut,
    PreviewIn,
    PreviewOut,
    ReplayOut,
    ReviewOut,
)
from parlour.server.services import coach, preview, views

router = APIRouter(prefix="/tables", tags=["play"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422)
}
TableId = Annotated[int, Path(ge=1, le=2**31 - 1)]
Invite = Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post("/{table_id}/preview", response_model=PreviewOut, responses=ERRORS)
def preview_action(table_id: TableId, body: PreviewIn, ctx: CtxDep, account: AccountDep) -> Any:
    """What an action would do for your seat now, changing nothing: give ``action`` in the
    game's notation, or (the crossword) ``tiles`` put on squares, e.g.
    ``{"tiles": [["H8", "C"], ["I8", "A"], ["J8", "T"]]}``.

    An illegal action is an answer (``ok`` false, the engine's ``reason``), not an error;
    a legal one comes with its notation and your observation after it (the crossword's
    last ``log`` entry holds the words formed and the score). No chance outcome is drawn.
    """
    tiles = None if body.tiles is None else [(pair[0], pair[1]) for pair in body.tiles]
    return preview.preview_action(
        ctx, table_id=table_id, account_id=account.id, text=body.action, tiles=tiles
    )


@router.get("/{table_id}/replay", response_model=ReplayOut, responses=ERRORS)
def replay(
    table_id: TableId,
    ctx: CtxDep,
    account: MaybeAccountDep,
    step: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    invite: Invite = None,
) -> Any:
    """A finished game after its first ``step`` events, with every seat's observation (the
    record holds everything once the game is over); 409 while it is in play."""
    views.table_view(ctx, table_id, account.id if account else None, invite=invite)  # may see?
    return preview.replay_step(ctx, table_id=table_id, step=step)


@router.get("/{table_id}/coach", response_model=CoachOut, responses=ERRORS)
def coach_advice(table_id: TableId, ctx: CtxDep, account: AccountDep) -> Any:
    """The coach's figures for your decision now (games with a coach: each legal choice's
    chance of winning, the best marked). Only for your own decision at an unrated table:
    403 for a seat a computer plays, 409 when it is not your decision or the game is not in
    play, 422 at a rated table or for a game without a coach. Changes nothing."""
    return coach.coach_advice(ctx, table_id=table_id, account_id=account.id)


@router.get("/{table_id}/review", response_model=ReviewOut, responses=ERRORS)
def review(table_id: TableId, ctx: CtxDep, account: MaybeAccountDep, invite: Invite = None) -> Any:
    """A finished game's review by its coach: each decision's chance of winning lost
    against the best choice, and each player's biggest mistakes; 409 while it is in play,
    422 for a game without a coach."""
    views.table_view(ctx, table_id, account.id if account else None, invite=invite)  # may see?
    return coach.game_review(ctx, table_id=table_id)
