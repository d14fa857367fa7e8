"""Screenshots of the Rummy table compared with approved SVGs (pytest-textual-snapshot).

As for Ten-Thousand (``test_snapshots.py``), the comparison runs only with the Textual version
the snapshots were approved with, which the test extra pins; on CI a skip fails the run.
"""

from __future__ import annotations

from typing import Any

import pytest
import textual
from textual.pilot import Pilot

from tests.tui.helpers import press, settle
from tests.tui.test_rummy_app import SHORT, SIZE, deal, rummy_app, select

APPROVED_WITH = "8.2.8"  # as the pin in pyproject.toml

pytestmark = pytest.mark.skipif(
    textual.__version__ != APPROVED_WITH,
    reason=f"snapshots approved with Textual {APPROVED_WITH}, not {textual.__version__}",
)


def test_melds_owners_and_a_selection(snap_compare: Any) -> None:
    app = rummy_app(saved=False)

    async def play(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "5H", "6H", "7H")
        await press(pilot, "m")
        await select(pilot, app, "KD")
        await press(pilot, "c", "d")  # discards KD, at the cursor
        await select(pilot, app, "8S", "8D")

    assert snap_compare(app, run_before=play, terminal_size=SIZE)


def test_the_round_summary_over_the_last_table(snap_compare: Any) -> None:
    second = deal(me="AS 2H 3D 4C", other="6H 7S 8D 9C", up="QH", stock="KS")
    app = rummy_app(deals=(deal(**SHORT), second), saved=False, hand_size=4)

    async def play(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await press(pilot, "s")
        await select(pilot, app, "2S", "3S", "4S", "5S")
        await press(pilot, "m", "d")

    assert snap_compare(app, run_before=play, terminal_size=SIZE)
