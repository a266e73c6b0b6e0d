"""Relevance beyond the public set: every dataset label, and every locale's words for it, as a query.

    python bench/label_sweep.py [--catalog catalog.sqlite] [--worst 20]

Two sweeps over the search index in-process, scored like bench/relevance.py (precision of the
first 10 results, missing results count as misses):
- labels: each English label of the dataset (category, emotion, intent, subject) is a query; a
  result is relevant when its entry has that label. Labels with fewer than 10 entries cannot
  reach 1.0.
- concepts: in each locale, the first three words the locale file gives for each concept (a
  label with its synonyms) are queries in that locale; a result is relevant when its entry has
  one of the concept's English words as a label.
Neither set is used to tune anything: they are the whole vocabulary, not a chosen sample.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPTH = 10


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    import kaomoji_dataset

    from bench.relevance import dataset_labels
    from kaomoji_api.catalog import Catalog
    from kaomoji_api.search import Searcher

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--worst", type=int, default=15, help="list this many of the lowest-scoring queries")
    args = parser.parse_args()

    sizes = Counter()
    for e in kaomoji_dataset.all():
        sizes.update({e["category"], *e["emotion"], *e["intent"], *e["subject"]} - {"uncategorized"})
    # Judged as bench/relevance.py judges: an entry has the labels of every dataset id of its face (the catalog
    # keeps one id per face, which carries what all of them knew).
    labels = dataset_labels()
    catalog = Catalog(args.catalog)
    searcher = Searcher(catalog, depth=DEPTH, cache_bytes=0)

    def precision(query: str, locale: str, relevant: set[str]) -> float:
        hits, _ = searcher.search(query, locale, 0, DEPTH)
        return sum(1 for position, _ in hits if labels[catalog.entries.ids[position]] & relevant) / DEPTH

    label_scores = {label: precision(label, "en", {label}) for label in sorted(sizes)}
    reachable = {label: score for label, score in label_scores.items() if sizes[label] >= DEPTH}

    english = json.loads((ROOT / "tools" / "locales" / "en.json").read_text(encoding="utf-8"))["concepts"]
    concept_scores: dict[str, list] = defaultdict(list)
    for code in catalog.locales:
        concepts = json.loads((ROOT / "tools" / "locales" / f"{code}.json").read_text(encoding="utf-8"))["concepts"]
        for concept, words in concepts.items():
            relevant = {concept, *english.get(concept, [])}
            judged = [sizes[label] for label in relevant if label in sizes]
            if not judged or min(judged) < DEPTH:
                continue  # a concept of ours that no dataset label judges (explosion), or too few entries to fill a page
            for word in list(dict.fromkeys(words))[:3]:
                concept_scores[code].append((precision(word, code, relevant), word, concept))

    print(f"labels: {len(label_scores)} queries, mean P@10 {statistics.mean(label_scores.values()):.3f}; "
          f"the {len(reachable)} labels with at least {DEPTH} entries: {statistics.mean(reachable.values()):.3f}")
    print("\n| locale | concept queries | mean P@10 |\n|---|---|---|")
    for code, rows in concept_scores.items():
        print(f"| {code} | {len(rows)} | {statistics.mean(r[0] for r in rows):.3f} |")
    every = [r for rows in concept_scores.values() for r in rows]
    print(f"| all | {len(every)} | {statistics.mean(r[0] for r in every):.3f} |")
    print(f"\nlowest label queries (with at least {DEPTH} entries):")
    for label, score in sorted(reachable.items(), key=lambda kv: kv[1])[:args.worst]:
        print(f"  {score:.1f}  {label}")
    print("lowest concept queries:")
    worst = sorted(((score, code, word, concept) for code, rows in concept_scores.items() for score, word, concept in rows))
    for score, code, word, concept in worst[:args.worst]:
        print(f"  {score:.1f}  {code} {word!r} ({concept})")


if __name__ == "__main__":
    main()
