"""Tools for measuring and building parlour, kept apart from the product packages.

Nothing here is needed to play a game, run the server or read the rules: a reader of
:mod:`parlour` meets the games, the engine and the interfaces first, and these only when they
look for the figures. They are a package of their own beside :mod:`parlour` in the same
distribution (``src/parlour_tools/``), not a ``tools/`` folder outside it, because CLI
commands run them and must keep working after ``pip install .``: ``parlour bench server``,
``parlour arena crossword``, ``parlour bench crossword`` and ``parlour bench
crossword-lexicon`` import them lazily, when the command runs. import-linter checks that no
other part of :mod:`parlour` imports them.

- :mod:`.load_test`: the server's load-test client (``parlour bench server``);
- :mod:`.crossword`: the crossword's arena, bench and leave learning.

The crossword move generator's test oracle (every legal play, simply) is a test helper and
lives with the tests, in ``tests/games/crossword/reference.py``.
"""
