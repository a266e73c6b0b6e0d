"""The per-minute counters in a real redis-server, shared by the workers of a real gunicorn.

Spec part 8 accepts per-process counters; with KAOMOJI_RATELIMIT_STORAGE_URI=redis://... the limits are
exact across processes (and VMs), and while redis is away the service keeps answering (limits fail open).
The entry-point bucket is off (KAOMOJI_GATE_RATE=0): these tests send faster than it allows on purpose.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import Counter

from kaomoji_api.limits import STORAGE_RETRY_SECONDS
from tests.conftest import need_program
from tests.servers import burst, fetch, free_port, gunicorn_command, redis_server, running, stop, wait_for_workers


def serve(full_catalog, port, log, storage_uri):
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_GATE_RATE": "0", "KAOMOJI_RATELIMIT_STORAGE_URI": storage_uri}
    return running(gunicorn_command(port, workers=4), f"http://127.0.0.1:{port}/healthz", env=env, log=log)


def test_four_workers_sharing_redis_accept_exactly_60_requests_a_minute_from_one_client(full_catalog, tmp_path):
    redis_program = need_program("redis-server")
    redis_port, port = free_port(), free_port()
    log = tmp_path / "gunicorn.log"
    with redis_server(redis_port, redis_program), serve(full_catalog, port, log, f"redis://127.0.0.1:{redis_port}/0"):
        wait_for_workers(f"http://127.0.0.1:{port}/healthz", log, 4)
        results, _ = burst(f"http://127.0.0.1:{port}/api/v1/kaomojis/1", 80, source="127.0.0.20")
    assert Counter(status for status, _, _ in results) == {200: 60, 429: 20}
    # The access log names the worker of each request: several took part, so the 60 were counted together.
    workers = set(re.findall(r'^127\.0\.0\.20 "GET /api/v1/kaomojis/1 HTTP/1\.1" 200 .* <(\d+)>$', log.read_text(encoding="utf-8"), flags=re.M))
    assert len(workers) >= 2, workers


def test_redis_stopped_and_restarted_mid_run_loses_no_request_and_counting_resumes(full_catalog, tmp_path):
    redis_program = need_program("redis-server")
    redis_port, port = free_port(), free_port()
    url, client = f"http://127.0.0.1:{port}/api/v1/categories", "127.0.0.21"
    log = tmp_path / "gunicorn.log"
    with contextlib.ExitStack() as servers:
        first_redis = servers.enter_context(redis_server(redis_port, redis_program))
        servers.enter_context(serve(full_catalog, port, log, f"redis://127.0.0.1:{redis_port}/0"))
        for n in range(10):
            status, headers, _ = fetch(url, source=client)
            assert status == 200 and headers["X-RateLimit-Remaining"] == str(59 - n)

        stop(first_redis)
        started = time.monotonic()
        for n in range(20):
            status, headers, _ = fetch(url, source=client)
            assert status == 200, n  # answered without limits, and without headers it cannot know
            assert "X-RateLimit-Remaining" not in headers
        assert time.monotonic() - started < 10, "requests were slowed down by the missing redis"

        servers.enter_context(redis_server(redis_port, redis_program))  # empty: it kept nothing on disk
        time.sleep(STORAGE_RETRY_SECONDS + 0.5)
        for n in range(60):
            status, headers, _ = fetch(url, source=client)
            assert status == 200 and headers["X-RateLimit-Remaining"] == str(59 - n), n
        assert fetch(url, source=client)[0] == 429
    output = log.read_text(encoding="utf-8")
    assert "unreachable" in output and "reachable again" in output
    assert "Traceback" not in output
