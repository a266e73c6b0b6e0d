"""Which faces a glossary or reader change reads differently: every dataset face read by this tree and by another.

    python bench/readings_diff.py [--base HEAD] [--show 20]

Each face of kaomoji_dataset is read by tools/readings.py twice, by `--base` (a git ref, checked out into a temporary
worktree) and by this working tree, each in a process of its own; what is compared is what decides the face's item:
its intent, the intent its usage follows, the row that names it (or the dataset name it gives), its category,
whether its text is explained, the rows its runs read and the parts it draws (a change of parts is printed as the
parts it lost and gained: `parts -shrug`). Printed: how many faces changed, each kind of change with its count and an example, and
the faces changed that contain none of `--expect` (text a change is meant to touch: 注射), which should be none.
The README's "N faces changed, all of them with …" figures come from here.
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DUMP = """
import json, sys
sys.path[0] = sys.argv[1]
import kaomoji_dataset
from tools import readings
glossary = readings.Glossary()
out = {}
for entry in kaomoji_dataset.all():
    r = glossary.read(entry["text"])
    out[entry["text"]] = [r.intent, glossary.usage_intent(r), r.name or r.label_name, r.category, r.explained,
                          [glossary.rows[n]["key"] for run in r.runs for n in run.rows or ()], sorted(r.parts)]
json.dump(out, open(sys.argv[2], "w"), ensure_ascii=False)
"""
FIELDS = ("intent", "usage", "name", "category", "explained", "rows", "parts")


def readings_of(tree: Path, folder: Path, label: str) -> dict[str, list]:
    out = folder / f"{label}.json"
    subprocess.run([sys.executable, "-c", DUMP, str(tree), str(out)], check=True, cwd=tree)
    return json.loads(out.read_text())


def change(field: str, before, after) -> str:
    """One field's change, as printed: parts as what was lost and gained, anything else as before -> after."""
    if field == "parts":
        return " ".join(["parts", *(f"-{p}" for p in sorted(set(before or ()) - set(after))), *(f"+{p}" for p in sorted(set(after) - set(before or ())))])
    return f"{field} {before!r} -> {after!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the git ref this working tree is compared with")
    parser.add_argument("--expect", action="append", default=[], help="text every changed face should contain")
    parser.add_argument("--show", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base_tree = Path(folder) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(base_tree), args.base], check=True)
        try:
            before = readings_of(base_tree, Path(folder), "base")
            after = readings_of(ROOT, Path(folder), "this")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], check=True)
    changed = [text for text in after if before.get(text) != after[text]]
    print(f"{len(changed)} of {len(after)} dataset faces read differently than at {args.base}")
    kinds = collections.Counter()
    example = {}
    for text in changed:
        kind = tuple(change(field, b, a) for field, b, a in zip(FIELDS, before.get(text, [None] * len(FIELDS)), after[text], strict=True)
                     if b != a)
        kinds[kind] += 1
        example.setdefault(kind, text)
    for kind, count in kinds.most_common(args.show):
        print(f"{count:6}  {'; '.join(kind)}  e.g. {example[kind]}")
    if args.expect:
        others = [text for text in changed if not any(expected in text for expected in args.expect)]
        print(f"changed without {' or '.join(args.expect)}: {len(others)}", *others[:args.show], sep="\n  ")


if __name__ == "__main__":
    main()
