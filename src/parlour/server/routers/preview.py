"""Previews (what an action would do, changing nothing) and replays of finished games."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from parlour.server.deps import AccountDep, CtxDep, MaybeAccountDep
from parlour.server.schemas import ErrorOut, PreviewIn, PreviewOut, ReplayOut
from parlour.server.services import preview, views

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
