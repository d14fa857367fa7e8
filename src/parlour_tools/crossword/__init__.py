"""Crossword tools: :mod:`.arena` (``parlour arena crossword``: computer players' win rates),
:mod:`.bench` (``parlour bench crossword`` and ``crossword-lexicon``: move generator speed,
load times and memory) and :mod:`.learn_leaves` (``python -m
parlour_tools.crossword.learn_leaves``: learns the hard player's leave table,
``parlour/games/crossword/data/leaves.json``). They use the game's public pieces
(:mod:`parlour.games.crossword`), which never import them."""
