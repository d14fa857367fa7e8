"""Terminal apps (Textual): shared pieces in :mod:`parlour.tui.common`, one subpackage per
game, and :mod:`parlour.tui.registry` mapping game names to their apps."""
