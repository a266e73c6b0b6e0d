"""The entry-point token bucket (kaomoji_api/gate.py) on its own and in the app of this process.

tests/test_deploy.py sends real bursts through nginx and plain gunicorn; here are its rules exactly.
"""

from __future__ import annotations

import time

import pytest

from kaomoji_api import create_app
from kaomoji_api.gate import Buckets


def test_a_client_gets_21_requests_at_once_then_one_every_tenth_of_a_second():
    buckets = Buckets(10, 20)
    assert [buckets.take("192.0.2.1") for _ in range(21)] == [0.0] * 21
    wait = buckets.take("192.0.2.1")
    assert 0.05 < wait <= 0.1
    assert buckets.take("192.0.2.2") == 0.0  # another client, another bucket
    time.sleep(wait)
    assert buckets.take("192.0.2.1") == 0.0
    assert buckets.take("192.0.2.1") > 0


def test_processes_sharing_a_buckets_file_limit_a_client_together(tmp_path):
    path = str(tmp_path / "gate-buckets")
    first, second = Buckets(10, 20, path), Buckets(10, 20, path)  # as two workers map it
    assert all(first.take("192.0.2.1") == 0.0 for _ in range(11))
    assert all(second.take("192.0.2.1") == 0.0 for _ in range(10))
    assert first.take("192.0.2.1") > 0 and second.take("192.0.2.1") > 0


def test_many_clients_at_once_each_keep_their_own_bucket():
    buckets = Buckets(0.01, 2)  # a token every 100 s, so none comes back while the test runs
    clients = [f"10.0.{n // 256}.{n % 256}" for n in range(3000)]
    assert all(buckets.take(client) == 0.0 for client in clients for _ in range(3))
    # Every client is still known to be empty (a forgotten one would get a full bucket again).
    assert sum(buckets.take(client) > 0 for client in clients) == 3000


def test_over_the_entry_rate_the_app_answers_429_problem_with_retry_after_and_cors(full_catalog):
    app = create_app({"CATALOG": str(full_catalog)})
    client = app.test_client()
    statuses = [client.get("/healthz").status_code for _ in range(30)]
    assert statuses[:21] == [200] * 21 and 429 in statuses[21:]
    response = client.get("/api/v1/kaomojis/1")
    assert response.status_code == 429 and response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "1" and response.headers["Access-Control-Allow-Origin"] == "*"
    assert response.get_json()["limit"] == "10 requests per second, burst 20"


@pytest.mark.parametrize("spelling", [False, "false", "False", "off", "no", "0"])
def test_ratelimit_enabled_false_turns_every_limit_off(full_catalog, spelling):
    client = create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": spelling}).test_client()
    responses = [client.get("/api/v1/kaomojis?limit=100") for _ in range(70)]
    assert {r.status_code for r in responses} == {200}
    assert not any("X-RateLimit-Limit" in r.headers for r in responses)


def test_entry_rate_0_turns_only_the_bucket_off(full_catalog):
    client = create_app({"CATALOG": str(full_catalog), "GATE_RATE": 0}).test_client()
    statuses = [client.get("/api/v1/kaomojis/1").status_code for _ in range(61)]
    assert statuses == [200] * 60 + [429]
