"""The deployment of deploy/: a real nginx with deploy/nginx.conf in front of gunicorn with deploy/gunicorn.conf.py.

The entry-point limit (spec part 7: 10 requests a second, burst about 20) in nginx and, without nginx,
in the app's own WSGI layer; the client's address through nginx; the blocklist; a graceful reload.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from kaomoji_api.watch import CHECK_SECONDS
from tests.conftest import need_program
from tests.servers import ROOT, burst, fetch, free_port, gunicorn_command, nginx_in_front, raw_request, running

GATE_LIMIT = "10 requests per second, burst 20"


def assert_about_20_of_40_got_through(results, seconds: float) -> None:
    """A token bucket of 10 a second with a burst of 20 lets 21 through at once, and 10 more each second."""
    statuses = Counter(status for status, _, _ in results)
    assert set(statuses) == {200, 429}, statuses
    assert 20 <= statuses[200] <= 21 + 10 * seconds + 1, (statuses, seconds)
    for status, headers, body in results:
        if status == 429:
            assert headers["Content-Type"] == "application/problem+json"
            assert body["status"] == 429 and body["limit"] == GATE_LIMIT
            assert headers["Retry-After"] == "1" and headers["Access-Control-Allow-Origin"] == "*"


@pytest.fixture(scope="module")
def behind_nginx(full_catalog, tmp_path_factory):
    """nginx in front of gunicorn as deployed, the app trusting its one hop; 127.0.0.66 is blocked.

    The app's own entry-point bucket is off, so every entry-point 429 here is nginx's; one worker, so
    that its per-minute counts (in memory) are exact.
    """
    nginx = need_program("nginx")
    folder = tmp_path_factory.mktemp("nginx")
    blocklist = folder / "blocklist.txt"
    blocklist.write_text("127.0.0.66\n", encoding="utf-8")
    port = free_port()
    env = {
        "KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_TRUSTED_PROXIES": "1", "KAOMOJI_GATE_RATE": "0",
        "KAOMOJI_BLOCKLIST": str(blocklist),
    }
    with running(gunicorn_command(port, workers=1), f"http://127.0.0.1:{port}/healthz", env=env, log=folder / "gunicorn.log"):
        with nginx_in_front(nginx, port, folder) as base:
            yield base


def test_a_burst_of_40_requests_through_nginx_lets_about_20_through(behind_nginx):
    results, seconds = burst(f"{behind_nginx}/api/v1/categories", 40, source="127.0.0.30")
    assert_about_20_of_40_got_through(results, seconds)
    time.sleep(1)  # as Retry-After says
    assert fetch(f"{behind_nginx}/api/v1/categories", source="127.0.0.30")[0] == 200


def test_behind_nginx_the_app_sees_the_client_and_not_the_address_it_claims(behind_nginx):
    url = f"{behind_nginx}/api/v1/categories"
    # The app learns the blocked client's real address from nginx, whatever the client says.
    status, headers, body = fetch(url, headers={"X-Forwarded-For": "203.0.113.5"}, source="127.0.0.66")
    assert status == 403 and body["status"] == 403 and headers["Content-Type"] == "application/problem+json"
    # Claiming to be the blocked client does not make another client blocked.
    assert fetch(url, headers={"X-Forwarded-For": "127.0.0.66"}, source="127.0.0.31")[0] == 200
    # Nor does a new claim on each request make a new client: the per-minute count goes on.
    remaining = [fetch(url, headers={"X-Forwarded-For": f"198.51.100.{n}"}, source="127.0.0.32")[1]["X-RateLimit-Remaining"] for n in range(3)]
    assert remaining == ["59", "58", "57"]


@pytest.mark.parametrize("request_bytes, status", [
    (b"NOT HTTP AT ALL\r\n\r\n", 400),
    (b"GET /api/v1/categories HTTP/1.1\r\nConnection: close\r\n\r\n", 400),  # HTTP/1.1 without Host
    (b"GET /api/v1/search?q=" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414),
    (b"GET /api/v1/categories HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 5000 + b"\r\nConnection: close\r\n\r\n", 431),
])
def test_requests_nginx_refuses_get_problem_json_not_html(behind_nginx, request_bytes, status):
    got, headers, body = raw_request(behind_nginx, request_bytes)
    assert got == status and body["status"] == status
    assert headers["content-type"] == "application/problem+json" and headers["access-control-allow-origin"] == "*"


def test_a_request_line_nginx_lets_through_is_answered_by_the_app_in_json(behind_nginx):
    request = b"GET /api/v1/search?q=" + b"a" * 3900 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    status, headers, body = raw_request(behind_nginx, request)
    assert status == 400 and headers["content-type"] == "application/problem+json"
    assert body["invalid_params"][0]["name"] == "q"


def test_nginx_answers_problem_json_when_gunicorn_is_down(tmp_path):
    nginx = need_program("nginx")
    with nginx_in_front(nginx, free_port(), tmp_path) as base:  # nothing listens upstream
        status, headers, body = fetch(f"{base}/api/v1/kaomojis/1")
    assert status == 503 and headers["Content-Type"] == "application/problem+json" and body["status"] == 503
    assert headers["Retry-After"].isdigit() and headers["Access-Control-Allow-Origin"] == "*"


def test_without_nginx_plain_gunicorn_lets_about_20_of_a_burst_of_40_through(full_catalog, tmp_path):
    """As the README serves it: four workers keep one set of buckets (deploy/gunicorn.conf.py), so the
    client gets the rate once, not once per worker (which would let all 40 through)."""
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog)}
    with running(gunicorn_command(port, workers=4), f"http://127.0.0.1:{port}/healthz", env=env, log=tmp_path / "gunicorn.log"):
        url = f"http://127.0.0.1:{port}/healthz"
        results, seconds = burst(url, 40, source="127.0.0.40")
        assert_about_20_of_40_got_through(results, seconds)
        time.sleep(1)  # as Retry-After says
        assert fetch(url, source="127.0.0.40")[0] == 200
        assert fetch(url, source="127.0.0.41")[0] == 200  # another client has its own bucket


def test_a_blocked_address_gets_403_before_any_other_work_and_the_list_is_reread_when_it_changes(full_catalog, tmp_path):
    blocklist = tmp_path / "blocklist.txt"
    blocklist.write_text("# abusive clients\n127.0.0.50\n127.0.1.0/24  # a whole range\n", encoding="utf-8")
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_BLOCKLIST": str(blocklist)}
    base = f"http://127.0.0.1:{port}"
    # One worker, so that the minute of a client is counted in one place.
    with running(gunicorn_command(port, workers=1), f"{base}/healthz", env=env, log=tmp_path / "gunicorn.log"):
        for source in ("127.0.0.50", "127.0.1.9"):
            for _ in range(5):
                status, headers, body = fetch(f"{base}/api/v1/kaomojis/1", source=source)
                assert status == 403 and headers["Content-Type"] == "application/problem+json", source
                assert body["status"] == 403 and headers["Access-Control-Allow-Origin"] == "*"
        assert fetch(f"{base}/api/v1/kaomojis/1", source="127.0.0.51")[0] == 200

        replacement = tmp_path / "blocklist.new"
        replacement.write_text("127.0.0.51\n", encoding="utf-8")
        os.replace(replacement, blocklist)
        # A worker looks at the file again on its first request a second or more after its last look.
        time.sleep(CHECK_SECONDS + 0.2)
        assert fetch(f"{base}/api/v1/kaomojis/1", source="127.0.0.51")[0] == 403
        # Unblocked now; its ten refused requests never reached the limits, so its minute is untouched.
        status, headers, _ = fetch(f"{base}/api/v1/categories", source="127.0.0.50")
        assert status == 200 and (headers["X-RateLimit-Limit"], headers["X-RateLimit-Remaining"]) == ("60", "59")


def test_hup_reloads_the_workers_without_failing_a_request(full_catalog, tmp_path):
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_RATELIMIT_ENABLED": "false"}
    log = tmp_path / "gunicorn.log"
    base = f"http://127.0.0.1:{port}"
    with running(gunicorn_command(port, workers=2), f"{base}/healthz", env=env, log=log) as master:
        statuses, stop = Counter(), threading.Event()

        def keep_asking():
            while not stop.is_set():
                statuses[fetch(f"{base}/api/v1/kaomojis/1", timeout=10)[0]] += 1

        clients = [threading.Thread(target=keep_asking) for _ in range(3)]
        for client in clients:
            client.start()
        time.sleep(1)
        booted = log.read_text(encoding="utf-8").count("Booting worker")
        os.kill(master.pid, signal.SIGHUP)
        deadline = time.monotonic() + 30
        while log.read_text(encoding="utf-8").count("Booting worker") < booted + 2:
            assert time.monotonic() < deadline, "no new workers after HUP"
            time.sleep(0.2)
        time.sleep(1)
        stop.set()
        for client in clients:
            client.join()
    assert set(statuses) == {200} and statuses[200] > 20, statuses


def test_the_systemd_unit_is_valid_and_runs_gunicorn_with_the_deploy_config(tmp_path):
    systemd_analyze = need_program("systemd-analyze")
    unit = (ROOT / "deploy" / "kaomoji-api.service").read_text(encoding="utf-8")
    assert "ExecStart=/srv/kaomoji-api/.venv/bin/gunicorn --config deploy/gunicorn.conf.py wsgi:app" in unit
    assert "ExecReload=/bin/kill -HUP $MAINPID" in unit and "KAOMOJI_TRUSTED_PROXIES=1" in unit
    # The unit as it would be on a VM whose virtual environment is this one, checked by systemd itself.
    local = tmp_path / "kaomoji-api.service"
    local.write_text(unit.replace("/srv/kaomoji-api/.venv/bin/gunicorn", f"{sys.prefix}/bin/gunicorn"), encoding="utf-8")
    checked = subprocess.run([systemd_analyze, "verify", str(local)], capture_output=True, text=True)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr


def test_the_env_example_sets_only_settings_of_the_app_and_counts_in_redis():
    """deploy/env.example becomes /etc/kaomoji-api/env: exact limits and Retry-After need redis (README "Rate limits")."""
    from kaomoji_api.config import DEFAULTS

    lines = (ROOT / "deploy" / "env.example").read_text(encoding="utf-8").splitlines()
    settings = dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))
    assert set(settings) <= {f"KAOMOJI_{name}" for name in DEFAULTS}
    assert settings["KAOMOJI_RATELIMIT_STORAGE_URI"].startswith("redis://127.0.0.1:6379/")
