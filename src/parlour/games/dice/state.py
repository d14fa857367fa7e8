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

from parlour.engine.chance import FACES, Dice, roll_outcomes, sample_roll
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


_DRAWS: dict[int, tuple[tuple[Roll, ...], tuple[float, ...], float, int]] = {}
"""*n* -> the rolls of *n* dice, their cumulative probabilities, the last of these and the
last index (:func:`_cumulative` spread out for :meth:`DiceState.apply_sample`)."""


def _draws(n: int) -> tuple[tuple[Roll, ...], tuple[float, ...], float, int]:
    rolls, cum = _cumulative(n)
    found = _DRAWS[n] = (rolls, cum, cum[-1], len(cum) - 1)
    return found


_ROLLS: dict[int, dict[Dice, Roll]] = {}
"""*n* -> each sorted roll of *n* dice -> its Roll (one object per roll, for the fast path)."""


def _rolls(n: int) -> dict[Dice, Roll]:
    found = _ROLLS[n] = {roll.dice: roll for roll in _chance_actions(n)}
    return found


_QUIT_LISTINGS: dict[int, tuple[tuple[Keep, ...], tuple[DiceAction, ...]]] = {}


def _and_quit(keeps: tuple[Keep, ...]) -> tuple[DiceAction, ...]:
    """*keeps* (a roll's remembered keeps) and quit, one tuple per roll (so the adapters'
    caches per listing hold for Greedy too)."""
    hit = _QUIT_LISTINGS.get(id(keeps))
    if hit is None or hit[0] is not keeps:
        hit = _QUIT_LISTINGS[id(keeps)] = (keeps, (*keeps, Quit()))
    return hit[1]


Options = tuple[tuple[Keep, ...], Mapping[Dice, int], tuple[int, ...]]
"""What may be set aside from one roll: every Keep (bank and roll), selection -> points, and
the points of each Keep (in the order of the Keeps, for the fast path)."""


class _Memo(dict[Dice, Options]):
    """Roll -> :data:`Options`, for one kind of roll (first or later) of one game type with
    one set of scoring options; shared by every state of that game, never copied."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Memo:
        return self


_MEMOS: dict[tuple[type, object], tuple[_Memo, _Memo]] = {}


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
        self._plain = (
            not self.entry and not self.allows_quit and type(self)._keep is DiceState._keep
        )  # the fast path lists the remembered keeps and applies them itself
        self._gains: tuple[int, ...] = ()  # the points of the keeps legal() listed (plain)
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
            gains = tuple(points[keep.dice] for keep in keeps)
            found = memo[roll] = (keeps, points, gains)
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
        keeps, points, _ = self._options(self.roll, self.rolls == 1)
        if self.entry and self.scores[self.seat] == 0:
            total = self.turn_total
            keeps = [a for a in keeps if not a.bank or total + points[a.dice] >= self.entry]
        if self.allows_quit:
            return _and_quit(keeps) if type(keeps) is tuple else [*keeps, Quit()]
        return keeps

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
        roll = self.roll
        actions: Sequence[DiceAction]
        if self.over or roll is None:
            actions = ()
        elif self._plain:
            first = self.rolls == 1
            found = self._memos[first].get(roll) or self._options(roll, first)
            actions = found[0]
            self._gains = found[2]
        else:
            actions = self.legal_actions()
        self._listed = (len(self.history), actions)
        return actions

    def apply_legal(self, index: int) -> DiceAction:
        listed = self._listed
        history = self.history
        if (
            listed is None
            or listed[0] != len(history)
            or type(index) is not int
            or not 0 <= index < len(listed[1])
        ):
            self._listed_action(index)  # raises IllegalMove with the reason
        assert listed is not None
        action: DiceAction = listed[1][index]
        seat = self.seat  # a listing is never empty but at a seat's decision
        if not self._plain or type(action) is not Keep:
            if type(action) is Keep:
                self._keep(action)
            else:
                self._apply(action, seat)
        else:  # _keep (a plain game's own), its points read from the listing
            points = self._gains[index]
            dice = action.dice
            self.turn_total += points
            self.kept.append((dice, points))
            to_roll = self.to_roll - len(dice)
            self.to_roll = to_roll or self.n_dice  # none left: hot dice, all the dice back
            self.roll = None
            if action.bank:
                self._bank()
        history.append((seat, action))
        return action

    def apply_sample(self, rng: random.Random) -> Roll:
        if self.over or self.roll is not None:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        if self._own_draw:  # draw_chance, inlined
            n = self.to_roll
            rolls, cum, last, top = _DRAWS.get(n) or _draws(n)
            outcome = rolls[bisect(cum, rng.random() * last, 0, top)]
        else:
            outcome = self.draw_chance(rng)
        dice = outcome.dice
        self.roll = dice  # _roll_dice, inlined
        self.rolls = rolls_now = self.rolls + 1
        first = rolls_now == 1
        if not (self._memos[first].get(dice) or self._options(dice, first))[1]:
            self._farkle(dice)
        self.history.append((CHANCE, outcome))
        return outcome

    def sample_and_apply(self, rng: random.Random) -> Roll:
        if self.over or self.roll is not None:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")
        n = self.to_roll
        if self._own_sample:  # sample_chance, inlined: rng.choices(FACES, k=n), spelt out
            r = rng.random
            dice = tuple(sorted([FACES[_floor(r() * 6.0)] for _ in _repeat(None, n)]))
            outcome = (_ROLLS.get(n) or _rolls(n))[dice]
        else:
            outcome = self.sample_chance(rng)
            dice = outcome.dice
        self.roll = dice  # _roll_dice, inlined
        self.rolls = rolls_now = self.rolls + 1
        first = rolls_now == 1
        if not (self._memos[first].get(dice) or self._options(dice, first))[1]:
            self._farkle(dice)
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

    def _roll_dice(self, dice: Dice) -> None:
        """Apply the roll *dice* (sorted); a roll that scores nothing ends the turn."""
        self.roll = dice
        self.rolls += 1
        first = self.rolls == 1
        if not (self._memos[first].get(dice) or self._options(dice, first))[1]:
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
        self.roll = None
        if action.bank:
            self._bank()

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
        self.roll = None
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
        self.require_terminal()
        scores = tuple(self.scores)
        seats = [s for s in range(len(scores)) if s != self.quitter]
        best = max(scores[s] for s in seats) if seats else 0
        return Result(scores, tuple(s for s in seats if scores[s] == best))

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
