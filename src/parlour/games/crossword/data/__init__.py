"""Package data for Crossword: the ENABLE word list (``enable.txt.gz``; provenance and
licence in ``ENABLE.md``)."""
