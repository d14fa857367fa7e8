"""Greedy tournament points (manual ``001``, "Scoring"; ``docs/rules/greedy.md#standings``).

A person who beats the computer gets 5,000 plus 10 x their points over 10,000; a person who
loses forfeits 1,000 plus 5 x the computer's points over 10,000. A quit is a loss at the
computer's score at that moment (its points over 10,000 counting as 0 when it has fewer).
"""

from __future__ import annotations

from dataclasses import dataclass

from parlour.engine.state import State

BASE = 10_000
WIN_BONUS = 5_000
WIN_PER_POINT = 10
LOSS_PENALTY = 1_000
LOSS_PER_POINT = 5


@dataclass(frozen=True)
class StandingsEntry:
    """What one finished person-vs-computer game adds to the person's standings.

    ``points`` is tournament points (negative for a loss); ``margin`` the person's winning
    margin in game points (``None`` for a loss).
    """

    won: bool
    points: int
    margin: int | None


def tournament_points(*, won: bool, person_score: int, computer_score: int) -> int:
    """Tournament points for one game (negative for a loss).

    >>> tournament_points(won=True, person_score=10_250, computer_score=8_000)
    7500
    >>> tournament_points(won=False, person_score=6_000, computer_score=10_400)
    -3000
    >>> tournament_points(won=False, person_score=6_000, computer_score=4_000)
    -1000
    """
    if won:
        return WIN_BONUS + WIN_PER_POINT * max(0, person_score - BASE)
    return -(LOSS_PENALTY + LOSS_PER_POINT * max(0, computer_score - BASE))


def standings_entry(state: State, person: int) -> StandingsEntry:
    """The standings entry for seat *person* of a finished two-seat Greedy game against the
    computer (the other seat). A quit by either side counts as the game's result: the
    quitter loses. Raises ``IllegalMove`` if the game is not over."""
    result = state.result()
    computer = 1 - person
    person_score, computer_score = result.scores[person], result.scores[computer]
    won = result.winners == (person,)
    points = tournament_points(won=won, person_score=person_score, computer_score=computer_score)
    return StandingsEntry(won, points, person_score - computer_score if won else None)
