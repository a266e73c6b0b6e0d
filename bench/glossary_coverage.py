"""How much of the served faces' Japanese text the glossary explains (issue 14).

Reads tools/glossary/source.json: the share of served entries with Japanese text whose every
run is explained (by a row's key or variant, or by a split into them), and with at least one.

    python bench/glossary_coverage.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools import faces  # noqa: E402


def glossary_keys(path: Path = faces.GLOSSARY_DIR / "source.json") -> frozenset[str]:
    """Every key a row of the source file answers to: its own and its variants'."""
    rows = json.loads(path.read_text(encoding="utf-8"))
    return frozenset(faces.normalise(text) for row in rows for text in [row["key"], *row["variants"]])


def main() -> None:
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
    print(f"served entries with every run explained: {(without_text + every * with_text) / len(entries):6.1%}")
    print(f"read and measured in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
