"""What the platform (server, scorebook, clients) needs to know about a game beyond the protocol.

A game declares it on its spec (``GameSpec.platform``), in the engine's terms: plain functions
of notation, states and options, and plain data about what a finished game adds to people's
records. Nothing here is server policy: the server (``parlour.server.hooks``) builds its
per-game behaviour from these declarations plus its own rules (the vote lobby, daily clocks,
previews hiding the end of a game of imperfect information), and the scorebook
(:mod:`parlour.scorebook`) stores the contributions a game reports. A game that declares
nothing gets the defaults, which suit most games.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.engine.state import JSON, State


class Start(enum.Enum):
    """How a table of the game starts on a server."""

    CREATOR = "creator"
    """The creator starts it once every seat is filled."""
    VOTE = "vote"
    """Players join and vote to begin (manual 002, :class:`parlour.lobby.VoteLobby`): it
    begins by itself when every seat is taken or enough have voted, with those who joined."""


@dataclass(frozen=True)
class StandingsGame:
    """What a finished game adds to one person's tournament standings: the ``seat`` of the
    person, whether they ``won``, the tournament ``points`` (negative for a loss) and the
    winning ``margin`` in game points (``None`` for a loss)."""

    seat: int
    won: bool
    points: int
    margin: int | None


@dataclass(frozen=True)
class StatisticsGame:
    """What a finished game adds to one person's statistics: the person's ``seat``, whether
    they ``won``, their final ``game_score`` and every ``round_scores`` entry (points, in
    round order; one entry for a game without rounds)."""

    seat: int
    won: bool
    game_score: int
    round_scores: tuple[int, ...]


@dataclass(frozen=True)
class Contributions:
    """What one finished game adds to people's records; empty when it counts for nothing."""

    standings: tuple[StandingsGame, ...] = ()
    statistics: tuple[StatisticsGame, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.standings or self.statistics)


Contribute = Callable[["State", Sequence[bool]], Contributions]
"""``(finished state, person by seat) -> contributions``: *person* holds ``True`` for a seat a
person plays, ``False`` for a computer player's. Raises ``IllegalMove`` if the game is not
over."""


def no_contributions(state: State, persons: Sequence[bool]) -> Contributions:
    """The default: a finished game adds nothing to anyone's records."""
    return Contributions()


@dataclass(frozen=True)
class Platform:
    """A game's declarations for the platform; every field has a default that suits most games.

    - ``secret``: ``(move) -> bool`` for a seat's move in notation: True when only that seat
      may see the move until the game is over (the crossword: exchanges, which tiles, and
      rack orders). ``None``: in a game of imperfect information every seat's move is secret
      from the others (its observation carries what is public), in one of perfect
      information none is. Chance outcomes are secret in games of imperfect information,
      host events never.
    - ``independent``: ``(move) -> bool`` for a seat's move in notation: True when no other
      seat's action depends on it (the crossword's rack orders), so an action made against
      an earlier version that only such moves have passed means the same now.
    - ``compose``: ``(state, [(square, letter), ...]) -> notation``: tiles put on squares one
      by one as the action that lays them (``[("H8", "C"), ("I8", "A")]`` -> ``"CAT H8
      across"``); raises the engine's errors with the reason they make no action. ``None``:
      the game places no tiles.
    - ``preview_hides``: ``(before, action, seat, after) -> reason | None``: why the position
      *after* the seat's *action* may not be previewed at all (it would show what the seat
      may not see yet: Rummy's draw from the shuffled stock, a move ending Rummy's round).
      ``None``: the platform's default (an action ending a game of imperfect information).
    - ``preview_view``: ``(before, after, seat) -> view``: what a preview shows of the
      position after the seat's action, less what only the action's end would reveal (the
      crossword withholds the other racks' final reveal). ``None``:
      ``after.observation(seat)``.
    - ``warm``: loads what the first game would otherwise load while players wait (the
      crossword's word list); ``None``: nothing to load.
    - ``legal_limit``: the most legal actions listed for a client; beyond it none are listed
      and the client composes the notation itself. 0: never listed, nor worked out (the
      crossword: hundreds of plays).
    - ``start``: how a table starts (:class:`Start`).
    - ``daily``: ``(resolved options) -> bool``: True when a game with these options runs on
      days (the crossword's daily mode): it takes a ``new-day`` host event, which must be in
      ``GameSpec.host_events``, at each midnight of the table's time zone. ``None``: never.
    - ``contributions``: what a finished game adds to people's standings and statistics
      (:data:`Contribute`); the default adds nothing.
    - ``resign_move``: the game's own move, in notation, by which a seat gives up at any time
      (Greedy's ``quit``, a loss in its standings): the server's *resign* plays it as the
      seat's action, so the game ends by its rules. ``None``: the server ends the game or
      hands the seat to a computer player itself (``docs/server.md``).
    """

    secret: Callable[[str], bool] | None = None
    independent: Callable[[str], bool] | None = None
    compose: Callable[[State, Sequence[tuple[str, str]]], str] | None = None
    preview_hides: Callable[[State, Any, int, State], str | None] | None = None
    preview_view: Callable[[State, State, int], JSON] | None = None
    warm: Callable[[], None] | None = None
    legal_limit: int = 300
    start: Start = Start.CREATOR
    daily: Callable[[Mapping[str, Any]], bool] | None = None
    contributions: Contribute = no_contributions
    resign_move: str | None = None
