"""The coach at a server table, and a finished game's review (``docs/server.md#the-coach``).

The coach's figures for a decision (each legal choice's win probability, the best marked:
:mod:`parlour.engine.coach`) go only to the person whose decision it is, only when asked:
never for a computer player's seat (a bot seat, or a person the clock took out), another
person's decision, a chance roll, or a finished game, and never at a rated table (advice
during a rated game would be help from outside). The game's coach judges from the state
the seat may see (the games with a coach have no hidden information).

A finished game's review (each decision's loss against the best choice and each player's
biggest mistakes: :mod:`parlour.engine.review`) is open to whoever may see its replay; it is
worked out once per table and kept.
"""

from __future__ import annotations

from functools import lru_cache

from parlour.engine.coach import advise
from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, load
from parlour.engine.review import review_events, summary_json
from parlour.engine.state import JSON
from parlour.server.errors import Conflict, Forbidden, Refused
from parlour.server.services.cache import SERVER_EVENT, current_entry, no_seat
from parlour.server.services.context import ServerContext
from parlour.storage.tables import ACTIVE, FINISHED

RATED = "the coach is not offered at rated tables (create an unrated table to use it)"


def coach_advice(ctx: ServerContext, *, table_id: int, account_id: int) -> JSON:
    """The coach's advice for the account's decision now: ``{"version", "advice"}``,
    ``advice`` as :meth:`~parlour.engine.coach.Advice.to_json` (``None`` where the game's
    coach has nothing to say). Raises :class:`Forbidden` without a seat or for a seat a
    computer plays, :class:`Conflict` when the game is not in play or it is not the seat's
    decision, and :class:`Refused` for a game without a coach or a rated table. Changes
    nothing."""
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        seat = entry.seat_of(account_id)
        if seat is None:
            raise no_seat(entry.table)
        game = entry.table.game
        if not find(game).coach:
            raise Refused(f"{find(game).title} has no coach")
        if entry.table.lobby.get("rated", True):
            raise Refused(RATED)
        if entry.table.status != ACTIVE:
            raise Conflict("the game is not in play")
        if entry.plays_itself(seat):
            raise Forbidden("a computer player plays your seat now")
        if entry.state.current_player() != seat:
            raise Conflict("the coach speaks only when it is your decision")
        state = entry.state.clone()
        version = entry.version
    advice = advise(state, seat)
    return {"version": version, "advice": None if advice is None else advice.to_json()}


def game_review(ctx: ServerContext, *, table_id: int) -> JSON:
    """A finished table's review: ``{"decisions", "players"}`` of
    :func:`~parlour.engine.review.summary_json`. Raises :class:`Conflict` unless the game is
    over and :class:`Refused` for a game without a coach. Check who may see the table first.
    """
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        if entry.table.status != FINISHED:
            raise Conflict("a review is available once the game is over")
        if not find(entry.table.game).coach:
            raise Refused(f"{find(entry.table.game).title} has no coach")
        events = tuple((e.by, e.move) for e in entry.events if e.by != SERVER_EVENT)
        names = tuple(entry.names)
        key = (table_id, entry.table.game, tuple(sorted(entry.state.game.options.items())))
    return _review(key, events, names)


@lru_cache(maxsize=64)
def _review(
    key: tuple[int, str, tuple[tuple[str, object], ...]],
    events: tuple[tuple[int, str], ...],
    names: tuple[str, ...],
) -> JSON:
    _, game_name, options = key
    game = load(game_name, **dict(options))
    try:
        decisions = review_events(game, events, names)
    except ParlourError as err:  # the stored events replayed once: cannot happen
        raise Conflict(f"the game cannot be reviewed: {err}") from None
    return summary_json(decisions, names)
