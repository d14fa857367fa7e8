"""``parlour analyse`` for a game with a coach (the dice games): each decision's chance of
winning lost against the best choice, and each player's biggest mistakes
(:mod:`parlour.engine.review`)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.table import Table
from rich.text import Text

from parlour.cli.common import console, fail
from parlour.engine.state import JSON

MOST = 3
"""Mistakes listed per player."""


def percent(value: float) -> str:
    """A chance as percentage points with one decimal: ``percent(0.0123) == "1.2"``."""
    return f"{100 * value:.1f}"


def analyse_with_coach(file: Path, record: JSON, *, as_json: bool) -> None:
    """Print the review of *record* (read from *file*): every decision where something was
    lost, then each player's total and biggest mistakes; ``--json``: the whole review."""
    from parlour.engine.errors import BadRecord, ParlourError
    from parlour.engine.records import replay
    from parlour.engine.review import biggest_mistakes, review_record, summary_json

    try:
        decisions = review_record(record)
        finished = replay(record).is_terminal()
    except (BadRecord, ParlourError) as err:
        fail(f"{file}: {err}")
    players = [str(p) for p in record["players"]]
    if as_json:
        print(json.dumps({"finished": finished, **summary_json(decisions, players, MOST)}))
        return
    made = sum(1 for e in record["events"] if str(e.get("by")) not in ("chance", "host"))
    if not decisions and made:  # the coach had nothing to say about any of them
        options = ", ".join(f"{k}={v}" for k, v in sorted(record.get("options", {}).items()))
        console.print(
            Text(
                f"{file}: no decision could be judged: the coach has no solved table for "
                f'these rules ({options}); see the game\'s rules, "The coach".'
            )
        )
        return
    lost = [d for d in decisions if d.loss > 1e-12]
    table = Table(title=f"{file}: decisions that lost chances of winning ({len(lost)})")
    for column in ("event", "player", "made", "chance", "best", "best chance", "lost"):
        table.add_column(column, justify="right" if column in ("event", "lost") else "left")
    for d in lost:
        table.add_row(
            str(d.index + 1), Text(d.player), d.made, d.text, d.best, d.best_text, percent(d.loss)
        )
    console.print(table)
    mistakes = biggest_mistakes(decisions, MOST)
    for seat, name in enumerate(players):
        mine = [d for d in decisions if d.seat == seat]
        total = sum(d.loss for d in mine)
        line = Text(f"{name}: ")  # a name is never markup
        line.append(f"{len(mine)} decisions, {percent(total)} points of win chance lost in all")
        console.print(line)
        for d in mistakes.get(seat, []):
            console.print(
                f"  event {d.index + 1}: {d.made} ({d.text}) instead of {d.best} "
                f"({d.best_text}): {percent(d.loss)} lost"
            )
    if not finished:
        console.print("The game is not finished: its decisions so far are analysed.")
