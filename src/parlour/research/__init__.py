"""Adapters for game-AI research (the optional ``research`` extra; ``docs/research.md``).

- :mod:`parlour.research.pettingzoo`: a PettingZoo AEC environment for every game;
- :mod:`parlour.research.openspiel`: every game registered as an OpenSpiel (pyspiel) game;
- :mod:`parlour.research.gymnasium`: a single-agent Gymnasium environment (solo play, or
  play against a fixed parlour computer player);
- :mod:`parlour.research.position`, :mod:`parlour.research.codecs` and the per-game codecs
  (:mod:`.dice`, :mod:`.rummy`, :mod:`.crossword`): the shared core, the stable action
  numbering and the observation vectors (these need only numpy).

Nothing in parlour's product code imports this package (import-linter checks it).
"""
