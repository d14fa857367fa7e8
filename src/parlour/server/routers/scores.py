"""The scorebook: Greedy tournament standings and Rummy statistics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from parlour.server.deps import CtxDep
from parlour.server.schemas import ErrorOut, RummyStatsOut, StandingOut
from parlour.server.services import scores

router = APIRouter(tags=["scorebook"])


@router.get("/standings/greedy", response_model=list[StandingOut])
def greedy_standings(ctx: CtxDep) -> Any:
    """Greedy tournament standings (person-vs-computer games), most points first."""
    return scores.standings(ctx)


@router.get(
    "/stats/rummy", response_model=list[RummyStatsOut], responses={422: {"model": ErrorOut}}
)
def rummy_statistics(
    ctx: CtxDep,
    name: Annotated[str | None, Query(min_length=1, max_length=20, pattern=r"^[^\x00]+$")] = None,
) -> Any:
    """Rummy statistics per person (games with a computer player), or one person's."""
    return scores.statistics(ctx, name)
