"""Where a request's time goes: each endpoint of bench/throughput.py run through the app's WSGI callable under
cProfile, in-process, with the bare Flask route of the same body size beside it.

    python bench/request_profile.py [--catalog catalog.sqlite] [--requests 2000] [--only random] [--top 8] [--cold]

For each endpoint: microseconds a request without the profiler (best of five passes, CPU time of this thread; with
--cold, 8 MB are written over before each request, which then finds nothing of its own in the caches, as in a worker),
the bare route's, and under the profiler the share of the time spent in functions of kaomoji_api (ours), of
Flask, Werkzeug and flask-cors (the framework, which the bare route runs too), and elsewhere (orjson, sqlite3,
the standard library); then our functions that take the most time of their own.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from pathlib import Path

from werkzeug.test import EnvironBuilder

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.throughput import ENDPOINTS, PREFIXES  # noqa: E402

# --cold: between requests, write over more memory than this machine's caches hold, as gunicorn and the kernel do in a
# worker between two requests; a request then reads its code and data from memory, as it does there.
COLD_BYTES, CACHE_LINE = 8 << 20, 64


class CacheEmptier:
    """Called before each timed request (or entry, bench/item_parts.py --cold): writes a byte of each cache line of
    COLD_BYTES of its own, which leaves nothing of the code's in the CPU's caches."""

    def __init__(self):
        self.buffer, self.fill = bytearray(COLD_BYTES), b"\1" * (COLD_BYTES // CACHE_LINE)

    def __call__(self) -> None:
        self.buffer[::CACHE_LINE] = self.fill
FRAMEWORK = ("/flask/", "/werkzeug/", "/flask_cors/", "/flask_limiter/", "/limits/", "/blinker/")


def environs(path: str, kind: str | None, ids: list[int]) -> list[dict]:
    if not kind:
        return [EnvironBuilder(path=path).get_environ()]
    return [EnvironBuilder(path=f"{PREFIXES[kind]}{i}").get_environ() for i in ids]


def run(app, envs: list[dict], count: int, cold: CacheEmptier | None = None) -> tuple[int, float]:
    """Send `count` requests, cycling through `envs`: the size of the last body, and the CPU seconds of the requests.
    With `cold`, the caches are emptied before each request (--cold)."""
    def start_response(status, headers, exc_info=None):
        pass

    size, took = 0, 0.0
    for i in range(count):
        environ = dict(envs[i % len(envs)])
        environ["wsgi.input"] = io.BytesIO()
        if cold is not None:
            cold()
        started = time.thread_time()
        size = len(b"".join(app(environ, start_response)))
        took += time.thread_time() - started
    return size, took


def microseconds(app, envs: list[dict], count: int, cold: CacheEmptier | None = None) -> tuple[float, int]:
    best, size = float("inf"), 0
    for _ in range(5):
        size, took = run(app, envs, count, cold)
        best = min(best, took)
    return best / count * 1e6, size


def where(stats: pstats.Stats) -> tuple[dict[str, float], list[tuple[float, str]]]:
    """Own time by room (ours, framework, other) and our functions by own time."""
    rooms, ours = {"ours": 0.0, "framework": 0.0, "other": 0.0}, []
    for (filename, line, function), (_, _, own, _, _) in stats.stats.items():
        if "/kaomoji_api/" in filename:
            rooms["ours"] += own
            ours.append((own, f"{filename.split('/kaomoji_api/')[1]}:{line} {function}"))
        elif any(part in filename for part in FRAMEWORK):
            rooms["framework"] += own
        else:
            rooms["other"] += own
    return rooms, sorted(ours, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--only", help="profile only the endpoints whose name contains this")
    parser.add_argument("--top", type=int, default=8, help="how many of our functions to list per endpoint")
    parser.add_argument("--cold", action="store_true", help="empty the caches before each request, as a worker's are")
    args = parser.parse_args()
    os.environ.update({"KAOMOJI_CATALOG": args.catalog, "KAOMOJI_RATELIMIT_ENABLED": "false"})

    from bench.bare_app import app as bare
    from kaomoji_api import create_app

    app = create_app()
    ids = random.Random(1).sample(app.extensions["kaomoji_served"].value.catalog.entries.ids.tolist(), 2000)
    print("| endpoint | µs a request | bare route, same size | ours | Flask and Werkzeug | other |")
    print("|---|---|---|---|---|---|")
    details = []
    for name, path, kind in ENDPOINTS:
        if args.only and args.only not in name:
            continue
        envs = environs(path, kind, ids)
        run(app, envs, min(200, args.requests))  # caches, statements and the locale's pieces made once
        cold = CacheEmptier() if args.cold else None
        took, size = microseconds(app, envs, args.requests, cold)
        bare_took, _ = microseconds(bare, [EnvironBuilder(path="/bare", query_string=f"size={size}").get_environ()], args.requests, cold)
        profiler = cProfile.Profile()
        profiler.runcall(run, app, envs, args.requests)
        rooms, ours = where(pstats.Stats(profiler))
        total = sum(rooms.values())
        print(f"| {name} | {took:.0f} | {bare_took:.0f} | {rooms['ours'] / total:.0%} | {rooms['framework'] / total:.0%} "
              f"| {rooms['other'] / total:.0%} |")
        details.append((name, [(own / total, where_) for own, where_ in ours[:args.top]]))
    for name, functions in details:
        print(f"\n{name}: our functions by their own share of the profiled time")
        for share, function in functions:
            print(f"  {share:5.1%}  {function}")


if __name__ == "__main__":
    main()
