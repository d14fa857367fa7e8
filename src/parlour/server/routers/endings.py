"""Ending games and what follows: resign, abort, rematch, ratings, player pages, and the
games anyone may watch (``docs/server.md``, "Ending games, ratings and spectators")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from parlour.server.deps import AccountDep, CtxDep
from parlour.server.schemas import ErrorOut, SeatOut, Strict, TableOut
from parlour.server.services import endings, players, views

router = APIRouter(tags=["endings"])
TableId = Annotated[int, Path(ge=1, le=2**31 - 1)]
GameName = Annotated[str, Path(max_length=40, pattern=r"^[a-z0-9-]+$")]
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 403, 404, 409, 422)
}


class ResignIn(Strict):
    """Resign, against the table version you saw (a move made since refuses it: 409)."""

    version: int = Field(ge=0, le=10_000_000, examples=[12])


class RematchOut(BaseModel):
    """A rematch offer or acceptance: the seats of the finished table that accepted, those
    still to accept, and the new table once everyone accepted."""

    table: int
    seats: list[int]
    waiting: list[int]
    new_table: int | None


class RatingOut(BaseModel):
    """A player's rating in a game: ``rating`` is ``mu - 3 * sigma`` (openskill's
    Plackett-Luce); ``provisional`` until the player finished 5 rated games of it."""

    game: str
    player: str
    kind: Literal["person", "cpu"]
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    provisional: bool


class PlacedRatingOut(RatingOut):
    """A leaderboard row."""

    place: int


class LeaderboardOut(BaseModel):
    """A game's leaderboard, best first."""

    game: str
    title: str
    provisional_games: int
    players: list[PlacedRatingOut]


class RecentGameOut(BaseModel):
    """One of a player's finished games."""

    table: int
    game: str
    title: str
    finished_at: str | None
    players: list[str]
    seat: int
    won: bool
    resigned: bool
    rated: bool
    rating_before: float | None
    rating_after: float | None


class PlayerOut(BaseModel):
    """A player's page: ratings, games played, recent games, the Greedy standings row and
    Rummy statistics (``None`` when they have none; computer levels have neither)."""

    name: str
    kind: Literal["person", "cpu"]
    games_played: int
    ratings: list[RatingOut]
    recent: list[RecentGameOut]
    standings: dict[str, Any] | None
    """The Greedy tournament standings row (``GET /standings/greedy``)."""
    statistics: dict[str, Any] | None
    """The Rummy statistics (``GET /stats/rummy``)."""


class WatchOut(BaseModel):
    """A game in progress anyone may watch (``GET /tables/{id}`` without a seat, and the
    WebSocket, show it as a spectator sees it: nothing hidden)."""

    id: int
    game: str
    title: str
    seats: list[SeatOut]
    version: int
    to_move: list[int]
    started_at: str | None
    updated_at: str
    rated: bool


def _tell(request: Request, table_id: int, message: dict[str, Any]) -> None:
    """Send *message* to every WebSocket that follows *table_id* or belongs to a person
    seated there (this process; other processes' followers get the table's ``update``)."""
    hub = getattr(request.app.state, "hub", None)
    if hub is not None:
        hub.broadcast(table_id, message)


@router.post("/tables/{table_id}/resign", response_model=TableOut, responses=ERRORS)
def resign(
    table_id: TableId, body: ResignIn, request: Request, ctx: CtxDep, account: AccountDep
) -> Any:
    """Resign: a loss for your seat. In a two-player game (or when no other person is
    left) the game ends now and the others are ranked by their score so far; otherwise a
    computer player plays your seat out and you rank last. 409 ``stale_version`` when the
    table moved on since ``version``; 409 before the start, after the end, or when your
    seat is already out."""
    done = endings.resign(ctx, table_id=table_id, account_id=account.id, version=body.version)
    view = views.table_view(ctx, table_id, account.id)
    _tell(
        request,
        table_id,
        endings.table_event(
            table_id,
            "resigned",
            seat=done.seat,
            name=account.name,
            status=done.status,
            version=done.version,
        ),
    )
    return view


@router.post("/tables/{table_id}/abort", responses=ERRORS, status_code=204)
def abort(table_id: TableId, request: Request, ctx: CtxDep, account: AccountDep) -> None:
    """Abort before the first move: the table is cancelled and counts for nobody (no
    standings, statistics or rating). 409 once a seat has moved (resign instead), before
    the start (leave instead) or after the end."""
    done = endings.abort(ctx, table_id=table_id, account_id=account.id)
    _tell(
        request,
        table_id,
        endings.table_event(
            table_id,
            "aborted",
            seat=done.seat,
            name=account.name,
            status=done.status,
            version=done.version,
        ),
    )


@router.post("/tables/{table_id}/rematch", response_model=RematchOut, responses=ERRORS)
def rematch(table_id: TableId, request: Request, ctx: CtxDep, account: AccountDep) -> Any:
    """Offer a rematch of a finished game, or accept the one offered. Once every person of
    the table accepted, a new table starts: the same seats, options, clock and rating
    mode, the seat order rotated by one (``new_table``). 409 while the game is in play, for
    a second offer, and once the rematch is made (the detail names the table)."""
    done = endings.rematch(ctx, table_id=table_id, account_id=account.id)
    _tell(
        request,
        table_id,
        endings.table_event(
            table_id,
            "rematch" if done.new_table is not None else "rematch_offer",
            name=account.name,
            seats=done.seats,
            waiting=done.waiting,
            new_table=done.new_table,
        ),
    )
    return done


@router.get("/ratings/{game}", response_model=LeaderboardOut, responses={404: {"model": ErrorOut}})
def ratings(game: GameName, ctx: CtxDep, limit: Annotated[int, Query(ge=1, le=500)] = 100) -> Any:
    """The game's leaderboard, best first: people and computer levels (``cpu:<level>``)."""
    return players.game_leaderboard(ctx, game, limit=limit)


@router.get("/players/{name}", response_model=PlayerOut, responses={404: {"model": ErrorOut}})
def player(
    name: Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[^\x00/]+$")],
    ctx: CtxDep,
) -> Any:
    """A player's page: an account's name, or a computer level as ``cpu:<level>``."""
    return players.player_page(ctx, name)


@router.get(
    "/watch", response_model=list[WatchOut], responses={c: {"model": ErrorOut} for c in (404, 422)}
)
def watch(
    ctx: CtxDep,
    game: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z0-9-]+$")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Any:
    """Games in progress anyone may watch (open tables), the most recently moved first."""
    return players.watch_list(ctx, game=game, limit=limit)
