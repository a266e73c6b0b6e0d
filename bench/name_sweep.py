"""Names read from the faces (issue 14, item 7): how many entries the reading renames, and whether names agree
with what the faces say.

    python bench/name_sweep.py [--sample 40] [--seed 7]

Builds no catalog: it runs the builder's steps up to the names (tools/build_catalog.py) and prints
- renamed: entries whose English name is not the one their labels give, by what named them (the text or a
  drawn part), and a random sample of them, labels' name -> name;
- per intent of the text: the share of its faces named by the intent (its name, or a name a row of the
  intent gives) and the share whose name contradicts it (intents.json `contradicts`);
- the stars read as impacts, those beside a hit word of the glossary (source.json `hit`), and those read as a table
  banged in laughter (ﾉ彡☆ ｷﾞｬﾊﾊ) or slammed in a huff (ﾌﾟﾝﾌﾟﾝ ノ彡☆).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    sys.path[0] = str(ROOT)
    from tools import build_catalog as bc
    from tools import locales as locale_files
    from tools import readings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    en = locale_files.load_locale("en")
    categories_doc = json.loads(bc.CATEGORIES.read_text(encoding="utf-8"))
    by_dataset = {c["dataset"]: c["slug"] for c in categories_doc["categories"]}
    concepts = list(en["concepts"])
    glossary = readings.Glossary()
    entries = bc.labelled_entries(None)
    read = {e["id"]: glossary.read(e["text"]) for e in entries}
    labels = {}
    for e in entries:
        own = bc.labels_of(e)
        trimmed = [w for w in own if w not in bc.SPARKLE_LABELS] if readings.not_a_sparkle(read[e["id"]]) else own
        labels[e["id"]] = trimmed or own
    cats = {e["id"]: glossary.categories(bc.category_of(e, by_dataset, categories_doc["rehome"]), read[e["id"]]) for e in entries}
    entries, _ = bc.merge_duplicates(entries, labels, cats)
    by_labels = bc.name_keys(entries, concepts, labels)
    names = dict(by_labels)
    stands_for = bc.name_concepts(entries, concepts)
    sources = bc.named_by_reading(entries, names, read, glossary, stands_for)

    intent_texts, glossary_names = glossary.intent_texts("en"), glossary.texts("en")["names"]

    def text(key: str) -> str:
        if key.startswith(bc.INTENT_NAME):
            return intent_texts[key.removeprefix(bc.INTENT_NAME)]["name"]
        if key.startswith(bc.GLOSSARY_NAME):
            return glossary_names[key.removeprefix(bc.GLOSSARY_NAME)]
        if key.startswith(bc.CATEGORY_NAME):
            return en["categories"][key.removeprefix(bc.CATEGORY_NAME)]
        return en["names"][key]

    renamed = [e for e in entries if text(names[e["id"]]) != text(by_labels[e["id"]])]
    count = collections.Counter(sources[e["id"]] for e in renamed)
    print(f"{len(entries)} entries; renamed by the reading: {len(renamed)} "
          f"(text {count['text']}, part {count['part']}); named by their labels: {len(entries) - len(sources)}")
    random.seed(args.seed)
    for e in random.sample(renamed, min(args.sample, len(renamed))):
        print(f"  [{sources[e['id']]}] {e['text']}  {text(by_labels[e['id']])} -> {text(names[e['id']])}")

    print("\nintent of the text: faces, named by it, name contradicting it")
    faces = collections.Counter(read[e["id"]].intent for e in entries if read[e["id"]].intent)
    agree, contra = collections.Counter(), collections.Counter()
    row_names = collections.defaultdict(set)
    for row in glossary.rows:
        if row.get("name"):
            row_names[row["intent"]].add(bc.GLOSSARY_NAME + row["name"])
    for e in entries:
        intent = read[e["id"]].intent
        if not intent:
            continue
        key = names[e["id"]]
        agree[intent] += (key in (bc.INTENT_NAME + intent, glossary.label_names.get(intent)) or key in row_names[intent]
                          or key.startswith(bc.CATEGORY_NAME) and intent == "games")
        concepts_of = frozenset() if key.startswith((bc.INTENT_NAME, bc.GLOSSARY_NAME, bc.CATEGORY_NAME)) or key == glossary.label_names.get(intent) \
            else stands_for.get(key, frozenset())
        contra[intent] += glossary.contradicted(intent, concepts_of)
    for intent, n in faces.most_common():
        naming = glossary.naming.get(intent, "labels")
        print(f"  {intent:16} {n:6}  {naming:12} named by it {agree[intent] / n:6.1%}  contradicted {contra[intent] / n:6.1%}")

    stars = [e for e in entries if {"star", "black-star", readings.IMPACT_PART, readings.TABLE_BANG, readings.TABLE_SLAM}
             & set(read[e["id"]].parts)]
    banged = [e for e in stars if readings.banged(read[e["id"]])]
    slammed = [e for e in stars if readings.slammed(read[e["id"]])]
    impacts = [e for e in stars if readings.IMPACT_PART in read[e["id"]].parts]
    hit_word = [e for e in impacts if any(glossary.rows[n].get("hit") for run in read[e["id"]].runs for n in run.rows or ())]
    print(f"\nfaces with a star: {len(stars)}; an impact: {len(impacts)}, of them saying a hit word: {len(hit_word)}; "
          f"a table banged in laughter: {len(banged)}, slammed in a huff: {len(slammed)}")


if __name__ == "__main__":
    main()
