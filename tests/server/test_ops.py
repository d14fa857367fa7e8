"""Operations: /metrics read after real actions, /health apart from /ready, JSON logs."""

from __future__ import annotations

import io
import json
import logging
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from parlour.server import Settings, create_app
from parlour.server.logs import JsonFormatter, log_config
from parlour.server.metrics import action_kind, allowed
from parlour_tools.load_test import spawn_server, stop_server, wait_healthy
from tests.helpers import free_port
from tests.quick_game import QUICK_GAME
from tests.server.conftest import register, wait_until
from tests.server.helpers import people_table, play_once

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Samples:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    out: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples *name* whose labels include *labels*."""
    return sum(
        value
        for (found, have), value in samples.items()
        if found == name and set(labels.items()) <= set(have)
    )


@pytest.fixture
def open_metrics(settings: Settings) -> Settings:
    """Settings whose /metrics anyone may read (the test client has no loopback address)."""
    return replace(settings, metrics="on")


@pytest.fixture
def metered(open_metrics: Settings) -> Any:
    with TestClient(create_app(open_metrics)) as client:
        yield client


def test_metrics_count_the_actions_stored_by_game_kind_and_seat(metered: TestClient) -> None:
    table_id, seats = people_table(metered, QUICK_GAME)
    before = scrape(metered)
    rng = random.Random(3)
    events: list[dict[str, Any]] = []
    for _ in range(6):
        events += play_once(metered, table_id, seats, rng)["events"]
    after = scrape(metered)
    assert events, "the actions added events"
    kinds: dict[str, int] = {}
    for event in events:
        kind = action_kind(event["move"]) if event["by"] >= 0 else None
        if kind is not None:
            kinds[kind] = kinds.get(kind, 0) + 1
    for kind, count in kinds.items():
        grew = total(
            after, "parlour_actions_total", game=QUICK_GAME, kind=kind, by="person"
        ) - total(before, "parlour_actions_total", game=QUICK_GAME, kind=kind, by="person")
        assert grew == count, kind
    chance = sum(1 for e in events if e["by"] < 0)
    grew = total(after, "parlour_actions_total", game=QUICK_GAME, by="chance") - total(
        before, "parlour_actions_total", game=QUICK_GAME, by="chance"
    )
    assert grew == chance
    # every action was one request of the actions route, timed, and one write committed
    route = "/tables/{table_id}/actions"
    assert (
        total(after, "parlour_request_seconds_count", route=route, status="200")
        - total(before, "parlour_request_seconds_count", route=route, status="200")
        == 6
    )
    writes = total(after, "parlour_writer_batch_writes_sum") - total(
        before, "parlour_writer_batch_writes_sum"
    )
    batches = total(after, "parlour_writer_batch_writes_count") - total(
        before, "parlour_writer_batch_writes_count"
    )
    assert writes >= 6 and 1 <= batches <= writes
    assert total(after, "parlour_writer_commit_seconds_count") == total(
        after, "parlour_writer_batch_writes_count"
    )
    # the gauge goes back to 0 once the writer is idle (a notice's write may still be queued
    # when the last answer arrives)
    deadline = time.monotonic() + 30
    while total(after, "parlour_writer_queued") != 0 and time.monotonic() < deadline:
        time.sleep(0.05)
        after = scrape(metered)
    assert total(after, "parlour_writer_queued") == 0


def test_metrics_count_errors_by_kind_and_followers(metered: TestClient) -> None:
    ann = register(metered, "ann")
    before = scrape(metered)
    assert metered.get("/tables/999999", headers=ann).status_code == 404
    assert metered.get("/tables/999998", headers=ann).status_code == 404
    with metered.websocket_connect("/ws", headers=ann) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_json({"type": "follow", "table": 999999})
        assert ws.receive_json()["type"] == "error"
        table_id = metered.post(
            "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=ann
        ).json()["id"]
        ws.send_json({"type": "follow", "table": table_id})
        ws.send_json({"type": "ping"})
        while ws.receive_json()["type"] != "pong":  # "table": the lobby changed
            pass
        during = scrape(metered)
        assert total(during, "parlour_followers", kind="tables") == 1
        assert total(during, "parlour_ws_message_seconds_count") >= 2
    after = scrape(metered)
    assert (
        total(after, "parlour_errors_total", kind="http_404")
        - total(before, "parlour_errors_total", kind="http_404")
        == 2
    )
    assert total(after, "parlour_errors_total", kind="ws_bad_json") == 1
    assert total(after, "parlour_errors_total", kind="ws_not_found") == 1
    wait_until(lambda: total(scrape(metered), "parlour_followers", kind="tables") == 0)


def test_metrics_time_the_computer_players_thinking(metered: TestClient) -> None:
    ann = register(metered, "ann")
    table = metered.post(
        "/tables",
        json={"game": "ten-thousand", "seats": ["cpu:cautious", "me"], "start": True},
        headers=ann,
    ).json()
    assert table["status"] == "active"

    def thought() -> float:
        samples = scrape(metered)
        return total(
            samples, "parlour_bot_think_seconds_count", game="ten-thousand", level="cautious"
        )

    def moved() -> float:
        return total(scrape(metered), "parlour_actions_total", game="ten-thousand", by="computer")

    # a decision is timed before its move is stored and counted: wait for a counted move;
    # then every counted move was thought about (timed) first
    assert wait_until(lambda: moved() >= 1)
    counted = moved()
    assert thought() >= counted >= 1


def test_metrics_are_for_loopback_by_default_and_can_be_turned_off(settings: Settings) -> None:
    assert settings.metrics == "loopback"
    with TestClient(create_app(settings)) as client:  # the test client is not on loopback
        assert client.get("/metrics").status_code == 404
    with TestClient(create_app(replace(settings, metrics="off"))) as client:
        assert client.get("/metrics").status_code == 404
        assert client.app.state.metrics is None  # type: ignore[attr-defined]
    assert allowed("loopback", "127.0.0.1") and allowed("loopback", "::1")
    assert not allowed("loopback", "192.168.1.5") and not allowed("loopback", None)
    assert allowed("on", "203.0.113.9") and not allowed("off", "127.0.0.1")
    with pytest.raises(ValueError, match="'loopback', 'on' or 'off'"):
        create_app(replace(settings, metrics="yes"))


def test_metrics_behind_a_trusted_proxy_count_the_forwarded_client(settings: Settings) -> None:
    proxied = replace(settings, forwarded_allow_ips=("*",))
    with TestClient(create_app(proxied)) as client:
        # a client on the internet, through a proxy on loopback: refused
        far = client.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
        assert far.status_code == 404
        near = client.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
        assert near.status_code == 200 and "parlour_actions_total" in near.text


def test_health_needs_no_database_and_ready_does(client: TestClient) -> None:
    assert client.get("/ready").json() == {"ready": True}
    ctx = client.app.state.ctx  # type: ignore[attr-defined]
    real = ctx.engine
    # a database that no longer answers: a pool that cannot connect
    from sqlalchemy import create_engine

    ctx.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    try:
        health = client.get("/health")
        assert health.status_code == 200 and health.json()["ok"] is True
        ready = client.get("/ready")
        assert ready.status_code == 503
        assert ready.json()["ready"] is False
        assert ready.json()["reason"].startswith("the database does not answer")
    finally:
        ctx.engine = real
    assert client.get("/ready").status_code == 200


def test_ready_is_503_while_draining_and_once_the_writer_stopped(client: TestClient) -> None:
    app = client.app
    app.state.drain.draining = True  # type: ignore[attr-defined]
    assert client.get("/ready").json() == {"ready": False, "reason": "shutting down"}
    app.state.drain.draining = False  # type: ignore[attr-defined]
    writer = app.state.ctx.writer  # type: ignore[attr-defined]
    writer.failure = "RuntimeError: broken"
    try:
        ready = client.get("/ready")
        assert ready.status_code == 503
        assert ready.json()["reason"] == "the writer is not running (RuntimeError: broken)"
        assert client.get("/health").status_code == 503
    finally:
        writer.failure = None


def test_json_logs_have_time_level_message_and_the_request_and_table_ids(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from parlour.server.routers import tables as tables_router

    views = tables_router.views
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("parlour.server")
    logger.addHandler(handler)
    try:
        with TestClient(create_app(replace(settings, json_logs=True))) as client:
            ann = register(client, "ann")
            table_id = client.post(
                "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=ann
            ).json()["id"]
            real = views.table_view

            def logging_view(*args: Any, **kwargs: Any) -> Any:  # a record from a request
                logging.getLogger("parlour.server").warning("looking at a table")
                return real(*args, **kwargs)

            monkeypatch.setattr(views, "table_view", logging_view)
            response = client.get(f"/tables/{table_id}", headers={**ann, "X-Request-ID": "req-42"})
            assert response.headers["x-request-id"] == "req-42"
            made_up = client.get("/health").headers["x-request-id"]
            assert len(made_up) == 16
            logger.error("table %s: a test record", 77)
    finally:
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert all(line["time"].endswith("+00:00") for line in lines)
    from_request = [line for line in lines if line.get("request_id") == "req-42"]
    assert [line["message"] for line in from_request] == ["looking at a table"]
    assert from_request[0]["table_id"] == table_id and from_request[0]["level"] == "WARNING"
    last = lines[-1]
    assert last["message"] == "table 77: a test record" and last["level"] == "ERROR"
    assert last["table_id"] == 77 and "request_id" not in last


def test_the_json_log_config_sends_uvicorn_and_the_server_to_the_json_formatter() -> None:
    config = log_config("warning")
    assert config["formatters"]["json"]["()"] is JsonFormatter
    for name in ("uvicorn.error", "uvicorn.access", "parlour"):
        assert config["loggers"][name] == {
            "handlers": ["json"],
            "level": "WARNING",
            "propagate": False,
        }


def test_my_tables_are_paged_with_limit_and_before(client: TestClient) -> None:
    ann = register(client, "ann")
    made = [
        client.post(
            "/tables", json={"game": QUICK_GAME, "seats": ["me", "open"]}, headers=ann
        ).json()["id"]
        for _ in range(5)
    ]
    first = client.get("/tables", params={"which": "mine", "limit": 2}, headers=ann).json()
    assert [t["id"] for t in first] == made[::-1][:2]
    before = min(t["id"] for t in first)
    second = client.get(
        "/tables", params={"which": "mine", "limit": 2, "before": before}, headers=ann
    ).json()
    assert [t["id"] for t in second] == made[::-1][2:4]
    rest = client.get(
        "/tables", params={"which": "mine", "before": min(t["id"] for t in second)}, headers=ann
    ).json()
    assert [t["id"] for t in rest] == made[:1]
    assert client.get("/tables", params={"limit": 101}).status_code == 422
    opened = client.get("/tables", params={"limit": 3, "before": made[-1]}).json()
    assert [t["id"] for t in opened] == made[::-1][1:4]


def test_parlour_serve_json_logs_writes_only_json_lines(tmp_path: Path) -> None:
    """A real ``parlour serve --json-logs``: uvicorn's lines (started, access) and the
    server's are JSON objects. uvicorn configures logging when its Config is made, so a
    log_config set on the Config afterwards was never applied (plain ``INFO:`` lines)."""
    port = free_port()
    home = str(tmp_path / "home")
    process = spawn_server(
        port=port,
        database=f"sqlite:///{tmp_path}/db.sqlite",
        home=home,
        extra=["--json-logs", "--log-level", "info", "--access-log"],
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, home=home)
        assert httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200
    finally:
        stop_server(process)
    lines = (Path(home) / "server.log").read_text().splitlines()
    logged = [line for line in lines if not line.startswith("parlour server on ")]
    assert logged, lines
    for line in logged:
        record = json.loads(line)  # not "INFO:     Started server process"
        assert {"time", "level", "logger", "message"} <= record.keys()
    assert any("/health" in json.loads(line)["message"] for line in logged)
