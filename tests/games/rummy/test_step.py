"""What a Rummy step did (RummyState.describe_step), on forced deals checked by hand: the
points a meld or lay-off puts on the table, the end of a turn, the end of a round."""

from __future__ import annotations

from parlour.engine.state import HOST
from parlour.engine.step import Step
from parlour.games.rummy.state import RummyState
from tests.games.rummy.conftest import deal


def step(state: RummyState, text: str, player: int | None = None) -> Step:
    return state.step(state.parse_action(text, player=player), player=player)


def test_a_round_ending_with_a_meld() -> None:
    state = deal(["5H 6H 7H QC QD", "8H 2C 3D 9S JD"], "4C", "AS 10C QS")
    assert step(state, "draw stock") == Step(0, "draw stock", 0, score_changes=(0, 0))
    meld = step(state, "meld 5H 6H 7H")
    assert (meld.points, meld.marks) == (15, ())
    assert step(state, "discard AS").marks == ("turn_over",)
    step(state, "draw stock")
    layoff = step(state, "layoff 8H on 1")  # onto seat 0's run: scores for seat 1
    assert (layoff.seat, layoff.points, layoff.marks) == (1, 5, ())
    step(state, "discard JD")
    step(state, "draw stock")
    # seat 0's hand empties: the round ends at once, 15 + 30 on the table for seat 0, 5 on
    # the table less 20 in hand for seat 1
    assert step(state, "meld QS QC QD") == Step(
        0,
        "meld QS QD QC",  # the notation orders the cards
        0,
        points=30,
        score_changes=(45, -15),
        marks=("turn_over", "round_over"),
        facts={"round": 1, "ended": "out"},
    )


def test_a_host_skip_ends_the_turn_of_the_seat_to_move() -> None:
    state = deal(["5H 6H 9C QC QD", "8H 2C 3D 9S JD"], "7H", "AS 10C KH")
    summary = step(state, "skip", player=HOST)
    assert (summary.by, summary.seat, summary.marks) == (HOST, 0, ("turn_over",))
