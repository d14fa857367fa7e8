"""Fuzzing the OpenAPI schema with schemathesis: every operation, generated requests (valid
and invalid), as a logged-in player with a started table to aim at. No request may get a
5xx, and every answer must match the documented status codes, content types and schemas.

``pytest tests/server/test_fuzz.py -s`` prints the number of cases and failures.
"""

from __future__ import annotations

import os
from typing import Any

import hypothesis
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from schemathesis import checks

from tests.server.helpers import people_table

EXAMPLES = int(os.environ.get("PARLOUR_FUZZ_EXAMPLES", "40"))


@pytest.mark.slow
def test_fuzz_every_operation(client: TestClient) -> None:
    table_id, seats = people_table(client, "ten-thousand")
    auth = seats[0]
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    cases = 0
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @hypothesis.settings(
            max_examples=EXAMPLES,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            nonlocal cases
            cases += 1
            if case.path_parameters and "table_id" in case.path_parameters and cases % 2:
                case.path_parameters["table_id"] = table_id  # often aim at the real table
            try:
                # positive_data_acceptance is left out: a schema-valid request may still be
                # refused by the rules (an unknown game, an illegal move) with a 4xx reason
                case.call_and_validate(
                    headers=auth, excluded_checks=[checks.positive_data_acceptance]
                )
            except Exception as err:  # collect, report all at the end
                failures.append(f"{case.operation.label}: {type(err).__name__}: {str(err)[:300]}")

        run()
    print(f"\nschemathesis: {cases} cases, {len(failures)} failures")
    for failure in failures[:20]:
        print(" ", failure)
    assert cases > 0
    assert not failures, "\n".join(failures[:10])
