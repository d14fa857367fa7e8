"""Fixtures of the tools' tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

UsageError = Callable[[Callable[[Sequence[str] | None], None], list[str]], str]
"""``usage_error(main, argv)``: what a tool's ``main`` printed on stderr for *argv*."""


@pytest.fixture
def usage_error(capsys: pytest.CaptureFixture[str]) -> UsageError:
    """Run a tool's ``main(argv)`` and check it stopped as argparse stops on a usage error
    (``SystemExit`` with status 2, no traceback); returns what it printed on stderr, for
    the test to check the message."""

    def run(main: Callable[[Sequence[str] | None], None], argv: list[str]) -> str:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err
        return err

    return run
