"""Terminal apps (Textual): shared widgets and one subpackage per game."""
