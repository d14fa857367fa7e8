"""What each logged event did, as the rules tell it (:class:`~parlour.engine.step.Step`),
for a viewer who loads a table already under way: the web client's move log tells an old
event in the same words as when it happened live ("cpu:strong rolled 1 2 3 4 4 4", "You
kept 6 6 6 6 and banked with 1,500"), which needs who the event concerned and what it
scored, not only its notation.

Only the public part of a step is sent: ``seat`` (whose turn it concerned), ``points``,
``score_changes`` and ``marks``, never ``facts`` (a game may put a hidden card there), and
only for the events the viewer may see.
"""

from __future__ import annotations

from parlour.engine.registry import load
from parlour.engine.state import JSON
from parlour.server.errors import NotFound
from parlour.server.services.cache import SERVER_EVENT, current_entry
from parlour.server.services.context import ServerContext
from parlour.server.services.lobby import may_see
from parlour.server.services.payloads import viewer_seat, visible_events
from parlour.server.services.views import table_view
from parlour.storage.tables import LOBBY


def event_steps(
    ctx: ServerContext, table_id: int, account_id: int | None, invite: str | None
) -> JSON:
    """``{"version", "steps"}``: for every event of the table's log this viewer may see,
    ``{"seq", "seat", "points", "score_changes", "marks"}`` (a resignation, which is the
    server's and not the game's, has ``seat`` ``None`` and no points). A table not started
    has no steps. Replays the log from the start (one clone per event): asked for once
    when a page loads, not per move. Raises :class:`NotFound` for a table the viewer may
    not see."""
    shown = table_view(ctx, table_id, account_id, invite=invite)  # who may see it
    if shown["status"] in (LOBBY, "cancelled"):
        return {"version": shown["version"], "steps": []}
    with ctx.cache.lock(table_id):
        entry = current_entry(ctx, table_id)
        if not may_see(entry.table, entry.seats, account_id, invite):
            raise NotFound(f"no table {table_id}")
        you = viewer_seat(entry, account_id)
        seen = {e["seq"] for e in visible_events(entry, you, entry.events)}
        events = list(entry.events)
        game = load(entry.table.game, **entry.state.game.options)
        version = entry.version
    state = game.new_initial_state()
    steps: list[JSON] = []
    for event in events:
        if event.by == SERVER_EVENT:  # a resignation (services.endings): not the game's
            step: JSON = {"seat": None, "points": 0, "score_changes": [], "marks": []}
        else:
            action = state.parse_action(event.move, player=event.by)
            before = state.clone()
            state.apply(action, player=event.by)
            told = state.describe_step(before, event.by, action)
            step = {
                "seat": told.seat,
                "points": told.points,
                "score_changes": list(told.score_changes),
                "marks": list(told.marks),
            }
        if event.seq in seen:
            steps.append({"seq": event.seq, **step})
    return {"version": version, "steps": steps}
