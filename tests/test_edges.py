"""Every edge of HTTP answered in JSON: the requests nginx (deploy/nginx.conf) and gunicorn
(deploy/gunicorn.conf.py) refuse themselves, the largest response head, raw UTF-8 in a request line,
a doubled slash, and the cap on one address's requests in progress.
"""

from __future__ import annotations

import re
import socket
import time
import urllib.parse

import pytest

from tests.conftest import need_program
from tests.servers import ROOT, fetch, free_port, gunicorn_command, nginx_in_front, raw_request, running

CLOSE = b"Connection: close\r\n\r\n"
# A new client address for each request through nginx, so that its entry-point limit (10 a second per
# address) never answers instead of what a test looks at.
CLIENTS = (f"127.0.2.{n}" for n in range(1, 255))


def assert_problem(status: int, headers: dict, body, expected: int) -> None:
    assert status == expected, (status, body)
    assert headers["content-type"] == "application/problem+json", body
    assert headers["access-control-allow-origin"] == "*"
    assert body["type"] == "about:blank" and body["status"] == expected and body["title"] and body["detail"]


@pytest.fixture(scope="module")
def gunicorn_alone(full_catalog, tmp_path_factory):
    """gunicorn as deployed (deploy/gunicorn.conf.py), one worker, limits off; yields its base URL."""
    folder = tmp_path_factory.mktemp("edges")
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_TRUSTED_PROXIES": "1", "KAOMOJI_RATELIMIT_ENABLED": "false"}
    with running(gunicorn_command(port, workers=1), f"http://127.0.0.1:{port}/healthz", env=env, log=folder / "gunicorn.log"):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def behind_nginx(gunicorn_alone, tmp_path_factory):
    """nginx with deploy/nginx.conf in front of `gunicorn_alone`; yields nginx's base URL."""
    nginx = need_program("nginx")
    with nginx_in_front(nginx, int(gunicorn_alone.rsplit(":", 1)[1]), tmp_path_factory.mktemp("nginx")) as base:
        yield base


def test_the_largest_search_head_passes_through_nginx(behind_nginx, gunicorn_alone):
    """100 characters of 4 bytes each, page 2: a Link header would repeat the 1.2 KB encoded query four
    times, so the app leaves it out (bounds.MAX_LINK_HEADER); nginx's buffers take any head the app sends."""
    url = "/api/v1/search?" + urllib.parse.urlencode({"q": "🐱" * 100, "page": 2, "locale": "zh-Hant", "limit": 1})
    status, headers, _ = fetch(gunicorn_alone + url)
    assert status == 200 and "Link" not in headers and sum(len(f"{k}: {v}\r\n".encode()) for k, v in headers.items()) < 4096
    status, headers, body = fetch(behind_nginx + url, source=next(CLIENTS))
    assert status == 200 and body["pagination"]["page"] == 2
    # The longest Link header the app sends (just under its bound) passes too.
    url = "/api/v1/search?" + urllib.parse.urlencode({"q": "🐱" * 36, "page": 2, "locale": "zh-Hant", "limit": 1})
    status, headers, body = fetch(behind_nginx + url, source=next(CLIENTS))
    assert status == 200 and len(headers["Link"]) > 1500


@pytest.mark.parametrize("through", ["nginx", "gunicorn"])
def test_raw_utf8_in_the_request_line_is_the_percent_encoded_request(behind_nginx, gunicorn_alone, through):
    """curl sends `q=猫` as it is; the answer is the one to `q=%E7%8C%AB`."""
    base = behind_nginx if through == "nginx" else gunicorn_alone
    request = "GET /api/v1/search?q=猫&limit=3 HTTP/1.1\r\nHost: x\r\n".encode() + CLOSE
    status, headers, body = raw_request(base, request, source=next(CLIENTS))
    assert status == 200, body
    assert body["data"] == fetch(f"{base}/api/v1/search?q=%E7%8C%AB&limit=3", source=next(CLIENTS))[2]["data"] != []
    # Also in the path: the same 404 as for the encoded path, in JSON.
    request = "GET /api/v1/kaomojis/猫 HTTP/1.1\r\nHost: x\r\n".encode() + CLOSE
    status, headers, body = raw_request(base, request, source=next(CLIENTS))
    assert_problem(status, headers, body, 404)


@pytest.mark.parametrize("request_bytes, status", [
    (b"TRACE /api/v1/categories HTTP/1.1\r\nHost: x\r\n" + CLOSE, 405),
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n" + CLOSE, 501),
    (b"GET /api/v1/categories HTTP/2.0\r\nHost: x\r\n" + CLOSE, 505),
    # nginx passes these two on; gunicorn refuses them.
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Odd: a\x01b\r\n" + CLOSE, 400),
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(101)) + CLOSE, 431),
    (b"GET /api/v1//kaomojis HTTP/1.1\r\nHost: attacker.example\r\n" + CLOSE, 404),
    (b"GET /api/v1/%2Fkaomojis HTTP/1.1\r\nHost: attacker.example\r\n" + CLOSE, 404),
], ids=["TRACE", "Transfer-Encoding gzip", "HTTP/2.0", "control character in a header", "101 headers", "doubled slash",
        "encoded doubled slash"])
def test_requests_refused_at_nginx_or_behind_it_get_problem_json(behind_nginx, request_bytes, status):
    got, headers, body = raw_request(behind_nginx, request_bytes, source=next(CLIENTS))
    assert_problem(got, headers, body, status)
    assert "location" not in headers


@pytest.mark.parametrize("request_bytes, status", [
    (b"NOT HTTP AT ALL\r\n\r\n", 400),
    (b"GET /api/v1/categories HTTP/2.0\r\nHost: x\r\n" + CLOSE, 400),
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Odd: a\x01b\r\n" + CLOSE, 400),
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(101)) + CLOSE, 431),
    (b"GET /api/v1/search?q=" + b"a" * 8200 + b" HTTP/1.1\r\nHost: x\r\n" + CLOSE, 414),
], ids=["not HTTP", "HTTP/2.0", "control character in a header", "101 headers", "request line over 8190 bytes"])
def test_requests_gunicorn_refuses_itself_get_problem_json(gunicorn_alone, request_bytes, status):
    got, headers, body = raw_request(gunicorn_alone, request_bytes)
    assert_problem(got, headers, body, status)


def test_a_doubled_slash_at_plain_gunicorn_is_404_not_a_redirect_to_the_clients_host(gunicorn_alone):
    status, headers, body = raw_request(gunicorn_alone, b"GET /api/v1//kaomojis HTTP/1.1\r\nHost: attacker.example\r\n" + CLOSE)
    assert "location" not in headers
    assert_problem(status, headers, body, 404)


def test_one_address_gets_at_most_30_requests_in_progress_at_nginx(behind_nginx, gunicorn_alone):
    """gunicorn's one sync worker is held by a client sending half a request, so requests through nginx
    wait there; the 31st of one address is refused at once, another address still gets through."""
    limit = int(re.search(r"limit_conn kaomoji_connections (\d+);", (ROOT / "deploy" / "nginx.conf").read_text()).group(1))
    assert limit == 30
    host, port = gunicorn_alone.removeprefix("http://").split(":")
    parts = urllib.parse.urlsplit(behind_nginx)
    request = b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\n" + CLOSE
    holder = socket.create_connection((host, int(port)), timeout=10)
    waiting = []
    try:
        holder.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # and nothing more: the worker waits
        time.sleep(0.3)
        for _ in range(limit):
            connection = socket.create_connection((parts.hostname, parts.port), timeout=10, source_address=("127.0.0.70", 0))
            connection.sendall(request)
            waiting.append(connection)
            time.sleep(0.11)  # within the entry-point limit (10 a second), which would answer 429 too
        time.sleep(0.3)  # nginx has read them all and is waiting for gunicorn
        started = time.monotonic()
        status, headers, body = raw_request(behind_nginx, request, source="127.0.0.70")
        assert time.monotonic() - started < 2
        assert_problem(status, headers, body, 429)
        assert body["limit"] == "30 requests in progress" and headers["retry-after"] == "1"
        # Another address is not refused (its request waits for the worker like the others).
        other = socket.create_connection((parts.hostname, parts.port), timeout=10, source_address=("127.0.0.71", 0))
        other.sendall(request)
        waiting.append(other)
        time.sleep(0.3)
    finally:
        holder.close()  # the worker goes on to the waiting requests
        answers = []
        for connection in waiting:
            answers.append(connection.recv(64))
            connection.close()
    assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers), answers[:3]

