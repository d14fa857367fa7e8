"""A crossword seat's state rebuilt from what the server sends it (``parlour connect``).

Only the seat's observation is read: the board, the scores, the log, the bag's size and
the rack sizes, its own rack. Every tile the seat cannot see (the other racks, the bag) is
a ``?`` placeholder, so the state drawn in the terminal holds nothing hidden from the seat.
The board, the rack and the rules are the real ones: previews and hints of one's own plays
work as in a local game; the server checks every move.
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.state import JSON, SIMULTANEOUS, TERMINAL, Game, State
from parlour.games.crossword.board import SIZE, Board
from parlour.games.crossword.state import CrosswordState

HIDDEN = "?"
"""A tile the seat cannot see."""


def crossword_shadow(
    game: Game, seat: int | None, view: JSON, events: Sequence[tuple[int, str]]
) -> State:
    """The seat's state from its observation *view* (see the module docstring); *events*
    are not needed (the observation's ``log`` has the plays)."""
    state = game.new_initial_state()
    assert isinstance(state, CrosswordState)
    n = game.num_players
    heights = {
        r * SIZE + c: int(h)
        for r, row in enumerate(view["heights"])
        for c, h in enumerate(row)
        if h
    }
    state.board = Board.from_rows(list(view["board"]), heights)
    racks = [HIDDEN * int(size) for size in view["rack_sizes"]]
    if view.get("over") and view.get("final_racks"):
        racks = list(view["final_racks"])
    elif seat is not None and view.get("rack") is not None:
        racks[seat] = str(view["rack"])
    state.racks = racks
    state.bag = HIDDEN * int(view["bag"])
    state.covered = str(view.get("covered", ""))
    state.scores = [int(s) for s in view["scores"]]
    state.streak = [int(s) for s in view.get("streak", [0] * n)]
    state.log = [dict(e) for e in view.get("log", [])]
    state.turns = 1 + max((int(e["turn"]) for e in state.log if "turn" in e), default=-1)
    state.day = int(view.get("day") or 1)
    state.over = bool(view.get("over"))
    state.to_draw = []
    actors = [int(a) for a in view.get("actors", [])]
    state.acted = [s not in actors for s in range(n)]
    to_move = int(view.get("to_move", 0))
    if to_move not in (SIMULTANEOUS, TERMINAL) and to_move >= 0:
        state.seat = to_move
    state.history = []
    return state
