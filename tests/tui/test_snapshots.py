"""Screenshots of the Ten-Thousand app compared with approved SVGs (pytest-textual-snapshot).

Textual's rendering changes between releases, so the comparison runs only with the Textual
version the snapshots were approved with, which the test extra pins (pyproject.toml); with
another version they skip, and on CI a skip fails the run (tests/conftest.py). For a new
Textual: change the pin and ``APPROVED_WITH``, update the snapshots with
``pytest --snapshot-update`` after looking at the report.
"""

from __future__ import annotations

from typing import Any

import pytest
import textual
from textual.pilot import Pilot

from tests.tui.helpers import SIZE, settle, ten_thousand_app

APPROVED_WITH = "8.2.8"  # as the pin in pyproject.toml

pytestmark = pytest.mark.skipif(
    textual.__version__ != APPROVED_WITH,
    reason=f"snapshots approved with Textual {APPROVED_WITH}, not {textual.__version__}",
)


def test_a_turn_with_dice_set_aside_and_selected(snap_compare: Any) -> None:
    app = ten_thousand_app(
        "me,cpu:cautious,cpu:reckless",
        ["roll 1 2 3 4 4 4", "roll 1 5 6"],
        saved=False,
    )

    async def play(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in ("r", "4", "5", "6", "r", "1", "2"):
            await pilot.press(key)
            await settle(pilot)

    assert snap_compare(app, run_before=play, terminal_size=SIZE)


def test_the_final_scoreboard(snap_compare: Any) -> None:
    app = ten_thousand_app(
        "me,cpu:cautious",
        ["roll 1 1 1 1 2 3", "roll 2 2 3 3 4 6"],
        saved=False,
        target=2000,
    )

    async def play(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        for key in ("r", "1", "2", "3", "4", "b"):
            await pilot.press(key)
            await settle(pilot)

    assert snap_compare(app, run_before=play, terminal_size=SIZE)
