"""A local game at one table: the state, who sits in each seat, and how chance and computer
players are driven. The terminal apps (and any other local interface) sit on this.

Players are given as text, ``"me,cpu:strong,cpu:cautious"``: a person by name, a computer
player as ``cpu`` or ``cpu:<level>`` (levels in ``GameSpec.bot_levels``; plain ``cpu`` is the
strongest level).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from parlour.bots.base import Bot
from parlour.engine.errors import BadRecord, ParlourError
from parlour.engine.records import to_record
from parlour.engine.registry import find, load
from parlour.engine.spec import GameSpec
from parlour.engine.state import JSON, Action, Game, State
from parlour.scorebook import record_finished_game
from parlour.storage.db import write_transaction
from parlour.storage.saves import SaveInfo, load_save, save_game

MAX_NAME = 20


@dataclass(frozen=True)
class SeatSpec:
    """One seat: a display ``name`` and, for a computer player, its ``level``."""

    name: str
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a computer player."""
        return self.level is not None

    def text(self) -> str:
        """The form ``parse_players`` reads: ``ann`` or ``cpu:strong``."""
        return f"cpu:{self.level}" if self.level else self.name


def parse_players(text: str, spec: GameSpec) -> list[SeatSpec]:
    """Parse ``"me,cpu:strong"`` into seats for *spec*.

    Raises :class:`ParlourError` for an unknown level, an empty, over-long (over 20
    characters), unprintable or repeated name, or a player count the game does not allow.
    """
    seats: list[SeatSpec] = []
    for raw in text.split(","):
        item = raw.strip()
        if item.lower() == "cpu" or item.lower().startswith("cpu:"):
            if not spec.bot_levels:
                raise ParlourError(f"{spec.name} has no computer players yet")
            level = item[4:].strip().lower() or spec.bot_levels[-1]
            if level not in spec.bot_levels:
                raise ParlourError(
                    f"unknown computer level {level!r}; levels are: {', '.join(spec.bot_levels)}"
                )
            number = sum(1 for s in seats if s.is_bot) + 1
            seats.append(SeatSpec(f"CPU {number} ({level})", level))
            continue
        if not item:
            raise ParlourError("a player name is empty (write names separated by commas)")
        if len(item) > MAX_NAME:
            raise ParlourError(f"player name {item!r} is over {MAX_NAME} characters")
        if not item.isprintable():  # a newline or an escape sequence would garble the table
            raise ParlourError(f"player name {item!r} has control or invisible characters")
        if any(s.name.lower() == item.lower() for s in seats):
            raise ParlourError(f"player name {item!r} is given twice")
        if item.lower().startswith("cpu "):  # would read as a computer seat's name
            raise ParlourError(f"player name {item!r} is kept for computer players")
        seats.append(SeatSpec(item))
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise ParlourError(
            f"{spec.title} takes {spec.min_players}-{spec.max_players} players, not {len(seats)}"
        )
    return seats


def make_bot(spec: GameSpec, level: str) -> Bot:
    """The computer player of *spec* at *level* (loads the game's bots module, or for a
    level of the research extra such as ``openspiel-mcts``, :mod:`parlour.research.bots`)."""
    from parlour.bots.arena import RESEARCH_BOTS, research_levels

    if level not in spec.bot_levels and level in research_levels(spec):
        research: Bot = importlib.import_module(RESEARCH_BOTS).make_bot(spec.name, level)
        return research
    if not spec.bots:
        raise ParlourError(f"{spec.name} has no computer players yet")
    module, _, function = spec.bots.partition(":")
    factory = getattr(importlib.import_module(module), function)
    bot: Bot = factory(level)
    return bot


class LocalGame:
    """One local game: ``state``, ``seats`` and a bot per computer seat.

    The interface draws the chance outcomes (the terminal apps' ``ChanceSource``) and applies
    every move to ``state`` itself; ``bot_rng`` is what the computer players draw from
    (``bot_seed`` fixes it). ``save_id`` is the row this game is saved under, if any.
    ``screen`` is what a terminal app keeps with the save besides the game (JSON, never
    part of the game state: Rummy's hand orders); it is saved with an unfinished game only.
    """

    def __init__(
        self,
        game: Game,
        seats: list[SeatSpec],
        *,
        state: State | None = None,
        save_id: int | None = None,
        bot_seed: int | None = None,
    ) -> None:
        if len(seats) != game.num_players:
            raise ParlourError(f"{len(seats)} seats for a {game.num_players}-player game")
        self.game = game
        self.seats = seats
        self.state = state or game.new_initial_state()
        self.bot_rng = random.Random(bot_seed)
        self.save_id = save_id
        self.bots: dict[int, Bot] = {
            i: make_bot(game.spec, s.level) for i, s in enumerate(seats) if s.level
        }
        self.screen: dict[str, Any] = {}

    @classmethod
    def new(cls, name: str, players: str, **options: Any) -> LocalGame:
        """A new game of *name* for *players* (text, see :func:`parse_players`) with
        *options*, and those the seats decide (:meth:`GameSpec.seat_options`: in Rummy the
        only person against the computer plays first).

        Raises :class:`ParlourError` for bad players or options, and for an option the
        seats decide given another value (``first=1`` when the person sits in seat 0).
        """
        spec = find(name)
        seats = parse_players(players, spec)
        chosen = spec.seat_options(options, [not s.is_bot for s in seats])
        starts = spec.person_starts
        if starts and starts in options and options[starts] != chosen[starts]:
            raise ParlourError(
                f"against the computer the person plays first: option {starts} is the "
                f"person's seat, {chosen[starts]}, here (leave it out)"
            )
        game = load(name, players=len(seats), **chosen)
        return cls(game, seats)

    # --- driving the game ---------------------------------------------------------------

    def to_move(self) -> int:
        """``state.current_player()``."""
        return self.state.current_player()

    def bot_to_move(self) -> bool:
        """True when a computer player is to move."""
        return self.to_move() in self.bots

    def person_to_move(self) -> bool:
        """True when a person is to move."""
        player = self.to_move()
        return player >= 0 and player not in self.bots

    def bot_choice(self) -> Action:
        """The action the computer player to move chooses (not applied). Safe in a thread."""
        seat = self.to_move()
        return self.bots[seat].choose(self.state, seat, self.bot_rng)

    # --- records and saves --------------------------------------------------------------

    def record(self, **meta: Any) -> JSON:
        """The game record so far (see ``docs/records.md``)."""
        return to_record(self.state, [s.text() if s.is_bot else s.name for s in self.seats], **meta)

    def people(self) -> list[str | None]:
        """Per seat: the person's name, or ``None`` for a computer player."""
        return [None if s.is_bot else s.name for s in self.seats]

    def save(self, engine: Engine) -> int:
        """Save (or update) this game in the database; return the save id.

        The first save of a finished game also records it in the scorebook (Greedy standings,
        Rummy statistics), in the same transaction: both happen, or neither.
        """
        already = self.save_id is not None and load_save(engine, self.save_id).status == "finished"
        state = self.state.to_json()
        if self.screen and not self.state.is_terminal():
            state["screen"] = self.screen  # beside the game; state_from_json ignores it
        with write_transaction(engine) as connection:  # the save and the scorebook together
            save_id = save_game(
                connection,
                game=self.game.spec.name,
                players=[s.text() for s in self.seats],
                state=state,
                finished=self.state.is_terminal(),
                save_id=self.save_id,
            )
            if self.state.is_terminal() and not already:
                record_finished_game(connection, self.state, self.people())
        self.save_id = save_id
        return save_id

    @classmethod
    def resume(cls, engine: Engine, save_id: int) -> LocalGame:
        """Continue save *save_id*. Raises :class:`ParlourError`/:class:`BadRecord` for a
        missing or corrupt save."""
        info: SaveInfo = load_save(engine, save_id)
        return cls.from_saved(info.game, info.players, info.state, save_id=save_id)

    @classmethod
    def from_saved(
        cls, name: str, players: list[str], state_json: JSON, *, save_id: int | None = None
    ) -> LocalGame:
        """Rebuild a game from its saved parts (the state is replayed from its history)."""
        spec = find(name)
        if not players or not all(isinstance(p, str) for p in players):
            raise BadRecord("corrupt save: its players cannot be read")
        seats = parse_players(",".join(players), spec)
        if not isinstance(state_json, dict) or not isinstance(state_json.get("options"), dict):
            raise BadRecord("corrupt save: its game state cannot be read")
        game = load(name, **state_json["options"])
        local = cls(game, seats, state=game.state_from_json(state_json), save_id=save_id)
        screen = state_json.get("screen")
        if isinstance(screen, dict):
            local.screen = screen
        return local
