"""The lobby: gathering players for a game before it begins (manual 002, "STARTING A NEW GAME").

A creator opens a game with a minimum and a maximum number of players (within what the game
allows; Crossword 2-4) and votes to **begin now** or **wait** for more players; others join
and vote too. The game begins as soon as the maximum have joined, or at least the minimum
number of players have voted to begin now. Seats are given in join order.

Pure data and rules, no I/O: the methods raise :class:`LobbyError` with the reason and change
nothing when refused. The server keeps its own record of a table's lobby (the seats, the votes
as seat numbers, the minimum) and builds a :class:`VoteLobby` from it each time it asks.

>>> from parlour.engine.registry import find
>>> lobby = VoteLobby.open(find("crossword"), "ann", min_players=2, max_players=3, begin_now=True)
>>> lobby.join("bob")
>>> lobby.started
False
>>> lobby.vote("bob", begin_now=True)
>>> lobby.started, lobby.seats, lobby.game_options()["players"]
(True, ('ann', 'bob'), 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.engine.errors import ParlourError
from parlour.engine.spec import GameSpec

MAX_NAME = 20


class LobbyError(ParlourError):
    """A lobby action refused: the message says why."""


@dataclass
class VoteLobby:
    """A game waiting for players. Read the attributes; change them only through the methods.

    ``game``: the game's name; ``min_players``/``max_players``: the creator's bounds;
    ``options``: the game options other than ``players``; ``players``: names in join order;
    ``votes``: each player's vote (``True`` begin now, ``False`` wait) once given;
    ``started``: the game has begun (seats are fixed).
    """

    game: str
    min_players: int
    max_players: int
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    votes: dict[str, bool] = field(default_factory=dict)
    started: bool = False

    @classmethod
    def open(
        cls,
        spec: GameSpec,
        creator: str,
        *,
        min_players: int,
        max_players: int,
        begin_now: bool,
        options: dict[str, Any] | None = None,
    ) -> VoteLobby:
        """Open a lobby for *spec*'s game with *creator* in seat 0 and their vote.

        Raises :class:`LobbyError` when the bounds are outside the game's player range or
        the minimum is above the maximum, or the name is empty or over 20 characters. Options
        are checked when the game is loaded, not here.
        """
        lo, hi = spec.min_players, spec.max_players
        whole = all(type(n) is int for n in (min_players, max_players))
        if not whole or not lo <= min_players <= max_players <= hi:
            raise LobbyError(
                f"{spec.title} takes {lo}-{hi} players: choose a minimum and a maximum in that "
                f"range, minimum <= maximum (not {min_players} and {max_players})"
            )
        lobby = cls(spec.name, min_players, max_players, dict(options or {}))
        lobby.join(creator, begin_now=begin_now)
        return lobby

    @property
    def seats(self) -> tuple[str, ...]:
        """The players in seat order (join order)."""
        return tuple(self.players)

    @property
    def begin_votes(self) -> int:
        """How many players have voted to begin now."""
        return sum(1 for v in self.votes.values() if v)

    def join(self, player: str, *, begin_now: bool | None = None) -> None:
        """Add *player* in the next seat, with their vote if given.

        Raises :class:`LobbyError` if the game has started or is full, the name is taken,
        empty or over 20 characters.
        """
        name = player.strip()
        if len(self.players) >= self.max_players:
            raise LobbyError(f"{name} cannot join: the game is full ({self.max_players} players)")
        if self.started:
            raise LobbyError(f"{name} cannot join: the game has already started")
        if not name or len(name) > MAX_NAME:
            raise LobbyError(f"a player name has 1-{MAX_NAME} characters, not {player!r}")
        if self._joined(name) is not None:
            raise LobbyError(f"{name} has already joined this game")
        self.players.append(name)
        if begin_now is not None:
            self.votes[name] = begin_now
        self._maybe_start()

    def vote(self, player: str, *, begin_now: bool) -> None:
        """Record *player*'s vote: begin now (``True``) or wait (``False``).

        Raises :class:`LobbyError` if they have not joined, have voted already, or the game
        has started.
        """
        if self.started:
            raise LobbyError("the game has already started: no more votes")
        player = self._require_joined(player)
        if player in self.votes:
            choice = "begin now" if self.votes[player] else "wait"
            raise LobbyError(f"{player} has already voted ({choice}); a vote is given once")
        self.votes[player] = begin_now
        self._maybe_start()

    def leave(self, player: str) -> None:
        """Take *player* (and their vote) out of the lobby; later seats move up.

        Raises :class:`LobbyError` after the start (a player leaves a started game by
        resigning in it) or if they have not joined.
        """
        if self.started:
            raise LobbyError(f"{player} cannot leave: the game has started")
        player = self._require_joined(player)
        self.players.remove(player)
        self.votes.pop(player, None)

    def _joined(self, player: str) -> str | None:
        """The joined player *player* names (spaces around and case ignored, as when
        joining), or ``None``."""
        name = player.strip().lower()
        return next((p for p in self.players if p.lower() == name), None)

    def _require_joined(self, player: str) -> str:
        joined = self._joined(player)
        if joined is None:
            raise LobbyError(f"{player} has not joined this game")
        return joined

    def _maybe_start(self) -> None:
        if len(self.players) >= self.max_players or self.begin_votes >= self.min_players:
            self.started = True

    def game_options(self) -> dict[str, Any]:
        """The options to load the game with: the lobby's options and the number of players.

        Raises :class:`LobbyError` before the start.
        """
        if not self.started:
            raise LobbyError("the game has not started yet")
        return {**self.options, "players": len(self.players)}
