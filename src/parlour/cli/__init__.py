"""The ``parlour`` command line (Typer). Every game adds its commands in ``cli/<game>.py``."""
