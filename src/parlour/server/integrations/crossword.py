"""The crossword's lobby on the server (manual 002, "STARTING A NEW GAME"; ``parlour.lobby``).

A crossword table is created with up to four seats (its maximum) and a minimum
(``min_players``); players join and vote to begin now. The game begins by itself as soon as
every seat is taken, or at least the minimum have voted to begin, with the players who have
joined (open seats are dropped). Nobody starts it by hand. The rule itself is
:class:`parlour.lobby.VoteLobby`'s; this module only feeds it the table.

Daily mode: a ``new-day`` host event at midnight in the table's time zone (sweeper or the
first action after it). Previews compose tiles put on squares into a play's notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from parlour.engine.errors import InvalidNotation
from parlour.engine.spec import GameSpec
from parlour.engine.state import CHANCE, HOST, JSON, State
from parlour.games.crossword.board import parse_square
from parlour.games.crossword.lexicon import DEFAULT as DEFAULT_LEXICON
from parlour.games.crossword.lexicon import load_lexicon
from parlour.games.crossword.plays import play_from_tiles
from parlour.games.crossword.state import DAILY, CrosswordState
from parlour.lobby import VoteLobby
from parlour.server.hooks import (
    GameHooks,
    LobbyView,
    Moment,
    Turning,
    clock_deadline,
    clock_skip,
    nothing_hidden,
    register_hooks,
)
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
    """The crossword's start rule (see the module docstring)."""

    def refuse_start(self, lobby: LobbyView, account_id: int) -> str | None:
        """Always refuses a start by hand, saying how the game begins."""
        built = vote_lobby(lobby)
        return (
            f"a crossword begins by itself when {built.max_players} have joined or "
            f"{built.min_players} have voted to begin: vote to begin"
        )

    def starts_by_itself(self, lobby: LobbyView) -> bool:
        """True once the seats are all taken or enough players voted to begin."""
        return vote_lobby(lobby).started

    def start_options(self, lobby: LobbyView) -> tuple[dict[str, Any], list[SeatRow]]:
        """The options with ``players`` = those who joined, and their seats in order."""
        built = vote_lobby(lobby)
        return built.game_options(), [s for s in lobby.seats if not s.is_open]


def is_daily(state: State) -> bool:
    """True for a crossword game in daily mode."""
    return getattr(state, "mode", None) == DAILY


def next_midnight(now: datetime, zone: str) -> datetime:
    """The first midnight after *now* in the IANA time zone *zone*, as an aware datetime.

    >>> from datetime import UTC
    >>> str(next_midnight(datetime(2026, 12, 1, 22, 30, tzinfo=UTC), "Europe/Paris"))
    '2026-12-02 00:00:00+01:00'
    """
    tz = ZoneInfo(zone)
    tomorrow = now.astimezone(tz).date() + timedelta(days=1)
    return datetime.combine(tomorrow, time(0), tzinfo=tz)


def daily_deadline(turning: Turning) -> datetime | None:
    """Daily mode: the midnight that ends the day, in UTC (set at the start and at each
    ``new-day``, kept by every other change). Turns mode: the days-per-move clock."""
    if not is_daily(turning.state):
        return clock_deadline(turning)
    new_day = any(by == HOST and move == "new-day" for by, move in turning.added)
    if turning.table.deadline is None or new_day:
        return next_midnight(turning.now, turning.table.time_zone).astimezone(UTC)
    return turning.table.deadline


def daily_host_events(moment: Moment) -> list[str]:
    """Daily mode, once the day's midnight has passed: ``skip`` (with a one-day clock, while
    a seat has not acted) then ``new-day``. Turns mode: the clock's ``skip``."""
    if not is_daily(moment.state):
        return clock_skip(moment)
    deadline = moment.table.deadline
    if deadline is None or moment.now < deadline:
        return []
    if moment.state.is_terminal() or moment.state.is_chance_node():
        return []
    if moment.table.clock_days is not None and moment.state.actors():
        return ["skip"]
    return ["new-day"]


def check_table(options: dict[str, Any], clock_days: int | None) -> str | None:
    """Daily mode takes a one-day clock or none; turns mode any the server offers. (The word
    list is always the built-in one: the lobby refuses every file option.)"""
    if options.get("turn_mode") == DAILY and clock_days not in (None, 1):
        return (
            "in daily mode the day is the clock: clock_days is 1 (a seat that lets a day "
            "pass without acting is skipped at midnight) or null (a missed day costs nothing)"
        )
    return None


def public_events(spec: GameSpec, by: int, move: str, seat: int | None, over: bool) -> bool:
    """Plays, passes and host events are public (the board shows them); draws, exchanges
    (which tiles) and rack orders only to their seat, and everything once the game is over.
    (Observations carry each seat's public account of exchanges: how many tiles.)"""
    if over or by == HOST:
        return True
    if by == CHANCE:
        return False
    if move.startswith(("exchange ", "rack ")):
        return seat == by
    return True


def warm_word_list() -> None:
    """Load the built-in word list (a second or two, once per process)."""
    load_lexicon(DEFAULT_LEXICON)


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


def final_reveal_withheld(before: State, after: State, seat: int) -> JSON:
    """The seat's view after its action (a preview), less what the game's end shows: when
    the action ends the game, no ``final_racks``, and every other seat's end adjustment and
    score, and the winners, are ``None`` (they hang on the other racks). The seat's own
    adjustment stays: its own rack's value, or, going out with the bag empty, the unseen
    tiles' value, which it knows."""
    view = after.observation(seat)
    if not after.is_terminal() or before.is_terminal():
        return view
    assert isinstance(view, dict)
    view.pop("final_racks", None)
    view["winners"] = None
    view["scores"] = [score if s == seat else None for s, score in enumerate(view["scores"])]
    log = view["log"]
    if log and log[-1].get("kind") == "end":
        end = dict(log[-1])
        adjust = end["adjustments"]
        end["adjustments"] = [points if s == seat else None for s, points in enumerate(adjust)]
        log[-1] = end
    return view


def rack_order_only(move: str) -> bool:
    """True for a rack rearrangement (``rack RETAINS``): it changes no other seat's play."""
    return move.startswith("rack ")


register_hooks(
    "crossword",
    GameHooks(
        start=VotesToBegin(),
        host_events=daily_host_events,
        deadline=daily_deadline,
        check_table=check_table,
        warm=warm_word_list,
        event_visible=public_events,
        compose=compose_tiles,
        independent=rack_order_only,
        preview_hides=nothing_hidden,  # its end is redacted instead: final_reveal_withheld
        preview_view=final_reveal_withheld,
        legal_limit=0,  # hundreds of plays: never listed; clients compose plays in notation
    ),
)
