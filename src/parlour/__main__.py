"""``python -m parlour``: the same as the ``parlour`` command."""

from parlour.cli.main import main

if __name__ == "__main__":
    main()
