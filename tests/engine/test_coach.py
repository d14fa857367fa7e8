"""The platform's side of the coach: ranking, the best choice, losses, and who gets advice."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine.coach import Figure, advise, coach_of, ranked, win_figure
from parlour.engine.errors import ParlourError
from parlour.engine.registry import find
from tests.quick_game import QUICK_GAME


def test_choices_are_ranked_by_their_first_figure_and_the_first_is_best() -> None:
    advice = ranked(
        1,
        [
            ("a", (win_figure(0.25), Figure("points", 900.0, "900 points"))),
            ("b", (win_figure(0.5),)),
            ("c", (win_figure(0.5),)),
        ],
        "note",
    )
    assert [c.action for c in advice.choices] == ["b", "c", "a"]  # equal values keep order
    assert [c.best for c in advice.choices] == [True, False, False]
    assert advice.loss("a") == 0.25 and advice.loss("b") == 0.0
    assert advice.to_json()["choices"][2] == {
        "action": "a",
        "best": False,
        "figures": [
            {"name": "win", "value": 0.25, "text": "win 25.0%"},
            {"name": "points", "value": 900.0, "text": "900 points"},
        ],
    }
    with pytest.raises(ParlourError, match="not one of the choices"):
        advice.loss("d")
    with pytest.raises(ValueError):
        ranked(0, [])


def test_a_game_without_a_coach_gives_no_advice() -> None:
    spec = find(QUICK_GAME)
    assert coach_of(spec) is None
    state = parlour.load(QUICK_GAME).new_initial_state()
    while state.is_chance_node():
        state.apply(state.legal_actions()[-1])  # a 6: a decision follows
    assert advise(state, state.current_player()) is None
