"""Actions: a seat's intention in the game's notation, validated by the engine and stored."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import Response

from parlour.server.deps import AccountDep, CtxDep
from parlour.server.schemas import ActionIn, ActionOut, ErrorOut
from parlour.server.services import play
from parlour.server.wire import dumps_bytes

router = APIRouter(prefix="/tables", tags=["play"])
TableId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.post(
    "/{table_id}/actions",
    response_model=ActionOut,
    responses={
        401: {"model": ErrorOut},
        403: {"model": ErrorOut, "description": "Not your seat, or the clock took you out."},
        404: {"model": ErrorOut},
        409: {
            "model": ErrorOut,
            "description": "Stale version (``current`` holds the table now), or the game "
            "has not started or is over.",
        },
        422: {
            "model": ErrorOut,
            "description": "Bad notation or an illegal action: the "
            "engine's reason. Nothing changed.",
        },
    },
)
async def submit(table_id: TableId, body: ActionIn, ctx: CtxDep, account: AccountDep) -> Any:
    """Play an action for your seat, e.g. ``{"action": "keep 1 5 roll", "version": 3}``.

    The answer holds the events it added (your action and the chance outcomes after it),
    your observation now and your legal actions. It comes once the action is stored.
    """
    outcome = await play.submit_action_async(
        ctx,
        table_id=table_id,
        account_id=account.id,
        text=body.action,
        expected_version=body.version,
    )
    # built by the service: no second validation, and encoded by the fast encoder
    return Response(dumps_bytes(outcome.result), media_type="application/json")
