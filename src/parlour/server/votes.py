"""The vote lobby on the server, for games that declare ``Start.VOTE`` (the crossword, manual
002, "STARTING A NEW GAME"; the rule itself is :class:`parlour.lobby.VoteLobby`'s).

Such a table is created with up to the game's maximum of seats and a minimum
(``min_players``); players join and vote to begin now. The game begins by itself as soon as
every seat is taken, or at least the minimum have voted to begin, with the players who have
joined (open seats are dropped). Nobody starts it by hand. This module only feeds the rule
the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.lobby import VoteLobby
from parlour.server.hooks import LobbyView
from parlour.storage.tables import SeatRow


def vote_lobby(lobby: LobbyView) -> VoteLobby:
    """The table's lobby as :class:`parlour.lobby.VoteLobby` sees it: everyone seated has joined
    (seat order), then the votes are given in the order they came. A game that has begun
    has everyone who had joined when it began, whichever vote began it."""
    table = lobby.table
    taken = [s for s in lobby.seats if not s.is_open]
    minimum = int(table.lobby.get("min_players", lobby.spec.min_players))
    maximum = len(lobby.seats)
    built = VoteLobby(
        lobby.spec.name,
        min(minimum, maximum),
        maximum,
        {k: v for k, v in table.options.items() if k != "players"},
    )
    for seat in taken:
        built.join(f"seat{seat.seat}")
    seated = {s.seat for s in taken}
    for vote in table.lobby.get("votes", []):
        if built.started:
            break
        if vote in seated and f"seat{vote}" not in built.votes:
            built.vote(f"seat{vote}", begin_now=True)
    return built


@dataclass(frozen=True)
class VotesToBegin:
    """The start rule of the vote lobby (see the module docstring)."""

    def refuse_start(self, lobby: LobbyView, account_id: int) -> str | None:
        """Always refuses a start by hand, saying how the game begins."""
        built = vote_lobby(lobby)
        return (
            f"a {lobby.spec.title.lower()} game begins by itself when {built.max_players} "
            f"have joined or {built.min_players} have voted to begin: vote to begin"
        )

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        """True once the seats are all taken or enough players voted to begin."""
        return vote_lobby(lobby).started

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        """The options with ``players`` = those who joined, and their seats in order."""
        built = vote_lobby(lobby)
        return built.game_options(), [s for s in lobby.seats if not s.is_open]
