"""What the platform needs to know about Greedy beyond the protocol (its
:class:`~parlour.engine.platform.Platform` declarations, read through ``SPEC.platform``).

What a finished game adds to the records: the manual's game, one person against one computer
player to the default target, updates the person's tournament standings
(``docs/rules/greedy.md#standings``, :mod:`parlour.games.greedy.standings`).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.engine.platform import Contributions, StandingsGame
from parlour.engine.state import State
from parlour.games.greedy.standings import standings_entry


def counting_seat(state: State, persons: Sequence[bool]) -> int | None:
    """The seat of the person whose standings the game counts for, or ``None``.

    *persons* has one entry per seat, ``True`` for a person, ``False`` for a computer player.
    Only the manual's game counts: two seats, one person against one computer player, to the
    default target (the ``target`` option's default, 10,000).
    """
    target = state.game.spec.options["target"].default
    if state.game.num_players != 2 or state.game.options.get("target") != target:
        return None
    people = [seat for seat, person in enumerate(persons) if person]
    return people[0] if len(people) == 1 else None


def contributions(state: State, persons: Sequence[bool]) -> Contributions:
    """The person's game for the standings, if it counts (:func:`counting_seat`). Raises
    ``IllegalMove`` if the game is not over."""
    seat = counting_seat(state, persons)
    if seat is None:
        return Contributions()
    entry = standings_entry(state, seat)
    return Contributions(standings=(StandingsGame(seat, entry.won, entry.points, entry.margin),))
