"""How much of the served faces the catalog explains (issue 14).

From the glossary (tools/glossary/): the share of served entries with Japanese text whose every run is
explained (by a row's key or variant, or by a split into them), and with at least one. From a built
catalog: the share of entries whose note no other entry has, in each locale.

    python bench/glossary_coverage.py [--catalog catalog.sqlite]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kaomoji_api.catalog import Catalog  # noqa: E402
from kaomoji_api.pieces import ItemWriter  # noqa: E402
from tools import faces, readings  # noqa: E402


def glossary_keys() -> frozenset[str]:
    """Every key a row of the source file answers to: its own and its variants'."""
    return readings.Glossary().keys


def distinct_note_share(catalog: Catalog, locale: str) -> float:
    """The share of entries whose note, in `locale`, no other entry has."""
    entries = [catalog.entries.at(p) for p in range(len(catalog.entries))]
    writer = ItemWriter(catalog)
    notes: collections.Counter[bytes] = collections.Counter()
    for start in range(0, len(entries), 500):
        chunk = entries[start:start + 500]
        notes.update(writer.note(e.position, locale) for e in chunk)
    return sum(1 for n in notes.values() if n == 1) / len(entries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catalog", type=Path, default=Path("catalog.sqlite"), help="a built catalog (default: ./catalog.sqlite)")
    args = parser.parse_args()
    keys = glossary_keys()
    entries = faces.served_entries()
    started = time.perf_counter()
    read = faces.read_faces(entries)
    every, some, with_text = faces.coverage(read, keys)
    every_split, some_split, _ = faces.coverage(read, keys, splitting=True)
    print(f"{len(keys)} glossary keys; {len(entries)} served entries, {with_text} with Japanese text")
    print(f"every run explained:        {every:6.1%}  (with splitting {every_split:6.1%})")
    print(f"at least one run explained: {some:6.1%}  (with splitting {some_split:6.1%})")
    # The measure: of all served entries, those with no Japanese text have nothing left to explain.
    without_text = len(entries) - with_text
    print(f"served entries with every run explained: {(without_text + every_split * with_text) / len(entries):6.1%}")
    print(f"read and measured in {time.perf_counter() - started:.1f} s")
    if args.catalog.is_file():
        catalog = Catalog(args.catalog)
        shares = {code: distinct_note_share(catalog, code) for code in catalog.locales}
        print("entries with a note no other entry has: " + ", ".join(f"{code} {share:.1%}" for code, share in shares.items()))


if __name__ == "__main__":
    main()
