"""Looking back at a game with its coach: each decision's loss against the best choice, and
each player's biggest mistakes (``parlour analyse`` for games with a coach, the web replay).

Every event a seat made is judged by the game's coach (:mod:`parlour.engine.coach`) in the
position just before it: the **loss** is the best choice's ranking figure (a win
probability) minus the one of the choice made, 0 for the best. Decisions the coach does not
judge (no advice there, or a move it does not list, such as giving up) are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parlour.engine.coach import advise, coach_of
from parlour.engine.errors import ParlourError
from parlour.engine.records import replay
from parlour.engine.state import JSON, Game, parse_player_label


@dataclass(frozen=True)
class Decision:
    """One judged decision: the ``index`` of its event (0 first), the ``seat`` and
    ``player`` (name) who made it, the move ``made`` and its ``value``, the ``best`` move
    and its ``best_value`` (the ranking figure, a win probability), ``text`` and
    ``best_text`` (as shown: ``"win 53.4%"``) and the ``loss`` (``best_value - value``)."""

    index: int
    seat: int
    player: str
    made: str
    value: float
    text: str
    best: str
    best_value: float
    best_text: str

    @property
    def loss(self) -> float:
        """The ranking figure given up against the best choice (0 for the best)."""
        return max(0.0, self.best_value - self.value)

    def to_json(self) -> JSON:
        """The decision as a JSON object (with its ``loss``)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "player": self.player,
            "made": self.made,
            "value": self.value,
            "text": self.text,
            "best": self.best,
            "best_value": self.best_value,
            "best_text": self.best_text,
            "loss": self.loss,
        }


def review_events(
    game: Game, events: Iterable[tuple[int, str]], players: Sequence[str]
) -> list[Decision]:
    """Judge every seat's event of *events* (``(by, move)``: a seat, ``CHANCE`` or
    ``HOST``, and the move in notation) played from *game*'s start; *players* names the
    seats. Raises :class:`ParlourError` for a game without a coach and the engine's errors
    for an event that does not apply."""
    if coach_of(game.spec) is None:
        raise ParlourError(f"{game.spec.title} has no coach to judge its decisions")
    state = game.new_initial_state()
    decisions: list[Decision] = []
    for index, (by, move) in enumerate(events):
        action = state.parse_action(move, player=by)
        if by >= 0:
            advice = advise(state, by)
            made = state.action_to_string(action)
            choice = None if advice is None else advice.find(made)
            if advice is not None and choice is not None:
                best = advice.best
                decisions.append(
                    Decision(
                        index,
                        by,
                        players[by],
                        made,
                        choice.value,
                        choice.figures[0].text,
                        best.action,
                        best.value,
                        best.figures[0].text,
                    )
                )
        state.apply(action, player=by)
    return decisions


def review_record(record: JSON) -> list[Decision]:
    """:func:`review_events` of a game record. Raises ``BadRecord`` for a record that does
    not replay, :class:`ParlourError` for a game without a coach."""
    final = replay(record)  # checks the whole record first: the events below all apply
    events = [(parse_player_label(e["by"]), str(e["move"])) for e in record["events"]]
    return review_events(final.game, events, [str(p) for p in record["players"]])


def biggest_mistakes(decisions: Sequence[Decision], most: int = 3) -> dict[int, list[Decision]]:
    """Each seat's *most* decisions with the largest loss (largest first; decisions with no
    loss are no mistakes), by seat; seats without a mistake are left out."""
    by_seat: dict[int, list[Decision]] = {}
    for decision in sorted(decisions, key=lambda d: (-d.loss, d.index)):
        if decision.loss > 1e-12 and len(by_seat.setdefault(decision.seat, [])) < most:
            by_seat[decision.seat].append(decision)
    return {seat: found for seat, found in sorted(by_seat.items()) if found}


def summary_json(decisions: Sequence[Decision], players: Sequence[str], most: int = 3) -> JSON:
    """``{"decisions": [...], "players": [{"seat", "player", "decisions", "total_loss",
    "mistakes": [...]}]}``: every judged decision, and per seat the number judged, the sum
    of the losses and the biggest mistakes."""
    mistakes = biggest_mistakes(decisions, most)
    return {
        "decisions": [d.to_json() for d in decisions],
        "players": [
            {
                "seat": seat,
                "player": name,
                "decisions": sum(1 for d in decisions if d.seat == seat),
                "total_loss": sum(d.loss for d in decisions if d.seat == seat),
                "mistakes": [d.to_json() for d in mistakes.get(seat, [])],
            }
            for seat, name in enumerate(players)
        ],
    }
