"""Throughput, latency and memory of the service under gunicorn, measured against a bare Flask route.

    python bench/throughput.py [--catalog catalog.sqlite] [--rounds 3] [--seconds 3] [--only random]
                               [--strict-only | --deployed-only] [--workers 2] [--no-search-timing]

Two tables, each endpoint as a ratio to bench/bare_app.py measured in the same run:
- strict (issue 17): one sync worker pinned to core 0, wrk pinned to core 1, and a bare route that sends a
  body as large as the endpoint's (`/bare?size=N`); for each endpoint, `--rounds` rounds that alternate
  the bare route and the endpoint (which goes first alternates too), and the median of the rounds' ratios.
  wrk then never takes CPU from the worker, and a body's size costs both sides the same. Each round also runs the
  bare route sending the endpoint's headers too (`&headers=api|pick|page`): the last column, which tells what the
  service's nine headers cost (gunicorn checks and writes each in Python) from what its code costs.
- deployed: as deploy/gunicorn.conf.py runs it, `--workers` sync workers on every core with wrk beside them, against
  the bare route's small body, in alternating rounds as above (median); and each worker's peak RSS.
Rows with random ids (single entry, kaomoji page) ask for them through a wrk script, which costs wrk a
little on every request, so their bare route is driven by a like script. Then search is timed in-process,
cold (cache cleared) and warm, against kaomoji_dataset.search(), over both relevance sets.
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


def start(app: str, port: int, args, env: dict, *, workers: int, cpus: str | None = None, cwd: Path = ROOT) -> subprocess.Popen:
    command = [
        *(["taskset", "-c", cpus] if cpus else []),
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        args.worker_class,
        "--threads",
        str(args.threads),
        "--log-level",
        "warning",
        app,
    ]
    process = subprocess.Popen(command, cwd=cwd, env={**os.environ, **env}, start_new_session=True)
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


def wrk(url: str, seconds: int, script: str | None = None, cpus: str | None = None) -> dict:
    command = ["wrk", "-t1", "-c8", f"-d{seconds}s", "--latency", url]
    if script:
        command[1:1] = ["-s", script]
    if cpus:
        command[:0] = ["taskset", "-c", cpus]
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


def sample_ids(catalog: str) -> list[int]:
    with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True) as db:
        ids = [i for (i,) in db.execute("SELECT id FROM entries")]
    return random.Random(1).sample(ids, 5000)


def random_id_script(ids: list[int], folder: str, prefix: str) -> str:
    """A wrk script requesting `prefix` + a random one of `ids` each time.

    A Lua request function costs wrk time on every request (about 6% of the bare route's rate on
    2 cores), so the bare route is also measured through one, with ids it ignores.
    """
    path = Path(folder) / f"random_ids_{len(list(Path(folder).iterdir()))}.lua"
    path.write_text(
        "local ids = {" + ",".join(map(str, ids)) + f'}}\nrequest = function()\n  return wrk.format("GET", "{prefix}" .. ids[math.random(#ids)])\nend\n'
    )
    return str(path)


def body_size(url: str, ids: list[int] | None) -> int:
    """The mean size of the endpoint's body: over 50 of the ids for a random-id row, over 10 answers otherwise."""
    urls = [url.rsplit("/", 1)[0] + f"/{i}" for i in ids[:50]] if ids else [url] * 10
    return round(statistics.mean(len(urllib.request.urlopen(u, timeout=10).read()) for u in urls))


def in_process_search(catalog: str) -> list[dict]:
    import kaomoji_dataset

    from kaomoji_api import create_app
    from kaomoji_api.current import served

    queries = [q for name in ("relevance-queries.json", "relevance-search.json")
               for q in json.loads((ROOT / "bench" / "data" / name).read_text())["queries"]]
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


ENDPOINTS = [
    ("single entry (random ids)", "/api/v1/kaomojis/1", "ids"),
    ("list, page of 20", "/api/v1/kaomojis?limit=20", None),
    ("list, page of 100", "/api/v1/kaomojis?limit=100", None),
    ("random 10", "/api/v1/random?count=10", None),
    ("categories", "/api/v1/categories", None),
    *((f"search, {kind} ({q})", "/api/v1/search?" + urllib.parse.urlencode({"q": q}), None) for kind, q in SEARCHES),
    ("kaomoji page (random ids)", "/kaomoji/1", "page ids"),
    ("category page (cat)", "/category/cat", None),
]
PREFIXES = {"ids": "/api/v1/kaomojis/", "page ids": "/kaomoji/"}


def headers_of(path: str) -> str:
    """Which headers the service sends with the endpoint's answer (bench/bare_app.py HEADERS)."""
    if not path.startswith("/api/"):
        return "page"
    return "pick" if path.startswith("/api/v1/random") else "api"


def strict(args, env: dict, endpoints, ids: list[int], folder: str) -> None:
    """The strict table: one pinned worker each, wrk on the other core, same-size bodies, alternating rounds. Each round
    also runs the bare route sending the endpoint's headers as well (bench/bare_app.py), which tells what the
    service's nine headers cost from what its code costs."""
    service_port, bare_port = free_port(), free_port()
    service = start("wsgi:app", service_port, args, env, workers=1, cpus="0")
    bare = start("bench.bare_app:app", bare_port, args, {}, workers=1, cpus="0")
    base, bare_base = f"http://127.0.0.1:{service_port}", f"http://127.0.0.1:{bare_port}"
    rows = []
    try:
        for name, path, kind in endpoints:
            size = body_size(base + path, ids if kind else None)
            script = random_id_script(ids, folder, PREFIXES[kind]) if kind else None
            bare_url = f"{bare_base}/bare?size={size}"
            bare_script = random_id_script(ids, folder, f"/bare?size={size}&id=") if kind else None
            headed_url = f"{bare_url}&headers={headers_of(path)}"
            headed_script = random_id_script(ids, folder, f"/bare?size={size}&headers={headers_of(path)}&id=") if kind else None
            wrk(base + path, 1, script, cpus="1")  # warm the worker's caches
            wrk(bare_url, 1, bare_script, cpus="1")
            ratios, headed_ratios, ours, theirs = [], [], [], []
            for round_number in range(args.rounds):
                runs = [("ours", base + path, script), ("bare", bare_url, bare_script), ("headed", headed_url, headed_script)]
                measured = {}
                for who, url, lua in runs if round_number % 2 == 0 else runs[::-1]:
                    measured[who] = wrk(url, args.seconds, lua, cpus="1")
                ours.append(measured["ours"]["rps"])
                theirs.append(measured["bare"]["rps"])
                ratios.append(measured["ours"]["rps"] / measured["bare"]["rps"])
                headed_ratios.append(measured["ours"]["rps"] / measured["headed"]["rps"])
            rows.append((name, size, statistics.median(ours), statistics.median(theirs), ratios, headed_ratios))
    finally:
        stop(service)
        stop(bare)
    print(f"strict: gunicorn sync, 1 worker on core 0; wrk -t1 -c8 on core 1; a bare route of the same body size; "
          f"{args.rounds} alternating rounds of {args.seconds} s, median ratio; and against the bare route sending the "
          f"endpoint's headers too\n")
    print("| endpoint | body bytes | req/s | bare req/s | vs bare Flask (median) | rounds | vs bare with the same headers |")
    print("|---|---|---|---|---|---|---|")
    for name, size, ours, theirs, ratios, headed in rows:
        print(f"| {name} | {size} | {ours:.0f} | {theirs:.0f} | **{statistics.median(ratios):.2f}** | {' '.join(f'{r:.2f}' for r in ratios)} "
              f"| {statistics.median(headed):.2f} |")
    print()


def deployed(args, env: dict, endpoints, ids: list[int], folder: str) -> None:
    """The deployed table: `--workers` workers on every core, wrk beside them, against the bare route's small body;
    for each endpoint, `--rounds` rounds that alternate it and the bare route (which goes first alternates too), and
    the median of the rounds' ratios, as in the strict table."""
    service_port, bare_port = free_port(), free_port()
    service = start("wsgi:app", service_port, args, env, workers=args.workers)
    bare = start("bench.bare_app:app", bare_port, args, {}, workers=args.workers)
    base = f"http://127.0.0.1:{service_port}"
    rows = []
    try:
        scripts = {kind: random_id_script(ids, folder, prefix) for kind, prefix in PREFIXES.items()} | {None: None}
        bare_url, bare_script = f"http://127.0.0.1:{bare_port}/bare", random_id_script(ids, folder, "/bare?id=")
        for _, path, kind in endpoints:  # warm every worker's caches and indexes
            wrk(base + path, 1, scripts[kind])
        wrk(bare_url, 1)
        for name, path, kind in endpoints:
            # A row with random ids is compared with the bare route driven by a like script (random_id_script).
            runs = [("ours", base + path, scripts[kind]), ("bare", bare_url, bare_script if kind else None)]
            measured = []
            for round_number in range(args.rounds):
                result = {}
                for who, url, lua in runs if round_number % 2 == 0 else runs[::-1]:
                    result[who] = wrk(url, args.deployed_seconds, lua)
                measured.append(result)
            rows.append((name, measured))
        peaks = worker_peak_rss_mb(service)
    finally:
        stop(service)
        stop(bare)

    print(f"deployed: gunicorn {args.worker_class}, {args.workers} workers x {args.threads} threads; "
          f"wrk -t1 -c8 on the same cores; {os.cpu_count()} cores; {args.rounds} alternating rounds of "
          f"{args.deployed_seconds} s against the bare route's small body, median ratio\n")
    print("| endpoint | req/s | p50 ms | p99 ms | bare req/s | vs bare Flask (median) | rounds |")
    print("|---|---|---|---|---|---|---|")
    for name, measured in rows:
        ratios = [m["ours"]["rps"] / m["bare"]["rps"] for m in measured]
        middle = measured[ratios.index(statistics.median_low(ratios))]
        errors = sum(m["ours"]["errors"] for m in measured)
        flag = f" ({errors} errors)" if errors else ""
        print(f"| {name} | {middle['ours']['rps']:.0f} | {middle['ours']['p50']:.2f} | {middle['ours']['p99']:.2f} "
              f"| {middle['bare']['rps']:.0f} | **{statistics.median(ratios):.0%}**{flag} | {' '.join(f'{r:.0%}' for r in ratios)} |")
    print(f"\npeak RSS per worker: {', '.join(f'{p:.1f} MB' for p in peaks)}\n")


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--rounds", type=int, default=3, help="rounds per endpoint, in each table")
    parser.add_argument("--seconds", type=int, default=3, help="length of each strict run")
    parser.add_argument("--workers", type=int, default=2, help="workers of the deployed table")
    parser.add_argument("--worker-class", default="sync")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--deployed-seconds", type=int, default=5, help="length of each deployed run")
    parser.add_argument("--only", help="measure only the endpoints whose name contains this (e.g. random)")
    tables = parser.add_mutually_exclusive_group()
    tables.add_argument("--strict-only", action="store_true")
    tables.add_argument("--deployed-only", action="store_true")
    parser.add_argument("--no-search-timing", action="store_true", help="skip the in-process search timing")
    args = parser.parse_args()
    catalog = str(Path(args.catalog).resolve())
    env = {"KAOMOJI_CATALOG": catalog, "KAOMOJI_RATELIMIT_ENABLED": "false", "KAOMOJI_GATE_RATE": "0"}
    endpoints = [e for e in ENDPOINTS if not args.only or args.only in e[0]]
    ids = sample_ids(catalog)
    with tempfile.TemporaryDirectory() as folder:
        if not args.deployed_only:
            strict(args, env, endpoints, ids, folder)
        if not args.strict_only:
            deployed(args, env, endpoints, ids, folder)
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
