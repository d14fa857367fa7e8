"""The protocol every game follows: a pure, deterministic state machine (OpenSpiel style).

A :class:`State` knows whose move it is (a seat, :data:`CHANCE`, or :data:`TERMINAL`), lists
the legal actions, and changes only through :meth:`State.apply`, which either applies the
action and records it in ``history`` or raises :class:`~parlour.engine.errors.IllegalMove`
leaving the state exactly as it was. Chance (dice, shuffles, tile draws) is a player: at a
chance node the caller lists the outcomes, samples one with its own ``random.Random``, or
applies any possible outcome it likes (so tests and replays can force a roll).

Games write hooks (``_check``, ``_apply``, ``_observation``, ``_dump`` and the rest); this
module keeps the books: refusals, history and JSON. A saved state is restored by replaying its
history (:meth:`Game.state_from_json`), never read back from the snapshot ``_dump`` gives: the
snapshot only checks the replay.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, TypeAlias

from parlour.engine.errors import BadRecord, IllegalMove, NotEnumerable, ParlourError
from parlour.engine.spec import GameSpec
from parlour.engine.step import GAME_OVER, Step

CHANCE = -1
"""``current_player()`` at a chance node: the next step is a chance outcome."""
TERMINAL = -2
"""``current_player()`` when the game is over."""
SIMULTANEOUS = -3
"""``current_player()`` when several seats may act now; :meth:`State.actors` lists them."""
HOST = -4
"""The host (server or table): applies events that belong to no seat, such as a new day."""

Action: TypeAlias = Any
"""A game's action or chance outcome: a small immutable value (see each game's notation)."""

JSON: TypeAlias = Any
"""A value made only of dict, list, str, int, float, bool and None."""

Event: TypeAlias = tuple[int, Action]
"""One history entry: (who acted: a seat, CHANCE or HOST; the action or outcome)."""


def player_label(player: int) -> str | int:
    """The record form of who made an event: a seat number, ``"chance"`` or ``"host"``."""
    if player == CHANCE:
        return "chance"
    if player == HOST:
        return "host"
    return player


def parse_player_label(label: object) -> int:
    """Inverse of :func:`player_label`; raises :class:`ParlourError` for anything else."""
    if label == "chance":
        return CHANCE
    if label == "host":
        return HOST
    if isinstance(label, int) and not isinstance(label, bool) and label >= 0:
        return label
    raise ParlourError(f"'by' must be a seat number, 'chance' or 'host', not {label!r}")


@dataclass(frozen=True)
class Result:
    """The end of a game: final ``scores`` (points, by seat) and the ``winners`` (seats).

    More than one winner is a shared win.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def to_json(self) -> JSON:
        """``{"scores": [...], "winners": [...]}``."""
        return {"scores": list(self.scores), "winners": list(self.winners)}


class Game:
    """A loaded game: its spec and resolved options. Build one with :func:`parlour.load`."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]) -> None:
        self.spec = spec
        self.options: dict[str, Any] = dict(options)
        self.num_players: int = int(self.options["players"])

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"parlour.load({self.spec.name!r}, {opts})"

    def new_initial_state(self) -> State:
        """A fresh state at the start of the game (often a chance node: the first roll/deal)."""
        return self.spec.new_state(self)

    def state_from_json(self, data: JSON) -> State:
        """Restore a state of this game from :meth:`State.to_json` output.

        The snapshot is checked against the history: the history is replayed from the start
        and must give the same snapshot. Raises :class:`BadRecord` if it does not.
        """
        state = self.new_initial_state()
        if not isinstance(data, dict) or "history" not in data or "state" not in data:
            raise BadRecord("a saved state needs 'state' and 'history'")
        if not isinstance(data["history"], list):
            raise BadRecord("a saved state's 'history' is a list of [by, move] events")
        for index, event in enumerate(data["history"]):
            try:
                by, text = event
                player = parse_player_label(by)
                action = state.parse_action(str(text), player=player)
                state.apply(action, player=player)
            except (ParlourError, TypeError, ValueError) as err:
                raise BadRecord(str(err), index=index) from None
        if state._dump() != data["state"]:
            raise BadRecord("the saved snapshot does not match its history")
        return state


class State(ABC):
    """A game in progress. Subclasses implement the hooks; see the module docstring."""

    chance_enumeration_limit: ClassVar[int] = 5000
    """Largest number of chance outcomes :meth:`chance_outcomes` lists before refusing."""

    _listed: tuple[int, Sequence[Action]] | None = None
    """The last :meth:`legal` listing: (history length then, the actions listed)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[Event] = []

    # --- whose move ---------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The seat to move (0-based), :data:`CHANCE`, :data:`TERMINAL` or :data:`SIMULTANEOUS`."""

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now (one seat, or several at a SIMULTANEOUS node)."""
        player = self.current_player()
        return (player,) if player >= 0 else ()

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        """True when the next step is a chance outcome."""
        return self.current_player() == CHANCE

    # --- actions ------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        """The actions *player* (default: the one to move) may take now; empty if none.

        At a chance node this is the list of possible outcomes, where it is small enough.
        """

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """The possible chance outcomes with exact probabilities that sum to 1.

        Raises :class:`NotEnumerable` when the outcomes are too many (a shuffle of a deck) and
        :class:`IllegalMove` when this is not a chance node.
        """
        raise NotEnumerable(f"{self.game.spec.name}: chance outcomes here are not listed")

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one chance outcome with *rng*, with the true probabilities. Changes nothing."""

    def apply(self, action: Action, *, player: int | None = None) -> None:
        """Apply *action* for *player* (default: the one to move; CHANCE for an outcome).

        Raises :class:`IllegalMove` with the reason, leaving the state unchanged.
        """
        current = self.current_player()
        who = current if player is None else player
        if not isinstance(who, int) or isinstance(who, bool):
            raise IllegalMove(f"a player is a seat number, CHANCE or HOST, not {who!r}")
        if current == TERMINAL:
            raise IllegalMove("the game is over")
        if who == CHANCE:
            if current != CHANCE:
                raise IllegalMove(f"not a chance node: {self._whose_move()}")
        elif who >= 0:
            if who >= self.game.num_players:
                raise IllegalMove(f"there is no seat {who} (seats 0-{self.game.num_players - 1})")
            if who not in self.actors() and not self._out_of_turn_ok(action, who):
                raise IllegalMove(f"seat {who} may not act now: {self._whose_move()}")
        elif who == SIMULTANEOUS:
            seats = ", ".join(str(s) for s in self.actors())
            raise IllegalMove(f"seats {seats} may act: say which (player=)")
        elif who != HOST:
            raise IllegalMove(f"{who} is not a seat, CHANCE or HOST")
        else:
            self._check_host_event(action)
        self._check(action, who)
        self._apply(action, who)
        self.history.append((who, action))

    # --- what a step did ----------------------------------------------------------------

    def describe_step(self, before: State, player: int, action: Action) -> Step:
        """What the last event did, told by the rules: *self* is the state just after the
        event (*player*, *action*) and *before* a copy of the state just before it (a
        :meth:`clone` taken before :meth:`apply`). See :class:`~parlour.engine.step.Step`.

        The engine fills in ``by``, ``action`` (notation), ``seat`` (*player* when a seat
        moved; ``None`` for a chance outcome or a host event) and the ``"game_over"`` mark;
        games override this to add what their rules know (and name the seat whose turn a
        chance outcome or host event fell in). Raises :class:`ParlourError` unless *self*'s
        history is one event longer than *before*'s and ends with this event.
        """
        if len(self.history) != len(before.history) + 1 or self.history[-1] != (player, action):
            raise ParlourError("describe_step: 'before' must be the state just before the event")
        seat = player if player >= 0 else None
        over = self.is_terminal() and not before.is_terminal()
        return Step(player, self.action_to_string(action), seat, marks=(GAME_OVER,) if over else ())

    def step(self, action: Action, *, player: int | None = None) -> Step:
        """:meth:`apply` *action* and return what it did (:meth:`describe_step`). Costs a
        :meth:`clone`; raises :class:`IllegalMove` like :meth:`apply`, changing nothing."""
        before = self.clone()
        who = self.current_player() if player is None else player
        self.apply(action, player=player)
        return self.describe_step(before, who, action)

    # --- the simulation fast path -------------------------------------------------------

    def legal(self) -> Sequence[Action]:
        """:meth:`legal_actions` of the seat to move, remembered for :meth:`apply_legal`.

        Empty at a chance node, at the end, and when several seats may act (daily mode)."""
        actions: Sequence[Action] = self.legal_actions() if self.current_player() >= 0 else ()
        self._listed = (len(self.history), actions)
        return actions

    def apply_legal(self, index: int) -> Action:
        """Apply ``legal()[index]`` for the seat to move and return it: the fast path for
        simulations. The action is one the rules have just listed, so it is not checked
        again (:meth:`apply` still checks every action from outside).

        Raises :class:`IllegalMove`, changing nothing, unless :meth:`legal` listed the
        actions of this very position (no event since) and *index* is within them."""
        action = self._listed_action(index)
        player = self.current_player()
        self._apply(action, player)
        self.history.append((player, action))
        return action

    def _listed_action(self, index: int) -> Action:
        """``legal()[index]``, for a game's own :meth:`apply_legal`. Raises
        :class:`IllegalMove` unless :meth:`legal` listed this very position and *index* is
        within the listing."""
        listed = self._listed
        if listed is None or listed[0] != len(self.history):
            raise IllegalMove("list the legal actions with legal() first, then apply one")
        actions = listed[1]
        if type(index) is not int or not 0 <= index < len(actions):
            raise IllegalMove(f"{index!r} is not an index into the {len(actions)} legal actions")
        return actions[index]

    def apply_sample(self, rng: random.Random) -> Action:
        """At a chance node: draw an outcome with *rng* (:meth:`draw_chance`) and apply it
        without checking it again; return it. Raises :class:`IllegalMove` elsewhere."""
        if self.current_player() != CHANCE:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        outcome = self.draw_chance(rng)
        self._apply(outcome, CHANCE)
        self.history.append((CHANCE, outcome))
        return outcome

    def sample_and_apply(self, rng: random.Random) -> Action:
        """At a chance node: draw an outcome with :meth:`sample_chance` (its stream: the
        very games ``apply(sample_chance(rng))`` gives) and apply it without checking it
        again; return it. Raises :class:`IllegalMove` elsewhere."""
        if self.current_player() != CHANCE:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        outcome = self.sample_chance(rng)
        self._apply(outcome, CHANCE)
        self.history.append((CHANCE, outcome))
        return outcome

    def draw_chance(self, rng: random.Random) -> Action:
        """A chance outcome with the true probabilities, for :meth:`apply_sample`; games may
        draw it faster than :meth:`sample_chance` (from a different stream of *rng*)."""
        return self.sample_chance(rng)

    def _whose_move(self) -> str:
        current = self.current_player()
        if current == CHANCE:
            return "waiting for a chance outcome"
        if current == TERMINAL:
            return "the game is over"
        return "to move: " + ", ".join(f"seat {s}" for s in self.actors())

    def _check_host_event(self, action: Action) -> None:
        """Raise :class:`IllegalMove` unless *action* is a host event the game declares
        (``GameSpec.host_events``)."""
        declared = self.game.spec.host_events
        try:
            text = self.action_to_string(action)
        except Exception:
            text = repr(action)
        if text.split(" ", 1)[0] not in declared:
            accepts = "only " + " or ".join(declared) if declared else "not act"
            raise IllegalMove(
                f"{self.game.spec.name} takes no host event {text!r}: the host may {accepts}"
            )

    def _out_of_turn_ok(self, action: Action, player: int) -> bool:
        """Whether *player* may take *action* when it is not their turn (a rack rearrangement)."""
        return False

    @abstractmethod
    def _check(self, action: Action, player: int) -> None:
        """Raise :class:`IllegalMove` if *player* may not take *action* now. Must not mutate."""

    @abstractmethod
    def _apply(self, action: Action, player: int) -> None:
        """Apply an action that :meth:`_check` accepted."""

    # --- notation -----------------------------------------------------------------------

    @abstractmethod
    def action_to_string(self, action: Action) -> str:
        """The game's text notation for *action* (see ``docs/records.md``)."""

    @abstractmethod
    def parse_action(self, text: str, *, player: int | None = None) -> Action:
        """Parse the notation *text* into an action or chance outcome.

        Raises :class:`~parlour.engine.errors.InvalidNotation` for text that does not parse.
        Parsing does not check legality; :meth:`apply` does.
        """

    # --- views --------------------------------------------------------------------------

    def observation(self, seat: int | None) -> JSON:
        """A JSON-safe view for *seat* (``None``: a spectator); nothing hidden from that seat.

        Raises :class:`ParlourError` for a seat the game does not have (a negative number is
        never read as counting from the last seat).
        """
        if seat is not None and (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < self.game.num_players
        ):
            raise ParlourError(
                f"there is no seat {seat!r}: seats are 0-{self.game.num_players - 1}, "
                "or None for a spectator"
            )
        return self._observation(seat)

    @abstractmethod
    def _observation(self, seat: int | None) -> JSON:
        """The game's view for a valid *seat* (or ``None``); see :meth:`observation`."""

    @abstractmethod
    def result(self) -> Result:
        """Final scores and winners. Raises :class:`IllegalMove` before the game is over."""

    def returns(self) -> list[float]:
        """Per seat at the end: winners share 1.0 equally, the others get 0.0."""
        res = self.result()
        share = 1.0 / len(res.winners)
        return [share if seat in res.winners else 0.0 for seat in range(self.game.num_players)]

    # --- persistence --------------------------------------------------------------------

    @abstractmethod
    def _dump(self) -> JSON:
        """The game-specific snapshot: plain JSON data, equal for equal states."""

    def to_json(self) -> JSON:
        """The whole state: game, options, snapshot and history (notation text).

        ``game.state_from_json(state.to_json())`` gives an equal state.
        """
        return {
            "game": self.game.spec.name,
            "options": dict(self.game.options),
            "state": self._dump(),
            "history": [[player_label(p), self.action_to_string(a)] for p, a in self.history],
        }

    def clone(self) -> State:
        """An independent copy (search bots clone and apply)."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game.spec.name == other.game.spec.name
            and self.game.options == other.game.options
            and self._dump() == other._dump()
            and self.history == other.history
        )

    __hash__ = None  # type: ignore[assignment]

    def require_terminal(self) -> None:
        """Raise :class:`IllegalMove` unless the game is over."""
        if not self.is_terminal():
            raise IllegalMove("the game is not over yet")
