"""Build catalog.sqlite from kaomoji-dataset, schema.sql and the locale files under tools/.

    python -m tools.build_catalog --out catalog.sqlite [--sample N]

The file is written beside its destination and renamed into place, so a running
server is handed the new catalog whole.
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import json
import os
import sqlite3
import sys
import tempfile
import time
from array import array
from pathlib import Path

import kaomoji_dataset

from kaomoji_api import textnorm
from kaomoji_api.catalog import LAST_GOOD_SUFFIX, MAX_DRAWINGS, NOTE_PARTS, Catalog, CatalogError
from kaomoji_api.search import Searcher
from tools import locales as locale_files
from tools import readings, rendering
from tools.search_index import (
    emoji_labels,
    emoji_words,
    fragment_census,
    fragment_faces,
    gloss_phrase,
    index_keys,
    latin_phrase,
    merge_fragment_faces,
    says_keys,
    spelling_rows,
    spelling_word,
    written_keys,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schema.sql"
CATEGORIES = Path(__file__).parent / "categories.json"
EMOJI_ANNOTATIONS = Path(__file__).parent / "emoji" / "annotations.json"
ATTRIBUTION = "Kaomoji data from FontVibe (https://fontvibe.ai/tools/kaomoji), CC BY 4.0"
TIER_ORDER = {"core": 0, "mixed": 1, "verbose": 2, "extended": 3}
# The frames of a locale file's `reading` section that the service writes notes with (table note_frames).
NOTE_FRAMES = ("meaning", "meaning_separator", "text_means", "text_is", "text_unknown", "text_unknown_first", "drawn", "drawn_face", "drawn_parts",
               "list_separator", "list_last", "gloss_quote")
# The name key of an entry named by what its face says or draws (readings.Glossary.name): the intent of its text
# ("intent:good-night"), the category its text or parts name ("category:mahjong"), or a name of the glossary's
# `names` that a row of its text or a part gives ("name:merry-christmas"); else a name of the dataset's ("Crying face").
INTENT_NAME, CATEGORY_NAME, GLOSSARY_NAME = "intent:", "category:", "name:"
# The spelling weight of a word: the profiles it finds, then the faces (build_catalog.spelling_weight); added to a
# keyword's, so that a misspelling is corrected into a keyword before a word only names have: more than any word's.
FACES_BITS = 17  # more than the faces of any word
KEYWORD_SPELLING_WEIGHT = 1 << 40
NAME_PREFIXES = {"intent": INTENT_NAME, "category": CATEGORY_NAME, "name": GLOSSARY_NAME, "label": ""}


class Progress:
    """A bar on a terminal, plain lines otherwise (CI logs, pipes)."""

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()

    def step(self, label: str, done: int, total: int) -> None:
        if self.tty:
            width = 30
            filled = width * done // max(total, 1)
            self.stream.write(f"\r{label:<22} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
            if done >= total:
                self.stream.write("\n")
            self.stream.flush()
        elif done >= total or done % 20000 == 0:
            print(f"{label}: {done}/{total}", file=self.stream, flush=True)


def labelled_entries(sample: int | None) -> list[dict]:
    """Every entry that carries labels, in id order; a spread of N of them with --sample."""
    entries = [e for e in kaomoji_dataset.all() if e["emotion"] or e["intent"] or e["subject"]]
    entries.sort(key=lambda e: e["id"])
    if sample and sample < len(entries):
        step = len(entries) / sample
        entries = [entries[int(i * step)] for i in range(sample)]
    return entries


def labels_of(entry: dict) -> list[str]:
    return list(dict.fromkeys(entry["emotion"] + entry["intent"] + entry["subject"]))


# The words of the sparkle concept: a face whose star is not a sparkle (readings.not_a_sparkle: a hit, a table banged
# in laughter) loses them.
SPARKLE_LABELS = frozenset({"sparkle", "shine", "glitter", "star"})
# The dataset's names that claim what a face shows, by the concept of the labels that gave them, with the name a face
# that does not show it takes instead (None: the name of its labels without the concept, which claims nothing); and
# the category its labels filed it under for it. Such a face (readings.Glossary.shows) loses the concept's words, the
# name and the category (unclaim): thousands of faces labelled greeting neither wave nor greet, and hundreds labelled
# heart or music draw neither.
CLAIMS = {
    readings.GREETING: ({"Waving": None}, "greeting"),
    "heart": ({
        "Loving with hearts": "Loving face", "Happy with hearts": "Happy face", "Cute with hearts": "Cute face",
        "Excited with hearts": "Excited face", "Shy with hearts": "Shy face", "Sleepy with hearts": "Sleepy face",
        "Smug with hearts": "Smug face", "Grumpy with hearts": "Grumpy face", "Cool with hearts": "Cool face",
    }, None),
    "music": ({
        "Happy with music": "Happy face", "Cool with music": "Cool face", "Sleepy with music": "Sleepy face",
        "Shy with music": "Shy face", "Angry with music": "Angry face", "Cute with music": "Cute face",
        "Excited with music": "Excited face", "Drooling with music": "Drooling face",
    }, "music"),
}


def merge_duplicates(entries: list[dict], labels: dict, categories: dict) -> tuple[list[dict], dict[int, int]]:
    """One entry per face: of entries with the same text, the lowest id stays and takes the others' labels and
    categories; the others become redirects (old id -> kept id)."""
    kept: dict[str, dict] = {}
    redirects = {}
    for e in entries:  # in id order: the first of a text is the lowest id
        first = kept.setdefault(e["text"], e)
        if first is not e:
            redirects[entry_number(e)] = entry_number(first)
            labels[first["id"]] = list(dict.fromkeys(labels[first["id"]] + labels[e["id"]]))
            categories[first["id"]] = tuple(dict.fromkeys(categories[first["id"]] + categories[e["id"]]))
    return list(kept.values()), redirects


def entry_number(entry: dict) -> int:
    return int(entry["id"].removeprefix("kao_"))


def category_of(entry: dict, by_dataset: dict, rehome: list, belied: frozenset[str] = frozenset()) -> str:
    """The category slug: the dataset's own, or for `uncategorized` what the labels decide. A face its labels filed
    under what it does not show (unclaim: greeting, music) is re-homed the same way by its labels but `belied`, the
    words of what it does not show, when any other decides."""
    slug = by_dataset[entry["category"]]
    if entry["category"] != "uncategorized" and not belied:
        return slug
    labels = set(labels_of(entry)) - belied
    return next((target for concept, target in rehome if concept in labels), slug)


def name_keys(entries: list[dict], concepts: list[str], labels_by_id: dict, barred: frozenset[str] = frozenset(),
              fitting: dict[str, frozenset[str]] | None = None) -> dict[str, str]:
    """Each entry's English name; entries without one, or whose labels were changed by their reading, borrow
    the commonest name of their labels, never one of `barred`.

    Failing that, the commonest name among the entries whose first concept is theirs, then among those whose labels
    hold it, then among all, of the names that claim no thing drawn (a concept of the dataset's subjects, which a name
    stands for: name_concepts) but those of their labels and of `fitting` (by entry id: its categories' concepts);
    failing all, the commonest of the first. The 92 faces the dataset names not, whose labels say panic, sick or
    thanks, are Scared faces and Hurt faces, not Sparkling, the one name among the faces whose first concept is
    theirs (a face labelled sparkle too).
    """
    subjects = frozenset(w for e in entries for w in e["subject"] if w in concepts)
    claims = {name: stood & subjects for name, stood in name_concepts(entries, concepts).items()}
    by_labels, by_first, by_concept = (collections.defaultdict(collections.Counter) for _ in range(3))
    overall = collections.Counter()
    for e in entries:
        name = e["names"].get("en")
        if name and name not in barred and tuple(labels_of(e)) == tuple(labels_by_id[e["id"]]):
            labels = tuple(labels_of(e))
            by_labels[labels][name] += 1
            held = list(dict.fromkeys(w for w in labels if w in concepts))
            by_first[held[0] if held else None][name] += 1
            for concept in held:
                by_concept[concept][name] += 1
            overall[name] += 1
    keys = {}
    for e in entries:
        labels = tuple(labels_by_id[e["id"]])
        own = e["names"].get("en") if labels == tuple(labels_of(e)) else None
        own = None if own in barred else own
        if own:
            keys[e["id"]] = own
            continue
        first = next((w for w in labels if w in concepts), None)
        allowed = set(labels) | (fitting or {}).get(e["id"], frozenset())
        fallback = by_labels.get(labels) or next((
            fits for counts in (by_first.get(first, {}), by_concept.get(first, {}), overall)
            if (fits := {name: n for name, n in counts.items() if claims.get(name, frozenset()) <= allowed})
        ), None) or by_first.get(first) or overall
        keys[e["id"]] = min(fallback.items(), key=lambda kv: (-kv[1], kv[0]))[0]
    return keys


def name_concepts(entries: list[dict], concepts: list[str]) -> dict[str, frozenset[str]]:
    """The concepts each English name of the dataset stands for: those among the labels of at least half of
    the entries it names (Waving: greeting and happy; Angry sparkling: angry and sparkle)."""
    named, counts = collections.Counter(), collections.defaultdict(collections.Counter)
    for e in entries:
        if name := e["names"].get("en"):
            named[name] += 1
            counts[name].update(w for w in labels_of(e) if w in concepts)
    return {name: frozenset(c for c, k in counts[name].items() if 2 * k >= n) for name, n in named.items()}


def named_by_reading(entries: list[dict], names: dict, read: dict, glossary: readings.Glossary, stands_for: dict) -> dict[str, str]:
    """Rename, in `names`, the entries whose face says or draws more clearly than their labels what they are
    (readings.Glossary.name); return what named each renamed entry: "text" or "part"."""
    sources = {}
    for e in entries:
        if given := glossary.name(read[e["id"]], stands_for.get(names[e["id"]], frozenset())):
            kind, key, sources[e["id"]] = given
            names[e["id"]] = NAME_PREFIXES[kind] + key
    return sources


def unclaim(entries: list[dict], belied: dict[str, set[str]], labels: dict, names: dict, concepts: list[str],
            concept_words: dict[str, list[str]], entry_categories: dict, emotions: dict[str, str],
            fitting: dict[str, frozenset[str]] | None = None) -> None:
    """Take from each face's labels the words of the concepts of CLAIMS it does not show (`belied`, by entry id): the
    dataset labels thousands of faces greeting, hello, hi and wave that neither draw a raised hand nor say a greeting
    ((●＿●) ｻﾝｸﾞﾗｽ, (;￢д￢) ｱﾔｼｲ), and hundreds heart or music that draw neither (ﾁｭｯ, a kiss; └(＾＾)┐, a dance). A
    face named by a name that claims what it does not show (Waving, Loving with hearts, Happy with music; even one its
    labels did not give it, as (*≧ω≦*) was Waving) takes the name CLAIMS gives instead (Loving face, Happy face), or
    that of its labels without it that claims nothing (Happy face, Cool face for a Waving face). Filed under an
    emotion (`emotions`: each one's dataset name, the concept of most, by slug) other than that name's, it takes the
    commonest name of its emotion's faces instead, and its labels the emotion's concept in place of the words of the
    name's: (;￢д￢) ｱﾔｼｲ ("fishy!"), in doubt, is a Doubtful face with the keywords of doubt, not a Happy face with
    those of happy."""
    for e in entries:
        words = {word for concept in belied[e["id"]] for word in concept_words[concept]}
        if words:
            labels[e["id"]] = [w for w in labels[e["id"]] if w not in words] or labels[e["id"]]
    claimed = {name: concept for concept, (claiming, _) in CLAIMS.items() for name in claiming}
    instead = {name: plain for claiming, _ in CLAIMS.values() for name, plain in claiming.items()}
    renamed = name_keys(entries, concepts, labels, barred=frozenset(claimed), fitting=fitting)
    in_category, homes = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    for e in entries:
        main, name = entry_categories[e["id"]][0], names[e["id"]]
        if name not in claimed:
            in_category[main][name] += 1
            homes[name][main] += 1
    for e in entries:
        name, main = names[e["id"]], entry_categories[e["id"]][0]
        if claimed.get(name) in belied[e["id"]]:
            plain = instead[name] or renamed[e["id"]]
            home = homes[plain].most_common(1)  # the emotion the name is commonest in; none in a small sample
            if main in emotions and [main] != [c for c, _ in home] and in_category[main]:
                plain = min(in_category[main].items(), key=lambda kv: (-kv[1], kv[0]))[0]
                given = set(concept_words.get(emotions.get(home[0][0], ""), ())) if home else set()
                own = [emotions[main]] if emotions[main] in concept_words else []
                labels[e["id"]] = list(dict.fromkeys([*own, *(w for w in labels[e["id"]] if w not in given)])) or labels[e["id"]]
            names[e["id"]] = plain


def spelling_weight(mask: int, profile_counts: dict[int, int]) -> int:
    """How likely a word of a search key is meant, for a misspelling as close to another: the profiles of its mask
    (bit p: profile p), then the faces they hold, which part words that find as many profiles (`paic`: panic finds 620
    faces in 23 profiles, pain 329 in 23)."""
    faces = sum(profile_counts[p] for p, bit in enumerate(reversed(bin(mask)[2:])) if bit == "1")
    return mask.bit_count() << FACES_BITS | faces


def keyword_concepts(labels, intent: str | None, name_key: str, glossary: readings.Glossary,
                     categories: dict[str, dict]) -> list[str]:
    """The concepts whose words are a profile's keywords: its labels', unless its faces all say one intent (`intent`),
    or a row of what they say names them (`name_key`). Then the intent's and the row's concepts come first
    (intents.json and source.json `keywords`), and the labels' that either contradicts are left out (`not_keywords`,
    and intents.json `contradicts`): the "happy, hello" of faces labelled Waving that say おねがい, please. A face named
    by the game its text or parts name leaves out what categories.json says the game is not (`not_keywords`): a mahjong
    hand labelled device is no phone or computer (`categories`, by slug)."""
    first = glossary.keyword_concepts.get(intent, ()) if intent else ()
    dropped = glossary.not_keywords.get(intent, frozenset()) if intent else frozenset()
    if name_key.startswith(GLOSSARY_NAME) and (named := glossary.name_keywords.get(name_key.removeprefix(GLOSSARY_NAME))):
        first, dropped = (*named[0], *first), dropped | named[1]
    if name_key.startswith(CATEGORY_NAME):
        dropped |= frozenset(categories[name_key.removeprefix(CATEGORY_NAME)].get("not_keywords", ()))
    return list(dict.fromkeys([*first, *(c for c in labels if c not in dropped)]))


def face_fragments(texts) -> list[tuple[str, bytes]]:
    """Each one- and two-character piece of the faces, with the positions of the faces containing it.

    `texts` come in quality order, so each list of positions is ascending.
    """
    found: dict[str, array] = {}
    for position, text in enumerate(texts):
        for piece in {text[i:i + n] for n in (1, 2) for i in range(len(text) - n + 1)}:
            positions = found.get(piece)
            if positions is None:
                positions = found[piece] = array("I")
            positions.append(position)
    if sys.byteorder != "little":
        for positions in found.values():
            positions.byteswap()
    return [(piece, positions.tobytes()) for piece, positions in sorted(found.items())]


def drawing_ids(part_ids: dict[str, int], read: list[tuple[readings.Reading, str | None]]) -> dict[tuple[str, str], int]:
    """Each part as faces draw it, numbered (schema.sql, drawings): a part drawn as no note shows ("") by the part's own
    id, then what notes show of the faces in `read` (each reading with its lead part: the first NOTE_PARTS parts it
    draws and its lead part), the commonest first, up to MAX_DRAWINGS in all: a drawing of a face or two past them is
    named without one."""
    counts: collections.Counter = collections.Counter()
    for reading, lead in read:
        shown = dict(list(zip(reading.parts, reading.drawings, strict=True))[:NOTE_PARTS])
        if lead:
            shown[lead] = reading.drawings[reading.parts.index(lead)]
        counts.update(pair for pair in shown.items() if pair[1])  # "" is the part's own id
    numbered = {(part, ""): number for part, number in part_ids.items()}
    for part, drawing in sorted(counts, key=lambda pair: (-counts[pair], part_ids[pair[0]], pair[1]))[:MAX_DRAWINGS - len(numbered)]:
        numbered[part, drawing] = len(numbered) + 1
    return numbered


def drawn_id(drawings: dict[tuple[str, str], int], part_ids: dict[str, int], reading: readings.Reading, part: str,
             face: str | None = None) -> int:
    """The drawings.id of `part` as the face read as `reading` draws it, or the part's own when that drawing has none or,
    in a note that shows the drawn `face` already, is that face or holds it: "Drawn as (￣▽￣), with a smug, knowing
    grin", not "…grin (￣▽￣)" again; "Drawn as (_ _), with a deep bow", not "…bow (m(_ _)m)"."""
    drawing = reading.drawings[reading.parts.index(part)]
    if face and (drawing == face[1:-1].strip() or face in drawing):
        return part_ids[part]
    return drawings.get((part, drawing)) or part_ids[part]


def little_endian(values: array) -> array:
    if sys.byteorder != "little":
        values = array(values.typecode, values)
        values.byteswap()
    return values


def targets_blob(targets: list[int]) -> bytes:
    return little_endian(array("H", targets)).tobytes()


def quality_key(entry: dict, sensitive: bool):
    """Clean faces first: core tier, shown in every locale, not long; then the dataset's own order. Sensitive
    faces come after all others, so what a default list or search shows is a prefix of the order.

    The dataset numbers its curated faces first, which reads better than ordering by width.
    """
    width = entry["display_width"]
    return (
        sensitive,
        TIER_ORDER.get(entry["tier"], len(TIER_ORDER)),
        entry["locale_scope"] != ["*"],
        0 if width <= 10 else 1 if width <= 20 else 2,
        entry["id"],
    )


@functools.cache
def search_forms(value: str, stemmer) -> tuple[str, str, str]:
    """A term's indexed tokens, folded form and stemmed form; each keyword serves many profiles."""
    return (
        " ".join(textnorm.index_tokens(value, stemmer)),
        textnorm.comparable(value),
        textnorm.comparable(value, stemmer),
    )


class HashingWriter:
    """Inserts rows and feeds each one, in insertion order, to the content hash."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.digest = hashlib.sha256()

    def insert(self, table: str, rows: list[tuple]) -> None:
        if not rows:
            return
        marks = ",".join("?" * len(rows[0]))
        self.db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
        for row in rows:
            self.digest.update(json.dumps([table, *row], ensure_ascii=False, default=bytes.hex).encode())


def build(out: Path, sample: int | None = None, only: list[str] | None = None, progress: Progress | None = None,
          if_changed: bool = False) -> dict:
    """Write the catalog to `out` atomically; return the summary.

    The new file is checked (check_catalog) before it replaces `out`; with `if_changed`, an `out` whose
    content version is the new one is left alone, file and all (summary["unchanged"]).
    """
    progress = progress or Progress()
    started = time.monotonic()
    locales = locale_files.load_all(only)
    codes = list(locales)
    categories_doc = json.loads(CATEGORIES.read_text(encoding="utf-8"))
    categories = categories_doc["categories"]
    if missing := [c["slug"] for c in categories if not c.get("emoji")]:
        raise ValueError(f"{CATEGORIES.name}: categories without an emoji: {', '.join(missing)}")
    by_dataset = {c["dataset"]: c["slug"] for c in categories}
    categories_by_slug = {c["slug"]: c for c in categories}
    concepts = list(locales[locale_files.REFERENCE]["concepts"])

    entries = labelled_entries(sample)
    glossary = readings.Glossary()
    read = {e["id"]: glossary.read(e["text"]) for e in entries}
    progress.step("faces read", len(entries), len(entries))
    labels = {}
    for e in entries:
        own = labels_of(e)
        trimmed = [w for w in own if w not in SPARKLE_LABELS] if readings.not_a_sparkle(read[e["id"]]) else own
        labels[e["id"]] = trimmed or own
    concept_words = locales[locale_files.REFERENCE]["concepts"]
    belied = {e["id"]: {concept for concept in CLAIMS if not glossary.shows(concept, read[e["id"]], e["text"])} for e in entries}

    def filed(e: dict) -> tuple[str, ...]:
        found = glossary.categories(category_of(e, by_dataset, categories_doc["rehome"]), read[e["id"]])
        # Filed by its labels under what its face belies: re-homed by its other labels, and never filed there beside
        # another category ((;￢д￢) ｱﾔｼｲ, in doubt for what it says, is in greeting no more).
        words = frozenset(w for concept in belied[e["id"]] if CLAIMS[concept][1] == found[0] for w in concept_words[concept])
        if words:
            found = glossary.categories(category_of(e, by_dataset, categories_doc["rehome"], words), read[e["id"]])
        left = {CLAIMS[concept][1] for concept in belied[e["id"]]}
        return (found[0], *(slug for slug in found[1:] if slug not in left))

    entry_categories = {e["id"]: filed(e) for e in entries}
    entries, redirects = merge_duplicates(entries, labels, entry_categories)
    emotions = {c["slug"]: c["dataset"] for c in categories if c["type"] == "emotion"}
    # The concepts a name a face borrows may claim beyond its labels': those of its categories.
    fitting = {e["id"]: frozenset(categories_by_slug[slug]["dataset"] for slug in entry_categories[e["id"]]) for e in entries}
    names = name_keys(entries, concepts, labels, fitting=fitting)
    named_by_reading(entries, names, read, glossary, name_concepts(entries, concepts))
    unclaim(entries, belied, labels, names, concepts, concept_words, entry_categories, emotions, fitting)

    def profile_key(e: dict) -> tuple:
        return entry_categories[e["id"]], tuple(labels[e["id"]]), names[e["id"]]

    profile_ids = {key: number for number, key in enumerate(sorted({profile_key(e) for e in entries}), 1)}
    category_ids = {c["slug"]: number for number, c in enumerate(categories, 1)}
    intent_ids = {intent: number for number, intent in enumerate(glossary.intents, 1)}
    part_ids = {part: number for number, part in enumerate(glossary.parts, 1)}
    drawings = drawing_ids(part_ids, [(reading, glossary.lead_part(reading)) for reading in read.values()])
    text_reading_ids: dict[tuple, int] = {}
    for e in entries:
        if read[e["id"]].runs:
            text_reading_ids.setdefault(read[e["id"]].runs, len(text_reading_ids) + 1)

    out = out.resolve()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        db = sqlite3.connect(tmp)
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.executescript(SCHEMA.read_text(encoding="utf-8"))
        writer = HashingWriter(db)
        writer.digest.update(SCHEMA.read_bytes())  # a new schema is a new catalog, even with the same rows
        spelling_weights: dict[str, int] = {}  # the words a misspelled query is corrected into
        spelling_locales: dict[str, int] = {}  # and the locales that have each, a bit per locale position
        fragment_sets: set[tuple[int, ...]] = set()  # fragments that one key of says_keys finds together
        latin_phrases: dict[int, set] = {}  # per glossary row, its phrases as a face writes them in Latin letters

        stemmers = {code: locales[code]["english_name"].lower() for code in codes}
        stemmers = {code: name if textnorm.stemmer_for(name) else None for code, name in stemmers.items()}
        writer.insert("locales", [
            (code, pos, locales[code]["name"], locales[code]["english_name"], stemmers[code],
             " ".join(sorted({token for word in locales[code].get("function_words", []) for token in textnorm.Query(word).tokens(None)})))
            for pos, code in enumerate(codes)
        ])

        counts = collections.Counter(slug for e in entries if not read[e["id"]].sensitive for slug in entry_categories[e["id"]])
        writer.insert("categories", [
            (category_ids[c["slug"]], c["slug"], c["type"], c["emoji"], counts[c["slug"]]) for c in categories
        ])
        writer.insert("intents", [(number, intent) for intent, number in intent_ids.items()])
        writer.insert("parts", [(number, part) for part, number in part_ids.items()])
        writer.insert("drawings", [(number, part_ids[part], drawing) for (part, drawing), number in drawings.items()])
        writer.insert("redirects", sorted(redirects.items()))
        writer.insert("fragments", [(number + 1, row["key"], row["romaji"]) for number, row in enumerate(glossary.rows)])
        writer.insert("text_readings", [
            (number, readings.meaning_pieces(glossary, runs), readings.said_pieces(glossary, runs)) for runs, number in text_reading_ids.items()
        ])
        for code in codes:
            loc = locales[code]
            writer.insert("category_texts", [
                (category_ids[c["slug"]], code, loc["categories"][c["slug"]], loc["note"]["about"][c["slug"]],
                 loc["category_descriptions"][c["slug"]])
                for c in categories
            ])
            writer.insert("usage_templates", [
                (category_ids[slug], code, pos, template)
                for slug in category_ids for pos, template in enumerate(loc["usage"][slug])
            ])
            frames = loc["reading"]
            writer.insert("note_frames", [(code, *(frames.get(key, "") for key in NOTE_FRAMES))])  # gloss_quote is optional
            intent_texts = glossary.intent_texts(code)
            writer.insert("intent_texts", [
                (number, code, intent_texts[intent].get("name") if intent in glossary.greetings else None, intent_texts[intent]["when"])
                for intent, number in intent_ids.items()
            ])
            writer.insert("intent_usage", [
                (number, code, pos, template)
                for intent, number in intent_ids.items() for pos, template in enumerate(intent_texts[intent]["usage"])
            ])
            part_names = glossary.texts(code)["parts"]
            writer.insert("part_texts", [(number, code, part_names[part]) for part, number in part_ids.items()])
            texts = readings.TextWriter(glossary, code)
            writer.insert("fragment_texts", [(number + 1, code, gloss) for number, gloss in enumerate(texts.glosses_in_order())])
            keys = says_keys(
                # A letter of a word spelled across faces (the kana “o”) says nothing of its own.
                [(number, gloss) for number, gloss in enumerate(texts.glosses_in_order(), 1) if glossary.rows[number - 1]["intent"] != "letter"],
                [(number, intent_texts[intent]["label"], intent_texts[intent].get("name")) for intent, number in intent_ids.items()],
                textnorm.stemmer_for(stemmers[code]),
            )
            writer.insert("says_keys", [(key, code, kind, targets_blob(targets), value) for (kind, key), (targets, value) in sorted(keys.items())])
            for row, gloss in enumerate(texts.glosses_in_order()):
                words = latin_phrase(gloss_phrase(gloss)) if glossary.rows[row]["intent"] != "letter" else None
                if words:
                    latin_phrases.setdefault(row, set()).add(words)
            fragment_sets.update(tuple(sorted(targets)) for (kind, _), (targets, _) in keys.items() if kind in ("says", "says_stem") and len(targets) > 1)
            for word in {word for (kind, key) in keys if kind == "says" for word in key.split()}:
                if spelling_word(word):
                    spelling_weights[word] = max(spelling_weights.get(word, 0), 1)
                    spelling_locales[word] = spelling_locales.get(word, 0) | 1 << codes.index(code)
        keys = written_keys((number + 1, row["key"], row["variants"], row["romaji"]) for number, row in enumerate(glossary.rows))
        writer.insert("says_keys", [(key, "", kind, targets_blob(targets), value) for (kind, key), (targets, value) in sorted(keys.items())])
        fragment_sets.update(tuple(sorted(targets)) for (_, _), (targets, _) in keys.items() if len(targets) > 1)
        progress.step("categories and locales", len(codes), len(codes))

        profile_counts = collections.Counter(profile_ids[profile_key(e)] for e in entries)
        said: dict[int, set] = {}
        for e in entries:  # the intent a face is sent for when its text names it by one (ウマイウマイ beside a squeal)
            said.setdefault(profile_ids[profile_key(e)], set()).add(glossary.naming_intent(read[e["id"]]) or read[e["id"]].intent)
        # A profile whose faces all say one intent: what they say decides its keywords, beside its labels.
        profile_intents = {pid: intents.pop() for pid, intents in said.items() if len(intents) == 1 and None not in intents}
        writer.insert("profiles", [
            (pid, category_ids[slugs[0]], json.dumps(list(words), ensure_ascii=False), profile_counts[pid])
            for (slugs, words, _), pid in profile_ids.items()
        ])
        writer.insert("profile_categories", [
            (pid, position, category_ids[slug]) for (slugs, _, _), pid in profile_ids.items() for position, slug in enumerate(slugs)
        ])
        for done, code in enumerate(codes, 1):
            loc = locales[code]
            stemmer = textnorm.stemmer_for(stemmers[code])
            texts, terms = [], []
            intent_texts, glossary_names = glossary.intent_texts(code), glossary.texts(code)["names"]
            for (slugs, words, name_key), pid in profile_ids.items():
                if name_key.startswith(INTENT_NAME):
                    name = intent_texts[name_key.removeprefix(INTENT_NAME)]["name"]
                elif name_key.startswith(GLOSSARY_NAME):
                    name = glossary_names[name_key.removeprefix(GLOSSARY_NAME)]
                elif name_key.startswith(CATEGORY_NAME):
                    name = loc["categories"][name_key.removeprefix(CATEGORY_NAME)]
                else:
                    name = loc["names"][name_key]
                intent = profile_intents.get(pid)
                concepts = keyword_concepts(words, intent, name_key, glossary, categories_by_slug)
                keywords = list(dict.fromkeys([
                    *(intent_texts[intent].get("keywords", ()) if intent else ()),
                    *(w for c in concepts if c in loc["concepts"] for w in loc["concepts"][c]),
                ])) or [name.lower()]  # what the text says left none of its labels' words (集団体育座り): its name
                # The profile's own words: its dataset labels, and each label's first word in this locale.
                own = {*words, *(loc["concepts"][c][0] for c in words if loc["concepts"].get(c))}
                texts.append((pid, code, name, json.dumps(keywords, ensure_ascii=False)))
                # Search keys are its labels' words and its intent's own (brb): a concept's words that only its text
                # gives are found through what the faces say (says_keys), after the faces labelled so ("thanks" shows
                # the faces labelled thanks before a Waving one that says ﾄﾞﾓ).
                searched = {w for c in concepts if c in words and c in loc["concepts"] for w in loc["concepts"][c]}
                searched.update(intent_texts[intent].get("keywords", ()) if intent else ())
                fields = [("keyword", kw) for kw in keywords if kw in searched] + [("name", name), ("category", loc["categories"][slugs[0]])]
                for field, value in fields:
                    tokens, folded, stemmed = search_forms(value, stemmer)
                    terms.append((tokens, pid, field, value, folded, stemmed, field == "keyword" and value in own))
            writer.insert("profile_texts", texts)
            keys = index_keys((pid, field, value, folded, stemmed, tokens, is_label) for tokens, pid, field, value, folded, stemmed, is_label in terms)
            writer.insert("search_keys", [
                (code, kind, key, mask.to_bytes((mask.bit_length() + 7) // 8, "little"), field, value)
                for (kind, key), (mask, field, value) in sorted(keys.items())
            ])
            for (kind, key), (mask, field, _) in keys.items():  # words as written: tokens are stems (happi)
                for word in key.split() if kind in ("exact", "category_name") else ():
                    if spelling_word(word):
                        # A keyword is what people search for; a word found only in names ("face" of Angry face) is
                        # not: `dace` is corrected to dance, whichever of the two more profiles have.
                        weight = spelling_weight(mask, profile_counts) + (KEYWORD_SPELLING_WEIGHT if field == "keyword" else 0)
                        spelling_weights[word] = max(spelling_weights.get(word, 0), weight)
                        spelling_locales[word] = spelling_locales.get(word, 0) | 1 << codes.index(code)
            progress.step("profiles and search", done, len(codes))

        annotations = json.loads(EMOJI_ANNOTATIONS.read_text(encoding="utf-8"))["locales"]
        meanings = emoji_labels(annotations, {code: locales[code]["concepts"] for code in codes},
                                {code: textnorm.stemmer_for(stemmers[code]) for code in codes})
        writer.insert("emoji_labels", [(emoji, json.dumps(labels)) for emoji, labels in sorted(meanings.items())])
        words = emoji_words(annotations, meanings, {code: textnorm.stemmer_for(stemmers[code]) for code in codes})
        writer.insert("emoji_words", [(word, code, label) for (word, code), label in sorted(words.items())])
        words, deletes = spelling_rows(spelling_weights, spelling_locales)
        writer.insert("spellings", words)
        writer.insert("spelling_deletes", deletes)

        script_sets = {(): 0}
        for e in entries:
            script_sets.setdefault(rendering.scripts(e["text"]), len(script_sets))
        writer.insert("script_sets", [(number, json.dumps(names)) for names, number in script_sets.items()])
        ranked = sorted(entries, key=lambda e: quality_key(e, read[e["id"]].sensitive))
        quality = {e["id"]: rank for rank, e in enumerate(ranked)}
        rows = []
        shapes: dict[str, int] = {}  # a number per face shape, from 0: a worker holds one per entry, two bytes each
        for done, e in enumerate(entries, 1):
            reading, face = read[e["id"]], textnorm.drawn_face(e["text"])
            lead, intent = glossary.lead_part(reading), glossary.usage_intent(reading)
            rows.append((
                entry_number(e), e["text"], profile_ids[profile_key(e)], category_ids[entry_categories[e["id"]][0]],
                int(e["ascii_safe"]), int(rendering.needs_cjk_font(e["text"])), script_sets[rendering.scripts(e["text"])],
                int(e["display_width"]), int(e["locale_scope"] != ["*"]),
                int(reading.sensitive), text_reading_ids.get(reading.runs, 0),
                intent_ids[intent] if intent else 0,
                drawn_id(drawings, part_ids, reading, lead) if lead else 0,
                " ".join(str(drawn_id(drawings, part_ids, reading, part, face)) for part in reading.parts),
                quality[e["id"]], shapes.setdefault(textnorm.face_shape(e["text"]), len(shapes)),
            ))
            if done % 10000 == 0 or done == len(entries):
                writer.insert("entries", rows)
                rows = []
                progress.step("entries", done, len(entries))
        db.execute("INSERT INTO entry_text_search (rowid, text) SELECT quality, text FROM entries")
        # Merged into one segment: a trigram is then one look-up, not one per segment the insert left (~14), which
        # made a phrase's look-up of faces 5 times slower. The pages it frees are filled by the tables that follow.
        db.execute("INSERT INTO entry_text_search (entry_text_search) VALUES ('optimize')")
        writer.insert("face_fragments", face_fragments(e["text"] for e in ranked))
        visible = sum(not read[e["id"]].sensitive for e in ranked)
        profile_at = [profile_ids[profile_key(e)] for e in ranked]
        by_fragment = {row + 1: positions for row, positions in fragment_faces(((e["text"], read[e["id"]]) for e in ranked), latin_phrases).items()}
        writer.insert("fragment_faces", [
            (fragment_id, little_endian(positions).tobytes(), little_endian(fragment_census(positions, visible, profile_at)).tobytes())
            for fragment_id, positions in sorted(by_fragment.items())
        ])
        merged = {ids: merge_fragment_faces([by_fragment.get(i, array("I")) for i in ids]) for ids in sorted(fragment_sets)}
        writer.insert("fragment_sets", [
            (" ".join(map(str, ids)), little_endian(positions).tobytes(), little_endian(fragment_census(positions, visible, profile_at)).tobytes())
            for ids, positions in merged.items()
        ])

        summary = {
            "entries": len(entries),
            "sensitive": sum(read[e["id"]].sensitive for e in entries),
            "redirects": len(redirects),
            "categories": len(categories),
            "profiles": len(profile_ids),
            "locales": len(codes),
        }
        version = writer.digest.hexdigest()[:16]
        meta = {
            "version": version,
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "source": "kaomoji-dataset",
            "source_version": kaomoji_dataset.__version__,
            "attribution": ATTRIBUTION,
            "licence": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/); labels, names and keywords CC0",
            "counts": json.dumps(summary),
        }
        db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        db.commit()
        db.execute("PRAGMA optimize")
        db.close()
        os.chmod(tmp, 0o644)
        check_catalog(tmp)
        unchanged = if_changed and live_version(out) == version
        if unchanged:
            tmp.unlink()
        else:
            os.replace(tmp, out)
            keep_as_last_good(out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    summary.update(version=version, size_bytes=out.stat().st_size, seconds=round(time.monotonic() - started, 1), unchanged=unchanged)
    return summary


class CatalogInvalid(Exception):
    """A built catalog that must not be served."""


def check_catalog(path: Path) -> None:
    """Raise CatalogInvalid unless the catalog at `path` is whole: every table of schema.sql exists, and
    the service opens it as it would serve it (kaomoji_api.catalog.Catalog: SQLite's quick_check, `meta`,
    every table it reads), search index included."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        blank = sqlite3.connect(":memory:")
        blank.executescript(SCHEMA.read_text(encoding="utf-8"))
        expected = {name for (name,) in blank.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        blank.close()
        if expected - tables:
            raise CatalogInvalid(f"{path}: tables missing: {', '.join(sorted(expected - tables))}")
    except sqlite3.DatabaseError as error:
        raise CatalogInvalid(f"{path}: {error}") from error
    finally:
        db.close()
    try:
        Searcher(Catalog(path), depth=1, cache_bytes=0)
    except (CatalogError, sqlite3.DatabaseError, LookupError, ValueError) as error:
        raise CatalogInvalid(str(error)) from error


def keep_as_last_good(out: Path) -> None:
    """Give the catalog just installed a second name, which a worker starts on when the file under the
    first is replaced by a bad one (kaomoji_api/current.py); both names share the file, so no space."""
    link = out.with_name(out.name + LAST_GOOD_SUFFIX)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{link.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    os.unlink(tmp_name)
    os.link(out, tmp_name)
    os.replace(tmp_name, link)


def live_version(path: Path) -> str | None:
    """The content version in the meta table of the catalog at `path`; None if there is none to read."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return row[0] if row else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("catalog.sqlite"), help="where to write (default: ./catalog.sqlite)")
    parser.add_argument("--sample", type=int, metavar="N", help="build a small catalog of N entries spread over the dataset")
    parser.add_argument("--locales", metavar="CODES", help="comma-separated locale codes to build (default: every file under tools/locales)")
    parser.add_argument("--if-changed", action="store_true",
                        help="leave --out untouched when it already holds this content version (the daily refresh)")
    args = parser.parse_args(argv)
    if args.sample is not None and args.sample < 1:
        parser.error("--sample must be at least 1")
    only = [code.strip() for code in args.locales.split(",")] if args.locales else None
    if only and locale_files.REFERENCE not in only:
        parser.error(f"--locales must include {locale_files.REFERENCE}")
    summary = build(args.out, args.sample, only, if_changed=args.if_changed)
    if summary["unchanged"]:
        print(f"{args.out} left as it was: the new build has the same version, {summary['version']}")
        return 0
    print(
        f"built {args.out}: {summary['entries']} entries, {summary['locales']} locales, "
        f"{summary['categories']} categories, {summary['size_bytes'] / 1e6:.1f} MB, "
        f"{summary['seconds']} s, version {summary['version']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
