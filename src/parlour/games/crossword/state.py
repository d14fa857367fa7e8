"""A game of Crossword: turns, draws, exchanges, days and the end (``docs/rules/crossword.md``).

The turn order has two modes (game option ``turn_mode``):

- ``turns``: seats play in a fixed order, seat 0 first (local play).
- ``daily`` (the manual's): first come, first play. ``current_player()`` is
  :data:`SIMULTANEOUS` and :meth:`CrosswordState.actors` lists the seats that have not yet
  acted today; each seat makes one play, exchange or pass per day. The engine has no clock:
  the host applies ``new-day`` at midnight in the game's time zone. Two seats acting "at once"
  are applied one after the other, the second against the board the first left.

Chance is explicit: every rack refill, the opening racks included, is a chance node whose
outcome is the multiset of tiles drawn (``draw AEINRST``); tests force any draw the bag allows.
After an exchange the player draws first and the returned tiles go back into the bag after.

Racks are hidden: ``observation(seat)`` holds only that seat's own rack, until the game is
over; then every seat's final rack is public.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from parlour.engine.errors import IllegalMove, NotEnumerable
from parlour.engine.state import CHANCE, HOST, JSON, SIMULTANEOUS, TERMINAL, Game, Result, State
from parlour.games.crossword.board import SIZE, Board
from parlour.games.crossword.lexicon import Lexicon, load_lexicon
from parlour.games.crossword.movegen import Move, MoveGenerator
from parlour.games.crossword.notation import (
    CrosswordAction,
    Draw,
    Exchange,
    NewDay,
    Pass,
    Play,
    Rearrange,
    Skip,
    parse,
)
from parlour.games.crossword.plays import CrosswordRules, ScoredPlay, check_play
from parlour.games.crossword.scoring import end_adjustments
from parlour.games.crossword.tiles import (
    EXCHANGE_MIN_BAG,
    FULL_BAG,
    RACK_SIZE,
    add,
    count_draws,
    draw_probability,
    draws,
    sample_draw,
    sorted_tiles,
    sub_multisets,
    take,
)

TURNS = "turns"
DAILY = "daily"
SCORELESS_ROUNDS = 2
"""The game ends when every seat's last this-many turns scored nothing."""


class CrosswordState(State):
    """A game of Crossword in progress.

    Read-only attributes: ``board`` (:class:`~.board.Board`), ``racks`` (by seat, in the
    player's order), ``bag`` (sorted multiset), ``covered`` (tiles covered and out of the
    game, sorted), ``scores`` (points by seat), ``seat`` (turns mode: whose turn),
    ``streak`` (consecutive scoreless turns by seat), ``day`` and ``acted`` (daily mode),
    ``log`` (the public account of every turn), ``out`` (the seat who emptied their rack at
    the end), ``lexicon`` and ``rules``.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.num_players
        self.lexicon: Lexicon = load_lexicon(str(game.options.get("lexicon", "enable")))
        self.rules = CrosswordRules.from_options(game.options)
        self.mode: str = str(game.options.get("turn_mode", TURNS))
        self.board = Board.empty()
        self.racks: list[str] = [""] * n
        self.bag: str = FULL_BAG
        self.covered: str = ""
        self.scores: list[int] = [0] * n
        self.seat = 0
        self.to_draw: list[int] = list(range(n))
        self.returning: str = ""
        self.streak: list[int] = [0] * n
        self.day = 1
        self.acted: list[bool] = [False] * n
        self.log: list[dict[str, Any]] = []
        self.turns = 0
        self.over = False
        self.out: int | None = None

    @classmethod
    def from_position(
        cls,
        game: Game,
        board: Board,
        racks: Sequence[str],
        *,
        scores: Sequence[int] | None = None,
        covered: str = "",
        seat: int = 0,
        bag: str | None = None,
    ) -> CrosswordState:
        """A state at a given position, for tests and analysis (its history is empty, so it
        does not round-trip through ``to_json``).

        The bag defaults to every tile not on the board, on a rack or covered. Raises
        ``ValueError`` if the tiles given are not a sub-multiset of the 98 (or, with *bag*,
        do not make exactly the 98).
        """
        state = cls(game)
        if len(racks) != game.num_players:
            raise ValueError(f"{len(racks)} racks for {game.num_players} seats")
        used = board.tiles_on_top() + "".join(racks) + covered
        rest = take(FULL_BAG, used)
        if rest is None:
            raise ValueError(f"more tiles than the game has: {sorted_tiles(used)}")
        if bag is not None and sorted_tiles(bag) != sorted_tiles(rest):
            raise ValueError("the bag, board, racks and covered tiles do not make the 98 tiles")
        state.board = board
        state.racks = list(racks)
        state.bag = sorted_tiles(rest)
        state.covered = sorted_tiles(covered)
        state.scores = list(scores) if scores is not None else [0] * game.num_players
        state.seat = seat
        state.to_draw = []
        return state

    # --- whose move ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.to_draw:
            return CHANCE
        if self.mode == DAILY:
            return SIMULTANEOUS
        return self.seat

    def actors(self) -> tuple[int, ...]:
        """The seats that may act now: the seat to move (turns mode), or every seat that has
        not acted today (daily mode); none at a chance node or at the end."""
        player = self.current_player()
        if player == SIMULTANEOUS:
            return tuple(s for s, done in enumerate(self.acted) if not done)
        return (player,) if player >= 0 else ()

    def _whose_move(self) -> str:
        if self.current_player() == SIMULTANEOUS:
            done = [str(s) for s, a in enumerate(self.acted) if a]
            waiting = [str(s) for s, a in enumerate(self.acted) if not a]
            text = f"daily mode, day {self.day}: seat(s) {', '.join(done)} have acted today"
            if waiting:
                return text + f"; seat(s) {', '.join(waiting)} may still act"
            return text + "; everyone has acted, the next turn comes with the new day"
        return super()._whose_move()

    # --- chance -------------------------------------------------------------------------

    def draw_size(self) -> int:
        """Tiles the pending draw takes: the rack's gap to 7, at most the bag."""
        seat = self.to_draw[0]
        return min(RACK_SIZE - len(self.racks[seat]), len(self.bag))

    def chance_outcomes(self) -> list[tuple[Draw, Fraction]]:
        """Every draw with its exact (multivariate hypergeometric) probability.

        Raises :class:`NotEnumerable` when there are more than
        :attr:`chance_enumeration_limit` different draws (the opening racks), and
        :class:`IllegalMove` when this is not a chance node.
        """
        self._require_chance()
        k = self.draw_size()
        if count_draws(self.bag, k, self.chance_enumeration_limit) > self.chance_enumeration_limit:
            raise NotEnumerable(f"a draw of {k} from {len(self.bag)} tiles: too many outcomes")
        return [(Draw(d), draw_probability(self.bag, d)) for d in draws(self.bag, k)]

    def sample_chance(self, rng: random.Random) -> Draw:
        self._require_chance()
        return Draw(sample_draw(self.bag, self.draw_size(), rng))

    def _require_chance(self) -> None:
        if self.over or not self.to_draw:
            raise IllegalMove(f"not a chance node: {self._whose_move()}")

    # --- legal actions ------------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> Sequence[CrosswordAction]:
        """The turn actions *player* may take now: every legal play, then
        every exchange (each different multiset of rack tiles, if the bag holds 7 or more),
        then ``pass``. At a chance node: the draws, when they can be listed.

        Rack rearrangements are always allowed (for any seat, at any time) and not listed.
        In daily mode give the seat: ``player=None`` lists nothing.
        """
        current = self.current_player()
        if current == TERMINAL:
            return ()
        if current == CHANCE:
            if player not in (None, CHANCE):
                return ()
            try:
                return [d for d, _ in self.chance_outcomes()]
            except NotEnumerable:
                return ()
        seat = current if player is None else player
        if seat < 0 or seat not in self.actors():
            return ()
        return [*(m.play for m in self.moves(seat)), *self._exchanges(seat), Pass()]

    @property
    def generator(self) -> MoveGenerator:
        """The move generator for this game's lexicon and house rules (shared)."""
        return MoveGenerator.for_lexicon(self.lexicon, self.rules)

    def plays(self, seat: int) -> list[ScoredPlay]:
        """Every legal play for *seat*'s rack on the board now, scored, each once (no turn
        check). From the move generator (:mod:`.movegen`)."""
        return self.generator.plays(self.board, self.racks[seat])

    def moves(self, seat: int) -> list[Move]:
        """:meth:`plays` in the generator's light form (score, word, square, direction,
        tiles used, tiles covered), for computer players and hints."""
        return self.generator.moves(self.board, self.racks[seat])

    def _exchanges(self, seat: int) -> list[Exchange]:
        if len(self.bag) < EXCHANGE_MIN_BAG:
            return []
        return [Exchange(t) for t in sub_multisets(self.racks[seat])]

    def preview(self, play: Play, seat: int | None = None) -> ScoredPlay:
        """What *play* would do for *seat* (default: the seat to move): the words formed and
        the score, without changing anything (the manual's confirmation step).

        Raises :class:`IllegalMove` with the reason it would be refused.
        """
        who = self.seat if seat is None else seat
        if not 0 <= who < self.game.num_players:
            raise IllegalMove(self._no_seat(who))
        return check_play(self.board, play, self.racks[who], self.lexicon, self.rules)

    def _no_seat(self, seat: int) -> str:
        return f"there is no seat {seat} (seats 0-{self.game.num_players - 1})"

    # --- checking -----------------------------------------------------------------------

    def _out_of_turn_ok(self, action: Any, player: int) -> bool:
        return isinstance(action, Rearrange)

    def _check(self, action: Any, player: int) -> None:
        if player == CHANCE:
            if not isinstance(action, Draw):
                raise IllegalMove(f"a chance outcome here is a draw of tiles, not {action}")
            k = self.draw_size()
            if len(action.tiles) != k:
                raise IllegalMove(f"this draw takes {k} tiles, not {len(action.tiles)}")
            if take(self.bag, action.tiles) is None:
                raise IllegalMove(f"the bag does not hold {action.tiles}")
            return
        if player == HOST:
            self._check_host(action)
            return
        if isinstance(action, Rearrange):
            if sorted_tiles(action.rack) != sorted_tiles(self.racks[player]):
                raise IllegalMove(
                    f"{action.rack} is not a rearrangement of your rack ({self.racks[player]})"
                )
            return
        if isinstance(action, Play):
            check_play(self.board, action, self.racks[player], self.lexicon, self.rules)
        elif isinstance(action, Exchange):
            self._check_exchange(action, player)
        elif not isinstance(action, Pass):
            raise IllegalMove(
                f"{action!r} is not a move for a player: play a word, exchange, pass or "
                "rearrange the rack"
            )

    def _check_exchange(self, action: Exchange, player: int) -> None:
        if not 1 <= len(action.tiles) <= RACK_SIZE:
            raise IllegalMove(f"exchange 1-{RACK_SIZE} tiles, not {len(action.tiles)}")
        if len(self.bag) < EXCHANGE_MIN_BAG:
            raise IllegalMove(
                f"the bag holds {len(self.bag)} tiles: an exchange needs at least "
                f"{EXCHANGE_MIN_BAG}"
            )
        if take(self.racks[player], action.tiles) is None:
            raise IllegalMove(f"your rack ({self.racks[player]}) does not hold {action.tiles}")

    def _check_host(self, action: Any) -> None:
        if self.to_draw:
            raise IllegalMove(f"{action} must wait: tiles are being drawn")
        if isinstance(action, Skip):
            if not self.actors():
                raise IllegalMove("no seat is to move today: apply new-day")
            return
        if isinstance(action, NewDay):
            if self.mode != DAILY:
                raise IllegalMove("new-day is for daily mode; this game takes turns in order")
            return
        raise IllegalMove(f"the host may skip or start a new day, not {action}")

    # --- applying -----------------------------------------------------------------------

    def _apply(self, action: Any, player: int) -> None:
        if isinstance(action, Draw):
            self._apply_draw(action)
        elif isinstance(action, Rearrange):
            self.racks[player] = action.rack
        elif isinstance(action, Play):
            self._apply_play(
                check_play(self.board, action, self.racks[player], self.lexicon, self.rules),
                player,
            )
        elif isinstance(action, Exchange):
            rest = take(self.racks[player], action.tiles)
            assert rest is not None
            self.racks[player] = rest
            self.returning = action.tiles
            self.to_draw = [player]
            self._scoreless(player, {"kind": "exchange", "count": len(action.tiles)})
        elif isinstance(action, Pass):
            self._scoreless(player, {"kind": "pass"})
        elif isinstance(action, Skip):
            for seat in self.actors():
                self._scoreless(seat, {"kind": "skip"})
        elif isinstance(action, NewDay):
            self.day += 1
            self.acted = [False] * self.game.num_players
            self.log.append({"kind": "new-day", "day": self.day})
        self._settle()

    def _apply_draw(self, action: Draw) -> None:
        seat = self.to_draw.pop(0)
        bag = take(self.bag, action.tiles)
        assert bag is not None
        self.racks[seat] += action.tiles
        self.bag = add(bag, self.returning)
        self.returning = ""

    def _apply_play(self, scored: ScoredPlay, seat: int) -> None:
        rest = take(self.racks[seat], scored.tiles)
        assert rest is not None
        self.racks[seat] = rest
        self.board = self.board.with_tiles(scored.placed)
        self.covered = add(self.covered, scored.covered)
        self.scores[seat] += scored.score
        self.streak[seat] = 0
        self.to_draw = [seat]
        self._end_turn(
            seat,
            {
                "kind": "play",
                "play": str(scored.play),
                "words": [[w.word, w.points] for w in scored.words],
                "score": scored.score,
                "bingo": scored.bingo,
                "covered": scored.covered,
                "tiles": len(scored.tiles),
            },
        )
        if not self.racks[seat] and not self.bag:
            self._finish(out=seat)

    def _scoreless(self, seat: int, entry: dict[str, Any]) -> None:
        self.streak[seat] += 1
        self._end_turn(seat, entry)

    def _end_turn(self, seat: int, entry: dict[str, Any]) -> None:
        self.log.append({"seat": seat, "turn": self.turns, "day": self.day, **entry})
        self.turns += 1
        if self.mode == DAILY:
            self.acted[seat] = True
        else:
            self.seat = (seat + 1) % self.game.num_players

    def _settle(self) -> None:
        """Drop draws that take no tile; end the game after two scoreless rounds."""
        while self.to_draw and not self.over and self.draw_size() == 0:
            self.to_draw.pop(0)
            self.bag = add(self.bag, self.returning)
            self.returning = ""
        if not self.over and not self.to_draw and min(self.streak) >= SCORELESS_ROUNDS:
            self._finish(out=None)

    def _finish(self, out: int | None) -> None:
        adjust = end_adjustments(self.racks, out)
        for seat, points in enumerate(adjust):
            self.scores[seat] += points
        self.log.append({"kind": "end", "out": out, "adjustments": adjust})
        self.out = out
        self.over = True
        self.to_draw = []

    # --- notation and views -------------------------------------------------------------

    def action_to_string(self, action: Any) -> str:
        return str(action)

    def parse_action(self, text: str, *, player: int | None = None) -> CrosswordAction:
        return parse(text, by_seat=player is not None and player >= 0)

    def unseen(self, seat: int) -> str:
        """The tiles *seat* cannot see (the bag and the other racks together), sorted."""
        seen = self.board.tiles_on_top() + self.covered + self.racks[seat]
        rest = take(FULL_BAG, seen)
        assert rest is not None
        return sorted_tiles(rest)

    def _observation(self, seat: int | None) -> JSON:
        """The view of *seat* (``None``: a spectator). Holds that seat's own rack only;
        other racks appear only as their sizes, and exchanges only as a count of tiles.
        Once the game is over, ``final_racks`` (by seat, every seat's, for everyone) shows
        what each player was left holding: the tiles the end adjustment counts
        (``docs/rules/crossword.md#hidden-information``). (The engine refuses a seat the
        game does not have.)"""
        view: dict[str, Any] = {
            "game": self.game.spec.name,
            "you": seat,
            "mode": self.mode,
            "to_move": self.current_player(),
            "actors": list(self.actors()),
            "day": self.day,
            "board": self.board.rows(),
            "heights": [list(self.board.heights[r * SIZE : r * SIZE + SIZE]) for r in range(SIZE)],
            "scores": list(self.scores),
            "rack_sizes": [len(r) for r in self.racks],
            "bag": len(self.bag),
            "covered": self.covered,
            "streak": list(self.streak),
            "log": [dict(e) for e in self.log],
            "over": self.over,
            "winners": list(self.result().winners) if self.over else [],
        }
        if self.over:
            view["final_racks"] = list(self.racks)
        if seat is not None:
            view["rack"] = self.racks[seat]
            view["unseen"] = self.unseen(seat)
        return view

    def result(self) -> Result:
        self.require_terminal()
        best = max(self.scores)
        return Result(tuple(self.scores), tuple(s for s, p in enumerate(self.scores) if p == best))

    def tiles_accounted(self) -> Counter[str]:
        """Every tile by letter: racks, bag, board tops, covered and a pending return (the 98
        tiles, always)."""
        return Counter(
            "".join(self.racks)
            + self.bag
            + self.board.tiles_on_top()
            + self.covered
            + self.returning
        )

    def _dump(self) -> JSON:
        return {
            "board": self.board.letters,
            "heights": list(self.board.heights),
            "racks": list(self.racks),
            "bag": self.bag,
            "covered": self.covered,
            "scores": list(self.scores),
            "seat": self.seat,
            "to_draw": list(self.to_draw),
            "returning": self.returning,
            "streak": list(self.streak),
            "day": self.day,
            "acted": list(self.acted),
            "log": [dict(e) for e in self.log],
            "turns": self.turns,
            "over": self.over,
            "out": self.out,
        }

    def clone(self) -> CrosswordState:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in ("racks", "scores", "to_draw", "streak", "acted", "log", "history"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def __str__(self) -> str:
        scores = "  ".join(
            f"{'>' if s in self.actors() else ' '}seat {s}: {p}" for s, p in enumerate(self.scores)
        )
        return f"{self.game.spec.title}: {scores}  (bag {len(self.bag)})\n{self.board}"
