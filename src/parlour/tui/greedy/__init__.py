"""The Greedy terminal app: ``app.py`` (screen and keys), ``greedy.tcss`` (look) and
``help.md`` (rules, points table and keys, shown with H); the dice are
:mod:`parlour.tui.common.dice`."""
