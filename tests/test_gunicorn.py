"""The service under a real gunicorn on loopback: the README's serve command, and catalog refresh."""

from __future__ import annotations

import os
import sys
import threading
import time

from tests.conftest import Quiet, need_program
from tests.servers import fetch, free_port, running
from tools import build_catalog


def test_readme_serve_command_serves_the_api(full_catalog):
    """`make serve` (as in README.md), with this interpreter's environment and the test catalog."""
    need_program("make")
    port = free_port()
    venv = sys.prefix  # the environment running the tests stands in for .venv
    command = ["make", "serve", f"VENV={venv}", f"PORT={port}", f"CATALOG={full_catalog}"]
    base = f"http://127.0.0.1:{port}"
    with running(command, f"{base}/healthz"):
        status, headers, body = fetch(f"{base}/api/v1/search?q=cat&limit=2")
        assert status == 200 and len(body["data"]) == 2
        assert headers["Access-Control-Allow-Origin"] == "*"
        status, _, body = fetch(f"{base}/api/v1/kaomojis/1?locale=ko")
        assert status == 200 and body["data"]["text"] == "(◕‿◕)"
        assert fetch(f"{base}/api/v1/kaomojis/0")[0] == 404


def test_a_catalog_swapped_by_rename_is_served_within_two_seconds_without_failed_requests(tmp_path):
    served = tmp_path / "catalog.sqlite"
    build_catalog.build(served, sample=120, progress=Quiet())
    replacement_dir = tmp_path / "next"
    replacement_dir.mkdir()
    replacement = replacement_dir / "catalog.sqlite"
    build_catalog.build(replacement, sample=160, progress=Quiet())

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "3", "wsgi:app"]
    # Limits off: three clients ask as fast as they can.
    with running(command, f"{base}/healthz", env={"KAOMOJI_CATALOG": str(served), "KAOMOJI_RATELIMIT_ENABLED": "false"}):
        old_version = fetch(f"{base}/healthz")[2]["catalog"]["version"]
        old_etag = fetch(f"{base}/api/v1/categories")[1]["ETag"]
        failures, versions, stop = [], [], threading.Event()

        def hammer():
            deadline = time.monotonic() + 20
            while not stop.is_set() and time.monotonic() < deadline:
                status, _, body = fetch(f"{base}/healthz")
                if status != 200:
                    failures.append(status)
                else:
                    versions.append((time.monotonic(), body["catalog"]["version"]))
                status, _, _ = fetch(f"{base}/api/v1/kaomojis?limit=5")
                if status != 200:
                    failures.append(status)

        clients = [threading.Thread(target=hammer) for _ in range(3)]
        for c in clients:
            c.start()
        time.sleep(1.0)
        # Same filesystem, so this is an atomic rename over the served file.
        os.replace(replacement, served)
        swapped_at = time.monotonic()
        time.sleep(3.0)
        stop.set()
        for c in clients:
            c.join()

        new_version = fetch(f"{base}/healthz")[2]["catalog"]["version"]
        assert new_version != old_version
        assert not failures
        # A second until a worker looks, then the new file is opened and checked in a thread.
        late_old = [t - swapped_at for t, v in versions if v == old_version and t > swapped_at + 2.2]
        assert not late_old, f"old catalog still served {max(late_old):.2f} s after the swap"
        # Every worker now answers with the new catalog.
        assert {fetch(f"{base}/healthz")[2]["catalog"]["version"] for _ in range(30)} == {new_version}
        assert fetch(f"{base}/api/v1/categories")[1]["ETag"] != old_etag
