"""Looking back at a finished game: for each turn, the best play there was and the points left
on the table (``parlour analyse RECORD``).

A record holds every event, the tile draws included, so each player's rack is known at each
turn. The "best" play is the highest-scoring one (what the medium computer player would play);
the points left on the table are its score minus the points the turn made (all of it for an
exchange, a pass or a skip). The best play never scores less than the one made, since the
move generator lists every legal play.
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.errors import BadRecord, ParlourError
from parlour.engine.records import replay
from parlour.engine.state import JSON, parse_player_label
from parlour.games.crossword.plays import ScoredPlay
from parlour.games.crossword.state import CrosswordState


@dataclass(frozen=True)
class TurnReview:
    """One turn of a game looked back at: ``turn`` (0 first), the ``seat`` and ``player``
    who moved, their ``rack``, what they did (``made``, in notation) and its ``points``; the
    ``best`` play there was (``None`` when there was none) and the points ``left`` on the
    table (``best.score - points``, 0 without a best play)."""

    turn: int
    seat: int
    player: str
    rack: str
    made: str
    points: int
    best: ScoredPlay | None
    left: int

    def to_json(self) -> JSON:
        """The review as a JSON object."""
        return {
            "turn": self.turn,
            "seat": self.seat,
            "player": self.player,
            "rack": self.rack,
            "made": self.made,
            "points": self.points,
            "best": str(self.best.play) if self.best else None,
            "best_points": self.best.score if self.best else 0,
            "left": self.left,
        }


def best_play(state: CrosswordState, seat: int) -> ScoredPlay | None:
    """The highest-scoring play for *seat*'s rack (ties: the first in notation order)."""
    moves = state.moves(seat)
    if not moves:
        return None
    top = min(moves, key=lambda m: (-m.score, str(m.play)))
    return top.scored(state.board, state.rules)


def analyse(record: JSON) -> list[TurnReview]:
    """Review every turn of the crossword game *record* (see the module docstring).

    Raises :class:`BadRecord` for a record that does not replay, and :class:`ParlourError`
    for a record of another game.
    """
    final = replay(record)  # checks the whole record first
    if not isinstance(final, CrosswordState):
        raise ParlourError(
            f"a record of {final.game.spec.name}: parlour analyse reads Crossword and the "
            "games with a coach"
        )
    state = final.game.new_initial_state()
    assert isinstance(state, CrosswordState)
    players = [str(p) for p in record["players"]]
    reviews: list[TurnReview] = []
    for index, event in enumerate(record["events"]):
        player = parse_player_label(event["by"])
        action = state.parse_action(event["move"], player=player)
        turns = len(state.log)
        seats = list(state.actors()) if player >= 0 or event["move"] == "skip" else []
        before = {seat: (best_play(state, seat), state.racks[seat]) for seat in seats}
        try:
            state.apply(action, player=player)
        except ParlourError as err:  # replay() accepted it: cannot happen
            raise BadRecord(str(err), index=index) from None
        for entry in state.log[turns:]:
            seat = entry.get("seat")
            if seat is None or seat not in before or entry["kind"] == "end":
                continue
            best, rack = before[seat]
            points = int(entry.get("score", 0))
            made = _made(entry, str(event["move"]))
            left = best.score - points if best else 0
            reviews.append(
                TurnReview(entry["turn"], seat, players[seat], rack, made, points, best, left)
            )
    return reviews


def _made(entry: dict[str, object], move: str) -> str:
    """What a turn did, in notation: the play as made, the exchange, pass or skip."""
    if entry["kind"] == "play":
        return str(entry["play"])
    if entry["kind"] == "exchange":
        return move
    return str(entry["kind"])
