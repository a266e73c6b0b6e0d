"""Throughput, latency and memory of the service under gunicorn, measured against a bare Flask route.

    python bench/throughput.py [--catalog catalog.sqlite] [--workers 2] [--worker-class sync] [--seconds 8]
                               [--only random] [--no-search-timing]

Starts the service (limits off) and bench/bare_app.py under the same gunicorn settings on
loopback, drives each endpoint with wrk (Debian package `wrk`), and prints requests per second,
p50 and p99 latency, the ratio to the bare route (driven the same way: the single-entry row, whose
ids come from a wrk script, and the kaomoji page's likewise, is compared with the bare route driven by a like script), and each
worker's peak RSS. Then times search
in-process, cold (cache cleared) and warm, against kaomoji_dataset.search(). Every figure is a
ratio or taken in the same run, so it survives a noisy machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SEARCHES = [("broad", "happy"), ("rare", "spider"), ("CJK", "猫"), ("pasted face", "(╯°□°)╯")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(app: str, port: int, args, env: dict) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--log-level",
        "warning",
        app,
    ]
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
        except urllib.error.HTTPError:
            return process
        except OSError:
            time.sleep(0.2)
            continue
        return process
    raise RuntimeError(f"{app} did not start")


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=20)


def worker_peak_rss_mb(master: subprocess.Popen) -> list[float]:
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children").read_text().split()
    peaks = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        peaks.append(int(re.search(r"VmHWM:\s+(\d+)", status).group(1)) / 1024)
    return peaks


def wrk(url: str, seconds: int, script: str | None = None) -> dict:
    command = ["wrk", "-t1", "-c8", f"-d{seconds}s", "--latency", url]
    if script:
        command[1:1] = ["-s", script]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout

    def millis(label: str) -> float:
        value, unit = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": millis("50"),
        "p99": millis("99"),
        "errors": int(errors.group(1)) if errors else 0,
    }


def random_id_script(catalog: str, folder: str, prefix: str) -> str:
    """A wrk script requesting `prefix` + a random entry id each time.

    A Lua request function costs wrk time on every request (about 6% of the bare route's rate on
    2 cores), so the bare route is also measured through one, with ids it ignores.
    """
    with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True) as db:
        ids = [i for (i,) in db.execute("SELECT id FROM entries")]
    sample = random.Random(1).sample(ids, 5000)
    path = Path(folder) / f"random_ids_{len(list(Path(folder).iterdir()))}.lua"
    path.write_text(
        "local ids = {" + ",".join(map(str, sample)) + f'}}\nrequest = function()\n  return wrk.format("GET", "{prefix}" .. ids[math.random(#ids)])\nend\n'
    )
    return str(path)


def in_process_search(catalog: str) -> list[dict]:
    import kaomoji_dataset

    from kaomoji_api import create_app
    from kaomoji_api.current import served

    queries = json.loads((ROOT / "bench" / "data" / "relevance-queries.json").read_text())["queries"]
    app = create_app({"CATALOG": catalog})
    rows = []
    with app.app_context():
        searcher = served().searcher
        kaomoji_dataset.all()
        for q in queries:
            cold, warm = [], []
            for _ in range(15):
                searcher.clear_cache()
                started = time.perf_counter()
                searcher.search(q["q"], q["locale"], 0, 25)
                cold.append(time.perf_counter() - started)
                started = time.perf_counter()
                searcher.search(q["q"], q["locale"], 0, 25)
                warm.append(time.perf_counter() - started)
            started = time.perf_counter()
            kaomoji_dataset.search(q["q"], limit=25)
            theirs = time.perf_counter() - started
            rows.append({"q": q["q"], "cold_ms": statistics.median(cold) * 1000, "warm_ms": statistics.median(warm) * 1000, "dataset_ms": theirs * 1000})
    return rows


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--only", help="measure only the endpoints whose name contains this (e.g. random)")
    parser.add_argument("--no-search-timing", action="store_true", help="skip the in-process search timing")
    args = parser.parse_args()
    catalog = str(Path(args.catalog).resolve())
    env = {"KAOMOJI_CATALOG": catalog, "KAOMOJI_RATELIMIT_ENABLED": "false", "KAOMOJI_GATE_RATE": "0"}

    service_port, bare_port = free_port(), free_port()
    service = start("wsgi:app", service_port, args, env)
    bare = start("bench.bare_app:app", bare_port, args, {})
    base = f"http://127.0.0.1:{service_port}"
    endpoints = [
        ("single entry (random ids)", f"{base}/api/v1/kaomojis/1", "ids"),
        ("list, page of 20", f"{base}/api/v1/kaomojis?limit=20", None),
        ("list, page of 100", f"{base}/api/v1/kaomojis?limit=100", None),
        ("random 10", f"{base}/api/v1/random?count=10", None),
        ("categories", f"{base}/api/v1/categories", None),
    ] + [(f"search, {kind} ({q})", f"{base}/api/v1/search?" + urllib.parse.urlencode({"q": q}), None) for kind, q in SEARCHES] + [
        ("kaomoji page (random ids)", f"{base}/kaomoji/1", "page ids"),
        ("category page (cat)", f"{base}/category/cat", None),
    ]
    endpoints = [e for e in endpoints if not args.only or args.only in e[0]]
    try:
        with tempfile.TemporaryDirectory() as folder:
            scripts = {"ids": random_id_script(catalog, folder, "/api/v1/kaomojis/"),
                       "page ids": random_id_script(catalog, folder, "/kaomoji/"), None: None}
            bare_script = random_id_script(catalog, folder, "/bare?id=")
            for _, url, kind in endpoints:  # warm every worker's caches and indexes
                wrk(url, 1, scripts[kind])
            bare_url = f"http://127.0.0.1:{bare_port}/bare"
            bare_before = wrk(bare_url, args.seconds)
            bare_scripted = wrk(bare_url, args.seconds, bare_script) if any(e[2] for e in endpoints) else None
            results = [(name, kind, wrk(url, args.seconds, scripts[kind])) for name, url, kind in endpoints]
            bare_after = wrk(bare_url, args.seconds)
        peaks = worker_peak_rss_mb(service)
    finally:
        stop(service)
        stop(bare)

    bare_rps = (bare_before["rps"] + bare_after["rps"]) / 2
    print(f"gunicorn {args.worker_class}, {args.workers} workers x {args.threads} threads; wrk -t1 -c8 -d{args.seconds}s on loopback; {os.cpu_count()} cores\n")
    print("| endpoint | req/s | p50 ms | p99 ms | vs bare Flask |")
    print("|---|---|---|---|---|")
    print(
        f"| bare Flask route (before / after) | {bare_before['rps']:.0f} / {bare_after['rps']:.0f} "
        f"| {bare_before['p50']:.2f} | {bare_before['p99']:.2f} | 100% |"
    )
    if bare_scripted:
        print(f"| bare Flask route, random ids (wrk script) | {bare_scripted['rps']:.0f} | {bare_scripted['p50']:.2f} | {bare_scripted['p99']:.2f} | 100% |")
    for name, kind, r in results:
        flag = f" ({r['errors']} errors)" if r["errors"] else ""
        yardstick = bare_scripted["rps"] if kind else bare_rps
        print(f"| {name} | {r['rps']:.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['rps'] / yardstick:.0%}{flag} |")
    print(f"\npeak RSS per worker: {', '.join(f'{p:.1f} MB' for p in peaks)}\n")
    if args.no_search_timing:
        return

    rows = in_process_search(catalog)
    print("| query | search cold ms | warm ms | kaomoji_dataset.search() ms |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['q']} | {r['cold_ms']:.3f} | {r['warm_ms']:.3f} | {r['dataset_ms']:.1f} |")
    print(f"| **worst** | **{max(r['cold_ms'] for r in rows):.3f}** | **{max(r['warm_ms'] for r in rows):.3f}** | |")


if __name__ == "__main__":
    main()
