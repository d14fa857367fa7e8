"""The Ten-Thousand terminal app: ``app.py`` (screen and keys), ``widgets.py`` (dice),
``ten_thousand.tcss`` (look) and ``help.md`` (rules and keys, shown with H)."""
