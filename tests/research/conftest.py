"""The research adapters' tests need the ``research`` extra (pip install -e '.[research]').

Without it they are skipped, unless ``PARLOUR_RESEARCH_TESTS=required`` (as ``.ci/run``
sets), when a missing package fails the run instead.
"""

from __future__ import annotations

import importlib.util
import os

_MISSING = [
    name
    for name in ("pettingzoo", "gymnasium", "pyspiel")
    if importlib.util.find_spec(name) is None
]
if _MISSING:
    if os.environ.get("PARLOUR_RESEARCH_TESTS") == "required":
        raise RuntimeError(f"the research tests are required here but {_MISSING} are missing")
    collect_ignore_glob = ["test_*.py"]
