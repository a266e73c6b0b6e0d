"""Read-only access to catalog.sqlite: entries, categories, localized texts.

The file is opened with mode=ro&immutable=1 and never written; kaomoji_api/current.py opens a
new one when the file is replaced.
"""

from __future__ import annotations

import bisect
import functools
import html
import itertools
import json
import os
import random
import sqlite3
import struct
import threading
import weakref
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import orjson

from kaomoji_api.textnorm import drawn_face_match

# tools/build_catalog.py links each catalog it checked and installed under this second name too, which a
# worker starts on when the file under the first name is bad (kaomoji_api/current.py).
LAST_GOOD_SUFFIX = ".last-good"


PAGE_CACHE_KIB = 256
NOTE_PARTS = 3  # a note names at most this many of the parts a face draws
DRAWING_BITS = 10  # a note's parts are drawings.id of this many bits each, NOTE_PARTS of them in four bytes (NOTE_RECORD)
MAX_DRAWINGS = (1 << DRAWING_BITS) - 1  # drawings a catalog may have (schema.sql); rarer ones are named without one
# Faces like a face (Catalog.similar_positions): this many of its profile's walk are kept, enough for a page's 8.
SIMILAR_KEPT = 9
NOT_WALKED, NONE_LEFT = -2, -1
UNIT, RECORD = "\x1f", "\x1e"  # separators of text_readings.pieces and .said (schema.sql)


class Frames(NamedTuple):
    """What a locale writes meanings and notes with (table note_frames): templates of {text}, {romaji}, {gloss},
    {face} and {parts}, and the separators of a list."""

    meaning: str
    meaning_separator: str
    text_means: str
    text_is: str
    text_unknown: str
    text_unknown_first: str
    drawn: str
    drawn_face: str
    drawn_parts: str
    list_separator: str
    list_last: str
    gloss_quote: str  # how the glosses quote the text they explain ({text}), when they do; else empty


class NoteTexts(NamedTuple):
    """A locale's texts that notes are written with (Catalog.note_texts)."""

    parts: dict[int, str]  # each drawn part's name, by part id, with {drawing} where a note shows how a face draws it
    when: dict[int, str]   # when to send a face of each intent, by intent id
    about: dict[int, str]  # what faces of each category are for, by category id


class MeaningRuns(NamedTuple):
    """What meanings are written from: the runs of text the text readings explain (text_readings.pieces), each held
    once however many readings share it (~4,700 runs for ~14,000 readings), and each reading's first and second run.

    A meaning is at most two runs (tools/readings.py MAX_MEANING_RUNS): a reading's two runs and their glossary
    fragments are side by side in one array, and `first`, `first_fragment`, `second` and `second_fragment` are views of
    it, so that a meaning reads one cache line for all four.
    """

    texts: bytes      # each run's text and romaji as UTF-8, "text<US>romaji", one after another: run r is texts[ends[r - 1]:ends[r]]
    ends: array
    fragments: array  # each run's glossary fragment id, by run id (index 0 unused)
    first: memoryview            # each text reading's first run, by reading id (0: it explains none, and reading 0 is no reading)
    first_fragment: memoryview   # that run's glossary fragment id
    second: memoryview           # its second run, or 0
    second_fragment: memoryview  # that run's glossary fragment id, or 0

    @classmethod
    def read(cls, readings: list[str]) -> MeaningRuns:
        """From the stored pieces of readings 1, 2, …: runs "text<US>romaji<US>fragment id" separated by <RS>."""
        ids: dict[str, int] = {}
        runs_of = [[ids.setdefault(run, len(ids) + 1) for run in pieces.split(RECORD)] if pieces else [] for pieces in readings]
        texts, ends, fragments = bytearray(), array("I", [0]), array("H", [0])
        for run in ids:
            text, romaji, fragment = run.split(UNIT)
            texts += f"{text}{UNIT}{romaji}".encode()
            ends.append(len(texts))
            fragments.append(int(fragment))
        quads = array("H", [0] * 4)
        for runs in runs_of:
            if len(runs) > 2:
                raise ValueError(f"a text reading of {len(runs)} runs; a meaning is written from two at most")
            quads.extend(itertools.chain.from_iterable((run, fragments[run]) for run in (*runs, 0, 0)[:2]))
        quads = memoryview(quads.tobytes()).cast("H")
        return cls(bytes(texts), ends, fragments, quads[0::4], quads[1::4], quads[2::4], quads[3::4])

    def text(self, run: int) -> tuple[str, str]:
        """The run's text and romaji."""
        text, romaji = self.texts[self.ends[run - 1]:self.ends[run]].decode().split(UNIT)
        return text, romaji


class CatalogError(RuntimeError):
    """The catalog file is missing or is not a catalog."""


@dataclass(frozen=True)
class Category:
    id: int
    slug: str
    type: str
    emoji: str
    count: int  # entries whose main category it is


@dataclass(frozen=True)
class Locale:
    code: str
    name: str
    english_name: str
    stemmer: str | None
    function_words: frozenset[str]  # folded (schema.sql, locales)


class Entry(NamedTuple):
    id: int
    text: str
    profile_id: int
    category_id: int
    ascii_safe: bool
    needs_cjk_font: bool
    display_width: int
    ja_context: bool
    position: int  # in quality order: 0 is the cleanest face of the catalog
    scripts: tuple  # Unicode script names beyond Latin and common characters, shared between entries
    sensitive: bool
    text_reading: int  # what its Japanese text says (table text_readings), 0 for none
    intent_id: int     # the intent that decides its usage and when to send it, 0 for none
    lead_part: int     # drawings.id of its most telling drawn part, 0 for none


def _sample(population, count: int) -> list:
    """`count` different members of `population` at random, in the order drawn, as random.sample gives them.

    random.sample takes ~4 µs for ten of ~70,000, a tenth of a random pick's request: its loop draws each index through
    several calls. Here `count` 64-bit numbers come from one call of getrandbits, each taken modulo the population's size
    (a bias of size / 2**64: none that shows), all in C: a loop of the interpreter drawing them cost a worker ~3 µs
    more. Two draws alike are rare while the population is large beside `count`; more are drawn then. (Seeded picks
    keep random.sample: the same seed must keep giving the same faces.)
    """
    size = len(population)
    if count * 8 > size:
        return random.sample(population, count)
    numbers = array("Q", random.getrandbits(64 * count).to_bytes(8 * count, "little"))
    drawn = dict.fromkeys(map(size.__rmod__, numbers))
    while len(drawn) < count:
        drawn[random.randrange(size)] = None
    return list(map(population.__getitem__, drawn))


DRAWN_AHEAD = 4096  # indexes an unseeded pick from every entry draws at once (Ahead): 16 KB


class Ahead:
    """Different indexes below `size` at random, drawn ahead of the unseeded picks that take them, DRAWN_AHEAD at a time.

    Each pick takes the next `count` of them: one slice of an array. In a worker, whose caches hold little of the last
    request, random_positions took 8.1 µs of a pick of ten's app call with _sample, and 2.8 with this and the items
    written ahead, which draw thirty once in three picks (`bench/ab.py --time`); a refill takes ~0.5 ms every ~130
    draws of thirty. The indexes of a refill are the different ones of
    DRAWN_AHEAD draws, in the order first drawn: in a uniformly random order, so that any run of them is a uniformly
    random pick of different indexes, as _sample's. Two picks of a worker within one refill share no face. A process
    forked after a refill would repeat its parent's picks: a child empties them (forgotten_at_fork).
    """

    def __init__(self, size: int):
        self.size, self.drawn, self.next = size, array("I"), 0
        forgotten_at_fork(self)

    def take(self, count: int) -> array | None:
        """The next `count` indexes; None when `count` is more than a refill holds (size not far above DRAWN_AHEAD)."""
        start = self.next
        if start + count > len(self.drawn):
            numbers = array("Q", random.getrandbits(64 * DRAWN_AHEAD).to_bytes(8 * DRAWN_AHEAD, "little"))
            self.drawn, start = array("I", dict.fromkeys(map(self.size.__rmod__, numbers))), 0
            if count > len(self.drawn):
                return None
        self.next = start + count
        return self.drawn[start:start + count]

    def forget(self) -> None:
        self.drawn, self.next = array("I"), 0


_FORGOTTEN_AT_FORK: weakref.WeakSet = weakref.WeakSet()
os.register_at_fork(after_in_child=lambda: [thing.forget() for thing in _FORGOTTEN_AT_FORK])


def forgotten_at_fork(thing):
    """Have `thing.forget()` called in each process forked from this one while `thing` lives: what is drawn or written
    ahead at random (Ahead, pieces.WrittenAhead) must not be served again by a child."""
    _FORGOTTEN_AT_FORK.add(thing)
    return thing


# Bits of Entries.flags. ESCAPED: the text is not its own JSON string between quotes (it holds " or \\). HTML_ESCAPED: it
# is not its own HTML text (it holds & < > " or ').
ASCII_SAFE, NEEDS_CJK_FONT, JA_CONTEXT, SENSITIVE, ESCAPED, HTML_ESCAPED = 1, 2, 4, 8, 16, 32
SHOWN_FLAGS = ASCII_SAFE | NEEDS_CJK_FONT | SENSITIVE  # the flags an item shows
_new_tuple = tuple.__new__


def _drawn_span(text: str) -> int:
    """Where the face `text` draws between its brackets (textnorm.drawn_face) is in its UTF-8, as Entries.drawn holds it:
    its first byte << 6 | its length in bytes (at most 12 characters and two brackets: 54 bytes), 0 for none. A face
    found after the text's first kilobyte is not named (the longest text of the catalog has 159 bytes)."""
    found = drawn_face_match(text)
    if found is None or (start := len(text[:found.start()].encode())) >= 1 << 10:
        return 0
    return start << 6 | len(found.group().encode())


# An entry's record (Entries): id, where its text starts, profile, facts, text reading, flags, display width. Sixteen
# bytes, so that no record straddles two cache lines (a bytes object's data is 16-byte aligned).
RECORD_FIELDS = (("I", 0), ("I", 4), ("H", 8), ("H", 10), ("H", 12), ("B", 14), ("B", 15))
RECORD_SIZE = 16
# A record and where the next one's text starts (where this one's ends), read in one call (pieces.ItemWriter).
RECORD_AND_END = struct.Struct("=IIHHHBB4xI")
# What an entry's note is written from (Entries): the drawings of its first parts, where its drawn face is, its intent
# and its category. Eight bytes, read in one call (pieces.ItemWriter._note) where four arrays took four cache lines.
NOTE_FIELDS = (("I", 0), ("H", 4), ("B", 6), ("B", 7))
NOTE_SIZE = 8
NOTE_RECORD = struct.Struct("=IHBB")
# A text reading's first run, its fragment, its second run and that one's fragment (MeaningRuns), read at once.
QUAD = struct.Struct("=4H")


def _record_views(layout: tuple[tuple[str, int], ...], record_size: int, *fields: array) -> tuple[memoryview, ...]:
    """Fields of a `layout` (RECORD_FIELDS, NOTE_FIELDS), each an array by position, as one record of `record_size`
    bytes a position, and a view of each field that reads, slices and iterates as its array did. A field may have one
    value more than there are positions (where texts start: the end of the last text): a last record holds it."""
    count = len(fields[0])
    block = bytearray(record_size * (count + 1))
    slots = []
    for (code, offset), values in zip(layout, fields, strict=True):
        size = array(code).itemsize
        slots.append((code, offset // size, record_size // size, len(values)))
        # array(code, …) refuses a value too large for the field's bytes.
        memoryview(block).cast(code)[offset // size:: record_size // size][:len(values)] = array(code, values)
    records = memoryview(bytes(block))
    return tuple(records.cast(code)[start::step][:length] for code, start, step, length in slots)


class Entries:
    """Every entry, in quality order (position 0 is the cleanest face), held as compact arrays.

    Single entries, random picks and search pages are read from here, not from SQLite: a lookup is an
    index into an array, about 3 MB for all ~70,000 entries. Filtered list pages still ask SQLite.

    What every item shows (its id, text, profile, facts, reading, flags and width) is one record of RECORD_SIZE bytes
    a position, and each of those fields a view of every record at its offset (_record_views): an item reads one cache
    line, where seven arrays had it read seven. In a worker, whose caches hold nothing of the last request's entries,
    that is ~1 µs an entry (README, "What changed in session 20"); read warm, a view costs what an array does.
    """

    def __init__(self, db: sqlite3.Connection, profile_categories: dict[int, list[int]], drawing_count: int):
        ids = array("I")           # entry id at each position
        profiles = array("H")      # profile id at each position
        categories = array("B")    # category id at each position
        # Face shape (near-copy key) at each position: ~57,000 shapes, numbered from 0, fit two bytes.
        (most,) = db.execute("SELECT coalesce(max(shape), 0) FROM entries").fetchone()
        self.shapes = array("H" if most < 1 << 16 else "I")
        widths = array("B")        # display width at each position
        flags = array("B")         # ASCII_SAFE | NEEDS_CJK_FONT | JA_CONTEXT | SENSITIVE | ESCAPED | HTML_ESCAPED
        text_readings = array("H")  # text_readings.id at each position
        intents = array("B")       # intents.id at each position
        self.lead_parts = array("H")    # drawings.id of its most telling part at each position
        parts_drawn = array("I")   # the drawings.id of the first NOTE_PARTS parts each face draws, DRAWING_BITS each, first lowest
        # Where the face a kaomoji draws between its brackets is in its text (_drawn_span): found once here, not on every
        # note.
        drawn = array("H")
        ends = array("I", [0])     # the text at position p is texts[ends[p]:ends[p + 1]]
        self.by_category: dict[int, array] = {}
        texts = bytearray()
        rows = db.execute(
            "SELECT id, profile_id, category_id, shape, display_width, ascii_safe, needs_cjk_font, ja_context, text, script_set, "
            "sensitive, text_reading, intent_id, lead_part, parts FROM entries ORDER BY quality"
        )
        self.script_sets = [tuple(json.loads(names)) for (names,) in db.execute("SELECT names FROM script_sets ORDER BY id")]
        # The facts an item shows beside its width (its SHOWN_FLAGS and its scripts) at each position, as an index into
        # fact_sets: a few hundred sets, each written once (kaomoji_api/pieces.py).
        facts = array("H")
        fact_ids: dict[tuple[int, int], int] = {}
        self.visible = None  # positions below it are not sensitive: sensitive faces come last
        for position, (entry_id, profile_id, category_id, shape, width, ascii_safe, cjk_font, ja_context, text, script_set_id,
                       sensitive, text_reading, intent_id, lead_part, parts) in enumerate(rows):
            text_readings.append(text_reading)
            intents.append(intent_id)
            self.lead_parts.append(lead_part)
            shown = [int(drawing) for drawing in parts.split()[:NOTE_PARTS]]
            if max(shown, default=0) > drawing_count or lead_part > drawing_count:
                raise ValueError(f"entry {entry_id}: a drawing that is not in drawings")
            parts_drawn.append(sum(drawing << DRAWING_BITS * place for place, drawing in enumerate(shown)))
            if sensitive and self.visible is None:
                self.visible = position
            ids.append(entry_id)
            profiles.append(profile_id)
            categories.append(category_id)
            self.shapes.append(shape)
            widths.append(width)
            encoded = text.encode()
            escaped = orjson.dumps(text) != b'"%b"' % encoded
            drawn.append(_drawn_span(text))
            flags.append(ascii_safe * ASCII_SAFE | cjk_font * NEEDS_CJK_FONT | ja_context * JA_CONTEXT | sensitive * SENSITIVE
                         | escaped * ESCAPED | (html.escape(text) != text) * HTML_ESCAPED)
            facts.append(fact_ids.setdefault((flags[-1] & SHOWN_FLAGS, script_set_id), len(fact_ids)))
            texts += encoded
            ends.append(len(texts))
            if profile_categories[profile_id][0] != category_id:  # items write the profile's (kaomoji_api/pieces.py)
                raise ValueError(f"entry {entry_id}: its category is not the first of its profile's")
            for category in profile_categories[profile_id]:
                self.by_category.setdefault(category, array("I")).append(position)
        self.fact_sets = list(fact_ids)  # (SHOWN_FLAGS of the flags, index into script_sets), by index
        (self.ids, self.ends, self.record_profiles, self.facts, self.text_readings, self.flags, self.widths) = _record_views(
            RECORD_FIELDS, RECORD_SIZE, ids, ends, profiles, facts, text_readings, flags, widths)
        self.records = self.ids.obj  # every record, as bytes: RECORD_AND_END reads one whole with where its text ends
        self.parts, self.drawn, self.intents, self.categories = _record_views(
            NOTE_FIELDS, NOTE_SIZE, parts_drawn, drawn, intents, categories)
        self.note_records = self.parts.obj  # read whole by NOTE_RECORD
        # The profiles once more, one after another: search walks them a window of bytes at a time (search.py
        # _flagged_windows), which a view of the records would have to copy out two bytes at a time.
        self.profiles = profiles
        if self.visible is None:
            self.visible = len(self.ids)
        # Each profile's positions in quality order, one profile after another, as a view: profile p's are
        # by_profile[profile_starts[p]:profile_starts[p + 1]] (of_profile). A dict of ~1,700 arrays cost 250 KB more.
        self.profile_starts = array("I", [0]) * (max(self.profiles, default=0) + 2)
        for profile in self.profiles:
            self.profile_starts[profile + 1] += 1
        self.profile_starts = array("I", itertools.accumulate(self.profile_starts))
        by_profile, next_slot = array("I", bytes(4 * len(self.profiles))), array("I", self.profile_starts)
        for position, profile in enumerate(self.profiles):
            by_profile[next_slot[profile]] = position
            next_slot[profile] += 1
        self.by_profile = memoryview(by_profile)
        # Copied to their size: an array grown by appending holds room for more.
        self.by_category = {category: array("I", positions) for category, positions in self.by_category.items()}
        self.texts = bytes(texts)       # every text, UTF-8, one after another
        self.longest = max((len(self.text_at(p)) for p in range(len(self.ids))), default=0)  # characters
        self.position_of = array("i", [-1]) * (max(self.ids, default=0) + 1)  # position of each id, -1 if none
        for position, entry_id in enumerate(self.ids):
            self.position_of[entry_id] = position

    def __len__(self) -> int:
        return len(self.ids)

    def of_profile(self, profile: int) -> memoryview:
        """The positions of a profile's entries, in quality order: a view, nothing copied."""
        starts = self.profile_starts
        if profile + 1 >= len(starts):
            return self.by_profile[:0]
        return self.by_profile[starts[profile]:starts[profile + 1]]

    def text_at(self, position: int) -> str:
        return self.texts[self.ends[position]:self.ends[position + 1]].decode()

    def at(self, position: int) -> Entry:
        flags, ends = self.flags[position], self.ends
        # tuple.__new__ skips the generated __new__ of a NamedTuple: this runs for every entry a response shows.
        return _new_tuple(Entry, (
            self.ids[position], self.texts[ends[position]:ends[position + 1]].decode(), self.profiles[position],
            self.categories[position], flags & ASCII_SAFE != 0, flags & NEEDS_CJK_FONT != 0, self.widths[position],
            flags & JA_CONTEXT != 0, position, self.script_sets[self.fact_sets[self.facts[position]][1]], flags & SENSITIVE != 0,
            self.text_readings[position], self.intents[position], self.lead_parts[position],
        ))

    def position(self, entry_id: int) -> int | None:
        if 0 <= entry_id < len(self.position_of) and self.position_of[entry_id] >= 0:
            return self.position_of[entry_id]
        return None

    def in_categories(self, category_ids: list[int] | None):
        """The positions of the entries that are not sensitive, in any of the categories (every category: None),
        in quality order, each once."""
        if category_ids is None:
            return range(self.visible)
        streams = [self.by_category.get(c, array("I")) for c in category_ids]
        streams = [s[:bisect.bisect_left(s, self.visible)] for s in streams]
        return streams[0] if len(streams) == 1 else sorted(set().union(*streams))


def _one_or_many(column: str, values: list[int]) -> tuple[str, list]:
    """A condition that `column` is one of `values`, in one of two statement shapes whatever their number: SQLite
    keeps each distinct statement prepared, and `= ?` spares a single entry the cost of json_each."""
    if len(values) == 1:
        return f"{column} = ?", values
    return f"{column} IN (SELECT value FROM json_each(?))", [json.dumps(values)]


class Catalog:
    """One opened catalog file. The small tables are read into memory once."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.is_file():
            raise CatalogError(f"catalog not found: {self.path} (build it with: python -m tools.build_catalog --out {self.path})")
        self._uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
        self._local = threading.local()
        try:
            self._check()
            self._load()
            self.entries  # noqa: B018 -- read now: a file that cannot serve every entry is refused here
        except (sqlite3.DatabaseError, LookupError, ValueError, TypeError, OverflowError) as exc:
            # OverflowError: a number too large for the compact arrays entries are held in.
            raise CatalogError(f"not a whole kaomoji catalog: {self.path} ({type(exc).__name__}: {exc})") from None

    def _check(self) -> None:
        """What loading does not read: every page (SQLite's quick_check) and the tables searched later."""
        problems = [row[0] for row in self.db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise sqlite3.DatabaseError(f"quick_check: {'; '.join(problems[:3])}")
        self.db.execute("SELECT fragment, positions FROM face_fragments LIMIT 1").fetchall()
        self.db.execute("SELECT rowid FROM entry_text_search WHERE entry_text_search MATCH '\"abc\"' LIMIT 1").fetchall()
        self.db.execute("SELECT quality FROM entries WHERE text = '' LIMIT 1").fetchall()
        self.db.execute("SELECT locale, gloss FROM fragment_texts LIMIT 1").fetchall()
        self.db.execute("SELECT id, parts FROM entries LIMIT 1").fetchall()

    @property
    def db(self) -> sqlite3.Connection:
        """A connection for the calling thread (sqlite3 connections are not shared across threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            # A small page cache: the file is read rarely (filtered lists, face fragments), and every worker
            # and thread would otherwise keep up to 2 MB of its pages; the system's page cache has them.
            conn.execute(f"PRAGMA cache_size = -{PAGE_CACHE_KIB}")
            self._local.conn = conn
        return conn

    def _load(self) -> None:
        db = self.db
        self.meta = dict(db.execute("SELECT key, value FROM meta"))
        self.version = self.meta["version"]
        self.locales = {
            r[0]: Locale(*r[:4], frozenset(r[4].split()))
            for r in db.execute("SELECT code, name, english_name, stemmer, function_words FROM locales ORDER BY position")
        }
        self.categories = [Category(*r) for r in db.execute("SELECT id, slug, type, emoji, entry_count FROM categories ORDER BY id")]
        self.category_by_slug = {c.slug: c for c in self.categories}
        self.category_by_id = {c.id: c for c in self.categories}
        self.category_slugs = {c.id: c.slug for c in self.categories}
        self.category_types = sorted({c.type for c in self.categories})
        # Names only: descriptions are read when asked for (the categories list and a category's page, both kept
        # rendered), and 660 of them would cost a worker 130 KB.
        self.category_names = {(r[0], r[1]): r[2] for r in db.execute("SELECT category_id, locale, name FROM category_texts")}
        self.frames = {r[0]: Frames(*r[1:]) for r in db.execute(f"SELECT locale, {', '.join(Frames._fields)} FROM note_frames")}
        # What each text reading's note is written from (schema.sql), one after another in one block of UTF-8, with the
        # end of each reading's pieces (reading r: block[ends[r - 1]:ends[r]]): a list of 15,000 strings would cost a
        # worker a megabyte more.
        said, said_ends, readings = bytearray(), array("I", [0]), []
        for number, meaning_pieces, said_pieces in db.execute("SELECT id, pieces, said FROM text_readings ORDER BY id"):
            if number != len(said_ends):
                raise ValueError("text_readings ids must run from 1 without gaps")
            said += said_pieces.encode()
            said_ends.append(len(said))
            readings.append(meaning_pieces)
        self.said_pieces_block: tuple[bytes, array] = (bytes(said), said_ends)
        self.meaning_runs = MeaningRuns.read(readings)
        self.redirects = dict(db.execute("SELECT id, to_id FROM redirects"))
        # Each part as faces draw it: its part's id by drawings.id (index 0 unused); what it draws is read when asked
        # for (drawing_texts).
        drawings = db.execute("SELECT id, part_id FROM drawings ORDER BY id").fetchall()
        if [number for number, _ in drawings] != list(range(1, len(drawings) + 1)) or len(drawings) > MAX_DRAWINGS:
            raise ValueError(f"drawings must be numbered from 1 without gaps, at most {MAX_DRAWINGS}")
        self.drawing_parts = array("H", [0, *(part for _, part in drawings)])
        # Only read here: a dict of ~1,700 profiles kept would cost a worker 200 KB.
        profiles = dict(db.execute("SELECT id, category_id FROM profiles"))
        self.profile_count = max(profiles, default=0) + 1  # profile ids run below it
        self.profile_categories = self._profile_categories(db, profiles)
        rows = db.execute("SELECT count(*) FROM profile_texts").fetchone()[0]
        if rows != len(profiles) * len(self.locales):
            raise ValueError(f"profile_texts has {rows} rows, not one per profile and locale")
        self.entry_count = int(json.loads(self.meta["counts"])["entries"])
        if not self.version or self.entry_count <= 0:
            raise ValueError("meta has no version or no entries")

    def _profile_categories(self, db: sqlite3.Connection, profiles: dict[int, int]) -> list[tuple[str, ...] | None]:
        """Per profile id, the slugs of its entries' categories, the main one first.

        Profiles with the same categories share one tuple (today one per category), so an entry's
        `categories` costs nothing per entry and nothing to render.
        """
        slugs: dict[int, list[str]] = {}
        for pid, category_id in db.execute("SELECT profile_id, category_id FROM profile_categories ORDER BY profile_id, position"):
            slugs.setdefault(pid, []).append(self.category_slugs[category_id])
        shared: dict[tuple[str, ...], tuple[str, ...]] = {}
        by_profile: list[tuple[str, ...] | None] = [None] * self.profile_count
        for pid, category_id in profiles.items():
            found = tuple(slugs.get(pid, ()))
            if not found or found[0] != self.category_slugs[category_id]:
                raise ValueError(f"profile {pid}: profile_categories must start with its main category")
            by_profile[pid] = shared.setdefault(found, found)
        return by_profile

    # Entries -----------------------------------------------------------------

    def entry(self, entry_id: int) -> Entry | None:
        position = self.entries.position(entry_id)
        return None if position is None else self.entries.at(position)

    def positions_with_text(self, fragment: str) -> array:
        """Positions of the entries whose text contains `fragment`: those that are exactly it first,
        then the others in quality order.

        One or two characters are looked up in the face_fragments index (case-sensitive); three or more
        go through the trigram index (case-insensitive), whose rowids are positions.
        """
        if len(fragment) > self.entries.longest:
            return array("I")
        if len(fragment) < 3:
            row = self.db.execute("SELECT positions FROM face_fragments WHERE fragment = ?", (fragment,)).fetchone()
            positions = array("I", row[0] if row else b"")
        else:
            positions = self._positions_with_trigrams(fragment)
        if not positions:  # no face holds it, so none is it: most word queries end here, one look-up fewer
            return positions
        exact = [position for (position,) in self.db.execute("SELECT quality FROM entries WHERE text = ? ORDER BY quality", (fragment,))]
        if not exact:
            return positions
        others = set(exact)
        return array("I", exact + [position for position in positions if position not in others])

    def _positions_with_trigrams(self, fragment: str) -> array:
        """Through the trigram index (case-insensitive). A phrase query costs as much as it has trigrams, so a
        long fragment asks for entries holding a few of its trigrams, and those are then checked whole."""
        if len(fragment) <= 6:  # four trigrams at most
            query = '"' + fragment.replace('"', '""') + '"'
            rows = self.db.execute("SELECT rowid FROM entry_text_search WHERE entry_text_search MATCH ? ORDER BY rowid", (query,))
            return array("I", (position for (position,) in rows))
        trigrams = list(dict.fromkeys(fragment[i:i + 3] for i in range(len(fragment) - 2)))
        picked = dict.fromkeys(trigrams[i * (len(trigrams) - 1) // 3] for i in range(4))
        query = " AND ".join('"' + t.replace('"', '""') + '"' for t in picked)
        rows = self.db.execute("SELECT rowid FROM entry_text_search WHERE entry_text_search MATCH ? ORDER BY rowid", (query,))
        needle, text_at = fragment.casefold(), self.entries.text_at
        return array("I", (position for (position,) in rows if needle in text_at(position).casefold()))

    def _where(self, category_ids, ascii_safe, max_width, include_sensitive) -> tuple[str, list]:
        clauses, args = [], []
        if category_ids is not None:
            # One statement whatever the number of categories: SQLite keeps each distinct one prepared.
            clauses.append("profile_id IN (SELECT profile_id FROM profile_categories WHERE category_id IN (SELECT value FROM json_each(?)))")
            args.append(json.dumps(category_ids))
        if not include_sensitive:
            clauses.append("sensitive = 0")
        if ascii_safe is not None:
            clauses.append("ascii_safe = ?")
            args.append(int(ascii_safe))
        if max_width is not None:
            clauses.append("display_width <= ?")
            args.append(max_width)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", args

    def list_positions(self, *, category_ids=None, ascii_safe=None, max_width=None, include_sensitive=False,
                       offset=0, limit=20) -> tuple[list[int], int]:
        """A page of entries (their positions in `entries`), cleanest faces first, and how many match in all."""
        where, args = self._where(category_ids, ascii_safe, max_width, include_sensitive)
        if category_ids is None and ascii_safe is None and max_width is None:
            total = self.entry_count if include_sensitive else self.entries.visible
            positions = list(range(min(offset, total), min(offset + limit, total)))
        else:
            total = self.db.execute(f"SELECT count(*) FROM entries{where}", args).fetchone()[0]
            rows = self.db.execute(f"SELECT quality FROM entries{where} ORDER BY quality LIMIT ? OFFSET ?", [*args, limit, offset])
            positions = [position for (position,) in rows]
        return positions, total

    def similar_positions(self, position: int, count: int) -> list[int]:
        """Up to `count` faces like the one at `position`, cleanest first: others of its profile (the same labels), then
        of its main category; one face per shape (no near-copies, none of its own shape), never a sensitive one."""
        if count >= SIMILAR_KEPT:
            return self._similar_walk(self.entries.profiles[position], count, {self.entries.shapes[position]})
        start, skipped = self._similar_set(position, count)
        kept = self._similar_kept[start:start + count + 1].tolist()
        del kept[skipped]  # the face of its own shape, or the one past `count`
        return [other for other in kept if other >= 0] if kept and kept[-1] < 0 else kept  # NONE_LEFT pads a walk's end

    def similar_set(self, position: int, count: int) -> int:
        """A number naming what similar_positions(position, count) gives, below SIMILAR_KEPT: the faces of one profile's
        pages share it, but the few whose own shape is among the first `count` of its walk."""
        start, skipped = self._similar_set(position, count)
        return start + skipped

    def _similar_set(self, position: int, count: int) -> tuple[int, int]:
        """Where the profile's kept walk starts, and which of its first `count` faces has the shape of the one at
        `position` (`count` when none has)."""
        # The faces like any face of a profile are the first of its walk but the one of that face's shape: the first
        # SIMILAR_KEPT are kept per profile with their shapes (~100 KB for all), so a kaomoji page does not walk them
        # again, and reads one run of shapes instead of a shape from each of the faces (a cache miss each).
        entries = self.entries
        kept, shapes, start = self._similar_kept, self._similar_shapes, entries.record_profiles[position] * SIMILAR_KEPT
        if kept[start] == NOT_WALKED:
            walked = self._similar_walk(entries.record_profiles[position], SIMILAR_KEPT, set())
            missing = SIMILAR_KEPT - len(walked)
            kept[start:start + SIMILAR_KEPT] = array("i", walked + [NONE_LEFT] * missing)
            shapes[start:start + SIMILAR_KEPT] = array("i", [entries.shapes[other] for other in walked] + [NONE_LEFT] * missing)
        own, first = entries.shapes[position], shapes[start:start + count]
        return start, first.index(own) if own in first else count

    def _similar_walk(self, profile: int, count: int, shapes: set) -> list[int]:
        """The first `count` faces of a profile's walk (its faces, then its main category's) that are not sensitive, one
        per shape, none of `shapes`."""
        entries, found = self.entries, []
        main = self.category_by_slug[self.profile_categories[profile][0]].id
        for stream in (entries.of_profile(profile), entries.by_category.get(main, ())):
            for other in stream:
                if other >= entries.visible or len(found) == count:
                    break
                if entries.shapes[other] not in shapes:
                    shapes.add(entries.shapes[other])
                    found.append(other)
        return found

    @functools.cached_property
    def _similar_kept(self) -> array:
        """Per profile, the first SIMILAR_KEPT faces of its walk (similar_positions), NOT_WALKED until first asked for."""
        return array("i", [NOT_WALKED]) * (SIMILAR_KEPT * len(self.profile_categories))

    @functools.cached_property
    def _similar_shapes(self) -> array:
        """The shapes of the faces of _similar_kept, NONE_LEFT where it has none."""
        return array("i", [NONE_LEFT]) * (SIMILAR_KEPT * len(self.profile_categories))

    def indexable_ids(self) -> list[int]:
        """The ids of the faces that lists show (not sensitive), in id order: the pages a sitemap names."""
        return sorted(self.entries.ids[:self.entries.visible])

    @functools.cached_property
    def entries(self) -> Entries:
        categories: dict[int, list[int]] = {}
        for pid, category_id in self.db.execute("SELECT profile_id, category_id FROM profile_categories ORDER BY profile_id, position"):
            categories.setdefault(pid, []).append(category_id)
        return Entries(self.db, categories, len(self.drawing_parts) - 1)

    @property
    def sensitive_count(self) -> int:
        return len(self.entries) - self.entries.visible

    def category_ids(self, slugs: list[str] | None, types: list[str] | None) -> list[int] | None:
        """The ids of the categories named by slug and of the given types (both filters apply); None: every one."""
        if slugs is None and types is None:
            return None
        return [
            c.id for c in self.categories
            if (slugs is None or c.slug in slugs) and (types is None or c.type in types)
        ]

    def random_positions(self, count: int, category_ids: list[int] | None = None, seed: str | None = None):
        """Up to `count` different entries at random, as positions (a list, or an array taken from Ahead when the pick
        is unseeded and from every entry).

        A seed makes the pick a function of (seed, catalog version, categories): the same "kaomoji of the
        day" for everyone until the catalog changes. Sensitive faces are never picked.
        """
        available = self.entries.in_categories(category_ids)
        count = min(count, len(available))
        if seed:
            return random.Random(f"{self.version}|{seed}|{','.join(map(str, category_ids or []))}").sample(available, count)
        if category_ids is None and count * 8 <= len(available):
            taken = self._ahead.take(count)
            if taken is not None:
                return taken
        return _sample(available, count)

    @functools.cached_property
    def _ahead(self) -> Ahead:
        return Ahead(self.entries.visible)

    # Localized texts -----------------------------------------------------------

    def category_name(self, category_id: int, locale: str) -> str:
        return self.category_names[(category_id, locale)]

    def category_description(self, category_id: int, locale: str) -> str:
        (description,) = self.db.execute(
            "SELECT description FROM category_texts WHERE category_id = ? AND locale = ?", (category_id, locale)).fetchone()
        return description

    def note_texts(self, locale: str) -> NoteTexts:
        """What notes in `locale` are written with beside the frames, read from the file: what needs them keeps what it
        needs (kaomoji_api/pieces.py), for the locales it is asked for."""
        return NoteTexts(
            dict(self.db.execute("SELECT part_id, name FROM part_texts WHERE locale = ?", (locale,))),
            dict(self.db.execute("SELECT intent_id, send_when FROM intent_texts WHERE locale = ?", (locale,))),
            dict(self.db.execute("SELECT category_id, about FROM category_texts WHERE locale = ?", (locale,))),
        )

    def drawing_texts(self) -> list[str]:
        """How each drawing draws its part, by drawings.id from 1 ("" for a part drawn as no note shows), read from the
        file: kaomoji_api/pieces.py keeps them as it writes them."""
        return [drawing for (drawing,) in self.db.execute("SELECT drawing FROM drawings ORDER BY id")]

    def profile_texts(self, locale: str) -> list[tuple[str, tuple[str, ...]] | None]:
        """(name, keywords) of each profile in `locale`, by profile id, read from the file (the tests check items against it)."""
        texts: list = [None] * self.profile_count
        for pid, name, keywords in self.profile_rows(locale):
            texts[pid] = (name, tuple(json.loads(keywords)))
        return texts

    def profile_rows(self, locale: str) -> sqlite3.Cursor:
        """(profile id, name, keywords as a JSON array) of each profile in `locale`, one row at a time, as the file holds
        them: what needs them keeps what it needs (kaomoji_api/pieces.py), for the locales it is asked for."""
        return self.db.execute("SELECT profile_id, name, keywords FROM profile_texts WHERE locale = ?", (locale,))

    def glosses(self, locale: str) -> list[str]:
        """What each glossary fragment says in `locale`, by fragment id (index 0 unused)."""
        return ["", *(gloss for (gloss,) in self.db.execute(
            "SELECT gloss FROM fragment_texts WHERE locale = ? ORDER BY fragment_id", (locale,)))]

    def reading_runs(self, reading: int) -> list[tuple[str, str, int]]:
        """What an item's meaning is written from for the text reading `reading` (schema.sql, text_readings): its runs'
        text, romaji and fragment id."""
        runs = self.meaning_runs
        return [(*runs.text(run), runs.fragments[run]) for run in (runs.first[reading], runs.second[reading]) if run]

    def usage_templates(self, locale: str, intent_id: int, category_id: int) -> tuple[str, ...]:
        """The example sentences of an intent (when `intent_id`), else of a category, in `locale`, each with one {kaomoji},
        read from the file: kaomoji_api/pieces.py keeps those it writes lately."""
        table, column, number = ("intent_usage", "intent_id", intent_id) if intent_id else ("usage_templates", "category_id", category_id)
        return tuple(t for (t,) in self.db.execute(
            f"SELECT template FROM {table} WHERE locale = ? AND {column} = ? ORDER BY position", (locale, number)))

    def said_pieces(self, reading: int) -> bytes:
        """What a note's sentences about the text reading `reading` are written from (schema.sql, text_readings), UTF-8."""
        block, ends = self.said_pieces_block
        return block[ends[reading - 1]:ends[reading]]

