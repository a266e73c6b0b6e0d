"""Search by what faces say, over the whole glossary: each fragment's phrase, in each locale, as a query.

    python bench/says_sweep.py [--catalog catalog.sqlite] [--worst 15]

For every glossary row (tools/glossary/source.json) that some served face says, and every locale, the
phrase its gloss gives (tools/search_index.py gloss_phrase: “good night”, « bonne nuit », 「晚安」) is a
query in that locale; rows of letters of words spelled across faces (the kana “o”) say nothing and are
left out. A result is relevant when its face says a fragment with that phrase in that locale
(several rows may share one: おやすみ, おやすみなさい). Reported per locale: the share of queries whose first
result is relevant, and the mean precision of the first 10 results against the most a row could fill
(min(10, its faces)). Nothing is tuned on it: it is the whole glossary, not a chosen sample.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from array import array
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tools" / "glossary" / "source.json"
DEPTH = 10


def sweep(catalog, searcher, locales=None) -> dict[str, list[tuple[bool, float, str]]]:
    """Per locale, (first result says it, precision of the first 10, phrase) for each glossary row's phrase."""
    from kaomoji_api import textnorm
    from kaomoji_api.search import FRAGMENT_POSITION
    from tools.search_index import gloss_phrase

    visible = catalog.entries.visible
    faces: dict[int, set[int]] = {}
    for fragment_id, blob in catalog.db.execute("SELECT fragment_id, positions FROM fragment_faces"):
        faces[fragment_id] = {p & FRAGMENT_POSITION for p in array("I", blob)} - set(range(visible, len(catalog.entries)))
    rows = defaultdict(list)
    letters = {number for number, row in enumerate(json.loads(SOURCE.read_text(encoding="utf-8")), 1) if row["intent"] == "letter"}
    for code in locales or catalog.locales:
        phrases: dict[str, set[int]] = defaultdict(set)
        by_fragment = {}
        for fragment_id, gloss in catalog.db.execute("SELECT fragment_id, gloss FROM fragment_texts WHERE locale = ?", (code,)):
            by_fragment[fragment_id] = phrase = gloss_phrase(gloss)
            phrases[textnorm.comparable(phrase)].add(fragment_id)
        for fragment_id, phrase in by_fragment.items():
            if not faces.get(fragment_id) or not textnorm.comparable(phrase) or fragment_id in letters:
                continue
            relevant = set().union(*(faces.get(f, set()) for f in phrases[textnorm.comparable(phrase)]))
            hits, _ = searcher.search(phrase, code, 0, DEPTH)
            found = [position in relevant for position, _ in hits]
            rows[code].append((bool(found and found[0]), sum(found) / min(DEPTH, len(relevant)), phrase))
    return rows


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    from kaomoji_api.catalog import Catalog
    from kaomoji_api.search import Searcher

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--worst", type=int, default=15, help="list this many of the queries whose first result misses")
    args = parser.parse_args()
    catalog = Catalog(args.catalog)
    searcher = Searcher(catalog, depth=DEPTH, cache_bytes=0)
    rows = sweep(catalog, searcher)
    first_hits = {code: [r[0] for r in found] for code, found in rows.items()}
    precisions = {code: [r[1] for r in found] for code, found in rows.items()}
    misses = [(code, phrase) for code, found in rows.items() for first, _, phrase in found if not first]
    print("| locale | queries | first result says it | mean P@10 (of what a row can fill) |\n|---|---|---|---|")
    for code in first_hits:
        print(f"| {code} | {len(first_hits[code])} | {statistics.mean(first_hits[code]):.3f} | {statistics.mean(precisions[code]):.3f} |")
    every_first = [hit for rows in first_hits.values() for hit in rows]
    every_precision = [p for rows in precisions.values() for p in rows]
    print(f"| all | {len(every_first)} | {statistics.mean(every_first):.3f} | {statistics.mean(every_precision):.3f} |")
    print(f"\nqueries whose first result misses: {len(misses)}; some of them:")
    for code, phrase in misses[:: max(1, len(misses) // args.worst)][:args.worst]:
        print(f"  {code} {phrase!r}")


if __name__ == "__main__":
    main()
