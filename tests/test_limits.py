"""Spec parts 7 and 8 against a real gunicorn: 60 requests and 1,000 entries a minute per client address.

One worker with the default memory:// storage, so that its counts are exact (the redis tests cover
several workers). The entry-point bucket is off here (KAOMOJI_GATE_RATE=0) because these tests send
requests faster than 10 a second on purpose; tests/test_deploy.py covers it. Every test sends from its
own loopback address (127.0.0.x), which the server sees as its own client with its own budget.
"""

from __future__ import annotations

import itertools
import logging
import time

import pytest

from kaomoji_api import create_app
from tests.servers import fetch, free_port, gunicorn_command, running

PREFLIGHT = {"Origin": "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "Accept-Language"}
_addresses = (f"127.0.0.{n}" for n in itertools.count(10))


def new_client() -> str:
    return next(_addresses)


@pytest.fixture(scope="module")
def base(full_catalog, tmp_path_factory):
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_GATE_RATE": "0"}
    log = tmp_path_factory.mktemp("limits") / "gunicorn.log"
    with running(gunicorn_command(port, workers=1), f"http://127.0.0.1:{port}/healthz", env=env, log=log):
        yield f"http://127.0.0.1:{port}"


def assert_is_429_problem(status, headers, body, limit: str) -> int:
    """Checks a 429 from the limits and returns its Retry-After."""
    assert status == 429
    assert headers["Content-Type"] == "application/problem+json"
    assert body["status"] == 429 and body["limit"] == limit and limit in body["detail"]
    assert headers["Access-Control-Allow-Origin"] == "*" and headers["Cache-Control"] == "no-store"
    assert headers["X-RateLimit-Remaining"] == "0"
    retry_after = headers["Retry-After"]
    assert retry_after.isdigit() and 1 <= int(retry_after) <= 60
    return int(retry_after)


@pytest.fixture(scope="module")
def exhausted(base):
    """One client over the request rate and one over the item budget, with when and what they were told.

    Module-scoped so that the minute the test of Retry-After has to wait is spent once for both.
    """
    over_rate = new_client()
    for n in range(60):
        status, headers, _ = fetch(f"{base}/api/v1/kaomojis/1", source=over_rate)
        assert status == 200, n
        assert headers["X-RateLimit-Limit"] == "60" and headers["X-RateLimit-Remaining"] == str(59 - n)
    rate_refusal = fetch(f"{base}/api/v1/kaomojis/1", source=over_rate)
    rate_refused_at = time.monotonic()

    over_budget = new_client()
    for n in range(10):
        status, headers, body = fetch(f"{base}/api/v1/kaomojis?limit=100&page={n + 1}", source=over_budget)
        assert status == 200 and len(body["data"]) == 100, n
        assert headers["X-RateLimit-Limit"] == "1000" and headers["X-RateLimit-Remaining"] == str(900 - 100 * n)
    budget_refusal = fetch(f"{base}/api/v1/kaomojis/1", source=over_budget)
    budget_refused_at = time.monotonic()
    return {
        "rate": (over_rate, rate_refusal, rate_refused_at, "/api/v1/kaomojis/1"),
        "budget": (over_budget, budget_refusal, budget_refused_at, "/api/v1/random?count=10"),
    }


def test_the_61st_request_in_a_minute_gets_429_saying_which_limit(exhausted):
    _, (status, headers, body), _, _ = exhausted["rate"]
    assert_is_429_problem(status, headers, body, "60 requests per minute")
    assert headers["X-RateLimit-Limit"] == "60"


def test_after_1000_entries_in_a_minute_the_next_request_gets_429(exhausted):
    _, (status, headers, body), _, _ = exhausted["budget"]
    assert_is_429_problem(status, headers, body, "1,000 entries per minute")
    assert headers["X-RateLimit-Limit"] == "1000"


def test_waiting_as_retry_after_says_lets_the_next_request_through_and_not_much_sooner(base, exhausted):
    for name in ("rate", "budget"):
        client, (_, headers, _), refused_at, path = exhausted[name]
        retry_after = int(headers["Retry-After"])
        # A second and a half before that, the limit still holds: Retry-After is not padded.
        time.sleep(max(0.0, refused_at + retry_after - 1.5 - time.monotonic()))
        assert fetch(f"{base}{path}", source=client)[0] == 429, name
    for name in ("rate", "budget"):
        client, (_, headers, _), refused_at, path = exhausted[name]
        time.sleep(max(0.0, refused_at + int(headers["Retry-After"]) + 0.05 - time.monotonic()))
        status, headers, _ = fetch(f"{base}{path}", source=client)
        # A new minute: the one request it has made so far is the tighter use.
        assert status == 200, name
        assert (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("60", "59"), name


def test_every_api_response_carries_the_rate_limit_headers_of_the_tighter_limit(base):
    client = new_client()
    status, headers, _ = fetch(f"{base}/api/v1/categories", source=client)
    # 59 of 60 requests left is tighter than 1,000 of 1,000 entries.
    assert status == 200 and (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("60", "59")
    reset = int(headers["X-RateLimit-Reset"])
    assert time.time() < reset <= time.time() + 61
    status, headers, _ = fetch(f"{base}/api/v1/kaomojis?limit=100", source=client)
    # 900 of 1,000 entries left is tighter than 58 of 60 requests.
    assert status == 200 and (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("1000", "900")
    for path in ["/api/v1/kaomojis/999999999", "/api/v1/random?count=99", "/api/v1/search?q=cat"]:
        status, headers, _ = fetch(f"{base}{path}", source=client)
        assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} <= set(headers), path
    for path in ["/api/v1/nope", "/api/v1/openapi.json", "/healthz"]:  # they spend nothing, so they say nothing of it
        status, headers, _ = fetch(f"{base}{path}", source=client)
        assert not {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} & set(headers), path


def test_a_request_costs_the_entries_it_returned(base):
    client = new_client()

    def send(path, headers=None, method="GET"):
        """(status, headers, body, entries left): the entry budget stays the tighter limit throughout."""
        status, head, body = fetch(f"{base}{path}", headers=headers, source=client, method=method)
        assert head["X-RateLimit-Limit"] == "1000", path
        return status, head, body, int(head["X-RateLimit-Remaining"])

    assert send("/api/v1/kaomojis?limit=100")[3] == 900
    _, page_2, _, left = send("/api/v1/kaomojis?limit=100&page=2")
    assert left == 800
    assert send("/api/v1/random?count=10")[3] == 790
    assert send("/api/v1/kaomojis/1")[3] == 789
    _, _, body, left = send("/api/v1/search?q=cat&limit=25")
    assert len(body["data"]) == 25 and left == 764
    # Categories, errors, a 304 and a HEAD show no entries, so they cost none.
    status, _, _, left = send("/api/v1/categories")
    assert (status, left) == (200, 764)
    status, _, _, left = send("/api/v1/kaomojis/999999999")
    assert (status, left) == (404, 764)
    status, _, _, left = send("/api/v1/kaomojis?limit=0")
    assert (status, left) == (400, 764)
    status, _, _, left = send("/api/v1/kaomojis?limit=100&page=2", headers={"If-None-Match": page_2["ETag"]})
    assert (status, left) == (304, 764)
    status, _, _, left = send("/api/v1/kaomojis?limit=100", method="HEAD")
    assert (status, left) == (200, 764)


def test_preflight_healthz_and_the_openapi_document_spend_no_budget(base):
    client = new_client()
    for _ in range(70):
        assert fetch(f"{base}/api/v1/search", headers=PREFLIGHT, source=client, method="OPTIONS")[0] == 200
        assert fetch(f"{base}/healthz", source=client)[0] == 200
        assert fetch(f"{base}/api/v1/openapi.json", source=client)[0] == 200
    status, headers, _ = fetch(f"{base}/api/v1/categories", source=client)
    assert status == 200 and headers["X-RateLimit-Remaining"] == "59"


def test_a_spoofed_x_forwarded_for_does_not_change_who_the_client_is(base):
    """KAOMOJI_TRUSTED_PROXIES is 0 here: the header is the client's own claim and counts for nothing."""
    client = new_client()
    for n in range(60):
        status, headers, _ = fetch(f"{base}/api/v1/categories", headers={"X-Forwarded-For": f"10.0.{n}.1"}, source=client)
        assert status == 200 and headers["X-RateLimit-Remaining"] == str(59 - n)
    status, headers, body = fetch(f"{base}/api/v1/categories", headers={"X-Forwarded-For": "10.0.99.1"}, source=client)
    assert_is_429_problem(status, headers, body, "60 requests per minute")


def test_an_unreachable_storage_fails_open_fast_with_one_warning(full_catalog, caplog):
    """Nothing listens at the redis address: requests are answered, unlimited, and the outage is logged once."""
    app = create_app({"CATALOG": str(full_catalog), "GATE_RATE": 0, "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{free_port()}/0"})
    client = app.test_client()
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        responses = [client.get("/api/v1/kaomojis/1") for _ in range(70)]
    assert [r.status_code for r in responses] == [200] * 70
    assert not any("X-RateLimit-Limit" in r.headers for r in responses)
    assert time.monotonic() - started < 5
    assert caplog.text.count("unreachable") == 1


def test_the_openapi_document_describes_the_limits_headers_and_the_403(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    responses = doc["paths"]["/api/v1/kaomojis"]["get"]["responses"]
    assert {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} <= set(responses["200"]["headers"])
    assert responses["403"] == {"$ref": "#/components/responses/Forbidden"}
    assert "limit" in doc["components"]["schemas"]["Problem"]["properties"]
