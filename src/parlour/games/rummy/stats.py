"""Per-seat facts of a finished Rummy game, for the statistics (``docs/rules/rummy.md#statistics``).

Pure: computed from the state; the scorebook (:mod:`parlour.scorebook`) stores them as plain
values so that storage never imports the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.state import State
from parlour.games.rummy.state import RummyState


@dataclass(frozen=True)
class SeatFacts:
    """One seat's game: ``won``, the final ``game_score`` and every ``round_scores`` entry
    (points, in round order)."""

    seat: int
    won: bool
    game_score: int
    round_scores: tuple[int, ...]


def seat_facts(state: State) -> list[SeatFacts]:
    """The facts of every seat of a finished Rummy game.

    Raises ``IllegalMove`` if the game is not over, ``TypeError`` for another game.
    """
    if not isinstance(state, RummyState):
        raise TypeError(f"not a Rummy state: {state.game.spec.name}")
    result = state.result()
    return [
        SeatFacts(
            seat,
            seat in result.winners,
            result.scores[seat],
            tuple(r[seat] for r in state.round_scores),
        )
        for seat in range(state.n)
    ]
