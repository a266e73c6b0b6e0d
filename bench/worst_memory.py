"""A worker's memory after the requests that fill every cache: what tests/test_refresh_faults.py checks against 60 MB.

    python bench/worst_memory.py [--catalog catalog.sqlite] [--pages 700] [--locales en,ja]

One gunicorn sync worker (deploy/gunicorn.conf.py, limits off) is sent the worst-cache test's requests (the broadest searches in all
twelve locales on deep pages, a pick of one in each, then lists of 100 with and without filters), and its resident memory is printed
(and how much of it is its own heap, how much pages of mapped files: the catalog's, the libraries'); then
`--pages` kaomoji pages of random faces in each locale (the cards of "faces like it" are kept per catalog), and its
memory again. `--locales` sends them in fewer locales.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

from bench.throughput import free_port  # noqa: E402

ALL_LOCALES = ["en", "ja", "ko", "zh-Hans", "zh-Hant", "es", "pt", "fr", "de", "it", "ru", "id"]  # the test's
# The worst-cache test's searches (tests/test_refresh_faults.py), percent-encoded.
QUERIES = ["(", ")", "%E3%83%BB", "%CF%89", "a", "e", "o", "_", "^", "%E3%83%8E", "%E3%83%84", "%E3%83%BC", "T_T", "cat", "happy"]


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    return int(re.search(rf"{field}:\s+(\d+)", Path(f"/proc/{pid}/status").read_text()).group(1)) / 1024


def memory(pid: int) -> str:
    """The worker's resident memory, and how much of it is its own heap and how much pages of mapped files."""
    return f"{rss_mb(pid):.1f} MB (anonymous {rss_mb(pid, 'RssAnon'):.1f}, file {rss_mb(pid, 'RssFile'):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--pages", type=int, default=700, help="kaomoji pages a locale")
    parser.add_argument("--locales", default=",".join(ALL_LOCALES), help="the locales to send the requests in, comma-separated")
    args = parser.parse_args()
    locales = args.locales.split(",")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "KAOMOJI_CATALOG": str(Path(args.catalog).resolve()), "KAOMOJI_RATELIMIT_ENABLED": "false"}
    # As the test runs it: with deploy/gunicorn.conf.py (its access log dropped here).
    master = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
                               "--bind", f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", "/dev/null",
                               "--log-level", "warning", "wsgi:app"], cwd=ROOT, env=env, start_new_session=True)

    def get(path: str) -> None:
        try:
            urllib.request.urlopen(base + path, timeout=30).read()
        except urllib.error.HTTPError:
            pass

    try:
        for _ in range(200):
            try:
                get("/healthz")
                break
            except OSError:
                time.sleep(0.3)
        worker = int(Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()[0])
        print(f"started: {memory(worker)}")
        for query in QUERIES:
            for locale in locales:
                for page in (1, 20, 40):
                    get(f"/api/v1/search?q={query}&locale={locale}&page={page}&limit=25")
        for locale in locales:  # a pick of one leaves the most written ahead (pieces.WrittenAhead)
            get(f"/api/v1/random?count=1&locale={locale}")
        for page in range(1, 120, 3):
            for category in ["", "&category=cat", "&type=animal"]:
                get(f"/api/v1/kaomojis?limit=100&page={page}{category}")
        print(f"after the worst-cache test's requests: {memory(worker)} (budget 60)")
        with sqlite3.connect(f"file:{args.catalog}?mode=ro", uri=True) as db:
            ids = [i for (i,) in db.execute("SELECT id FROM entries WHERE sensitive = 0")]
        rng = random.Random(3)
        for locale in locales:
            prefix = "" if locale == "en" else f"/{locale}"
            for entry_id in rng.sample(ids, args.pages):
                get(f"{prefix}/kaomoji/{entry_id}")
        print(f"after {args.pages} kaomoji pages in each of {len(locales)} locales: {memory(worker)}")
    finally:
        os.killpg(master.pid, signal.SIGTERM)
        master.wait(timeout=20)


if __name__ == "__main__":
    main()
