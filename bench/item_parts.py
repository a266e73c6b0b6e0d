"""The parts of an entry's JSON, timed one by one in-process: what a single entry, a pick and a page are written from.

    .venv/bin/python bench/item_parts.py [--catalog catalog.sqlite] [--entries 20000] [--locale en] [--cold]

Each of ItemWriter's public parts (item, meaning, note, usage, the whole detail) over the same random entries, in
microseconds an entry: the best of five passes, a locale's pieces made once before; then items written 10, 30 and 100
in one call, as a pick's are (pieces.WrittenAhead), in microseconds an item. With --cold, 8 MB are written over
before each entry (each call, for the items written together), which then finds nothing of its own in the CPU's caches, as in a worker
(bench/request_profile.py --cold does the same before each request); only the parts are timed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(part, positions: list[int], locale: str, cold) -> float:
    """Seconds `part` takes over `positions`; with `cold` (bench/request_profile.py's CacheEmptier), the caches are
    emptied before each."""
    if cold is None:
        started = time.perf_counter()
        for position in positions:
            part(position, locale)
        return time.perf_counter() - started
    took, clock = 0.0, time.perf_counter
    for position in positions:
        cold()
        started = clock()
        part(position, locale)
        took += clock() - started
    return took


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    from bench.request_profile import CacheEmptier
    from kaomoji_api import create_app
    from kaomoji_api.current import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--entries", type=int, default=20000)
    parser.add_argument("--locale", default="en")
    parser.add_argument("--cold", action="store_true", help="empty the caches before each entry")
    args = parser.parse_args()
    app = create_app({"CATALOG": args.catalog, "RATELIMIT_ENABLED": False})
    with app.app_context():
        writer = served().items
        rng = random.Random(1)
        positions = [rng.randrange(len(served().catalog.entries)) for _ in range(args.entries)]
        parts = {name: getattr(writer, name) for name in ("item", "meaning", "note", "usage", "detail")}
        for part in parts.values():
            for position in positions[:1000]:
                part(position, args.locale)
        cold = CacheEmptier() if args.cold else None
        print(f"| part | µs an entry ({args.entries} random entries, {args.locale}, best of five{', cold' if cold else ''}) |")
        print("|---|---|")
        for name, part in parts.items():
            best = min(timed(part, positions, args.locale, cold) for _ in range(5))
            print(f"| {name} | {best / len(positions) * 1e6:.2f} |")
        for size in (10, 30, 100):  # a pick's items written in one call (ItemWriter.items), as WrittenAhead writes them
            groups = [positions[start:start + size] for start in range(0, len(positions) - size + 1, size)]
            best = min(timed(lambda group, locale: writer.items(group, locale), groups, args.locale, cold) for _ in range(5))
            print(f"| {size} items in one call | {best / (len(groups) * size) * 1e6:.2f} |")


if __name__ == "__main__":
    main()
