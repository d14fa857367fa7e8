"""The common core of the research adapters: a game as numbered actions and vectors.

A :class:`Position` wraps a parlour :class:`~parlour.engine.state.State` and shows it the way
PettingZoo, OpenSpiel and Gymnasium want it:

- every action and chance outcome is an ``int`` from a fixed, documented numbering
  (``docs/research.md``; pinned by ``tests/research/test_numbering.py``): player actions are
  ``0 <= id < num_actions``, chance outcomes ``0 <= id < max_chance_outcomes``;
- chance outcomes are listed with probabilities (``float``, summing to 1). Where the engine's
  chance outcome is too big to list (a shuffled deck, a rack refill from the full bag) it is
  split into a sequence of small chance steps (one card, one tile), and the engine's outcome
  is applied once the sequence is complete;
- where one engine action is too big to number (a crossword play), it is split into a
  sequence of decisions by the same seat (the word's first square and direction, then its
  letters one by one); the engine action is applied when the last decision is made;
- each seat's observation is a fixed-size ``float32`` vector (its layout:
  :meth:`Codec.observation_layout`) built from what that seat may know, never another
  seat's hand or rack or the order of the stock or bag.

Positions change only through :meth:`Position.apply_id`, which refuses an id that is not legal
now with :class:`~parlour.engine.errors.IllegalMove` and changes nothing.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE, TERMINAL, Game, State

Vector = npt.NDArray[np.float32]
"""A one-dimensional ``float32`` array."""


class Codec(ABC):
    """How one loaded game is numbered and encoded (shared by all its positions).

    ``num_actions``: player action ids are ``0..num_actions-1``; ``max_chance_outcomes``:
    chance ids are ``0..max_chance_outcomes-1``; ``observation_size``: the length of every
    observation vector.
    """

    num_actions: int
    max_chance_outcomes: int
    observation_size: int
    fixed_options: tuple[str, ...] = ()
    """Options of the game the adapters do not offer as parameters (they keep the default)."""
    parameters: dict[str, str] = {}  # noqa: RUF012 (read-only)
    """The codec's own parameters (not options of the game) with their defaults: keyword
    arguments of ``__init__``, offered by every adapter beside the game's options."""
    version = 0
    """The version of the numbering and encoding in use (PettingZoo's ``_vN``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.num_players = game.num_players

    @abstractmethod
    def new_position(self) -> Position:
        """The position at the start of a game (a chance node: the first roll or deal)."""

    @abstractmethod
    def observation_layout(self) -> list[tuple[str, int]]:
        """The observation vector's parts in order: (name, length); lengths sum to
        ``observation_size``. Each part is described in ``docs/research.md``."""

    def action_name(self, action_id: int) -> str:
        """A short fixed description of a player action id (not state-dependent)."""
        return str(action_id)

    def __deepcopy__(self, memo: dict[int, object]) -> Codec:
        return self  # shared by every position of the game, never changed


class Position(ABC):
    """A game in progress, seen through its codec. See the module docstring."""

    def __init__(self, codec: Codec, state: State) -> None:
        self.codec = codec
        self.state = state

    # --- whose move -------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, :data:`~parlour.engine.state.CHANCE` or ``TERMINAL``."""
        return self.state.current_player()

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        """True when the next step is a chance outcome."""
        return self.current_player() == CHANCE

    # --- actions ------------------------------------------------------------------------

    @abstractmethod
    def legal_ids(self) -> list[int]:
        """The legal player action ids now, ascending (empty at chance nodes and the end)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(chance id, probability) for every outcome now, ids ascending.

        Raises :class:`IllegalMove` when this is not a chance node."""

    def sample_chance(self, rng: random.Random) -> int:
        """One chance id drawn with *rng* with the true probabilities. Changes nothing."""
        outcomes = self.chance_outcomes()
        ids = [i for i, _ in outcomes]
        return rng.choices(ids, [p for _, p in outcomes])[0]

    def sample_and_apply(self, rng: random.Random) -> int:
        """At a chance node: draw a chance id as :meth:`sample_chance` does (the same
        stream) and apply it; return it. Positions may skip re-checking an outcome drawn
        here. Raises :class:`IllegalMove` when this is not a chance node."""
        chance_id = self.sample_chance(rng)
        self.apply_id(chance_id)
        return chance_id

    def draw(self, rng: random.Random) -> None:
        """At a chance node: draw an outcome with the environments' stream and apply it. This
        is :meth:`sample_and_apply` unless the codec draws otherwise (the dice games' action
        numbering version 1: one random number a roll, see ``docs/research.md``). Raises
        :class:`IllegalMove` when this is not a chance node."""
        self.sample_and_apply(rng)

    def action_mask(self) -> npt.NDArray[np.int8]:
        """A new ``int8`` array of ``num_actions``: 1 for each legal action id now."""
        mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        mask[self.legal_ids()] = 1
        return mask

    def mask_view(self) -> npt.NDArray[np.int8]:
        """:meth:`action_mask` as a read-only array, possibly one the position keeps (shared
        by every position with the same legal ids): for callers that only read it."""
        mask = self.action_mask()
        mask.flags.writeable = False
        return mask

    def mask_of(self, seat: int, no_mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        """*seat*'s read-only mask: :meth:`mask_view` when *seat* is to move, else *no_mask*
        (the caller's read-only array of zeros)."""
        return self.mask_view() if self.current_player() == seat else no_mask

    def step_id(self, action_id: int, rng: random.Random) -> int:
        """:meth:`apply_id` (the agent's id), then :meth:`advance` with *rng*: return the
        seat to move next (``TERMINAL`` at the end). Raises :class:`IllegalMove` for an id
        that is not legal now, changing nothing."""
        self.apply_id(action_id)
        return self.advance(rng)

    def advance(self, rng: random.Random) -> int:
        """Draw and apply chance outcomes (:meth:`draw`, the environments' stream) until a
        seat is to move or the game is over; return :meth:`current_player` then."""
        player = self.current_player()
        while player == CHANCE:
            self.draw(rng)
            player = self.current_player()
        return player

    def apply_id(self, action_id: int) -> None:
        """Apply a player action id or (at a chance node) a chance id.

        Raises :class:`IllegalMove` for an id that is not legal now, or not an ``int`` (the
        environments turn a numpy integer into one), changing nothing."""
        if type(action_id) is not int:
            raise IllegalMove(f"{action_id!r} is not an action id (an integer)")
        if self.is_terminal():
            raise IllegalMove("the game is over")
        if self.is_chance():
            if action_id not in {i for i, _ in self.chance_outcomes()}:
                raise IllegalMove(f"{action_id!r} is not a chance outcome here")
            self._apply_chance(action_id)
            return
        if action_id not in self.legal_ids():
            raise IllegalMove(f"{action_id!r} is not a legal action id here")
        self._apply_action(action_id)

    @abstractmethod
    def _apply_chance(self, chance_id: int) -> None: ...

    @abstractmethod
    def _apply_action(self, action_id: int) -> None: ...

    @abstractmethod
    def id_to_string(self, action_id: int) -> str:
        """The id in words for the position now (the engine's notation where one engine
        action is one id)."""

    # --- views --------------------------------------------------------------------------

    @abstractmethod
    def observation(self, seat: int) -> Vector:
        """*seat*'s observation as a vector of ``codec.observation_size`` float32 values.
        Raises ``ValueError`` for no seat (:func:`check_seat`), as every view does."""

    def observation_into(self, seat: int, out: Vector) -> None:
        """Write :meth:`observation` of *seat* into *out* (``float32``,
        ``codec.observation_size`` long) in place; positions may do it without allocating."""
        out[:] = self.observation(seat)

    def observation_bytes(self, seat: int) -> bytes:
        """:meth:`observation` of *seat* as the native ``float32`` bytes of the vector
        (``4 * codec.observation_size`` of them). Positions that assemble these without an
        array (the dice games) override it; the environments then write the bytes into
        their arrays (:attr:`writes_bytes`)."""
        return self.observation(seat).tobytes()

    writes_bytes: bool = False
    """True for positions whose :meth:`observation_bytes` is cheaper than
    :meth:`observation_into` (it makes no array)."""

    def observation_string(self, seat: int) -> str:
        """*seat*'s observation as text (the engine's JSON view plus any decision in
        progress)."""
        import json

        seat = check_seat(seat, self.codec.num_players)
        return json.dumps(self.state.observation(seat), sort_keys=True) + self._pending_text()

    def _pending_text(self) -> str:
        return ""

    def returns(self) -> list[float]:
        """Per seat at the end: winners share 1.0 (the engine's ``returns``); zeros before."""
        if not self.is_terminal():
            return [0.0] * self.codec.num_players
        return list(self.state.returns())

    def render(self) -> str:
        """The state as text (the engine's ``str``) and any decision in progress."""
        return str(self.state) + self._pending_text()

    @abstractmethod
    def clone(self) -> Position:
        """An independent copy."""

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self.clone()


def action_id(action: object) -> int:
    """*action*, given to an environment's ``step``, as an action id: an ``int`` or a numpy
    integer (what a ``Discrete`` space holds), never truncated. Raises :class:`IllegalMove`
    for anything else (``1.5``, ``"1"``, ``None``, and ``True``: a bool is an ``int`` to
    Python, never an id)."""
    if isinstance(action, bool):
        raise IllegalMove(f"{action!r} is not an action id (an integer)")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise IllegalMove(f"{action!r} is not an action id (an integer)") from None


def check_id(action_id: object, count: int, what: str) -> int:
    """*action_id* when it is an ``int`` in ``0..count-1`` (a bool is none). Raises
    :class:`IllegalMove` ("... is not *what*") for anything else, such as -1, which a
    sequence would take as an index from its end."""
    if type(action_id) is not int or not 0 <= action_id < count:
        raise IllegalMove(f"{action_id!r} is not {what} (0-{count - 1})")
    return action_id


def check_seat(seat: object, count: int) -> int:
    """*seat* as a seat index when it is an ``int`` or numpy integer in ``0..count-1`` (a
    bool is none). Raises ``ValueError`` for anything else: -1 (``CHANCE``, what
    ``current_player`` gives at a chance node) or -2 would otherwise index the seats from
    their end and show a real seat's view, hidden cards and all."""
    if type(seat) is int and 0 <= seat < count:
        return seat
    if isinstance(seat, np.integer) and 0 <= seat < count:
        return int(seat)
    raise ValueError(f"there is no seat {seat!r}: seats are 0-{count - 1}")


def one_hot(size: int, index: int | None) -> list[float]:
    """A list of *size* zeros with a 1.0 at *index* (none if *index* is None)."""
    out = [0.0] * size
    if index is not None:
        out[index] = 1.0
    return out


def relative(seat: int, other: int, n: int) -> int:
    """*other*'s place counted from *seat* (0 is *seat* itself, 1 the next seat...)."""
    return (other - seat) % n


def check_layout(layout: Sequence[tuple[str, int]], size: int) -> None:
    """Raise ``AssertionError`` if the layout's lengths do not sum to *size*."""
    assert sum(n for _, n in layout) == size, (layout, size)
