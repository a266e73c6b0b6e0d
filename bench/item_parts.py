"""The parts of an entry's JSON, timed one by one in-process: what a single entry, a pick and a page are written from.

    .venv/bin/python bench/item_parts.py [--catalog catalog.sqlite] [--entries 20000] [--locale en]

Each of ItemWriter's public parts (item, meaning, note, usage, the whole detail) over the same random entries, in
microseconds an entry: the best of five passes, the caches warm (a locale's pieces made once before).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    from kaomoji_api import create_app
    from kaomoji_api.current import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--entries", type=int, default=20000)
    parser.add_argument("--locale", default="en")
    args = parser.parse_args()
    app = create_app({"CATALOG": args.catalog, "RATELIMIT_ENABLED": False})
    with app.app_context():
        writer = served().items
        positions = [random.Random(1).randrange(len(served().catalog.entries)) for _ in range(args.entries)]
        parts = {name: getattr(writer, name) for name in ("item", "meaning", "note", "usage", "detail")}
        for part in parts.values():
            for position in positions[:1000]:
                part(position, args.locale)
        print(f"| part | µs an entry ({args.entries} random entries, {args.locale}, best of five) |")
        print("|---|---|")
        for name, part in parts.items():
            best = float("inf")
            for _ in range(5):
                started = time.perf_counter()
                for position in positions:
                    part(position, args.locale)
                best = min(best, time.perf_counter() - started)
            print(f"| {name} | {best / len(positions) * 1e6:.2f} |")


if __name__ == "__main__":
    main()
