"""The most expensive searches, cold, against the median search: no request may cost over 10 times it.

    .venv/bin/python bench/worst_search.py [--catalog catalog.sqlite]

In-process (the app's searcher, ranking cache cleared before each query): the public relevance set
gives the median; the worst cases are single face characters, letters that half the catalog
contains, the deepest page a search allows, and long CJK and face queries.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 5

WORST = [
    ("(", 1), (")", 1), ("・", 1), ("ω", 1), ("ツ", 1), ("_", 1), ("a", 1), ("e", 1), ("o", 1),
    ("T_T", 1), ("(((", 1), ("^^", 1), ("ー", 1), ("ノ", 1),
    ("a", "deepest"), ("(", "deepest"), ("happy", "deepest"),
    ("猫" * 100, 1), ("(" * 100, 1), ("a " * 50, 1), ("ﾟ∀ﾟ" * 33, 1),
]


def cold_ms(searcher, query: str, locale: str, offset: int, limit: int) -> float:
    times = []
    for _ in range(ROUNDS):
        searcher.clear_cache()
        started = time.perf_counter()
        searcher.search(query, locale, offset, limit)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    from kaomoji_api import create_app
    from kaomoji_api.api import bounds
    from kaomoji_api.current import served

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    args = parser.parse_args()
    queries = json.loads((ROOT / "bench" / "data" / "relevance-queries.json").read_text(encoding="utf-8"))["queries"]
    app = create_app({"CATALOG": args.catalog, "RATELIMIT_ENABLED": False})
    with app.app_context():
        searcher = served().searcher
        median = statistics.median(cold_ms(searcher, q["q"], q["locale"], 0, bounds.SEARCH_LIMIT) for q in queries)
        print(f"median cold search of the public set: {median:.3f} ms\n")
        print("| query | page | cold ms | times the median |")
        print("|---|---|---|---|")
        worst = 0.0
        for query, page in WORST:
            limit = bounds.SEARCH_LIMIT
            number = bounds.SEARCH_DEPTH // limit if page == "deepest" else page
            ms = cold_ms(searcher, query, "en", (number - 1) * limit, limit)
            worst = max(worst, ms / median)
            shown = query if len(query) <= 12 else f"{query[:6]}… ({len(query)} chars)"
            print(f"| `{shown}` | {number} | {ms:.2f} | {ms / median:.1f} |")
        print(f"\nworst: {worst:.1f} times the median (target: at most 10)")


if __name__ == "__main__":
    main()
