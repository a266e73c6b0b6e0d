"""The blocklist file (KAOMOJI_BLOCKLIST) under a real gunicorn, as deployed: whatever the file holds,
its addresses are blocked from a worker's first request, bad lines cost one warning, and a huge file
is read without stalling the request that finds it changed.
"""

from __future__ import annotations

import os
import time

from kaomoji_api.watch import CHECK_SECONDS
from tests.servers import burst, fetch, free_port, gunicorn_command, running


def test_a_line_that_is_not_utf8_is_skipped_and_the_rest_blocks_from_each_workers_first_request(full_catalog, tmp_path):
    blocklist = tmp_path / "blocklist.txt"
    blocklist.write_bytes(b"# caf\xe9 clients (Latin-1)\n127.0.0.80\n\xff\xfe10.1.2.3\n")
    port = free_port()
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_BLOCKLIST": str(blocklist)}
    log = tmp_path / "gunicorn.log"
    # Up when it accepts connections: the blocked client's requests are the first any worker answers.
    with running(gunicorn_command(port, workers=2), None, env=env, port=port, log=log):
        results, _ = burst(f"http://127.0.0.1:{port}/api/v1/kaomojis/1", 4, source="127.0.0.80")
        for status, headers, body in results:
            assert status == 403 and headers["Content-Type"] == "application/problem+json", body
            assert body["status"] == 403
        assert fetch(f"http://127.0.0.1:{port}/api/v1/kaomojis/1", source="127.0.0.81")[0] == 200
    text = log.read_text(encoding="utf-8")
    assert "1 line is not an address or CIDR range, skipped (line 3: " in text
    assert "Traceback" not in text


def test_a_file_of_200000_junk_lines_is_read_quickly_with_one_warning(full_catalog, tmp_path):
    blocklist = tmp_path / "blocklist.txt"
    blocklist.write_text("127.0.0.82\n", encoding="utf-8")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_BLOCKLIST": str(blocklist)}
    log = tmp_path / "gunicorn.log"
    with running(gunicorn_command(port, workers=1), f"{base}/healthz", env=env, log=log):
        assert fetch(f"{base}/healthz", source="127.0.0.82")[0] == 403
        replacement = tmp_path / "blocklist.new"
        replacement.write_text("".join(f"junk line {n}\n" for n in range(200_000)) + "127.0.0.83\n", encoding="utf-8")
        os.replace(replacement, blocklist)
        time.sleep(CHECK_SECONDS + 0.2)
        # The request that notices the change starts reading the file in a thread and waits for it only a
        # moment (kaomoji_api/watch.py): no request waits for the whole file, and it applies soon after.
        started, slowest = time.monotonic(), 0.0
        while time.monotonic() - started < 3:
            sent = time.monotonic()
            status = fetch(f"{base}/healthz", source="127.0.0.83")[0]
            slowest = max(slowest, time.monotonic() - sent)
            if status == 403:
                break
        assert status == 403 and slowest < 0.5, slowest
        assert fetch(f"{base}/healthz", source="127.0.0.82")[0] == 200
    warnings = [line for line in log.read_text(encoding="utf-8").splitlines() if "not an address or CIDR range" in line]
    assert len(warnings) == 1 and "200000 lines are not" in warnings[0] and "line 1: 'junk line 0'" in warnings[0]
