"""The coach: what each choice of a decision is worth, as the game's own solver sees it.

A game that can judge its decisions names a coach on its spec (``GameSpec.coach``,
``"module:function"``, loaded lazily like its bots): a :data:`Coach` takes a state and the
seat that is to decide there and gives :class:`Advice`, every legal choice with its
figures (``"win 53.4%"``; a game may add more figures, the first one ranks the choices) and
the best one marked. The platform (the terminal tables, the server, ``parlour analyse``)
reads only these types and never names a game.

Who may see advice is the platform's rule, not the game's: :func:`advise` gives it only for
the seat whose decision it is (never for a chance node, the host, or another seat), and a
coach reads only what that seat's observation shows (the dice games have no hidden
information; a game with hidden information must judge from the seat's observation alone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING

from parlour.engine.errors import ParlourError

if TYPE_CHECKING:
    from parlour.engine.spec import GameSpec
    from parlour.engine.state import JSON, State


@dataclass(frozen=True)
class Figure:
    """One figure of a choice: its ``name`` (``"win"``: a win probability, 0-1; a game may
    add others, such as expected points), its ``value`` and the ``text`` shown to players
    (``"win 53.4%"``)."""

    name: str
    value: float
    text: str


@dataclass(frozen=True)
class Choice:
    """One legal choice: its ``action`` in the game's notation, its ``figures`` (the first
    ranks the choices) and whether it is the ``best`` (the first figure's highest value)."""

    action: str
    figures: tuple[Figure, ...]
    best: bool = False

    @property
    def value(self) -> float:
        """The ranking figure's value."""
        return self.figures[0].value

    def to_json(self) -> JSON:
        """``{"action", "best", "figures": [{"name", "value", "text"}, ...]}``."""
        return {
            "action": self.action,
            "best": self.best,
            "figures": [{"name": f.name, "value": f.value, "text": f.text} for f in self.figures],
        }


@dataclass(frozen=True)
class Advice:
    """The coach's view of one decision of ``seat``: the ``choices`` best first (exactly one
    marked best), and a ``note`` on how exact the figures are (``""``: exact)."""

    seat: int
    choices: tuple[Choice, ...]
    note: str = ""

    @property
    def best(self) -> Choice:
        """The best choice (the first)."""
        return self.choices[0]

    def find(self, action: str) -> Choice | None:
        """The choice whose notation is *action*, or ``None``."""
        return next((c for c in self.choices if c.action == action), None)

    def loss(self, action: str) -> float:
        """How much of the ranking figure *action* gives up against the best choice (0 for
        the best). Raises ``ParlourError`` for an action that is no choice here."""
        choice = self.find(action)
        if choice is None:
            raise ParlourError(f"{action!r} is not one of the choices the coach judged")
        return self.best.value - choice.value

    def to_json(self) -> JSON:
        """``{"seat", "note", "choices": [...]}`` (see :meth:`Choice.to_json`)."""
        return {
            "seat": self.seat,
            "note": self.note,
            "choices": [c.to_json() for c in self.choices],
        }


Coach = Callable[["State", int], "Advice | None"]
"""``(state, seat) -> advice``: the advice for *seat*, which is to decide in *state*, or
``None`` where the game's coach has nothing to say (a one-player practice game, say)."""


def ranked(seat: int, choices: Sequence[tuple[str, tuple[Figure, ...]]], note: str = "") -> Advice:
    """:class:`Advice` from ``(action, figures)`` pairs in the game's order: sorted by the
    first figure, highest first (a stable sort: equal values keep the game's order), the
    first marked best. Raises ``ValueError`` for no choices."""
    if not choices:
        raise ValueError("a decision has at least one choice")
    order = sorted(choices, key=lambda c: -c[1][0].value)
    return Advice(
        seat,
        tuple(Choice(a, f, best=i == 0) for i, (a, f) in enumerate(order)),
        note,
    )


def win_figure(chance: float) -> Figure:
    """A win probability as a figure: ``win_figure(0.5342).text == "win 53.4%"``."""
    return Figure("win", chance, f"win {100 * chance:.1f}%")


def coach_of(spec: GameSpec) -> Coach | None:
    """The game's coach (``spec.coach`` loaded), or ``None`` when it has none."""
    if not spec.coach:
        return None
    module, _, name = spec.coach.partition(":")
    coach: Coach = getattr(import_module(module), name)
    return coach


def advise(state: State, seat: int) -> Advice | None:
    """The coach's advice for *seat* in *state*: ``None`` unless the game has a coach and
    *seat* is the one to decide now (never for a chance node, the host, a finished game or
    another seat's decision), or the coach has nothing to say."""
    coach = coach_of(state.game.spec)
    if coach is None or state.is_terminal() or seat < 0 or state.current_player() != seat:
        return None
    return coach(state, seat)
