"""Issue 12, refresh and bad files, against a real gunicorn: nothing of an old catalog stays alive, a bad
file never stops the service, and a file that opens but is not whole is refused before it serves."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kaomoji_api.current import RESTART_SPREAD
from tests.servers import fetch, free_port, gunicorn_command, running
from tools import build_catalog

REFRESHES = 5


def workers_of(master: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return sorted(int(pid) for pid in found)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def deleted_files_open(pid: int) -> list[str]:
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:
            continue
        if target.endswith("(deleted)") and "sqlite" in target:
            found.append(target)
    return found


def replace_with(source: Path, live: Path) -> None:
    """What a refresh does: a new file beside the live one, renamed over it."""
    fresh = live.with_name(".incoming.sqlite")
    shutil.copyfile(source, fresh)
    os.replace(fresh, live)


def wait_for_file_state(base: str, state: str, seconds: float = 20) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, _, body = fetch(f"{base}/healthz")
        assert status == 200
        if body["file"]["state"] == state:
            return body
        time.sleep(0.3)
    raise AssertionError(f"/healthz never said {state}: {body}")


@pytest.fixture()
def live_dir(tmp_path, full_catalog):
    """A data folder as the builder leaves it: the catalog and its last-good second name."""
    live = tmp_path / "catalog.sqlite"
    shutil.copyfile(full_catalog, live)
    build_catalog.keep_as_last_good(live)
    return live


def serve(live: Path, workers: int):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "wsgi:app"]
    return base, running(command, f"{base}/healthz", env={"KAOMOJI_CATALOG": str(live), "KAOMOJI_RATELIMIT_ENABLED": "false"})


def test_refreshes_leave_nothing_of_the_old_catalog_alive(live_dir, full_catalog):
    """Under gunicorn as deployed, each refresh ends with workers that hold one catalog, no handle on a
    deleted file, and no more memory than a fresh worker: a worker that swapped is restarted (current.py)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"KAOMOJI_CATALOG": str(live_dir), "KAOMOJI_RATELIMIT_ENABLED": "false"}
    with running(gunicorn_command(port, workers=2), f"{base}/healthz", env=env, log=live_dir.with_name("gunicorn.log")) as process:
        for query in ["(", "a", "cat", "%E3%83%84"]:  # fill the search and response caches of the first catalog
            for page in range(1, 5):
                fetch(f"{base}/api/v1/search?q={query}&page={page}")
        fresh = max(rss_mb(worker) for worker in workers_of(process.pid))
        for _ in range(REFRESHES):
            before = set(workers_of(process.pid))
            replace_with(full_catalog, live_dir)
            deadline = time.monotonic() + RESTART_SPREAD + 40
            while time.monotonic() < deadline:  # both workers swap, then restart; keep asking meanwhile
                # Four at once, so that both workers get requests (one alone may win every accept).
                with ThreadPoolExecutor(4) as pool:
                    assert set(pool.map(lambda _: fetch(f"{base}/api/v1/search?q=a")[0], range(8))) == {200}
                now = workers_of(process.pid)
                if len(now) == 2 and not before & set(now):
                    break
            assert not before & set(workers_of(process.pid)), "the workers that swapped were not restarted"
            time.sleep(4)  # the new workers have opened the file as it is now: the next refresh is news to them
        time.sleep(1)
        for worker in workers_of(process.pid):
            assert deleted_files_open(worker) == []
            assert rss_mb(worker) <= max(fresh, 60) + 2, (worker, rss_mb(worker), fresh)
            assert rss_mb(worker) <= 60


def test_a_bad_file_and_a_worker_restart_do_not_stop_the_service(live_dir):
    base, server = serve(live_dir, workers=2)
    with server as process:
        version = fetch(f"{base}/healthz")[2]["catalog"]["version"]
        truncated = live_dir.with_name(".truncated.sqlite")
        truncated.write_bytes(live_dir.read_bytes()[:4_000_000])
        os.replace(truncated, live_dir)
        time.sleep(1.2)
        body = wait_for_file_state(base, "rejected")
        assert body["catalog"]["version"] == version and body["file"]["reason"]
        # A worker dies; the one gunicorn starts in its place must boot on the last good catalog.
        first, second = workers_of(process.pid)
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (first in workers_of(process.pid) or len(workers_of(process.pid)) < 2):
            time.sleep(0.2)
        assert len(workers_of(process.pid)) == 2 and process.poll() is None
        for _ in range(40):  # never down, never the bad file
            status, _, body = fetch(f"{base}/healthz")
            assert status == 200 and body["catalog"]["version"] == version
            assert fetch(f"{base}/api/v1/kaomojis/1")[0] == 200
            time.sleep(0.05)
        # By now each worker has looked at the file (once a second, on a request) and read it: all say it was refused.
        # Before that, a worker that has just noticed the change serves on while it reads the file, and says so.
        for _ in range(20):
            assert fetch(f"{base}/healthz")[2]["file"]["state"] == "rejected"


@pytest.mark.parametrize("damage", [
    "DELETE FROM meta WHERE key = 'version'",
    "UPDATE meta SET value = 'not json' WHERE key = 'counts'",
    "DROP TABLE face_fragments",
    "ALTER TABLE search_keys DROP COLUMN value",
    # A drawing the file does not have, too large for the compact arrays a worker holds entries in (catalog.py Entries).
    "UPDATE entries SET lead_part = 70000 WHERE id = (SELECT min(id) FROM entries)",
])
def test_a_file_that_opens_but_is_not_whole_is_refused_and_reported(live_dir, full_catalog, damage):
    damaged = live_dir.with_name(".damaged.sqlite")
    shutil.copyfile(full_catalog, damaged)
    db = sqlite3.connect(damaged)
    db.execute(damage)
    db.commit()
    db.close()
    base, server = serve(live_dir, workers=1)
    with server:
        version = fetch(f"{base}/healthz")[2]["catalog"]["version"]
        os.replace(damaged, live_dir)
        time.sleep(1.2)
        wait_for_file_state(base, "rejected")
        for _ in range(30):  # no 500s, no flapping, the last good catalog answers
            status, _, body = fetch(f"{base}/healthz")
            assert status == 200 and body["catalog"]["version"] == version and body["file"]["state"] == "rejected"
            assert fetch(f"{base}/api/v1/search?q=cat")[0] == 200
            time.sleep(0.05)


def test_the_worst_queries_fill_every_cache_and_the_worker_stays_within_its_memory_budget(full_catalog, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"KAOMOJI_CATALOG": str(full_catalog), "KAOMOJI_RATELIMIT_ENABLED": "false"}
    # Its ~700 lines of access log go to a file: a pipe nobody reads fills, and the worker waits on it.
    with running(gunicorn_command(port, workers=1), f"{base}/healthz", env=env, log=tmp_path / "gunicorn.log") as process:
        [worker] = workers_of(process.pid)
        queries = ["(", ")", "%E3%83%BB", "%CF%89", "a", "e", "o", "_", "^", "%E3%83%8E", "%E3%83%84", "%E3%83%BC", "T_T", "cat", "happy"]
        with sqlite3.connect(f"file:{full_catalog}?mode=ro", uri=True) as db:
            locales = [code for (code,) in db.execute("SELECT code FROM locales")]
        assert len(locales) == 12
        for query in queries:
            for locale in locales:  # every locale: each holds its own names, keywords and glosses
                for page in (1, 20, 40):
                    assert fetch(f"{base}/api/v1/search?q={query}&locale={locale}&page={page}&limit=25")[0] == 200
        for locale in locales:  # a pick of one leaves the most written ahead (pieces.WrittenAhead)
            assert fetch(f"{base}/api/v1/random?count=1&locale={locale}")[0] == 200
        for page in range(1, 120, 3):
            for category in ["", "&category=cat", "&type=animal"]:
                assert fetch(f"{base}/api/v1/kaomojis?limit=100&page={page}{category}")[0] == 200
        assert rss_mb(worker) <= 60, rss_mb(worker)


def test_a_long_request_is_followed_by_a_trim_even_within_the_second():
    """What a heavy request frees goes back to the system after it, not up to a second later (current.trim_heap): a
    worker's worst case otherwise kept ~0.7 MB of it (README, "Memory")."""
    from kaomoji_api import current

    current.trim_heap()  # a trim now: the next is less than TRIM_SECONDS away
    # ~20 MB in blocks glibc's malloc serves (not Python's small-object pools), one in 16 kept: the freed runs between
    # them are holes in the heap, which glibc gives back only when trimmed (freed memory at its top it gives back itself).
    held = [bytes(2048) for _ in range(10_000)]
    kept = held[::16]
    grown = rss_mb(os.getpid())
    del held
    time.sleep(current.LONG_REQUEST_SECONDS * 2)  # a request that took this long since the last one was answered
    current.trim_heap()
    assert grown - rss_mb(os.getpid()) > 10 and len(kept) == 625, grown
