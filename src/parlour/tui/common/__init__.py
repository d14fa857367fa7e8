"""What every game's terminal app shares.

- :mod:`.table`: :class:`~.table.TableScreen` / :class:`~.table.TableApp`, the loop that drives
  chance and paced computer players (thread worker + timer), saving on quit and at each
  person's move, Esc (end, confirm), F8 (restart, confirm), H (help), the game-over screen.
- :mod:`.chance`: chance sources (fair, or scripted for tests and demos).
- :mod:`.modals`: confirm, Markdown help, game over, save-record screens.
- :mod:`.scoreboard`: the scoreboard widget.
- :mod:`.dice`: the dice games' die faces and dice tray.
- :mod:`.saves`: the resume picker (a Rich table) and record export; no Textual.

A new game's app: subclass ``TableScreen`` (widgets, keys, hooks) and ``TableApp`` (``SCREEN``,
``CSS_PATH``), ship a ``help.md``, and name its factory in the game's ``GameSpec.terminal_app``.
Until it has one, the game plays in the generic app (:mod:`parlour.tui.generic`), built on
this same table.
"""
