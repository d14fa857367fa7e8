"""The generic terminal app, for any game without an app of its own (see :mod:`.app`)."""
