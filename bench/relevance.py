"""Relevance of search: precision of the first 10 results on a set of judged queries.

    python bench/relevance.py [--url http://127.0.0.1:8000] [--queries bench/data/relevance-queries.json]
    python bench/relevance.py --queries bench/data/relevance-search.json [--no-baseline]
    python bench/relevance.py --check-set --queries bench/data/relevance-search.json

A query is judged by exactly one of:
- `relevant`: the dataset labels of the entry (category, emotion, intent, subject) share one with the list;
- `relevant_all`: every item of the list matches the labels; an item is a label, or a list of labels
  of which any one will do ([["cat"], ["crying", "sad"]]: a cat that cries or is sad);
- `contains`: the face's text contains that string, as written;
- `says`: a Japanese run of the face (tools.faces.japanese_runs), normalised by tools.faces.normalise
  (NFKC, katakana as hiragana, one long mark, trailing っ and long marks dropped), or the key of the glossary row
  that reads it (tools/glossary/source.json: a row's spellings of one word, ｵﾊ and ｵﾊﾖｳ for おはよ), contains one of
  the listed normalised fragments (おやすみ matches ｵﾔｽﾐ, オヤスミナサイ~); with `says_text`, also when the
  face's text contains one of those strings, ignoring case (a face that writes Good Night says it too).
Missing results count as misses. The same queries also go through kaomoji_dataset.search() for
comparison (skip with --no-baseline). Without --url the app runs in-process on ./catalog.sqlite.
Queries with a `kind` are also averaged per kind.

--check-set looks only at the judgements, never at search: for each query it counts the faces of the
catalog (not sensitive ones, which search leaves out by default) that are relevant, and fails when any
query has fewer than 10, that is when P@10 = 1 cannot be reached.
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import urllib.parse
import urllib.request
from collections import Counter
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


JUDGEMENTS = ("relevant", "relevant_all", "contains", "says")


@functools.cache  # read once per face: --check-set asks it of every face for every query
def says_keys(text: str) -> tuple[str, ...]:
    """The normalised Japanese runs of a face, as the catalog builder reads them, and the key of each glossary row
    that reads one: a spelling the glossary joins to a word (ｵﾊ and ｵﾊﾖｳ to おはよ, ｲﾀﾀﾞｷﾏｰｽ to いただきます) says it."""
    from tools.faces import japanese_runs, normalise

    glossary = _glossary()
    return (*(normalise(run) for run in japanese_runs(text)),
            *(glossary.rows[number]["key"] for run in glossary.read(text).runs for number in run.rows or ()))


@functools.cache
def _glossary():
    from tools.readings import Glossary

    return Glossary()


def is_relevant(query: dict, labels: set[str], text: str) -> bool:
    if "contains" in query:
        return query["contains"] in text
    if "says" in query:
        folded = text.casefold()
        return (any(words.casefold() in folded for words in query.get("says_text", ()))
                or any(fragment in key for key in says_keys(text) for fragment in query["says"]))
    if "relevant_all" in query:
        return all(labels & ({item} if isinstance(item, str) else set(item)) for item in query["relevant_all"])
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
        row = {"q": query["q"], "locale": query["locale"], "kind": query.get("kind", ""),
               "service": precision(query, ours, labels), "service_results": len(ours)}
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


def check_set(queries: list[dict], catalog: str) -> list[dict]:
    """For each query, how many faces of the catalog (not sensitive) its judgement calls relevant, and three of them.
    Also checks that each query has exactly one judgement and names only labels the dataset has. Search is never run."""
    import sqlite3

    labels = dataset_labels()
    vocabulary = set().union(*labels.values())
    with sqlite3.connect(catalog) as db:
        faces = db.execute("SELECT id, text FROM entries WHERE sensitive = 0 ORDER BY quality").fetchall()
    rows = []
    for query in queries:
        judgements = [key for key in JUDGEMENTS if key in query]
        if len(judgements) != 1:
            raise SystemExit(f"{query['q']!r}: needs exactly one of {JUDGEMENTS}, has {judgements}")
        named = set(query.get("relevant", ()))
        for item in query.get("relevant_all", ()):
            named.update([item] if isinstance(item, str) else item)
        if named - vocabulary:
            raise SystemExit(f"{query['q']!r}: not dataset labels: {sorted(named - vocabulary)}")
        hits = [text for i, text in faces if is_relevant(query, labels.get(i, set()), text)]
        rows.append({"q": query["q"], "locale": query["locale"], "kind": query.get("kind", ""),
                     "judgement": judgements[0], "relevant_faces": len(hits), "examples": hits[:3]})
    return rows


def print_check(rows: list[dict]) -> bool:
    print("| query | kind | locale | judged by | relevant faces | examples |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        examples = " ".join(r["examples"]).replace("|", "\\|")
        print(f"| {r['q']} | {r['kind']} | {r['locale']} | {r['judgement']} | {r['relevant_faces']} | {examples} |")
    short = [r["q"] for r in rows if r["relevant_faces"] < DEPTH]
    kinds = Counter(r["kind"] for r in rows)
    locales = Counter(r["locale"] for r in rows)
    print(f"\n{len(rows)} queries; by kind: {dict(sorted(kinds.items()))}; {len(locales)} locales: {dict(sorted(locales.items()))}")
    print(f"queries with fewer than {DEPTH} relevant faces: {len(short)} {short if short else ''}")
    return not short


def print_scores(rows: list[dict], baseline: bool) -> None:
    kinds = any(r["kind"] for r in rows)
    head = "| query |" + (" kind |" if kinds else "") + " locale | service P@10 |" + (" kaomoji_dataset.search() P@10 |" if baseline else "")
    print(head)
    print("|---" * head.count(" |") + "|")
    for r in rows:
        line = f"| {r['q']} |" + (f" {r['kind']} |" if kinds else "") + f" {r['locale']} | {r['service']:.1f} |"
        if baseline:
            line += f" {r['dataset']:.1f} ({r['dataset_results']} results) |"
        print(line)
    groups = sorted({r["kind"] for r in rows}) if kinds else []
    for kind in groups:
        part = [r for r in rows if r["kind"] == kind]
        line = f"| *mean: {kind}* ({len(part)}) |" + " |" + " |" + f" *{statistics.mean(r['service'] for r in part):.3f}* |"
        if baseline:
            line += f" *{statistics.mean(r['dataset'] for r in part):.3f}* |"
        print(line)
    line = "| **mean** |" + (" |" if kinds else "") + " |" + f" **{statistics.mean(r['service'] for r in rows):.3f}** |"
    if baseline:
        line += f" **{statistics.mean(r['dataset'] for r in rows):.3f}** |"
    print(line)
    empty = [r["q"] for r in rows if r["service_results"] == 0]
    print(f"\nqueries with no results: {len(empty)} {empty if empty else ''}")


def main() -> None:
    sys.path[0] = str(ROOT)  # run as a script: this checkout first, and no bench/*.py shadows a package
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running service (default: the app in-process on --catalog)")
    parser.add_argument("--catalog", default=str(ROOT / "catalog.sqlite"))
    parser.add_argument("--queries", default=str(QUERIES))
    parser.add_argument("--no-baseline", action="store_true", help="skip kaomoji_dataset.search() (~0.5 s a query)")
    parser.add_argument("--check-set", action="store_true",
                        help="check the judgements only: every query must have at least 10 relevant faces in --catalog")
    args = parser.parse_args()
    queries = json.loads(Path(args.queries).read_text(encoding="utf-8"))["queries"]
    if args.check_set:
        sys.exit(0 if print_check(check_set(queries, args.catalog)) else 1)
    getter = http_getter(args.url.rstrip("/")) if args.url else app_getter(args.catalog)
    rows = evaluate(getter, queries, baseline=not args.no_baseline)
    print_scores(rows, baseline=not args.no_baseline)
    sys.exit(0)


if __name__ == "__main__":
    main()
