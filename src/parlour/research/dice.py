"""Ten-Thousand and Greedy as numbered actions and vectors (see ``docs/research.md``).

Two numberings of the player actions (the adapters' ``numbering`` parameter):

- ``"scoring"`` (the default since numbering version 1): :func:`scoring_keeps` lists every
  selection that scores as a whole from some roll of the game, by size and then
  lexicographically (134 for Ten-Thousand, 286 for Greedy), ``K`` its length: player action
  ``2*j + b`` keeps selection ``j``, then rolls on (``b = 0``) or banks (``b = 1``); Greedy's
  ``quit`` is ``2*K``;
- ``"multisets"`` (version 0, kept unchanged): :data:`multisets` lists every sorted multiset
  of 1..``n_dice`` dice faces, by size and then lexicographically (``(1,), (2,), ... (6,),
  (1, 1), (1, 2), ...``); ``M`` is its length (923 for six dice, 5004 for nine): player
  action ``2*i + b`` keeps multiset ``i``; Greedy's ``quit`` is ``2*M``.

Chance outcome ``i`` (both numberings): the roll shows multiset ``i`` (sorted faces of the
dice thrown).
"""

from __future__ import annotations

import itertools
import random
import struct
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from parlour.engine.chance import Dice
from parlour.engine.errors import BadOption, IllegalMove
from parlour.engine.state import Game
from parlour.games.dice.notation import Keep, Quit, Roll
from parlour.games.dice.state import DiceState
from parlour.research.position import (
    Codec,
    Position,
    Vector,
    check_id,
    check_layout,
    check_seat,
)


@cache
def multisets(n_dice: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted multiset of 1..*n_dice* faces, by size then lexicographic order."""
    return tuple(
        dice
        for size in range(1, n_dice + 1)
        for dice in itertools.combinations_with_replacement(range(1, 7), size)
    )


@cache
def _index(n_dice: int) -> dict[tuple[int, ...], int]:
    return {dice: i for i, dice in enumerate(multisets(n_dice))}


NUMBERINGS = {"scoring": 1, "multisets": 0}
"""The dice numberings by name, with their version (the PettingZoo environment's ``_vN``)."""


_SCORING_KEEPS: dict[type, tuple[tuple[int, ...], ...]] = {}


def scoring_keeps(state: DiceState) -> tuple[tuple[int, ...], ...]:
    """Every selection that scores as a whole from some roll (first or later) of *state*'s
    game, by size then lexicographic order: the kept dice of the ``"scoring"`` numbering.
    Made once per game (no option of the games changes it: tested)."""
    kind = type(state)
    found = _SCORING_KEEPS.get(kind)
    if found is None:
        keeps: set[tuple[int, ...]] = set()
        for size in range(1, state.n_dice + 1):
            for roll in itertools.combinations_with_replacement(range(1, 7), size):
                for first in (False, True):
                    keeps.update(state.keep_points(roll, first_roll=first))
        found = _SCORING_KEEPS[kind] = tuple(sorted(keeps, key=lambda d: (len(d), d)))
    return found


class DiceCodec(Codec):
    """The numbering and observation of a dice game (Ten-Thousand: 6 dice, Greedy: 9).

    *numbering* is ``"scoring"`` (the default) or ``"multisets"`` (see the module); another
    raises :class:`~parlour.engine.errors.BadOption`."""

    parameters = {"numbering": "scoring"}  # noqa: RUF012 (read-only)

    def __init__(self, game: Game, numbering: str = "scoring") -> None:
        super().__init__(game)
        if not isinstance(numbering, str) or numbering not in NUMBERINGS:
            raise BadOption(f"numbering must be one of {', '.join(NUMBERINGS)}, not {numbering!r}")
        self.numbering = numbering
        self.version = NUMBERINGS[numbering]
        self.one_draw = numbering == "scoring"
        """How the environments draw a roll: with one random number (the engine's
        ``apply_sample``; numbering version 1) or die by die (``sample_chance``'s stream;
        version 0, whose games are unchanged)."""
        probe = game.new_initial_state()
        assert isinstance(probe, DiceState)
        self.n_dice = probe.n_dice
        self.allows_quit = probe.allows_quit
        self.greedy = game.spec.name == "greedy"
        self.multisets = multisets(self.n_dice)
        self.index = _index(self.n_dice)
        self.keeps = scoring_keeps(probe) if numbering == "scoring" else self.multisets
        """The kept dice of each pair of player ids (``2*j``, ``2*j + 1``)."""
        self.keep_index = (
            {dice: j for j, dice in enumerate(self.keeps)} if numbering == "scoring" else self.index
        )
        k = len(self.keeps)
        self.quit_id = 2 * k
        self.num_actions = 2 * k + (1 if self.greedy else 0)
        self.max_chance_outcomes = len(self.multisets)
        self.target = int(game.options["target"])
        self._ids_cache: dict[int, tuple[Sequence[object], list[int]]] = {}
        self._listings: dict[int, tuple[Sequence[object], Listing]] = {}
        self.chance_tables: dict[int, list[tuple[int, float]]] = {}
        self.no_mask = np.zeros(self.num_actions, dtype=np.int8)
        """A read-only mask with no legal id (where no seat is to choose)."""
        self.no_mask.flags.writeable = False
        self.observation_size = sum(n for _, n in self.observation_layout())
        check_layout(self.observation_layout(), self.observation_size)
        # the observation's parts as float32 bytes (observation_bytes joins them)
        n, sides = self.num_players, self.n_dice + 1
        self.rotations = tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
        """Seat -> the seats in the order of its observation's ``scores`` (its own first)."""
        self.score_parts: dict[int, bytes] = {}
        """A score -> its ``scores`` value (score / target) as float32 bytes (at most
        :data:`SCORE_PARTS` scores kept)."""
        self.to_move_parts = tuple(_floats(_one_hot(n, k)) for k in range(n))
        self.no_move_part = bytes(4 * n)
        self.to_roll_parts = tuple(_floats(_one_hot(sides, k)) for k in range(sides))
        self.roll_parts: tuple[dict[Dice, bytes], dict[Dice, bytes]] = ({}, {})
        """(later rolls, first rolls): roll -> its ``to_roll``, ``roll_counts`` and
        ``first_roll`` (while a roll shows, the next roll would throw as many dice)."""
        self.no_roll_part = bytes(4 * 7)
        self.zero_part = bytes(4)
        self.last_turns_parts = (_floats([0.0, 0.0]), _floats([1.0, 0.0]))
        """The last two values in Ten-Thousand, by ``last_turns``."""
        self.bonus_parts: dict[int, bytes] = {}
        """The last two values in Greedy, by ``bonus_rounds``."""

    def roll_part(self, roll: Dice, first: bool) -> bytes:
        """The ``to_roll``, ``roll_counts`` and ``first_roll`` values while *roll* shows, as
        float32 bytes."""
        values = [0.0] * 7
        for face in roll:
            values[face - 1] += 1.0
        values[6] = float(first)
        found = self.roll_parts[first][roll] = self.to_roll_parts[len(roll)] + _floats(values)
        return found

    def score_part(self, score: int) -> bytes:
        """*score*'s value in ``scores`` (score / target) as float32 bytes."""
        found = _FLOAT.pack(score / self.target)
        if len(self.score_parts) < SCORE_PARTS:
            self.score_parts[score] = found
        return found

    def bonus_part(self, bonus_rounds: int) -> bytes:
        """Greedy's ``last_turns`` (0) and ``bonus_rounds`` values as float32 bytes."""
        found = self.bonus_parts[bonus_rounds] = _floats([0.0, float(bonus_rounds)])
        return found

    def observation_layout(self) -> list[tuple[str, int]]:
        n = self.num_players
        return [
            ("scores", n),
            ("to_move", n),
            ("turn_total", 1),
            ("to_roll", self.n_dice + 1),
            ("roll_counts", 6),
            ("first_roll", 1),
            ("last_turns", 1),
            ("bonus_rounds", 1),
        ]

    def new_position(self) -> DicePosition:
        state = self.game.new_initial_state()
        assert isinstance(state, DiceState)
        return DicePosition(self, state)

    def action_name(self, action_id: int) -> str:
        check_id(action_id, self.num_actions, f"an action id of {self.game.spec.name}")
        if self.greedy and action_id == self.quit_id:
            return "quit"
        dice = " ".join(map(str, self.keeps[action_id // 2]))
        return f"keep {dice} {'bank' if action_id % 2 else 'roll'}"

    def ids_of(self, actions: Sequence[object]) -> list[int]:
        """The ids of a legal-action list, ascending (cached per list object)."""
        hit = self._ids_cache.get(id(actions))
        if hit is not None and hit[0] is actions:
            return hit[1]
        ids = sorted(self.id_of(a) for a in actions)
        if isinstance(actions, tuple):
            self._ids_cache[id(actions)] = (actions, ids)
        return ids

    def listing(self, actions: Sequence[object]) -> Listing:
        """The ids of a legal-action list with each id's index in it, and its action mask
        (cached per tuple, the lists the rules keep; made afresh for any other list)."""
        hit = self._listings.get(id(actions))
        if hit is not None and hit[0] is actions:
            return hit[1]
        index = {self.id_of(a): i for i, a in enumerate(actions)}
        ids = sorted(index)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[ids] = 1
        mask.flags.writeable = False  # shared: action_mask hands out copies
        found = Listing(ids, index, mask)
        if isinstance(actions, tuple):
            self._listings[id(actions)] = (actions, found)
        return found

    def id_of(self, action: object) -> int:
        """The id of a player action (Keep or Quit)."""
        if isinstance(action, Keep):
            return 2 * self.keep_index[action.dice] + action.bank
        if isinstance(action, Quit):
            return self.quit_id
        raise ValueError(f"{action!r} is not a dice player action")

    def action_of(self, action_id: int) -> Keep | Quit:
        """The engine action for a player action id (an ``int``: ``572.0`` or a numpy
        integer is none, however equal). Raises ``IllegalMove`` for no id."""
        if type(action_id) is not int or not 0 <= action_id <= self.quit_id:
            raise IllegalMove(f"{action_id!r} is not an action id of {self.game.spec.name}")
        if action_id == self.quit_id:
            if self.greedy:
                return Quit()
            raise IllegalMove(f"{action_id!r} is not an action id of {self.game.spec.name}")
        return Keep(self.keeps[action_id // 2], bool(action_id % 2))


def _one_hot(size: int, index: int) -> list[float]:
    values = [0.0] * size
    values[index] = 1.0
    return values


def _floats(values: Sequence[float]) -> bytes:
    """*values* as native float32 bytes (as numpy stores them: rounded to nearest)."""
    return struct.pack(f"{len(values)}f", *values)


_FLOAT = _TURN_TOTAL = struct.Struct("f")
SCORE_PARTS = 1 << 14
"""How many scores' bytes a codec keeps (a game's scores are few: multiples of 5 or 50 up to
about the target; a huge target would otherwise grow the table without bound)."""


class Listing(NamedTuple):
    """One legal-action list as ids: ``ids`` ascending, ``places`` (id -> its place in the
    list) and ``mask`` (shared and read-only: copy it to change it)."""

    ids: list[int]
    places: dict[int, int]
    mask: npt.NDArray[np.int8]


class DicePosition(Position):
    """A dice game through :class:`DiceCodec`. Ids are applied through the engine's fast
    path (``legal``/``apply_legal``): an id is looked up among the ids of the actions the
    rules have just listed, so only a legal id is applied, and any other goes to the
    engine's checked ``apply``, which refuses it with its reason."""

    codec: DiceCodec
    state: DiceState
    writes_bytes = True

    def __init__(self, codec: DiceCodec, state: DiceState) -> None:
        super().__init__(codec, state)
        self._draw = state.apply_sample if codec.one_draw else state.sample_and_apply

    _listed_at = -1
    """The history length at the last :meth:`_listing` (-1: none yet)."""
    _listed: Listing | None = None

    def _listing(self) -> Listing | None:
        """The legal actions now as a :class:`Listing` (None when no seat is to choose),
        remembered until the next event."""
        state = self.state
        events = len(state.history)
        if self._listed_at != events:
            found = None
            if not state.over and state.roll is not None:
                found = self.codec.listing(state.legal())
            self._listed, self._listed_at = found, events
        return self._listed

    def legal_ids(self) -> list[int]:
        found = self._listing()
        return [] if found is None else found.ids

    def action_mask(self) -> npt.NDArray[np.int8]:
        found = self._listing()
        if found is None:
            return np.zeros(self.codec.num_actions, dtype=np.int8)
        return found.mask.copy()

    def mask_view(self) -> npt.NDArray[np.int8]:
        found = self._listed if self._listed_at == len(self.state.history) else self._listing()
        return self.codec.no_mask if found is None else found.mask

    def mask_of(self, seat: int, no_mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
        state = self.state
        if state.roll is None or state.over or state.seat != seat:
            return no_mask
        found = self._listed if self._listed_at == len(state.history) else self._listing()
        return no_mask if found is None else found.mask

    def draw(self, rng: random.Random) -> None:
        self._draw(rng)  # the engine refuses it off a chance node

    def advance(self, rng: random.Random) -> int:
        state, draw = self.state, self._draw
        while state.roll is None and not state.over:
            draw(rng)
        return state.current_player()

    def step_id(self, action_id: int, rng: random.Random) -> int:
        state = self.state
        found = self._listed if self._listed_at == len(state.history) else self._listing()
        index = None if found is None else found.places.get(action_id)
        if index is None or type(action_id) is not int:
            self.apply_id(action_id)  # a chance id, or refused with the engine's reason
        else:  # _listing listed this very position with state.legal(): apply_id's fast path
            state.apply_legal(index)
        draw = self._draw
        while state.roll is None and not state.over:  # advance, inlined
            draw(rng)
        return state.current_player()

    def sample_and_apply(self, rng: random.Random) -> int:
        return self.codec.index[self.state.sample_and_apply(rng).dice]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        state = self.state
        if state.over or state.roll is not None:
            state.chance_outcomes()  # raises IllegalMove: not a chance node
        table = self.codec.chance_tables.get(state.to_roll)
        if table is None:
            index = self.codec.index
            table = [(index[r.dice], float(p)) for r, p in state.chance_outcomes()]
            self.codec.chance_tables[state.to_roll] = table
        return list(table)

    def sample_chance(self, rng: object) -> int:
        assert isinstance(rng, random.Random)
        return self.codec.index[self.state.sample_chance(rng).dice]

    def _apply_chance(self, chance_id: int) -> None:
        self.state.apply(Roll(self.codec.multisets[chance_id]))

    def _apply_action(self, action_id: int) -> None:
        self.state.apply(self.codec.action_of(action_id))

    def apply_id(self, action_id: int) -> None:
        # The engine's apply checks every id: an id names one engine action, which the
        # engine refuses (IllegalMove, nothing changed) when it is not legal now.
        state = self.state
        if state.over:
            raise IllegalMove("the game is over")
        codec = self.codec
        if state.roll is None:
            if type(action_id) is not int or not 0 <= action_id < len(codec.multisets):
                raise IllegalMove(f"{action_id!r} is not a chance outcome here")
            state.apply(Roll(codec.multisets[action_id]))
            return
        found = self._listed if self._listed_at == len(state.history) else self._listing()
        index = None if found is None else found.places.get(action_id)
        if index is None or type(action_id) is not int:
            state.apply(codec.action_of(action_id))  # refused, with the engine's reason
        else:  # _listing listed this very position with state.legal()
            state.apply_legal(index)

    def id_to_string(self, action_id: int) -> str:
        if self.is_chance():
            dice = self.codec.multisets[check_id(action_id, len(self.codec.multisets), "a roll")]
            return "roll " + " ".join(map(str, dice))
        return self.codec.action_name(action_id)

    def observation(self, seat: int) -> Vector:
        return np.frombuffer(bytearray(self.observation_bytes(seat)), np.float32)  # checks the seat

    def observation_into(self, seat: int, out: Vector) -> None:
        """Write the observation into *out* (``float32``, C-contiguous, ``observation_size``
        long; a ``ValueError`` or ``TypeError`` for anything else)."""
        out.data.cast("B")[:] = self.observation_bytes(seat)

    _heads_at = -1
    """``state.turns`` when :attr:`_heads` was made (the scores and the seat to move change
    only as a turn ends)."""
    _heads: list[bytes | None]

    def observation_bytes(self, seat: int) -> bytes:
        """*seat*'s observation (the layout: :meth:`DiceCodec.observation_layout`) as the
        native ``float32`` bytes of the vector, joined from parts the codec and the position
        keep: while a roll shows, the ``scores`` and ``to_move`` of the turn, then the
        ``turn_total``, the roll's part (``to_roll``, ``roll_counts``, ``first_roll``) and
        the game's last two values."""
        state = self.state
        codec = self.codec
        if type(seat) is not int or not 0 <= seat < codec.num_players:
            seat = check_seat(seat, codec.num_players)  # refused, or a numpy integer
        roll = state.roll
        if roll is None or state.over:
            return self._bytes_between_rolls(seat)
        if state.turns != self._heads_at:  # a turn has ended since: new scores, new seat
            self._heads = [None] * codec.num_players
            self._heads_at = state.turns
        first = state.rolls == 1
        total = state.turn_total
        return b"".join(
            (
                self._heads[seat] or self._head(seat),
                _TURN_TOTAL.pack(total / codec.target) if total else codec.zero_part,
                codec.roll_parts[first].get(roll) or codec.roll_part(roll, first),
                self._tail(),
            )
        )

    def _tail(self) -> bytes:
        """The ``last_turns`` and ``bonus_rounds`` values (the game's own)."""
        state = self.state
        codec = self.codec
        if codec.greedy:
            bonus: int = state.bonus_rounds  # type: ignore[attr-defined]
            return codec.bonus_parts.get(bonus) or codec.bonus_part(bonus)
        return codec.last_turns_parts[state.final_turns is not None]  # type: ignore[attr-defined]

    def _head(self, seat: int) -> bytes:
        """*seat*'s ``scores`` and ``to_move`` values while a roll shows."""
        state = self.state
        codec = self.codec
        found = self._heads[seat] = (
            self._scores_part(seat) + codec.to_move_parts[(state.seat - seat) % codec.num_players]
        )
        return found

    def _bytes_between_rolls(self, seat: int) -> bytes:
        """:meth:`observation_bytes` where no roll shows (a chance node, or the game over)."""
        state = self.state
        codec = self.codec
        total = state.turn_total
        return b"".join(
            (
                self._scores_part(seat),
                codec.no_move_part,
                _TURN_TOTAL.pack(total / codec.target) if total else codec.zero_part,
                codec.to_roll_parts[state.to_roll],
                codec.no_roll_part,
                self._tail(),
            )
        )

    def _scores_part(self, seat: int) -> bytes:
        """*seat*'s ``scores`` values (its own first), joined from the codec's parts."""
        scores = self.state.scores
        codec = self.codec
        parts = codec.score_parts
        return b"".join(
            [parts.get(scores[i]) or codec.score_part(scores[i]) for i in codec.rotations[seat]]
        )

    def returns(self) -> list[float]:
        state = self.state
        return state.returns() if state.over else [0.0] * self.codec.num_players

    def clone(self) -> DicePosition:
        return DicePosition(self.codec, self.state.clone())
