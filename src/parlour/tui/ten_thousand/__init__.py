"""The Ten-Thousand terminal app: ``app.py`` (screen and keys), ``ten_thousand.tcss`` (look)
and ``help.md`` (rules and keys, shown with H); the dice are :mod:`parlour.tui.common.dice`."""
