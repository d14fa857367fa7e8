"""The Rummy terminal app on the shared table (:mod:`parlour.tui.common`): ``app.py`` (the
screen, its keys and what it shows), ``widgets.py`` (cards, hand, piles, melds), ``modals.py``
(round summary, lay-off chooser), ``rummy.tcss`` (look) and ``help.md`` (rules and keys, H)."""
