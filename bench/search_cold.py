"""In-process search, cold, over every query of both relevance sets: the slowest first.

    .venv/bin/python bench/search_cold.py [--catalog catalog.sqlite] [--rounds 9] [--show 20]

Each query is timed as bench/throughput.py times "cold": the app's searcher with its ranking cache cleared (and
the text-folding cache too), one first page (25 results), the median of `--rounds` runs. The target is every
query under 0.5 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ("relevance-queries.json", "relevance-search.json")
TARGET_MS = 0.5
CLOCK = time.perf_counter


def cold_ms(searcher, fold, queries: list[dict], rounds: int, stat=statistics.median) -> list[float]:
    """Each query's time, cold; the rounds go over all the queries in turn, so that a burst of another load on the
    machine slows one run of many queries rather than every run of one."""
    times = [[] for _ in queries]
    for _ in range(rounds):
        for q, runs in zip(queries, times, strict=True):
            searcher.clear_cache()
            fold.cache_clear()
            started = CLOCK()
            searcher.search(q["q"], q["locale"], 0, 25)
            runs.append(CLOCK() - started)
    return [stat(runs) * 1000 for runs in times]


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    from kaomoji_api import create_app, textnorm
    from kaomoji_api.current import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--show", type=int, default=20, help="how many of the slowest queries to list")
    parser.add_argument("--cpu", action="store_true",
                        help="time the process's CPU time rather than the wall clock (less sensitive to other loads)")
    parser.add_argument("--fastest", action="store_true",
                        help="the fastest of the runs rather than their median (steadier on a machine others load)")
    args = parser.parse_args()
    stat = min if args.fastest else statistics.median
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    queries = [q for name in SETS for q in json.loads((ROOT / "bench" / "data" / name).read_text(encoding="utf-8"))["queries"]]
    app = create_app({"CATALOG": args.catalog, "RATELIMIT_ENABLED": False})
    with app.app_context():
        searcher = served().searcher
        for q in queries[:10]:  # the SQLite file's pages and Python's first calls warmed
            searcher.search(q["q"], q["locale"], 0, 25)
        rows = sorted(zip(cold_ms(searcher, textnorm.fold, queries, args.rounds, stat), queries, strict=True), key=lambda row: -row[0])
    print(f"{len(rows)} queries, {'fastest' if args.fastest else 'median'} of {args.rounds} cold runs each\n")
    print("| query | locale | kind | cold ms |")
    print("|---|---|---|---|")
    for ms, q in rows[:args.show]:
        print(f"| `{q['q']}` | {q['locale']} | {q.get('kind', '')} | {ms:.3f} |")
    over = sum(ms >= TARGET_MS for ms, _ in rows)
    print(f"\nslowest {rows[0][0]:.3f} ms, median {statistics.median(ms for ms, _ in rows):.3f} ms; "
          f"{over} of {len(rows)} at {TARGET_MS} ms or more")


if __name__ == "__main__":
    main()
