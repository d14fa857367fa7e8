"""The machinery Ten-Thousand and Greedy share: roll, set aside, bank, farkle, fresh dice.

A turn starts at a chance node (the first roll happens by itself). After each roll the player
sets aside a non-empty selection of scoring dice (:class:`~.notation.Keep`), then banks the turn
total or rolls the remaining dice; when every die has been set aside the player gets all the
dice back (hot dice; Greedy's bonus round). A roll with no scoring dice is a farkle: the turn
total is lost and the dice pass to the next seat.

Each game supplies the scoring (:meth:`DiceState.keep_points`) and what happens when a turn
ends (:meth:`DiceState._turn_ended`): last turns in Ten-Thousand, an immediate win in Greedy.

What a step did (:meth:`DiceState.describe_step`, a :class:`~parlour.engine.step.Step` whose
``seat`` is the seat whose turn it is, also for a roll): ``points`` are the points of the dice
a keep sets aside, ``score_changes`` the points banked (by seat), and the marks, in order:

- ``"farkle"``: the roll scores nothing; the turn total (fact ``lost``) is lost;
- ``"hot_dice"``: the keep sets aside the last dice of the set and rolls on: all the dice
  come back (Greedy adds ``"bonus_round"``);
- ``"bank"``: the keep banks the turn total (fact ``banked``; fact ``left``: the dice not set
  aside, still on the table);
- ``"skip"``: the host skipped the turn (fact ``lost``); ``"quit"``: a seat quit (Greedy);
- ``"turn_over"``: after any of the four above, the turn is over;
- then the game's own (Ten-Thousand's ``"last_turns"``) and the engine's ``"game_over"``.

Every step has the facts ``turn_total`` (the turn total after it: 0 once the turn is over)
and ``lost`` (0 unless a farkle or a skip lost points); a roll has ``roll`` (its dice).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from bisect import bisect
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from itertools import repeat as _repeat
from math import floor as _floor
from typing import Any

from parlour.engine.chance import Dice, roll_outcomes, sample_roll
from parlour.engine.errors import IllegalMove
from parlour.engine.state import CHANCE, HOST, JSON, TERMINAL, Result, State
from parlour.engine.step import Step
from parlour.games.dice.notation import DiceAction, Keep, Quit, Roll, Skip, parse


@cache
def _chance_actions(n: int) -> tuple[Roll, ...]:
    return tuple(Roll(d) for d, _ in roll_outcomes(n))


@cache
def _possible_rolls(n: int) -> frozenset[Dice]:
    return frozenset(d for d, _ in roll_outcomes(n))


@cache
def _chance_table(n: int) -> tuple[tuple[Roll, Fraction], ...]:
    return tuple((Roll(d), p) for d, p in roll_outcomes(n))


@cache
def _cumulative(n: int) -> tuple[tuple[Roll, ...], tuple[float, ...]]:
    """The rolls of *n* dice and their cumulative probabilities (for one-draw sampling)."""
    rolls = _chance_actions(n)
    total, cum = Fraction(0), []
    for _, p in _chance_table(n):
        total += p
        cum.append(float(total))
    return rolls, tuple(cum)


Event = tuple[int, Roll]
"""A roll's history entry, ``(CHANCE, roll)``: one tuple per roll, made once (fast path)."""

_Draws = tuple[tuple[Event, ...], tuple[float, ...], float, int]

_DRAWS: list[_Draws | None] = [None] * 10
"""*n* -> the history entries of the rolls of *n* dice (in :func:`roll_outcomes` order),
their cumulative probabilities, the last of these and the last index (:func:`_cumulative`
spread out for :meth:`DiceState.apply_sample`)."""


def _draws(n: int) -> _Draws:
    rolls, cum = _cumulative(n)
    found = _DRAWS[n] = (tuple((CHANCE, roll) for roll in rolls), cum, cum[-1], len(cum) - 1)
    return found


_ROLLS: dict[int, dict[int, tuple[int, Event]]] = {}
"""*n* -> each roll of *n* dice, keyed by its :data:`_FACE_CODE` sum, -> (its index in
:func:`roll_outcomes` order, its history entry): one object per roll, for the fast path."""

_FACE_CODE = (1, 10, 100, 1000, 10_000, 100_000)
"""What a die showing face ``f`` adds to a roll's key (``_FACE_CODE[f - 1]``): the key of a
roll is its count of each face written in decimal (nine dice at most, so no carry), the
same for every order of the same faces."""


def _rolls(n: int) -> dict[int, tuple[int, Event]]:
    events = (_DRAWS[n] or _draws(n))[0]
    found = _ROLLS[n] = {
        sum(_FACE_CODE[f - 1] for f in event[1].dice): (i, event) for i, event in enumerate(events)
    }
    return found


KeepStep = tuple[DiceAction, int, int, bool, tuple[Dice, int] | None]
"""One listed action as the fast path applies it: the Keep, its points, how many dice it sets
aside, whether it banks, and its entry in ``kept`` (``(dice, points)``); quit (Greedy) is
``(Quit(), 0, 0, False, None)``, the only step that sets no die aside."""

Options = tuple[tuple[Keep, ...], Mapping[Dice, int], tuple[KeepStep, ...], tuple[DiceAction, ...]]
"""What may be set aside from one roll: every Keep (bank and roll), selection -> points, each
listed action as a :data:`KeepStep` (for the fast path), and the actions listed at a seat's
decision without an entry minimum (the Keeps, then quit in a game that allows it)."""


_SHARED_OPTIONS: dict[tuple[type, tuple[KeepStep, ...]], Options] = {}
"""One :data:`Options` per game type and value (see :meth:`DiceState._options`)."""


class _Memo(dict[Dice, Options]):
    """Roll -> :data:`Options`, for one kind of roll (first or later) of one game type with
    one set of scoring options; shared by every state of that game, never copied."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Memo:
        return self


class _Indexed(list[list[Options | None]]):
    """*n* -> the :data:`Options` of each roll of *n* dice by its index in
    :func:`roll_outcomes` order (``None`` until met): a :class:`_Memo` read without hashing
    the roll, for the fast path; shared like it, never copied."""

    def __init__(self, n_dice: int) -> None:
        super().__init__([None] * len(roll_outcomes(n)) for n in range(n_dice + 1))

    def __deepcopy__(self, memo: dict[int, object]) -> _Indexed:
        return self


_MEMOS: dict[tuple[type, object], tuple[_Memo, _Memo]] = {}
_INDEXED: dict[tuple[type, object], tuple[_Indexed, _Indexed]] = {}


class DiceState(State):
    """A dice game in progress. See the module docstring for the turn structure.

    Attributes (read them, never assign): ``scores`` (banked points by seat), ``seat`` (whose
    turn), ``turn_total`` (points set aside this turn), ``to_roll`` (dice the next roll throws),
    ``roll`` (the dice showing, or ``None`` before a roll), ``rolls`` (rolls so far this turn),
    ``kept`` (this turn's selections with their points), ``last`` (how the previous turn ended).
    """

    n_dice: int = 6
    allows_quit: bool = False

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.target: int = int(game.options.get("target", 10_000))
        self.entry: int = int(game.options.get("entry", 0))
        self.scores: list[int] = [0] * game.num_players
        self.seat = 0
        self.turn_total = 0
        self.to_roll = self.n_dice
        self.roll: Dice | None = None
        self.rolls = 0
        self.kept: list[tuple[Dice, int]] = []
        self.last: dict[str, Any] | None = None
        self.turns = 0
        self.over = False
        self.quitter: int | None = None
        key = (type(self), self._scoring_key())
        memos = _MEMOS.get(key)
        if memos is None:
            memos = _MEMOS[key] = (_Memo(), _Memo())
        self._memos = memos  # (later rolls, first rolls): _options reads them
        indexed = _INDEXED.get(key)
        if indexed is None:
            indexed = _INDEXED[key] = (_Indexed(self.n_dice), _Indexed(self.n_dice))
        self._indexed = indexed  # the same, by roll index: the fast path's chance reads them
        self._later_rolls, self._first_rolls = indexed
        self._found: Options | None = None
        """The :data:`Options` of the dice showing while a seat is to choose from them;
        ``None`` otherwise (no roll, or the game over). Every change of ``roll`` sets it."""
        kind = type(self)
        self._plain = (
            not self.entry
            and kind._keep is DiceState._keep
            and kind._bank is DiceState._bank
            and kind._end_turn is DiceState._end_turn
        )  # the fast path lists the remembered keeps (and quit) and applies them itself
        self._listed = None
        self._listed_at = -1  # a plain game's last legal(): the history length then
        self._own_draw = type(self).draw_chance is DiceState.draw_chance
        self._own_sample = type(self).sample_chance is DiceState.sample_chance

    def _scoring_key(self) -> object:
        """The options that change what the hooks :meth:`keep_points` and
        :meth:`_actions_for` give (games with such options override this)."""
        return None

    def _options(self, roll: Dice, first_roll: bool) -> Options:
        """:meth:`_actions_for` and :meth:`keep_points` of *roll*, remembered per game."""
        memo = self._memos[first_roll]
        found = memo.get(roll)
        if found is None:
            keeps = self._actions_for(roll, first_roll=first_roll)
            points = self.keep_points(roll, first_roll=first_roll)
            steps: tuple[KeepStep, ...] = tuple(
                (k, points[k.dice], len(k.dice), k.bank, (k.dice, points[k.dice])) for k in keeps
            )
            listed: tuple[DiceAction, ...] = keeps
            if self.allows_quit:
                listed = (*keeps, Quit())
                steps = (*steps, (listed[-1], 0, 0, False, None))
            # rolls with the same scoring dice have equal options: share one copy (Greedy's
            # 10,008 rolls, first and later, list 287 different ones), so that the listings
            # and whatever callers keep per listing stay few and warm in the caches
            key = (type(self), steps)
            found = _SHARED_OPTIONS.get(key)
            if found is None:
                found = _SHARED_OPTIONS[key] = (keeps, points, steps, listed)
            memo[roll] = found
        return found

    def _indexed_options(self, first_roll: bool, n: int, index: int) -> Options:
        """:meth:`_options` of the roll of *n* dice at *index* (:func:`roll_outcomes`
        order), remembered by index too."""
        found = self._options(_chance_actions(n)[index].dice, first_roll)
        self._indexed[first_roll][n][index] = found
        return found

    # --- scoring hooks ------------------------------------------------------------------

    @abstractmethod
    def keep_points(self, roll: Dice, *, first_roll: bool) -> Mapping[Dice, int]:
        """Every legal selection from *roll* (sorted sub-multisets, all dice scoring) -> points.

        ``first_roll`` is true for the first roll of a turn. Empty when the roll is a farkle.
        """

    @abstractmethod
    def _actions_for(self, roll: Dice, *, first_roll: bool) -> tuple[Keep, ...]:
        """Every Keep (both bank and roll) for *roll*; cached by the game."""

    @abstractmethod
    def _turn_ended(self, banked: bool) -> None:
        """Decide whether the game is over after ``self.seat``'s turn; set ``self.over``."""

    # --- protocol -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.roll is None:
            return CHANCE
        return self.seat

    def legal_actions(self, player: int | None = None) -> Sequence[DiceAction]:
        if self.over:
            return ()
        if self.roll is None:
            return _chance_actions(self.to_roll) if player in (None, CHANCE) else ()
        if player not in (None, self.seat):
            return ()
        keeps: Sequence[Keep]
        keeps, points, _, listed = self._options(self.roll, self.rolls == 1)
        if not (self.entry and self.scores[self.seat] == 0):
            return listed
        total = self.turn_total
        keeps = [a for a in keeps if not a.bank or total + points[a.dice] >= self.entry]
        return [*keeps, Quit()] if self.allows_quit else keeps

    def chance_outcomes(self) -> list[tuple[Roll, Fraction]]:
        if self.roll is not None or self.over:
            raise IllegalMove("not a chance node: the dice are already on the table")
        return list(_chance_table(self.to_roll))

    def sample_chance(self, rng: random.Random) -> Roll:
        if self.roll is not None or self.over:
            raise IllegalMove("not a chance node: the dice are already on the table")
        return Roll(sample_roll(self.to_roll, rng))

    def draw_chance(self, rng: random.Random) -> Roll:
        """The simulation fast path's roll: one draw of *rng* picks the whole sorted roll
        (``rng.choices(rolls, cum_weights=cum)`` spelt out: the same draw, fewer calls)."""
        rolls, cum = _cumulative(self.to_roll)
        return rolls[bisect(cum, rng.random() * cum[-1], 0, len(cum) - 1)]

    # --- the simulation fast path (see State.legal) ------------------------------------

    def legal(self) -> Sequence[DiceAction]:
        if self._plain:  # the listing of the roll showing (keeps, quit), remembered when rolled
            self._listed_at = len(self.history)
            found = self._found
            return () if found is None else found[3]
        actions: Sequence[DiceAction] = ()
        if not self.over and self.roll is not None:
            actions = self.legal_actions()
        self._listed = (len(self.history), actions)
        return actions

    def apply_legal(self, index: int) -> DiceAction:
        history = self.history
        seat = self.seat  # a listing is never empty but at a seat's decision
        if not self._plain:
            listed = self._listed
            if (
                listed is None
                or listed[0] != len(history)
                or type(index) is not int
                or not 0 <= index < len(listed[1])
            ):
                self._listed_action(index)  # raises IllegalMove with the reason
            action: DiceAction = listed[1][index]  # type: ignore[index]
            if type(action) is Keep:
                self._keep(action)
            else:
                self._apply(action, seat)
            history.append((seat, action))
            return action
        # a plain game: _keep, the step read from the roll's options
        found = self._found
        if (
            self._listed_at != len(history)
            or found is None
            or type(index) is not int
            or not 0 <= index < len(found[2])
        ):
            self._refuse_index(index)
        action, points, kept, bank, entry = found[2][index]  # type: ignore[index]
        if not kept:  # quit: every other listed action sets dice aside
            self._apply(action, seat)
            history.append((seat, action))
            return action
        assert entry is not None  # a keep's
        self.roll = self._found = None
        if bank:  # _bank and _end_turn, inlined: the turn is over
            total = self.turn_total + points
            self.scores[seat] += total
            self.last = {"seat": seat, "end": "bank", "points": total}
            self.kept.append(entry)  # (kept while _turn_ended runs, as _bank keeps it)
            self.turn_total = total
            self._turn_ended(True)
            self.turns += 1
            self.turn_total = self.rolls = 0
            self.to_roll = self.n_dice
            self.kept = []
            if not self.over:
                self.seat = (seat + 1) % self.game.num_players
        else:
            self.turn_total += points
            self.kept.append(entry)
            left = self.to_roll - kept
            if left:
                self.to_roll = left
            else:  # hot dice: all the dice back
                self.to_roll = self.n_dice
                self._hot_dice()
        history.append((seat, action))
        return action

    def _refuse_index(self, index: object) -> None:
        """Raise :class:`IllegalMove` as :meth:`~parlour.engine.state.State._listed_action`
        does, for a plain game's listing (``_listed_at``, the keeps in ``_found``)."""
        if self._listed_at != len(self.history):
            raise IllegalMove("list the legal actions with legal() first, then apply one")
        count = 0 if self._found is None else len(self._found[3])
        raise IllegalMove(f"{index!r} is not an index into the {count} legal actions")

    def apply_sample(self, rng: random.Random) -> Roll:
        if self.over or self.roll is not None:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        if not self._own_draw:
            return self._apply_roll(self.draw_chance(rng))
        n = self.to_roll  # draw_chance, inlined
        events, cum, last, top = _DRAWS[n] or _draws(n)
        index = bisect(cum, rng.random() * last, 0, top)
        event = events[index]
        outcome = event[1]
        self.roll = outcome.dice  # _roll_dice, inlined, the options read by index
        self.rolls = rolls = self.rolls + 1
        found = self._found = (self._first_rolls if rolls == 1 else self._later_rolls)[n][
            index
        ] or self._indexed_options(rolls == 1, n, index)
        if not found[1]:
            self._farkle(outcome.dice)
        self.history.append(event)
        return outcome

    def sample_and_apply(self, rng: random.Random) -> Roll:
        if self.over or self.roll is not None:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        if not self._own_sample:
            return self._apply_roll(self.sample_chance(rng))
        # sample_chance, inlined: rng.choices(FACES, k=n) draws die by die (floor(random() * 6)
        # picks the face); the roll is found by its face counts, whatever the order
        n = self.to_roll
        r = rng.random
        key = 0
        for _ in _repeat(None, n):
            key += _FACE_CODE[_floor(r() * 6.0)]
        index, event = (_ROLLS.get(n) or _rolls(n))[key]
        outcome = event[1]
        self.roll = outcome.dice  # _roll_dice, inlined, the options read by index
        self.rolls = rolls = self.rolls + 1
        found = self._found = (self._first_rolls if rolls == 1 else self._later_rolls)[n][
            index
        ] or self._indexed_options(rolls == 1, n, index)
        if not found[1]:
            self._farkle(outcome.dice)
        self.history.append(event)
        return outcome

    def _apply_roll(self, outcome: Roll) -> Roll:
        """Apply a roll drawn for the fast path (by a game's own draw) and record it."""
        self._roll_dice(outcome.dice)
        self.history.append((CHANCE, outcome))
        return outcome

    def _check(self, action: DiceAction, player: int) -> None:
        if player == HOST:
            if not isinstance(action, Skip):
                raise IllegalMove(f"the host may only skip a turn, not {action}")
            return
        if player == CHANCE:
            if not isinstance(action, Roll):
                raise IllegalMove(f"a chance outcome is a roll, not {action}")
            if len(action.dice) != self.to_roll:
                raise IllegalMove(f"{self.to_roll} dice are rolled here, not {len(action.dice)}")
            if tuple(action.dice) not in _possible_rolls(self.to_roll):
                raise IllegalMove(f"{action.dice} is not a sorted roll of faces 1-6")
            return
        if isinstance(action, Quit):
            if not self.allows_quit:
                raise IllegalMove("this game has no quit move: end the game instead")
            return
        if not isinstance(action, Keep):
            raise IllegalMove(f"{action} is not a move for a player: keep dice, then roll or bank")
        assert self.roll is not None
        first = self.rolls == 1
        points = self._options(self.roll, first)[1].get(action.dice)
        if points is None:
            raise IllegalMove(self._why_not(action.dice, first))
        if action.bank and self.scores[player] == 0 and self.turn_total + points < self.entry:
            raise IllegalMove(
                f"your first bank must be at least {self.entry} points "
                f"(this turn would bank {self.turn_total + points})"
            )

    def _why_not(self, dice: Dice, first_roll: bool) -> str:
        assert self.roll is not None
        from parlour.engine.chance import is_submultiset

        if not dice:
            return "set aside at least one scoring die"
        if not is_submultiset(dice, self.roll):
            return f"{' '.join(map(str, dice))} is not among the dice rolled ({self.roll_text()})"
        return (
            f"{' '.join(map(str, dice))} does not score as a whole: set aside only scoring dice "
            f"({self.scoring_dice_text(self.roll, first_roll=first_roll)})"
        )

    def scoring_dice_text(self, roll: Dice, *, first_roll: bool) -> str:
        """What may be set aside from *roll*, in words, for a refused keep's reason."""
        return "1s, 5s, groups"

    def turns_played(self, seat: int) -> int:
        """How many turns *seat* has finished (turns go round the table in seat order)."""
        n = self.game.num_players
        return (self.turns - seat + n - 1) // n

    def roll_text(self) -> str:
        """The dice showing, as ``"1 1 3 4 5 6"``."""
        return " ".join(map(str, self.roll or ()))

    def _apply(self, action: DiceAction, player: int) -> None:
        if isinstance(action, Roll):
            self._roll_dice(action.dice)
        elif isinstance(action, Keep):
            self._keep(action)
        elif isinstance(action, Skip):
            self.last = {"seat": self.seat, "end": "skip", "points": self.turn_total}
            self._end_turn(banked=False)
        elif isinstance(action, Quit):
            self.quitter = player
            self.last = {"seat": self.seat, "end": "quit", "points": self.turn_total}
            self.over = True
            self._found = None

    def _roll_dice(self, dice: Dice) -> None:
        """Apply the roll *dice* (sorted); a roll that scores nothing ends the turn."""
        self.roll = dice
        self.rolls += 1
        found = self._found = self._options(dice, self.rolls == 1)
        if not found[1]:
            self._farkle(dice)

    def _farkle(self, dice: Dice) -> None:
        """End the turn on the roll *dice*, which scores nothing."""
        self.last = {
            "seat": self.seat,
            "end": "farkle",
            "points": self.turn_total,
            "roll": list(dice),
        }
        self._end_turn(banked=False)

    def _keep(self, action: Keep) -> None:
        """Apply the legal *action*: set its dice aside, then roll on or bank."""
        roll = self.roll
        assert roll is not None
        first = self.rolls == 1
        points = (self._memos[first].get(roll) or self._options(roll, first))[1][action.dice]
        self.turn_total += points
        self.kept.append((action.dice, points))
        self.to_roll -= len(action.dice)
        if self.to_roll == 0:
            self.to_roll = self.n_dice  # hot dice: all the dice back
            if not action.bank:
                self._hot_dice()
        self.roll = self._found = None
        if action.bank:
            self._bank()

    def _hot_dice(self) -> None:
        """A keep has set aside the last dice and the player rolls all of them on (hot
        dice); games that count these override it (Greedy's bonus rounds)."""

    def _bank(self) -> None:
        self.scores[self.seat] += self.turn_total
        self.last = {"seat": self.seat, "end": "bank", "points": self.turn_total}
        self._end_turn(banked=True)

    def describe_step(self, before: State, player: int, action: DiceAction) -> Step:
        """What the event did (see the module docstring for the marks and facts).

        Raises :class:`~parlour.engine.errors.ParlourError` unless *before* is this game's
        state just before the event."""
        step = super().describe_step(before, player, action)
        assert isinstance(before, DiceState)
        seat = player if isinstance(action, Quit) else before.seat
        marks: list[str] = []
        points = 0
        lost = 0
        facts: dict[str, Any] = {}
        changes = tuple(now - was for now, was in zip(self.scores, before.scores, strict=True))
        if isinstance(action, Roll):
            facts["roll"] = list(action.dice)
            if not self.keep_points(action.dice, first_roll=before.rolls == 0):
                marks.append("farkle")
                lost = before.turn_total
        elif isinstance(action, Keep):
            assert before.roll is not None
            points = before.keep_points(before.roll, first_roll=before.rolls == 1)[action.dice]
            if action.bank:
                marks.append("bank")
                facts["banked"] = before.turn_total + points
                left = list(before.roll)
                for face in action.dice:
                    left.remove(face)
                facts["left"] = left
            elif len(action.dice) == len(before.roll):
                marks.append("hot_dice")
        elif isinstance(action, Skip):
            marks.append("skip")
            lost = before.turn_total
        elif isinstance(action, Quit):
            marks.append("quit")
        if self.turns > before.turns or isinstance(action, Quit):
            marks.append("turn_over")
        facts["turn_total"] = self.turn_total
        facts["lost"] = lost
        marks.extend(self._step_marks(before))
        return Step(
            step.by,
            step.action,
            seat,
            points=points,
            score_changes=changes,
            marks=(*marks, *step.marks),
            facts=facts,
        )

    def _step_marks(self, before: DiceState) -> tuple[str, ...]:
        """The game's own marks for the step from *before* to *self* (default: none)."""
        return ()

    def _end_turn(self, *, banked: bool) -> None:
        self._turn_ended(banked)
        self.turns += 1
        self.turn_total = 0
        self.to_roll = self.n_dice
        self.roll = self._found = None
        self.rolls = 0
        self.kept = []
        if not self.over:
            self.seat = (self.seat + 1) % self.game.num_players

    # --- notation and views -------------------------------------------------------------

    def action_to_string(self, action: DiceAction) -> str:
        return str(action)

    def parse_action(self, text: str, *, player: int | None = None) -> DiceAction:
        return parse(text, n_dice=self.n_dice)

    def _observation(self, seat: int | None) -> JSON:
        """Everything is public in the dice games; *seat* only fills ``you``."""
        first = self.rolls == 1
        return {
            "game": self.game.spec.name,
            "you": seat,
            "to_move": self.current_player(),
            "seat": self.seat,
            "scores": list(self.scores),
            "target": self.target,
            "turn_total": self.turn_total,
            "roll": None if self.roll is None else list(self.roll),
            "first_roll": first,
            "to_roll": self.to_roll,
            "kept": [[list(d), p] for d, p in self.kept],
            "last": self.last,
            "over": self.over,
            "winners": list(self.result().winners) if self.over else [],
            **self._extra_observation(),
        }

    def _extra_observation(self) -> dict[str, Any]:
        return {}

    def result(self) -> Result:
        return Result(tuple(self.scores), self._winners())

    def returns(self) -> list[float]:
        """Per seat at the end: the winners of :meth:`result` share 1.0, the others get 0.0
        (the engine's ``returns``, without building the result). Raises
        :class:`IllegalMove` before the end."""
        winners = self._winners()
        share = 1.0 / len(winners)
        return [share if s in winners else 0.0 for s in range(len(self.scores))]

    def _winners(self) -> tuple[int, ...]:
        """The seats with the best score, a quitter left out. Raises :class:`IllegalMove`
        before the end."""
        if not self.over:
            raise IllegalMove("the game is not over yet")
        scores, quitter = self.scores, self.quitter
        best = max((p for s, p in enumerate(scores) if s != quitter), default=0)
        return tuple(s for s, p in enumerate(scores) if s != quitter and p == best)

    def _dump(self) -> JSON:
        return {
            "scores": list(self.scores),
            "seat": self.seat,
            "turn_total": self.turn_total,
            "to_roll": self.to_roll,
            "roll": None if self.roll is None else list(self.roll),
            "rolls": self.rolls,
            "kept": [[list(d), p] for d, p in self.kept],
            "last": self.last,
            "turns": self.turns,
            "over": self.over,
            "quitter": self.quitter,
            **self._extra_dump(),
        }

    def _extra_dump(self) -> dict[str, Any]:
        return {}

    def clone(self) -> DiceState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.scores = list(self.scores)
        twin.kept = list(self.kept)
        twin.history = list(self.history)
        return twin

    def __str__(self) -> str:
        lines = [
            f"{self.game.spec.title}: "
            + "  ".join(
                f"{'>' if s == self.seat else ' '}seat {s}: {p}" for s, p in enumerate(self.scores)
            )
        ]
        if self.over:
            lines.append(f"over, winners: {list(self.result().winners)}")
        else:
            lines.append(
                f"turn total {self.turn_total}, roll [{self.roll_text()}], "
                f"{self.to_roll} dice to roll"
            )
        return "\n".join(lines)
