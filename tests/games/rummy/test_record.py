"""A real game record (hard against medium, 8 rounds) replays to its result."""

from __future__ import annotations

from pathlib import Path

from parlour.engine.records import read_record, replay
from parlour.games.rummy.state import RummyState

RECORD = Path(__file__).parents[2] / "data" / "rummy-hard-medium.json"


def test_golden_record_replays() -> None:
    record = read_record(RECORD)
    state = replay(record)  # also checks the record's result against the replay
    assert isinstance(state, RummyState)
    assert state.result().scores == (255, 515) and state.result().winners == (1,)
    assert len(state.round_scores) == 8
    assert [sum(r[s] for r in state.round_scores) for s in (0, 1)] == [255, 515]
    assert record["events"][0]["by"] == "chance" and record["events"][0]["move"].startswith("deal ")
