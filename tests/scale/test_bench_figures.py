"""The scale bench's database figure on PostgreSQL: the CPU of the backends serving the
bench's database, read per backend from ``/proc``, grows with the work a backend does."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from parlour.server import Settings
from parlour.storage.db import open_database
from parlour_tools.scale_bench import backends_cpu


def test_the_backends_cpu_counts_a_backend_at_work(settings: Settings) -> None:
    url = open_database(settings.database_url).url.render_as_string(hide_password=False)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            pid = connection.execute(text("SELECT pg_backend_pid()")).scalar_one()
            before = backends_cpu(url)
            assert before is not None and pid in before
            # about a second of one core's work in this backend (a sum over 20 million rows)
            connection.execute(text("SELECT sum(i) FROM generate_series(1, 20000000) AS i"))
            after = backends_cpu(url)
            assert after is not None
            assert after[pid] - before[pid] >= 0.2
    finally:
        engine.dispose()


def test_no_backends_figure_for_sqlite() -> None:
    assert backends_cpu("sqlite:///nowhere.db") is None
