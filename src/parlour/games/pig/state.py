"""Pig's rules as a state machine (``docs/rules/pig.md``).

One six-sided die. A turn is a run of rolls by one player: a roll of 1 ("pig") loses the
turn total and ends the turn; any other face adds its value to the turn total, and the player
then rolls again (:class:`~.notation.Roll`) or holds (:class:`~.notation.Hold`), adding the
turn total to their score and ending the turn. The first roll of a turn is not a choice, so it
happens by itself: every turn starts at a chance node. A player who holds with the target
(100, the ``target`` option) or more wins at once: there are no last turns, and since only one
score changes at a time there are no ties. Seat 0 starts; turns go in seat order.

Every roll is an explicit chance node with six outcomes ``die 1`` ... ``die 6``, 1/6 each.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE, HOST, JSON, TERMINAL, Result, State
from parlour.games.pig.notation import FACES, Die, Hold, PigAction, Roll, Skip, parse

PIG = 1
"""The face that loses the turn total and ends the turn."""

_OUTCOMES: tuple[tuple[Die, Fraction], ...] = tuple((Die(f), Fraction(1, 6)) for f in FACES)
_DICE: tuple[Die, ...] = tuple(die for die, _ in _OUTCOMES)
_CHOICES: tuple[Roll, Hold] = (Roll(), Hold())


class PigState(State):
    """A game of Pig. See the module docstring for the rules.

    Attributes (read them, never assign): ``target`` (points that win, held),
    ``scores`` (banked points by seat), ``seat`` (whose turn), ``turn_total`` (points at risk
    this turn), ``die`` (the face last rolled this turn, ``None`` before the turn's first
    roll), ``rolls`` (rolls so far this turn), ``rolling`` (the die is about to be rolled: a
    chance node), ``last`` (how the previous turn ended: ``{"seat", "end": "hold" | "pig" |
    "skip", "points"}``, the points held or lost; ``None`` before the first turn ends),
    ``turns`` (turns finished), ``winner`` (the seat that won, ``None`` until then).
    """

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.target: int = int(game.options["target"])
        self.scores: list[int] = [0] * game.num_players
        self.seat = 0
        self.turn_total = 0
        self.die: int | None = None
        self.rolls = 0
        self.rolling = True
        self.last: dict[str, Any] | None = None
        self.turns = 0
        self.winner: int | None = None

    # --- whose move and what they may do -------------------------------------------------

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.rolling:
            return CHANCE
        return self.seat

    def legal_actions(self, player: int | None = None) -> Sequence[PigAction]:
        """``roll`` and ``hold`` for the seat to move; the six faces at a chance node (for
        *player* ``None`` or CHANCE); empty for anyone else and at the end."""
        if self.winner is not None:
            return ()
        if self.rolling:
            return _DICE if player in (None, CHANCE) else ()
        return _CHOICES if player in (None, self.seat) else ()

    def chance_outcomes(self) -> list[tuple[Die, Fraction]]:
        """``die 1`` ... ``die 6``, each 1/6. Raises :class:`IllegalMove` when the die is not
        about to be rolled."""
        self._require_chance()
        return list(_OUTCOMES)

    def sample_chance(self, rng: random.Random) -> Die:
        """One fair roll of the die drawn with *rng*. Raises :class:`IllegalMove` when the die
        is not about to be rolled."""
        self._require_chance()
        return Die(rng.choice(FACES))

    def _require_chance(self) -> None:
        if self.winner is not None or not self.rolling:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")

    def _check(self, action: PigAction, player: int) -> None:
        if player == HOST:
            if not isinstance(action, Skip):
                raise IllegalMove(f"the host may only skip a turn, not {action!r}")
            return
        if player == CHANCE:
            if not isinstance(action, Die):
                raise IllegalMove(f"a chance outcome is a die face ('die 4'), not {action!r}")
            if action.face not in FACES:
                raise IllegalMove(f"a die shows 1 to 6, not {action.face!r}")
            return
        if isinstance(action, Die):
            raise IllegalMove(f"{action} is a chance outcome: a player may roll or hold")
        if isinstance(action, Skip):
            raise IllegalMove("skip is the host's (a clock ran out): a player may roll or hold")
        if not isinstance(action, (Roll, Hold)):
            raise IllegalMove(f"{action!r} is not a Pig move: a player may roll or hold")

    def _apply(self, action: PigAction, player: int) -> None:
        if isinstance(action, Die):
            self.rolling = False
            self.rolls += 1
            self.die = action.face
            if action.face == PIG:
                self._end_turn("pig")
            else:
                self.turn_total += action.face
        elif isinstance(action, Roll):
            self.rolling = True
        elif isinstance(action, Hold):
            self.scores[self.seat] += self.turn_total
            if self.scores[self.seat] >= self.target:
                self.winner = self.seat
            self._end_turn("hold")
        else:
            self._end_turn("skip")

    def _end_turn(self, end: str) -> None:
        self.last = {"seat": self.seat, "end": end, "points": self.turn_total}
        self.turns += 1
        self.turn_total = 0
        self.die = None
        self.rolls = 0
        if self.winner is None:
            self.rolling = True
            self.seat = (self.seat + 1) % self.game.num_players
        else:
            self.rolling = False

    # --- notation, views, results --------------------------------------------------------

    def action_to_string(self, action: PigAction) -> str:
        return str(action)

    def parse_action(self, text: str, *, player: int | None = None) -> PigAction:
        """Pig notation (:func:`~.notation.parse`) -> an action; *player* is not needed."""
        return parse(text)

    def _observation(self, seat: int | None) -> JSON:
        """Everything in Pig is public; *seat* only fills ``you``."""
        return {
            "game": self.game.spec.name,
            "you": seat,
            "to_move": self.current_player(),
            "seat": self.seat,
            "scores": list(self.scores),
            "target": self.target,
            "turn_total": self.turn_total,
            "die": self.die,
            "rolls": self.rolls,
            "last": None if self.last is None else dict(self.last),
            "over": self.winner is not None,
            "winners": [] if self.winner is None else [self.winner],
        }

    def result(self) -> Result:
        """Final scores and the one winner (the seat that held to the target). Raises
        :class:`IllegalMove` before the end."""
        self.require_terminal()
        assert self.winner is not None
        return Result(tuple(self.scores), (self.winner,))

    def _dump(self) -> JSON:
        return {
            "scores": list(self.scores),
            "seat": self.seat,
            "turn_total": self.turn_total,
            "die": self.die,
            "rolls": self.rolls,
            "rolling": self.rolling,
            "last": None if self.last is None else dict(self.last),
            "turns": self.turns,
            "winner": self.winner,
        }

    def clone(self) -> PigState:
        """An independent copy (shallow where the values are immutable: faster than the
        engine's deep copy, for bots and simulations)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.scores = list(self.scores)
        twin.history = list(self.history)
        twin.__dict__.pop("_listed", None)
        return twin

    def __str__(self) -> str:
        board = "  ".join(
            f"{'>' if s == self.seat else ' '}seat {s}: {p}" for s, p in enumerate(self.scores)
        )
        if self.winner is not None:
            status = f"over: seat {self.winner} won"
        else:
            die = "-" if self.die is None else str(self.die)
            status = f"turn total {self.turn_total}, die {die}, {self.rolls} rolls this turn"
        return f"Pig to {self.target}: {board}\n{status}"
