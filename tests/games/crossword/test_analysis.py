"""``parlour analyse``: the best play of each turn of a finished game and the points left on
the table."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import parlour
from parlour.bots.arena import play_game
from parlour.engine.errors import BadRecord, ParlourError
from parlour.engine.records import read_record, replay, to_record
from parlour.games.crossword.analysis import analyse
from parlour.games.crossword.board import Board
from parlour.games.crossword.bots import make_bot
from tests.games.crossword.reference import all_plays

DATA = Path(__file__).resolve().parents[2] / "data"
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_every_turn_of_a_three_player_game() -> None:
    record = read_record(DATA / "crossword-three-players.json")
    final = replay(record)
    reviews = analyse(record)
    turns = [e for e in final.log if "seat" in e]  # type: ignore[attr-defined]
    assert [r.turn for r in reviews] == [e["turn"] for e in turns]
    assert [r.player for r in reviews[:3]] == ["ann", "bob", "cy"]
    for review, entry in zip(reviews, turns, strict=True):
        assert review.points == entry.get("score", 0)
        if review.best is None:
            assert review.left == 0
        else:
            assert review.left == review.best.score - review.points >= 0
    # the first turn: the best opening for ann's rack, as the reference enumerator finds it
    first = reviews[0]
    assert first.best is not None
    opening = all_plays(Board.empty(), first.rack, final.lexicon)  # type: ignore[attr-defined]
    assert first.best.score == max(s.score for s in opening)


def test_the_medium_player_leaves_nothing_on_the_table_the_easy_one_does() -> None:
    game = parlour.load("crossword")
    state = play_game(game, [make_bot("medium"), make_bot("easy")], random.Random(2))
    reviews = analyse(to_record(state, ["cpu:medium", "cpu:easy"]))
    left = {
        name: sum(r.left for r in reviews if r.player == name)
        for name in ("cpu:medium", "cpu:easy")
    }
    assert left["cpu:medium"] == 0 and left["cpu:easy"] > 0
    made = [r for r in reviews if r.player == "cpu:easy" and r.best is not None]
    assert all(r.best is not None and r.best.score >= r.points for r in made)


def test_records_that_cannot_be_analysed() -> None:
    with pytest.raises(ParlourError, match="parlour analyse reads Crossword"):
        analyse(read_record(EXAMPLES / "ten-thousand.json"))
    record = read_record(DATA / "crossword-three-players.json")
    record["events"][2]["move"] = "QQQQ H8 across"
    with pytest.raises(BadRecord, match="event 2"):
        analyse(record)
