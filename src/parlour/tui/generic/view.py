"""What the generic terminal app shows of any game, as Rich renderables: a seat's observation
as a table of its named parts, and the legal actions as a numbered list. No Textual here.

A value is drawn so that a person can read it: on one line when it fits (a list as
``1, 3, 5``, a list inside it in brackets, a record as ``key: value · key: value``), else one
item a line (a board's rows, a log's entries); ``None`` and ``""`` as a dash,
``True``/``False`` as yes/no. Game data is always
plain text (a player's name or a word is never read as Rich markup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.table import Table
from rich.text import Text

from parlour.engine.state import JSON

LEGAL_SHOWN = 300
"""The most legal actions listed (as the server's ``legal_limit``); beyond, type notation."""


WIDTH = 72
"""The longest value drawn on one line; a longer list or record takes a line an item."""


def _scalar(value: JSON) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"
    return str(value)


def _inline(value: JSON, top: bool = True) -> str | None:
    """*value* on one line, or ``None`` when it does not fit in :data:`WIDTH`."""
    if isinstance(value, Mapping):
        parts = [(k, _inline(v)) for k, v in value.items()]
        if any(text is None for _, text in parts):
            return None
        text = " · ".join(f"{k}: {t}" for k, t in parts) or "(none)"
    elif isinstance(value, list | tuple):
        items = [_inline(v, False) for v in value]
        if any(t is None for t in items):
            return None
        text = ", ".join(str(t) for t in items)
        text = (text or "(none)") if top else f"({text})"
    else:
        text = _scalar(value)
    return text if len(text) <= WIDTH else None


def value_text(value: JSON, indent: str = "") -> str:
    """*value* (JSON data) as readable lines; see the module docstring.

    >>> value_text([1, 3, 5])
    '1, 3, 5'
    >>> value_text([[[5], 50], [[1, 1, 1], 1000]])
    '((5), 50), ((1, 1, 1), 1000)'
    >>> print(value_text({"hand": ["7H", "QS"], "out": None, "first": True}))
    hand: 7H, QS · out: – · first: yes
    >>> print(value_text(["#" * 40, "#" * 40]))
    ########################################
    ########################################
    """
    one = _inline(value)
    if one is not None:
        return indent + one
    if isinstance(value, Mapping):
        lines = []
        for key, item in value.items():
            text = value_text(item, indent + "  ")
            lines.append(
                f"{indent}{key}:\n{text}" if "\n" in text else f"{indent}{key}: {text.strip()}"
            )
        return "\n".join(lines)
    if isinstance(value, list | tuple):
        return "\n".join(value_text(item, indent) for item in value)
    return indent + str(value)


def observation_table(observation: JSON, names: Sequence[str] = ()) -> Table:
    """A seat's observation (a JSON object of named parts) as a two-column table; anything
    else as one row. A part that is a list of lists or records, one per seat (*names*), is
    drawn one seat a line, after the seat's name."""
    table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
    table.add_column("part", style="bold", no_wrap=True)
    table.add_column("value", ratio=1, overflow="fold")
    if isinstance(observation, Mapping):
        for key, value in observation.items():
            table.add_row(Text(str(key).replace("_", " ")), Text(_part_text(value, names)))
    else:
        table.add_row(Text("view"), Text(value_text(observation)))
    return table


def _part_text(value: JSON, names: Sequence[str]) -> str:
    per_seat = (
        isinstance(value, list)
        and names
        and len(value) == len(names)
        and any(isinstance(v, list | dict) for v in value)
    )
    if not per_seat:
        return value_text(value)
    lines = []
    for name, item in zip(names, value, strict=True):
        text = value_text(item, "  ")
        lines.append(f"{name}:\n{text}" if "\n" in text else f"{name}: {text.strip()}")
    return "\n".join(lines)


def legal_lines(moves: Sequence[str], total: int) -> list[Text]:
    """The numbered lines of the legal actions (*moves*, in notation), and a last line saying
    how many more there are when *total* is larger."""
    lines = [Text.assemble((f"{i:>3}  ", "dim"), move) for i, move in enumerate(moves, 1)]
    if total > len(moves):
        lines.append(Text(f"… and {total - len(moves):,} more: type the move", style="dim"))
    return lines
