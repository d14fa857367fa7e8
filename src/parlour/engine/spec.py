"""How a game describes itself: its names, player counts and options, as data.

A :class:`GameSpec` is read by :func:`parlour.games`, the command line, the lobby and the tests.
House rules are *options* with defaults that give the manual's game, never subclasses.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.engine.errors import BadOption
from parlour.engine.platform import Platform

if TYPE_CHECKING:
    from parlour.engine.state import Game, State


class Chance(enum.Enum):
    """How chance enters a game (OpenSpiel's chance mode)."""

    DETERMINISTIC = "deterministic"
    EXPLICIT = "explicit"  # chance nodes with listed or sampled outcomes


class Information(enum.Enum):
    """Whether every player sees the whole state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class Option:
    """One game option: a default, and what values are allowed.

    ``kind`` is ``int``, ``bool`` or ``str``. For ints ``minimum``/``maximum`` bound the value
    (inclusive, ``None`` for no bound) and ``step`` requires a multiple of it; for strings
    ``choices`` lists the allowed values. ``file``: a string that may name a file other than
    by the default (a word list); the command line stores such a file as an absolute path,
    so a saved game or record finds it from any directory.
    """

    default: Any
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    choices: tuple[str, ...] = ()
    file: bool = False

    def allowed(self) -> str:
        """A short text of the allowed values, for error messages and help."""
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        if self.kind is str:
            return "any text"
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        text = f"{lo}..{hi}" if (lo or hi) else "any integer"
        if self.step:
            text += f", a multiple of {self.step}"
        return text

    def validate(self, name: str, value: Any) -> Any:
        """Return *value* converted to this option's kind, or raise :class:`BadOption`."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                return False
            raise BadOption(f"option {name}={value!r}: must be true or false")
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise BadOption(f"option {name}={value!r}: must be an integer ({self.allowed()})")
            try:
                number = int(value)
            except ValueError:
                raise BadOption(
                    f"option {name}={value!r}: must be an integer ({self.allowed()})"
                ) from None
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise BadOption(f"option {name}={number}: out of range, allowed {self.allowed()}")
            if self.step and number % self.step:
                raise BadOption(f"option {name}={number}: allowed {self.allowed()}")
            return number
        if not isinstance(value, str) or (self.choices and value not in self.choices):
            raise BadOption(f"option {name}={value!r}: allowed {self.allowed()}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """Everything parlour knows about a game before one is played.

    ``options`` always holds ``players`` (the number of seats); each option's default is
    written here once, and everything else (the command line, the server, the adapters)
    reads it from here. ``new_state`` builds the initial state of a loaded
    :class:`~parlour.engine.state.Game` (a saved state is restored by replaying its history
    from there: :meth:`~parlour.engine.state.Game.state_from_json`). ``platform`` holds what
    the server, the scorebook and the clients need to know beyond the protocol
    (:class:`~parlour.engine.platform.Platform`: secret and position-independent moves,
    previews, the start rule, daily mode, contributions to standings and statistics).
    """

    name: str
    title: str
    summary: str
    options: Mapping[str, Option]
    new_state: Callable[[Game], State]
    aliases: tuple[str, ...] = ()
    chance: Chance = Chance.EXPLICIT
    information: Information = Information.PERFECT
    rules_doc: str = ""
    bot_levels: tuple[str, ...] = field(default=())
    """Computer player levels, weakest first; the last is the default for ``cpu`` and the
    one the server puts in a seat whose person was taken out. The one list of them: the
    bots module, the command line and the server read it."""
    bots: str = ""
    """Where the bots live, ``"module:function"``; the function takes a level name and returns
    a :class:`parlour.bots.Bot`. Loaded lazily so the rules never import bots."""
    coach: str = ""
    """The game's coach, ``"module:function"``: a :data:`parlour.engine.coach.Coach` giving
    each legal choice of a seat's decision its figures (a win probability) and the best one.
    Loaded lazily (:func:`parlour.engine.coach.coach_of`). ``""``: the game has no coach."""
    host_events: tuple[str, ...] = ()
    """The host events (notation) the engine accepts from
    :data:`~parlour.engine.state.HOST`: ``"skip"`` (a turn clock ran out), ``"new-day"``
    (a new day of a game that runs on days, ``Platform.daily``). A host event not listed here
    is refused."""
    terminal_app: str = ""
    """The game's own terminal app, ``"module:function"`` building it from a
    :class:`~parlour.session.LocalGame` and its settings; ``""``: the generic app."""
    web_renderer: str = ""
    """The web client's renderer for this game, a module under ``web/static/js/games/``
    without ``.js`` (``"dice"``); ``""``: the generic renderer."""
    picture: str = ""
    """The game's picture for the web lobby's card, ``"package:resource"``: an SVG shipped as
    package data in the game's own package (``"mygame:picture.svg"``). Drawn to
    suit light and dark pages alike. ``""``: the lobby shows a generic picture."""
    research: str = ""
    """The game's encoding for the research adapters (PettingZoo, OpenSpiel, Gymnasium):
    ``"module:Class"`` of a ``parlour.research.position.Codec`` subclass, or ``"module"``
    (``"module:object"``) of plain data in the game's own package, its actions and chance
    outcomes in id order and its observation vector (``parlour.research.table``). Loaded
    lazily by ``parlour.research`` only, so nothing else imports it. ``""``: the adapters do
    not offer the game."""
    platform: Platform = field(default_factory=Platform)
    """What the platform needs to know beyond the protocol (the defaults suit most games)."""
    person_starts: str = ""
    """The integer option naming the seat that plays first, for a game whose rule is that
    the person starts against the computer (Rummy's ``first``: "The human player starts out
    playing each round"). The engine knows no people: the platform (``parlour play``, the
    server) sets this option from the seats with :meth:`seat_options`. ``""``: no such rule."""

    def picture_svg(self) -> bytes | None:
        """The bytes of :attr:`picture`, or ``None`` when the game names none, or names one
        that is no ``.svg`` file of an importable package (the lobby's generic picture then).
        """
        package, _, resource = self.picture.partition(":")
        if not package or not resource.endswith(".svg"):
            return None
        from importlib import resources

        try:
            return resources.files(package).joinpath(resource).read_bytes()
        except (ImportError, OSError, ValueError):
            return None

    @property
    def min_players(self) -> int:
        """Fewest seats the game allows."""
        return int(self.options["players"].minimum or 1)

    @property
    def max_players(self) -> int:
        """Most seats the game allows."""
        return int(self.options["players"].maximum or 1)

    def describe_options(self) -> str:
        """One line per option: name, allowed values, default and help."""
        return "\n".join(
            f"  {name}: {opt.allowed()} (default {opt.default!r}) - {opt.help}"
            for name, opt in self.options.items()
        )

    def seat_options(self, options: Mapping[str, Any], people: Sequence[bool]) -> dict[str, Any]:
        """*options* with what the seats decide: when the game has :attr:`person_starts` and
        exactly one of *people* (by seat: ``True`` for a person, ``False`` for a computer
        player) is a person, that option is set to the person's seat, whatever it was.
        Otherwise *options* unchanged (a copy). Checks nothing else.
        """
        chosen = dict(options)
        persons = [seat for seat, person in enumerate(people) if person]
        if self.person_starts and len(persons) == 1 and len(people) > 1:
            chosen[self.person_starts] = persons[0]
        return chosen

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Validate *given* options against this spec and fill in the defaults.

        Raises :class:`BadOption` naming the unknown option or the bad value, and listing what
        is allowed.
        """
        resolved = {name: opt.default for name, opt in self.options.items()}
        for key, value in given.items():
            name = key.replace("-", "_")
            if name not in self.options:
                raise BadOption(
                    f"{self.name} has no option {key!r}; its options are:\n"
                    + self.describe_options()
                )
            resolved[name] = self.options[name].validate(name, value)
        return resolved
