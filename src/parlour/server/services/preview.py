"""Looking ahead and looking back: what an action would do (a preview, changing nothing) and
a finished game's positions step by step (a replay).

A preview applies the seat's intended action to a copy of the table's state. It tells the
acting seat whether the action is legal, and what the seat itself would see right after it
(its score, the words formed, its own holdings), nothing else that is hidden:

- no chance outcome is drawn, so the position after shows nothing drawn;
- where the state already holds a hidden outcome (Rummy's stock is shuffled at the deal) or
  the position after would show what is hidden until then (a move that ends Rummy's round
  scores every hand), the game's ``preview_hides`` hook names those actions, and their
  preview says only that the action is legal, with the reason; by default an action that
  ends a game of imperfect information is hidden so;
- otherwise the view is the game's ``preview_view`` hook's: the seat's observation after the
  action, less what only the game's end would reveal (the crossword's last pass or play
  shows no other seat's final rack, adjustment or score).

A replay exists only for finished games, whose records hold everything anyway, so it shows
every seat's observation.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.errors import ParlourError
from parlour.engine.registry import find, load
from parlour.engine.state import JSON
from parlour.server.errors import Conflict, Refused
from parlour.server.hooks import hooks_for
from parlour.server.services.cache import SERVER_EVENT, current_entry, no_seat
from parlour.server.services.context import ServerContext
from parlour.storage.tables import ACTIVE, FINISHED


def preview_action(
    ctx: ServerContext,
    *,
    table_id: int,
    account_id: int,
    text: str | None = None,
    tiles: Sequence[tuple[str, str]] | None = None,
) -> JSON:
    """What the action *text* (or the *tiles* put on squares, for games with a ``compose``
    hook) would do for the account's seat now.

    Returns ``{"ok", "action", "reason", "version", "view"}``: ``ok`` with the action in
    notation and the seat's view after it (the game's ``preview_view`` hook: its observation
    there, less what only the game's end would reveal), or not ``ok`` with the engine's
    reason (an illegal or unreadable action is an answer here, not an error). A legal action
    whose result the seat may not see yet (the game's ``preview_hides`` hook) is ``ok`` with
    no ``view`` and the hook's reason. Raises
    :class:`Forbidden` without a seat, :class:`Conflict` when the game is not in play and
    :class:`Refused` for tiles in a game that places none. Changes nothing.
    """
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        seat = entry.seat_of(account_id)
        if seat is None:
            raise no_seat(entry.table)
        if entry.table.status != ACTIVE:
            raise Conflict("the game is over")
        before = entry.state.clone()
        version = entry.version
    hooks = hooks_for(entry.table.game)
    compose = hooks.compose
    if tiles is not None and compose is None:
        raise Refused(f"{find(entry.table.game).title} has no tiles to put on squares")
    after = before.clone()
    try:
        if tiles is not None:
            assert compose is not None
            text = compose(before, tiles)
        assert text is not None
        action = after.parse_action(text, player=seat)
        written = after.action_to_string(action)
        after.apply(action, player=seat)
    except ParlourError as err:
        return {"ok": False, "action": text, "reason": str(err), "version": version, "view": None}
    hidden = hooks.preview_hides(before, action, seat, after)
    if hidden is not None:
        return {"ok": True, "action": written, "reason": hidden, "version": version, "view": None}
    return {
        "ok": True,
        "action": written,
        "reason": None,
        "version": version,
        "view": hooks.preview_view(before, after, seat),
    }


def replay_step(ctx: ServerContext, *, table_id: int, step: int) -> JSON:
    """A finished table after its first *step* events (0: before any; more than the log
    holds: the end): ``{"step", "steps", "event", "names", "views"}``, ``event`` being the
    last event applied (``{"seq", "by", "move"}``) and ``views`` every seat's observation.

    Raises :class:`Conflict` unless the game is over. Check who may see the table first.
    """
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        if entry.table.status != FINISHED:
            raise Conflict("a replay is available once the game is over")
        events = list(entry.events)
        names = list(entry.names)
        game = load(entry.table.game, **entry.state.game.options)
    step = max(0, min(step, len(events)))
    state = game.new_initial_state()
    for event in events[:step]:
        if event.by == SERVER_EVENT:  # a resignation (services.endings): not the game's
            continue
        state.apply(state.parse_action(event.move, player=event.by), player=event.by)
    last = events[step - 1] if step else None
    return {
        "step": step,
        "steps": len(events),
        "event": None if last is None else {"seq": last.seq, "by": last.by, "move": last.move},
        "names": names,
        "views": [state.observation(seat) for seat in range(game.num_players)],
    }
