"""Reading ratings and games for people: a game's leaderboard, a player's page, and the
list of games in progress anyone may watch.

A person is shown under their account name, a computer level under its pseudo-account name
(``cpu:<level>``). A rating is *provisional* while its player has finished fewer than
:data:`~.ratings.PROVISIONAL_GAMES` rated games of that game.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find
from parlour.server.errors import NotFound
from parlour.server.services.accounts import fold
from parlour.server.services.cache import seat_names
from parlour.server.services.context import ServerContext
from parlour.server.services.ratings import PROVISIONAL_GAMES, conservative
from parlour.server.services.views import seats_json
from parlour.storage.accounts import find_account
from parlour.storage.ratings import RatingRow, leaderboard, rated_changes, ratings_of
from parlour.storage.rummy_stats import rummy_stats
from parlour.storage.standings import greedy_standings
from parlour.storage.tables import (
    ACTIVE,
    FINISHED,
    GameTable,
    get_tables,
    seats_of_tables,
    tables_of_account,
)


def _game(name: str) -> Any:
    try:
        return find(name)
    except ParlourError:
        raise NotFound(f"no game {name!r}") from None


def _rating(row: RatingRow, name: str) -> dict[str, Any]:
    return {
        "game": row.game,
        "player": name,
        "kind": "cpu" if row.player.startswith("cpu:") else "person",
        "rating": conservative(row.mu, row.sigma),
        "mu": round(row.mu, 2),
        "sigma": round(row.sigma, 2),
        "games": row.games,
        "wins": row.wins,
        "provisional": row.games < PROVISIONAL_GAMES,
    }


def _names(ctx: ServerContext, rows: list[RatingRow]) -> dict[str, str]:
    ids = [r.account_id for r in rows if r.account_id is not None]
    with ctx.engine.connect() as connection:
        by_id = ctx.account_names(connection, ids)
    return {
        r.player: r.player if r.account_id is None else by_id.get(r.account_id, f"#{r.account_id}")
        for r in rows
    }


def game_leaderboard(ctx: ServerContext, game: str, *, limit: int = 100) -> dict[str, Any]:
    """``{"game", "title", "provisional_games", "players": [...]}``, best first, each player
    ``{"place", "player", "kind", "rating", "mu", "sigma", "games", "wins", "provisional"}``.
    Raises :class:`NotFound` for an unknown game."""
    spec = _game(game)
    with ctx.engine.connect() as connection:
        rows = leaderboard(connection, spec.name, limit=limit)
    names = _names(ctx, rows)
    players = [{"place": i + 1, **_rating(r, names[r.player])} for i, r in enumerate(rows)]
    return {
        "game": spec.name,
        "title": spec.title,
        "provisional_games": PROVISIONAL_GAMES,
        "players": players,
    }


def player_page(ctx: ServerContext, name: str, *, recent: int = 10) -> dict[str, Any]:
    """A person's page (``kind`` ``"person"``: ratings, games played, recent finished games
    with their rating change, the scorebook's ``standings`` row (Greedy's tournament) and
    ``statistics`` (Rummy's), ``None`` when
    they have none) or a computer level's (``cpu:<level>``: its ratings). Raises
    :class:`NotFound` for no such player."""
    if name.startswith("cpu:"):
        with ctx.engine.connect() as connection:
            rows = ratings_of(connection, name)
        if not rows:
            raise NotFound(f"no rated computer player {name!r}")
        return {
            "name": name,
            "kind": "cpu",
            "games_played": sum(r.games for r in rows),
            "ratings": [_rating(r, name) for r in rows],
            "recent": [],
            "standings": None,
            "statistics": None,
        }
    with ctx.engine.connect() as connection:
        account = find_account(connection, fold(name))
        if account is None:
            raise NotFound(f"no player {name!r}")
        key = f"account:{account.id}"
        rows = ratings_of(connection, key)
        finished = tables_of_account(connection, account.id, statuses=(FINISHED,))
        tables = get_tables(connection, finished[:recent])
        seats = seats_of_tables(connection, [t.id for t in tables])
        changes = rated_changes(connection, [t.id for t in tables])
        people = {s.account_id for rows_ in seats.values() for s in rows_ if s.account_id}
        names = ctx.account_names(connection, list(people))
    games = []
    for table in tables:
        rows_ = seats[table.id]
        seat = next(s.seat for s in rows_ if s.account_id == account.id)
        result = table.result if isinstance(table.result, dict) else {}
        mine = next((c for c in changes.get(table.id, []) if c["player"] == key), None)
        resigned = seat in table.lobby.get("resigned", [])
        games.append(
            {
                "table": table.id,
                "game": table.game,
                "title": _title(table.game),
                "finished_at": None if table.finished_at is None else table.finished_at.isoformat(),
                "players": seat_names(rows_, names),
                "seat": seat,
                # a resigned seat lost, even when the computer that played it out won
                "won": not resigned and seat in result.get("winners", []),
                "resigned": resigned,
                "rated": bool(table.lobby.get("rated", True)),
                "rating_before": None if mine is None else mine["before"],
                "rating_after": None if mine is None else mine["after"],
            }
        )
    folded = account.name.strip().lower()
    greedy = next((s for s in greedy_standings(ctx.engine) if s.name.lower() == folded), None)
    try:
        rummy = rummy_stats(ctx.engine, account.name)
    except ParlourError:  # a name the scorebook cannot hold has no statistics
        rummy = []
    return {
        "name": account.name,
        "kind": "person",
        "games_played": len(finished),
        "ratings": [_rating(r, account.name) for r in rows],
        "recent": games,
        "standings": None
        if greedy is None
        else {
            "games": greedy.games,
            "wins": greedy.wins,
            "losses": greedy.losses,
            "points": greedy.points,
            "best_margin": greedy.best_margin,
        },
        "statistics": rummy[0].to_json() if rummy else None,
    }


def _title(game: str) -> str:
    try:
        return find(game).title
    except ParlourError:
        return game


def watch_list(ctx: ServerContext, *, game: str | None = None, limit: int = 50) -> list[Any]:
    """Games in progress anyone may watch (open tables, active), the most recently moved
    first: ``{"id", "game", "title", "seats", "version", "to_move", "started_at",
    "updated_at", "rated"}``. Raises :class:`NotFound` for an unknown *game* (as
    :func:`game_leaderboard` does)."""
    if game is not None:
        game = _game(game).name
    query = (
        select(GameTable.id)
        .where(GameTable.status == ACTIVE, GameTable.visibility == "open")
        .order_by(GameTable.updated_at.desc(), GameTable.id.desc())
        .limit(limit)
    )
    if game is not None:
        query = query.where(GameTable.game == game)
    with ctx.engine.connect() as connection:
        ids = [row.id for row in connection.execute(query)]
        tables = get_tables(connection, ids)
        seats = seats_of_tables(connection, ids)
        people = {s.account_id for rows in seats.values() for s in rows if s.account_id}
        names = ctx.account_names(connection, list(people))
    tables.sort(key=lambda t: ids.index(t.id))
    out = []
    for table in tables:
        rows = seats[table.id]
        out.append(
            {
                "id": table.id,
                "game": table.game,
                "title": _title(table.game),
                "seats": seats_json(rows, seat_names(rows, names), None),
                "version": table.version,
                "to_move": list(table.to_move),
                "started_at": None if table.started_at is None else table.started_at.isoformat(),
                "updated_at": table.updated_at.isoformat(),
                "rated": bool(table.lobby.get("rated", True)),
            }
        )
    return out
