"""Crossword as numbered actions and vectors (see ``docs/research.md``).

A play (``QUACK H8 across``) is too big to number whole (any word from any square), so a
turn is a short sequence of decisions by the seat to move, each from a fixed set of
``num_actions`` = 505 ids:

- ``0`` pass (the turn ends);
- ``1 + 2 * square + d`` begin a play whose word starts on *square* (0-224, ``row * 15 +
  col``), reading across (``d = 0``) or down (``d = 1``);
- ``451 + L`` the word's next letter is letter ``L`` (0 = A .. 25 = Z): its letters are
  chosen in reading order, those already on the board included (a covered square is a new
  letter);
- ``477`` the word is complete: the engine's play is applied (the turn ends);
- ``478 + L`` exchange: return one tile of letter ``L`` (the tiles are chosen in alphabetical
  order);
- ``504`` the exchange is complete: the engine's exchange is applied.

At each step the legal ids are exactly the prefixes of the engine's legal plays and exchanges,
so every sequence of legal ids ends in a legal engine action and every legal engine action is
one sequence. Chance: a rack refill of *k* tiles is *k* chance steps, each one tile (chance
id = letter, probability its share of the bag); the engine's draw follows. Only the
``turns`` mode is offered (the daily mode lets several seats act at once).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from parlour.engine.errors import BadOption, IllegalMove
from parlour.engine.state import CHANCE, Game
from parlour.games.crossword.board import ACROSS, DOWN, SIZE, SQUARES, square_name
from parlour.games.crossword.notation import Draw, Exchange, Pass, Play
from parlour.games.crossword.state import CrosswordState
from parlour.games.crossword.tiles import LETTERS, RACK_SIZE
from parlour.research.position import (
    Codec,
    Position,
    Vector,
    check_id,
    check_layout,
    check_seat,
    one_hot,
    relative,
)

PASS = 0
BEGIN = 1
LETTER = BEGIN + 2 * SQUARES
END_WORD = LETTER + 26
EXCHANGE = END_WORD + 1
END_EXCHANGE = EXCHANGE + 26
NUM_ACTIONS = END_EXCHANGE + 1
_CODE = {letter: i for i, letter in enumerate(LETTERS)}
_DIRECTIONS = (ACROSS, DOWN)
_LOOKUP = np.full(256, 26, dtype=np.int64)
_LOOKUP[[ord(letter) for letter in LETTERS]] = np.arange(26)
_BOARD_BASE = np.arange(SQUARES, dtype=np.int64) * 27


def action_name(action_id: int) -> str:
    """The fixed meaning of a crossword decision id. Raises :class:`IllegalMove` for no id."""
    check_id(action_id, NUM_ACTIONS, "a crossword action id")
    if action_id == PASS:
        return "pass"
    if BEGIN <= action_id < LETTER:
        square, d = divmod(action_id - BEGIN, 2)
        return f"play from {square_name(square)} {_DIRECTIONS[d].value}"
    if LETTER <= action_id < END_WORD:
        return f"letter {LETTERS[action_id - LETTER]}"
    if action_id == END_WORD:
        return "end of word"
    if EXCHANGE <= action_id < END_EXCHANGE:
        return f"exchange a {LETTERS[action_id - EXCHANGE]}"
    if action_id == END_EXCHANGE:
        return "end of exchange"
    raise IllegalMove(f"{action_id!r} is not a crossword action id (0-{NUM_ACTIONS - 1})")


class CrosswordCodec(Codec):
    """The numbering and observation of Crossword (turns mode)."""

    fixed_options = ("turn_mode",)  # turns only: the daily mode lets several seats act at once

    num_actions = NUM_ACTIONS
    max_chance_outcomes = 26

    def __init__(self, game: Game) -> None:
        if game.options.get("turn_mode", "turns") != "turns":
            raise BadOption("the research adapters play the crossword in turn_mode=turns only")
        super().__init__(game)
        self.observation_size = sum(n for _, n in self.observation_layout())
        check_layout(self.observation_layout(), self.observation_size)

    def observation_layout(self) -> list[tuple[str, int]]:
        n = self.num_players
        return [
            ("board", SQUARES * 27),
            ("heights", SQUARES),
            ("rack", 26),
            ("unseen", 26),
            ("covered", 26),
            ("scores", n),
            ("rack_sizes", n),
            ("bag", 1),
            ("streak", n),
            ("to_move", n),
            ("decision", 3),
            ("play_start", SQUARES),
            ("play_direction", 2),
            ("play_prefix", SIZE * 26),
            ("exchange_prefix", 26),
        ]

    def new_position(self) -> CrosswordPosition:
        state = self.game.new_initial_state()
        assert isinstance(state, CrosswordState)
        return CrosswordPosition(self, state)

    def action_name(self, action_id: int) -> str:
        return action_name(action_id)


class CrosswordPosition(Position):
    """Crossword through :class:`CrosswordCodec`. ``drawn``: tiles drawn so far in a refill;
    ``start`` and ``prefix``: the play being chosen (``start`` = (square, direction index));
    ``exchange``: the tiles chosen so far for an exchange (``None`` when none is begun)."""

    codec: CrosswordCodec
    state: CrosswordState

    def __init__(self, codec: CrosswordCodec, state: CrosswordState) -> None:
        super().__init__(codec, state)
        self.drawn = ""
        self.start: tuple[int, int] | None = None
        self.prefix = ""
        self.exchange: str | None = None
        self._plays: dict[tuple[int, int], frozenset[str]] | None = None
        self._exchanges: frozenset[str] | None = None

    # --- legal decisions ----------------------------------------------------------------

    def _legal_sets(self) -> tuple[dict[tuple[int, int], frozenset[str]], frozenset[str]]:
        if self._plays is None or self._exchanges is None:
            seat = self.state.current_player()
            plays: dict[tuple[int, int], set[str]] = {}
            exchanges: set[str] = set()
            for action in self.state.legal_actions(seat):
                if isinstance(action, Play):
                    key = (action.square, _DIRECTIONS.index(action.direction))
                    plays.setdefault(key, set()).add(action.word)
                elif isinstance(action, Exchange):
                    exchanges.add(action.tiles)
            self._plays = {k: frozenset(v) for k, v in plays.items()}
            self._exchanges = frozenset(exchanges)
        return self._plays, self._exchanges

    def legal_ids(self) -> list[int]:
        if self.state.current_player() < 0:
            return []
        plays, exchanges = self._legal_sets()
        if self.start is not None:
            depth = len(self.prefix)
            ids = {
                LETTER + _CODE[w[depth]]
                for w in plays[self.start]
                if len(w) > depth and w.startswith(self.prefix)
            }
            if self.prefix in plays[self.start]:
                ids.add(END_WORD)
            return sorted(ids)
        if self.exchange is not None:
            depth = len(self.exchange)
            ids = {
                EXCHANGE + _CODE[t[depth]]
                for t in exchanges
                if len(t) > depth and t.startswith(self.exchange)
            }
            if self.exchange in exchanges:
                ids.add(END_EXCHANGE)
            return sorted(ids)
        ids = {BEGIN + 2 * square + d for square, d in plays}
        ids.update(EXCHANGE + _CODE[t[0]] for t in exchanges)
        ids.add(PASS)
        return sorted(ids)

    def _apply_action(self, action_id: int) -> None:
        seat = self.state.current_player()
        if action_id == PASS:
            self._engine(Pass(), seat)
        elif action_id < LETTER:
            square, d = divmod(action_id - BEGIN, 2)
            self.start, self.prefix = (square, d), ""
        elif action_id < END_WORD:
            self.prefix += LETTERS[action_id - LETTER]
        elif action_id == END_WORD:
            assert self.start is not None
            square, d = self.start
            self._engine(Play(self.prefix, square, _DIRECTIONS[d]), seat)
        elif action_id < END_EXCHANGE:
            self.exchange = (self.exchange or "") + LETTERS[action_id - EXCHANGE]
        else:
            assert self.exchange is not None
            self._engine(Exchange(self.exchange), seat)

    def _engine(self, action: object, seat: int) -> None:
        self.state.apply(action, player=seat)
        self.start, self.prefix, self.exchange = None, "", None
        self._plays = self._exchanges = None

    # --- chance -------------------------------------------------------------------------

    def _bag_left(self) -> Counter[str]:
        bag = Counter(self.state.bag)
        bag.subtract(self.drawn)
        return bag

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance():
            raise IllegalMove("not a chance node: no tiles are being drawn")
        bag = self._bag_left()
        total = sum(bag.values())
        return [(_CODE[t], count / total) for t, count in sorted(bag.items()) if count > 0]

    def sample_chance(self, rng: random.Random) -> int:
        if not self.is_chance():
            raise IllegalMove("not a chance node: no tiles are being drawn")
        bag = self._bag_left()
        return _CODE[rng.choice(list(bag.elements()))]

    def _apply_chance(self, chance_id: int) -> None:
        self.drawn += LETTERS[chance_id]
        if len(self.drawn) == self.state.draw_size():
            draw = Draw("".join(sorted(self.drawn)))
            self.drawn = ""
            self.state.apply(draw, player=CHANCE)
            self._plays = self._exchanges = None

    def id_to_string(self, action_id: int) -> str:
        if self.is_chance():
            return f"draw {LETTERS[check_id(action_id, len(LETTERS), 'a letter')]}"
        return action_name(action_id)

    # --- views --------------------------------------------------------------------------

    def observation(self, seat: int) -> Vector:
        seat = check_seat(seat, self.codec.num_players)
        state = self.state
        n = self.codec.num_players
        out = np.zeros(self.codec.observation_size, dtype=np.float32)
        codes = _LOOKUP[np.frombuffer(state.board.letters.encode("ascii"), dtype=np.uint8)]
        out[_BOARD_BASE + codes] = 1.0
        at = SQUARES * 27
        out[at : at + SQUARES] = np.frombuffer(bytes(state.board.heights), dtype=np.uint8)
        at += SQUARES
        rack = state.racks[seat]
        if self.is_chance() and state.to_draw and state.to_draw[0] == seat:
            rack += self.drawn  # the seat sees the tiles it draws
        for part in (rack, state.unseen(seat), state.covered):
            for letter in part:
                out[at + _CODE[letter]] += 1.0
            at += 26
        if self.is_chance() and state.to_draw and state.to_draw[0] == seat:
            for letter in self.drawn:
                out[at - 52 + _CODE[letter]] -= 1.0  # drawn tiles are no longer unseen
        for s in range(n):
            k = relative(seat, s, n)
            out[at + k] = state.scores[s] / 100.0
            out[at + n + k] = len(state.racks[s]) / RACK_SIZE
            out[at + 2 * n + 1 + k] = float(state.streak[s])
        out[at + 2 * n] = len(state.bag) / 98.0
        at += 3 * n + 1
        player = state.current_player()
        out[at : at + n] = one_hot(n, relative(seat, player, n) if player >= 0 else None)
        at += n
        mine = player == seat
        decision = 1 if mine and self.start is not None else 2 if mine and self.exchange else 0
        out[at + decision] = 1.0
        at += 3
        if mine and self.start is not None:
            square, d = self.start
            out[at + square] = 1.0
            out[at + SQUARES + d] = 1.0
            for i, letter in enumerate(self.prefix):
                out[at + SQUARES + 2 + 26 * i + _CODE[letter]] = 1.0
        at += SQUARES + 2 + SIZE * 26
        for letter in (self.exchange or "") if mine else "":
            out[at + _CODE[letter]] += 1.0
        return out

    def _pending_text(self) -> str:
        if self.start is not None:
            square, d = self.start
            return f"\nplaying {self.prefix or '(no letters yet)'} from {square_name(square)} " + (
                _DIRECTIONS[d].value
            )
        if self.exchange is not None:
            return f"\nexchanging {self.exchange}"
        if self.drawn:
            return f"\ndrawing: {len(self.drawn)} of {self.state.draw_size()} tiles drawn"
        return ""

    def observation_string(self, seat: int) -> str:
        """The engine's JSON view for *seat*, then the seat's own decision in progress and,
        during its refill, the tiles it has drawn so far."""
        import json

        seat = check_seat(seat, self.codec.num_players)
        state = self.state
        text = json.dumps(state.observation(seat), sort_keys=True)
        if state.current_player() == seat and (self.start is not None or self.exchange):
            text += self._pending_text()
        if self.drawn and state.to_draw and state.to_draw[0] == seat:
            text += f"\ndrawn so far: {''.join(sorted(self.drawn))}"
        elif self.drawn:
            text += f"\ndrawing: {len(self.drawn)} tiles drawn"
        return text

    def clone(self) -> CrosswordPosition:
        twin = CrosswordPosition(self.codec, self.state.clone())
        twin.drawn = self.drawn
        twin.start, twin.prefix, twin.exchange = self.start, self.prefix, self.exchange
        twin._plays, twin._exchanges = self._plays, self._exchanges
        return twin
