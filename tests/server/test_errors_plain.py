"""A refused request body is explained in a person's words (server/errors.py)."""

from __future__ import annotations

from parlour.server.errors import invalid_request


def test_length_and_missing_fields_are_said_plainly() -> None:
    answer = invalid_request(
        [
            {"type": "string_too_short", "loc": ("body", "password"), "ctx": {"min_length": 8}},
            {"type": "string_too_long", "loc": ("body", "name"), "ctx": {"max_length": 32}},
            {"type": "missing", "loc": ("body", "action"), "msg": "Field required"},
            {"type": "int_parsing", "loc": ("query", "limit"), "msg": "Input should be an int"},
        ]
    )
    assert answer["detail"] == (
        "password: too short: at least 8 characters; name: too long: at most 32 characters; "
        "action: missing; query.limit: Input should be an int"
    )
    assert answer["problems"][0] == {
        "where": "body.password",
        "problem": "too short: at least 8 characters",
    }


def test_an_empty_action_is_too_short_by_one_character() -> None:
    # an empty action: "too short: at least 1 characters" (REST and the WebSocket)
    answer = invalid_request(
        [{"type": "string_too_short", "loc": ("body", "action"), "ctx": {"min_length": 1}}]
    )
    assert answer["detail"] == "action: too short: at least 1 character"
    long = [{"type": "string_too_long", "loc": ("body", "x"), "ctx": {"max_length": 1}}]
    assert invalid_request(long)["detail"] == "x: too long: at most 1 character"
