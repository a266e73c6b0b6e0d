"""Relevance of search: precision of the first 10 results on a set of judged queries.

    python bench/relevance.py [--url http://127.0.0.1:8000] [--queries bench/data/relevance-queries.json]

A result is relevant when the dataset labels of its entry (category, emotion, intent, subject)
share one with the query's `relevant` list, or, for `contains` queries, when its text contains
that string; missing results count as misses. The same queries also go through
kaomoji_dataset.search() for comparison. Without --url the app runs in-process on ./catalog.sqlite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ROOT / "bench" / "data" / "relevance-queries.json"
DEPTH = 10


def dataset_labels() -> dict[int, set[str]]:
    """Each dataset id's labels (category, emotion, intent, subject), joined with those of every other id of the
    same face: the catalog keeps one id per face, which carries what all of them knew."""
    import kaomoji_dataset

    by_text: dict[str, set[str]] = {}
    for e in kaomoji_dataset.all():
        by_text.setdefault(e["text"], set()).update([e["category"], *e["emotion"], *e["intent"], *e["subject"]])
    return {int(e["id"][4:]): by_text[e["text"]] for e in kaomoji_dataset.all()}


def is_relevant(query: dict, labels: set[str], text: str) -> bool:
    if "contains" in query:
        return query["contains"] in text
    return bool(labels & set(query["relevant"]))


def precision(query: dict, results: list[tuple[int, str]], labels_by_id: dict[int, set[str]]) -> float:
    hits = sum(is_relevant(query, labels_by_id.get(i, set()), text) for i, text in results[:DEPTH])
    return hits / DEPTH


def service_results(get_json, query: dict) -> list[tuple[int, str]]:
    body = get_json("/api/v1/search", {"q": query["q"], "locale": query["locale"], "limit": DEPTH})
    return [(item["id"], item["text"]) for item in body["data"]]


def dataset_results(query: dict) -> list[tuple[int, str]]:
    import kaomoji_dataset

    return [(int(e["id"][4:]), e["text"]) for e in kaomoji_dataset.search(query["q"], limit=DEPTH)]


def evaluate(get_json, queries: list[dict], *, baseline: bool = True) -> list[dict]:
    """P@10 of the service for each query, and of kaomoji_dataset.search() with `baseline` (slow: ~0.5 s a query)."""
    labels = dataset_labels()
    rows = []
    for query in queries:
        ours = service_results(get_json, query)
        row = {"q": query["q"], "locale": query["locale"], "service": precision(query, ours, labels), "service_results": len(ours)}
        if baseline:
            theirs = dataset_results(query)
            row.update(dataset=precision(query, theirs, labels), dataset_results=len(theirs))
        rows.append(row)
    return rows


def http_getter(base: str):
    def get_json(path: str, params: dict) -> dict:
        with urllib.request.urlopen(f"{base}{path}?{urllib.parse.urlencode(params)}", timeout=10) as response:
            return json.load(response)
    return get_json


def app_getter(catalog: str):
    from kaomoji_api import create_app

    client = create_app({"CATALOG": catalog, "RATELIMIT_ENABLED": False}).test_client()
    return lambda path, params: client.get(path, query_string=params).get_json()


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: the app in-process on --catalog)")
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--queries", default=str(QUERIES))
    args = parser.parse_args()
    queries = json.loads(Path(args.queries).read_text(encoding="utf-8"))["queries"]
    getter = http_getter(args.url.rstrip("/")) if args.url else app_getter(args.catalog)
    rows = evaluate(getter, queries)
    print("| query | locale | service P@10 | kaomoji_dataset.search() P@10 |")
    print("|---|---|---|---|")
    for r in rows:
        print(f"| {r['q']} | {r['locale']} | {r['service']:.1f} | {r['dataset']:.1f} ({r['dataset_results']} results) |")
    print(f"| **mean** | | **{statistics.mean(r['service'] for r in rows):.3f}** | **{statistics.mean(r['dataset'] for r in rows):.3f}** |")
    empty = [r["q"] for r in rows if r["service_results"] == 0]
    print(f"\nqueries with no results: {len(empty)} {empty if empty else ''}")
    sys.exit(0)


if __name__ == "__main__":
    main()
