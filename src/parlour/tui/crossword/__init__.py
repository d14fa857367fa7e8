"""The Crossword terminal game (Textual): :mod:`.app` (the table and its keys) and
:mod:`.widgets` (board, rack, scores, play log), styled by ``crossword.tcss``."""
