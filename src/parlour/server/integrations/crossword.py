"""The crossword's lobby on the server (manual 002, "STARTING A NEW GAME"; ``parlour.lobby``).

A crossword table is created with up to four seats (its maximum) and a minimum
(``min_players``); players join and vote to begin now. The game begins by itself as soon as
every seat is taken, or at least the minimum have voted to begin, with the players who have
joined (open seats are dropped). Nobody starts it by hand. The rule itself is
:class:`parlour.lobby.Lobby`'s; this module only feeds it the table.

Still to come: daily mode's ``new-day`` host event at midnight in the table's time zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.engine.errors import InvalidNotation
from parlour.engine.state import State
from parlour.games.crossword.board import parse_square
from parlour.games.crossword.rules import play_from_tiles
from parlour.games.crossword.state import CrosswordState
from parlour.lobby import Lobby as VoteLobby
from parlour.lobby import LobbyError
from parlour.server.hooks import GameHooks, Lobby, register_hooks
from parlour.storage.tables import SeatRow


def vote_lobby(lobby: Lobby) -> VoteLobby:
    """The table's lobby as :class:`parlour.lobby.Lobby` sees it (seat order is join order)."""
    table = lobby.table
    taken = [s for s in lobby.seats if not s.is_open]
    votes = set(table.lobby.get("votes", []))
    minimum = int(table.lobby.get("min_players", lobby.spec.min_players))
    maximum = len(lobby.seats)
    names = [f"seat{s.seat}" for s in taken]
    built = VoteLobby.open(
        lobby.spec,
        names[0],
        min_players=min(minimum, maximum),
        max_players=maximum,
        begin_now=taken[0].seat in votes,
        options={k: v for k, v in table.options.items() if k != "players"},
    )
    for seat, name in zip(taken[1:], names[1:], strict=True):
        try:
            built.join(name, begin_now=True if seat.seat in votes else None)
        except LobbyError:
            break  # it has begun already
    return built


@dataclass(frozen=True)
class VotesToBegin:
    """The crossword's start rule (see the module docstring)."""

    def refuse_start(self, lobby: Lobby, account_id: int) -> str | None:
        """Always refuses a start by hand, saying how the game begins."""
        built = vote_lobby(lobby)
        return (
            f"a crossword begins by itself when {built.max_players} have joined or "
            f"{built.min_players} have voted to begin: vote to begin"
        )

    def starts_by_itself(self, lobby: Lobby) -> bool:
        """True once the seats are all taken or enough players voted to begin."""
        return vote_lobby(lobby).started

    def start_options(self, lobby: Lobby) -> tuple[dict[str, Any], list[SeatRow]]:
        """The options with ``players`` = those who joined, and their seats in order."""
        built = vote_lobby(lobby)
        return built.game_options(), [s for s in lobby.seats if not s.is_open]


def compose_tiles(state: State, tiles: Sequence[tuple[str, str]]) -> str:
    """The play that lays *tiles* (``(square, letter)`` pairs, e.g. ``("H8", "C")``) on the
    board now, in notation (``rules.play_from_tiles``). Raises ``InvalidNotation`` for a bad
    square or letter and ``IllegalMove`` for tiles that make no word (not in one line, a gap).
    """
    assert isinstance(state, CrosswordState)
    placed = []
    for square, letter in tiles:
        if len(letter) != 1 or not letter.isascii() or not letter.isalpha():
            raise InvalidNotation(f"{letter!r} is not a tile: one letter A-Z")
        placed.append((parse_square(square), letter.upper()))
    return str(play_from_tiles(state.board, placed))


register_hooks("crossword", GameHooks(start=VotesToBegin(), compose=compose_tiles))
