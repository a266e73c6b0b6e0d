"""The JSON of an entry as the API shows it, written from pieces: what never changes for a profile or a text in a
locale is encoded once, and a request joins those bytes with the entry's own instead of serialising a dict.

`ItemWriter` is the one place that knows the names and order of an item's fields; tests/test_api.py checks its
items against the fields read one by one. It writes an entry's texts as HTML too, from the same pieces, for its page.
"""

from __future__ import annotations

import functools
import html
import itertools
import operator
import re
from array import array
from collections.abc import Callable
from typing import NamedTuple

import orjson

from kaomoji_api.catalog import (
    ASCII_SAFE,
    DRAWING_BITS,
    ESCAPED,
    HTML_ESCAPED,
    MAX_DRAWINGS,
    NEEDS_CJK_FONT,
    NOTE_RECORD,
    QUAD,
    RECORD,
    RECORD_AND_END,
    SENSITIVE,
    UNIT,
    Catalog,
    forgotten_at_fork,
)
from kaomoji_api.lru import SizedLru

RECORD_BYTES, UNIT_BYTES = RECORD.encode(), UNIT.encode()
# Chinese and Japanese sentences end with one of these and follow each other without a space.
CLOSED = tuple(mark.encode() for mark in ("。", "！", "？"))
USAGE_CACHE_BYTES = 128 * 1024  # the example sentences of ~100 groups
WRITTEN_AHEAD = 100  # items an unseeded pick from every entry writes at once in a locale (WrittenAhead): ~45 KB
WRITTEN_LOCALES = 2  # locales whose items written ahead are kept at once (WrittenAhead)
NO_ROMAJI = re.compile(r"\s?[(（]\{romaji\}[)）]")  # a frame's romaji in brackets, for a text without a reading
NO_DRAWING = re.compile(r"\s?[(（]\{drawing\}[)）]")  # a part name's drawing in brackets, for a part drawn as no note shows


@functools.cache
def selections(count: int) -> tuple[tuple[int, ...], ...]:
    """Every choice of two or three of `count` example sentences (20 for five sentences).

    Stepping through them by 7 gives consecutive ids different choices (there are always more than 7).
    """
    return (*itertools.combinations(range(count), 2), *itertools.combinations(range(count), 3))


def json_inside(value: str | tuple | list) -> bytes:
    """A string as it stands between the quotes of a JSON string, or a sequence between the brackets of a JSON array.

    A slice, also because it is a bytes object of its own size: what orjson returns may hold the rest of its buffer.
    """
    return orjson.dumps(value)[1:-1]


def packed(pieces) -> tuple[bytes, array]:
    """Pieces one after another in one bytes object, with where each ends: piece i (from 1) is
    block[ends[i - 1]:ends[i]]. A locale's ~1,200 glosses, each a bytes object in a tuple, would cost 41 bytes of header
    and slot apiece: half a megabyte in a worker serving twelve locales (bench/worst_memory.py)."""
    block, ends = bytearray(), array("I", [0])
    for piece in pieces:
        block += piece
        ends.append(len(block))
    return bytes(block), ends


def numbered(texts: dict[int, str]) -> tuple[bytes, array]:
    """Texts by their number (from 1), inside JSON strings' quotes, packed: number n's is block[ends[n - 1]:ends[n]],
    b"" for a number without one. Three dicts of bytes objects a locale cost a worker serving twelve locales 0.4 MB
    more (bench/worst_memory.py)."""
    return packed(json_inside(texts[n]) if n in texts else b"" for n in range(1, max(texts, default=0) + 1))


def nth(texts: tuple[bytes, array], number: int) -> bytes:
    """Text `number` of what numbered() packed."""
    block, ends = texts
    return block[ends[number - 1]:ends[number]]


def html_text(text: str) -> bytes:
    """Text as it stands between HTML tags: & < and > escaped (quotes need no escaping there)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").encode()


def html_inside(piece: bytes) -> bytes:
    """What json_inside wrote of a text (a name, a keyword, a meaning or note written from such pieces), as html_text
    writes it: the same object when neither escapes anything in it, which is most texts."""
    # find, not `in`: a byte string's `in` takes twice as long (~0.15 µs a test), and a page makes two texts HTML.
    if piece.find(b"\\") >= 0:
        return html_text(orjson.loads(b'"%b"' % piece))
    if piece.find(b"&") >= 0 or piece.find(b"<") >= 0 or piece.find(b">") >= 0:
        return piece.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b">", b"&gt;")
    return piece


def html_attribute(piece: bytes) -> bytes:
    """What json_inside wrote of a text, as it stands in a double-quoted HTML attribute as well as between tags: as
    html_inside writes it, with " escaped too; the same object when nothing in it needs escaping."""
    text = html_inside(piece)
    return text.replace(b'"', b"&quot;") if text.find(b'"') >= 0 else text


def html_face(text: str) -> bytes:
    """A face as HTML, quotes escaped too: faces go into attributes (a page's title) as well as between tags."""
    return html.escape(text).encode()


class HtmlTexts(NamedTuple):
    """An entry's texts in a locale as HTML, for its page (kaomoji_api/web/render.py puts them in tags), its face and
    name as JSON too, for the page's script, and the fields of its record the page shows."""

    face: bytes
    text: bytes       # the face inside a JSON string's quotes
    name: bytes       # its name inside a JSON string's quotes
    html_name: bytes  # its name as HTML, for tags and double-quoted attributes
    meaning: bytes
    note: bytes
    usage: bytes      # its example sentences as <li> items
    keywords: bytes   # its keywords as <li> items
    id: int
    profile: int
    flags: int        # Entries.flags
    width: int        # display width


class LocalePieces(NamedTuple):
    """What items in one locale are written with, inside JSON strings, made on the locale's first request (a page makes
    HTML of what they write: ItemWriter.html)."""

    names: list[bytes | None]      # each profile's name inside a JSON string's quotes, by profile id
    keywords: list[bytes | None]   # each profile's keywords inside a JSON array's brackets, by profile id
    glosses: tuple[bytes, array]   # what each glossary fragment says, packed by fragment id (packed: from 1)
    heads: tuple[bytes, array]     # each run's line of a meaning up to its frame's last text or romaji, by run id (ItemWriter._heads)
    colon: bytes                   # what follows a head, before the gloss
    separator: bytes               # between the lines of two runs
    said: dict[tuple[bytes, bool], tuple[bytes, Callable]]  # a note's sentence of a piece, by its frame and whether it has romaji
    drawn: tuple[bytes, bytes, bytes]  # a note's sentence of what the face draws: face and parts, face alone, parts alone
    list_separators: tuple[bytes, bytes]  # between the names of parts, and before the last
    part: Callable[[int], bytes]   # a part's name with how a face draws it, by drawings.id (ItemWriter._part_writer)
    when: tuple[bytes, array]      # when to send a face of each intent, packed by intent id (numbered)
    about: tuple[bytes, array]     # what faces of each category are for, packed by category id (numbered)
    quote: bytes                   # a %-template of how a gloss quotes the text it explains, when glosses do (ja); or b""
    joiner: bytes                  # between a note's sentences: a space, or nothing after a CLOSED mark (ja, zh)
    meaning: Callable[[int, int, int], bytes]  # an entry's meaning by its position, text reading and profile (ItemWriter._meaning_writer)


def _template(frame: bytes) -> tuple[bytes, Callable]:
    """A frame of {text}, {romaji} and {gloss} (or some of them) as a %-template, and what picks its values, in the
    frame's order, from (text, romaji, gloss)."""
    names = re.findall(rb"\{(text|romaji|gloss)\}", frame)
    template = re.sub(rb"\{(text|romaji|gloss)\}", b"%b", frame.replace(b"%", b"%%"))
    picks = [(b"text", b"romaji", b"gloss").index(name) for name in names]
    return template, (operator.itemgetter(*picks) if len(picks) > 1 else lambda values: (values[picks[0]],))


class WrittenAhead:
    """Items of unseeded picks from every entry, written ahead: WRITTEN_AHEAD at a time in a locale, each pick taking
    the next `count` of them.

    A pick's items are written from code and data that a worker's caches no longer hold when a request comes: with the
    caches emptied before each call, ten items written in one call cost 3.6 µs an item, thirty 2.7 and a hundred 2.2
    (`bench/item_parts.py --cold`). Written a hundred at a time rather than thirty, a pick of ten's app call took 0.964
    of the time in a pinned worker (`bench/ab.py`, README).
    Faces drawn together (Catalog.random_positions) are different, so a pick's are too; what a pick leaves of a batch
    too short for it is dropped. The batches of at most WRITTEN_LOCALES locales are kept (~45 KB each), the oldest
    dropped first: a worker asked in every locale keeps no more than one asked in two. A forked child forgets them
    (catalog.forgotten_at_fork).
    """

    def __init__(self, writer: ItemWriter):
        self.writer, self.batches = writer, {}
        forgotten_at_fork(self)

    def take(self, count: int, locale: str) -> list[bytes]:
        """Up to `count` items of different faces at random (fewer only when the catalog has fewer faces to show)."""
        batches = self.batches
        batch = batches.get(locale)
        if batch is None or batch[1] + count > len(batch[0]):
            batches.pop(locale, None)
            if len(batches) >= WRITTEN_LOCALES:
                del batches[next(iter(batches))]
            positions = self.writer.catalog.random_positions(max(count, WRITTEN_AHEAD))
            batch = batches[locale] = [self.writer.items(positions, locale), 0]
        items, start = batch
        batch[1] = end = start + count
        if end >= len(items):
            del batches[locale]
        return items[start:end]

    def forget(self) -> None:
        self.batches = {}


class ItemWriter:
    """Items of one catalog as JSON bytes: `{"id":…,"text":…,` then the profile's piece in the locale, the
    rendering facts, the meaning, and what the caller adds (note and usage, a search match)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        entries = catalog.entries
        self._ids, self._ends, self._texts, self._flags = entries.ids, entries.ends, entries.texts, entries.flags
        self._profiles = entries.record_profiles
        # The rendering facts after display_width, by Entries.fact_sets index: a few hundred in the whole catalog.
        self._facts = [
            orjson.dumps({
                "ascii_safe": flags & ASCII_SAFE != 0, "needs_cjk_font": flags & NEEDS_CJK_FONT != 0,
                "scripts": entries.script_sets[script_set], "sensitive": flags & SENSITIVE != 0,
            })[1:-1] + b","
            for flags, script_set in entries.fact_sets
        ]
        # Each entry's record, read whole by RECORD_AND_END: one call where its seven fields took seven reads of a view.
        self._records = entries.records
        self._readings, self._lead_parts = entries.text_readings, entries.lead_parts
        self._intents, self._categories_of, self._note_records = entries.intents, entries.categories, entries.note_records
        self._drawings = packed(map(json_inside, catalog.drawing_texts()))  # how each drawing draws its part, by drawings.id
        self._runs = catalog.meaning_runs
        self._run_fragments = self._runs.fragments
        # The heads of the runs' lines as each frame writes them (three serve the twelve locales today), made when a
        # locale that writes with it is first asked for.
        self._made_heads: dict[tuple, tuple[bytes, array]] = {}
        self._said_pieces, self._said_ends = catalog.said_pieces_block
        self._locales: dict[str, LocalePieces] = {}
        self.picks = WrittenAhead(self)  # unseeded picks from every entry
        # The example sentences of the groups (an intent or a category, in a locale) written lately, each split at its
        # {kaomoji} into what comes before and after, inside JSON quotes: all of them in every locale would cost a
        # worker a megabyte.
        self._templates = SizedLru(USAGE_CACHE_BYTES, lambda templates: sum(len(before) + len(after) + 120 for before, after in templates))
        # Each profile's category and categories, the same in every locale: one piece per set of categories.
        shared: dict[tuple, bytes] = {}
        self._categories = [
            None if slugs is None else shared.setdefault(slugs, b'"category":"%b","categories":%b,' % (slugs[0].encode(), orjson.dumps(slugs)))
            for slugs in catalog.profile_categories
        ]

    def items(self, positions, locale: str, extras=None) -> list[bytes]:
        """The entries at `positions` as JSON objects; `extras`, when given, has for each more members, each starting with a
        comma. One loop with what it reads bound once: a page or a random pick writes up to 100 in a request."""
        pieces = self._locales.get(locale) or self._read_locale(locale)
        record, records, texts, fact_of = RECORD_AND_END.unpack_from, self._records, self._texts, self._facts
        categories, names, keywords, meaning = self._categories, pieces.names, pieces.keywords, pieces.meaning
        written = []
        for index, position in enumerate(positions):
            entry_id, start, profile, facts, reading, flags, width, end = record(records, position << 4)
            text = texts[start:end]
            if flags & ESCAPED:
                text = json_inside(text.decode())
            written.append(b'{"id":%d,"text":"%b",%b"name":"%b","keywords":[%b],"display_width":%d,%b"meaning":"%b"%b}' % (
                entry_id, text, categories[profile], names[profile], keywords[profile], width,
                fact_of[facts], meaning(position, reading, profile), extras[index] if extras else b"",
            ))
        return written

    def item(self, position: int, locale: str) -> bytes:
        """The entry at `position` as a JSON object."""
        return self.items((position,), locale)[0]

    def detail(self, position: int, locale: str, extra: bytes = b"") -> bytes:
        """The entry at `position` with its note and usage, as a single entry and a search result show it; `extra` is
        more members, each starting with a comma."""
        pieces = self._locales.get(locale) or self._read_locale(locale)
        _, start, _, _, reading, flags, _, end = RECORD_AND_END.unpack_from(self._records, position << 4)
        text = self._texts[start:end]
        if flags & ESCAPED:
            text = json_inside(text.decode())
        return self.items((position,), locale, (b',"note":"%b","usage":["%b"]%b' % (
            self._note(position, reading, pieces), b'","'.join(self._usage(position, locale, json_inside, text)), extra),))[0]

    def html(self, position: int, locale: str) -> HtmlTexts:
        """The entry's face, name, meaning, note, example sentences and keywords as HTML text, as its page shows them,
        and its face and name as JSON: its JSON meaning and note made HTML, so the two say the same, and its sentences
        written with HTML text. (The pieces are kept once, for JSON: a locale's glosses kept as HTML too would double
        them wherever one gloss escapes a character, half a megabyte in twelve locales.)"""
        pieces = self._locales.get(locale) or self._read_locale(locale)
        entry_id, start, profile, _, reading, flags, width, end = RECORD_AND_END.unpack_from(self._records, position << 4)
        raw = self._texts[start:end]
        face = html_face(raw.decode()) if flags & HTML_ESCAPED else raw
        keywords, name = pieces.keywords[profile], pieces.names[profile]
        if b"\\" in keywords:
            keywords = b"".join(b"<li>%b</li>" % html_text(keyword) for keyword in orjson.loads(b"[%b]" % keywords))
        elif keywords:  # each keyword between quotes, with no quote inside one: the quotes and commas become the tags
            keywords = b"<li>%b</li>" % html_inside(keywords[1:-1]).replace(b'","', b"</li><li>")
        usage = self._usage(position, locale, html_text, face)
        return HtmlTexts(face, json_inside(raw.decode()) if flags & ESCAPED else raw, name, html_attribute(name),
                         html_inside(pieces.meaning(position, reading, profile)), html_inside(self._note(position, reading, pieces)),
                         b"<li>%b</li>" % b"</li><li>".join(usage), keywords, entry_id, profile, flags, width)

    def text(self, position: int) -> bytes:
        """The entry's face inside a JSON string's quotes: its UTF-8 as it stands, unless it holds " or \\."""
        text = self._texts[self._ends[position]:self._ends[position + 1]]
        return json_inside(text.decode()) if self._flags[position] & ESCAPED else text

    def name(self, position: int, locale: str) -> bytes:
        """The entry's name inside a JSON string's quotes."""
        return (self._locales.get(locale) or self._read_locale(locale)).names[self._profiles[position]]

    def meaning(self, position: int, locale: str) -> bytes:
        """The entry's meaning as a JSON string: what its text says; failing that, its most telling drawn part;
        failing that, its name."""
        return b'"%b"' % (self._locales.get(locale) or self._read_locale(locale)).meaning(position, self._readings[position], self._profiles[position])

    def _meaning_writer(self, names: list, heads: tuple[bytes, array], colon: bytes, glosses: tuple[bytes, array],
                        separator: bytes, part: Callable[[int], bytes]) -> Callable[[int, int, int], bytes]:
        """What writes an entry's meaning in a locale written with these pieces: a line for each of its reading's runs,
        its head and its gloss; failing a reading, its most telling drawn part; failing that, its name. Everything it
        reads is bound here once, not looked up on the writer for each of the up to 100 items of a request."""
        quads, read_quad, lead_parts = self._runs.first.obj, QUAD.unpack_from, self._lead_parts
        heads, head_ends = heads
        glosses, gloss_ends = glosses

        def meaning(position: int, reading: int, profile: int) -> bytes:
            if reading:
                run, fragment, second, second_fragment = read_quad(quads, reading << 3)
                if run:
                    line = heads[head_ends[run - 1]:head_ends[run]] + colon + glosses[gloss_ends[fragment - 1]:gloss_ends[fragment]]
                    if not second:
                        return line
                    return (line + separator + heads[head_ends[second - 1]:head_ends[second]] + colon
                            + glosses[gloss_ends[second_fragment - 1]:gloss_ends[second_fragment]])
            lead = lead_parts[position]
            return part(lead) if lead else names[profile]

        return meaning

    def _part_writer(self, names: dict[int, str]) -> Callable[[int], bytes]:
        """What writes a part in a locale whose part names are `names` (by part id), by drawings.id: its name with the
        face's drawing in the brackets of its {drawing} ("smiling eyes (⌒)" for (⌒▽⌒)), or, for a part drawn as no note shows or
        a name without {drawing}, its name alone. Three pieces a part, packed: what comes before the drawing, after it,
        and the name without it."""
        pieces = []
        for number in range(1, max(names, default=0) + 1):
            name = names.get(number, "")
            before, slot, after = name.partition("{drawing}")
            pieces += [json_inside(before), json_inside(after), json_inside(NO_DRAWING.sub("", name))] if slot else [b"", b"", json_inside(name)]
        block, ends = packed(pieces)
        drawings, drawing_ends, drawing_parts = *self._drawings, self.catalog.drawing_parts

        def part(number: int) -> bytes:
            piece = 3 * drawing_parts[number]  # its name without a drawing; the two before it, the name around one
            if drawing_ends[number - 1] == drawing_ends[number] or ends[piece - 3] == ends[piece - 1]:
                return block[ends[piece - 1]:ends[piece]]
            return block[ends[piece - 3]:ends[piece - 2]] + drawings[drawing_ends[number - 1]:drawing_ends[number]] + block[ends[piece - 2]:ends[piece - 1]]

        return part

    def _heads(self, frame: bytes, quote: bytes, glosses: tuple[bytes, array], locale: str) -> tuple[tuple[bytes, array], bytes]:
        """Each run's line of a meaning written with `frame` (its {gloss} last), up to the frame's last {text} or
        {romaji}, one after another: run r's is heads[ends[r - 1]:ends[r]]; and what follows each head, before the gloss
        (": "). A run without romaji (ッ alone) leaves out the frame's romaji. When the glosses quote the text they
        explain, a run whose gloss quotes it as it is written has no head, its gloss being the line by itself (ja:
        「ポッ」：…, not 「ポッ」＝「ポッ」：…); the heads are then the locale's own, and hold what follows them.
        Kept per frame, so locales that write alike share one copy (~120 KB)."""
        head, gloss, tail = frame.partition(b"{gloss}")
        if not gloss or tail:
            raise ValueError(f"a meaning frame must end with its {{gloss}}: {frame.decode()!r}")
        end = 0 if quote else max(head.rfind(b"{text}") + len(b"{text}"), head.rfind(b"{romaji}") + len(b"{romaji}"))
        head, colon = (head, b"") if quote else (head[:end], head[end:])
        key = (head, quote and locale)  # the gloss's quote makes the heads the locale's own
        made = self._made_heads.get(key)
        if made is None:
            written, bare = _template(head), _template(head.replace(b" {romaji}", b""))
            texts, text_ends, fragments = self._runs.texts, self._runs.ends, self._run_fragments
            gloss_block, gloss_ends = glosses

            def head(run: int) -> bytes:
                # Runs are kana and kanji, romaji ASCII letters: nothing in them needs escaping in JSON or HTML.
                text, romaji = texts[text_ends[run - 1]:text_ends[run]].split(UNIT_BYTES)
                fragment = fragments[run]
                if quote and gloss_block.startswith(quote % text, gloss_ends[fragment - 1], gloss_ends[fragment]):
                    return b""
                template, values = written if romaji else bare
                return template % values((text, romaji, b""))

            made = self._made_heads[key] = packed(map(head, range(1, len(text_ends))))
        return made, colon

    def note(self, position: int, locale: str) -> bytes:
        """The entry's note as a JSON string, written for its face: what its text says, what it draws (the face between
        its brackets and its first parts), and when to send it."""
        return b'"%b"' % self._note(position, self._readings[position], self._locales.get(locale) or self._read_locale(locale))

    def _note(self, position: int, reading: int, pieces: LocalePieces) -> bytes:
        """The note as `pieces` write it: inside a JSON string's quotes, or HTML; `reading` is the entry's text reading."""
        sentences = []
        said = self._said_pieces[self._said_ends[reading - 1]:self._said_ends[reading]] if reading else b""
        if said:
            frames, (glosses, gloss_ends), quote = pieces.said, pieces.glosses, pieces.quote
            for piece in said.split(RECORD_BYTES):
                # Texts are kana and kanji, romaji ASCII letters: nothing in them needs escaping in JSON.
                said_text, romaji, fragment, frame = piece.split(UNIT_BYTES)
                template, values = frames[frame, romaji != b""]
                fragment = int(fragment)
                gloss = glosses[gloss_ends[fragment - 1]:gloss_ends[fragment]]
                if quote and gloss.startswith(quoted := quote % said_text):
                    gloss = gloss[len(quoted):]  # the sentence quotes the text already: what it says follows
                sentences.append(template % values((said_text, romaji, gloss)))
        parts, span, intent, category = NOTE_RECORD.unpack_from(self._note_records, position << 3)  # 8 bytes a position
        if parts:
            names, part = [], pieces.part
            while parts:  # drawings.id of DRAWING_BITS each, the first lowest
                names.append(part(parts & MAX_DRAWINGS))
                parts >>= DRAWING_BITS
            separator, last = pieces.list_separators
            drawn = names[0] if len(names) == 1 else separator.join(names[:-1]) + last + names[-1]
        else:
            drawn = b""
        if span:
            start = self._ends[position] + (span >> 6)
            face = self._texts[start:start + (span & 63)]
            if self._flags[position] & ESCAPED:
                face = json_inside(face.decode())
        else:
            face = None
        if face or drawn:
            both, face_only, parts_only = pieces.drawn
            if face and drawn:
                sentences.append(both.replace(b"{face}", face).replace(b"{parts}", drawn))
            else:
                sentences.append(face_only.replace(b"{face}", face) if face else parts_only.replace(b"{parts}", drawn))
        when = nth(pieces.when, intent) if intent else nth(pieces.about, category)
        if when:
            sentences.append(when)
        return pieces.joiner.join(sentences)

    def usage(self, position: int, locale: str) -> bytes:
        """Two or three example sentences of the entry's intent, else of its category, with its face, as a JSON array;
        chosen from the id, so that consecutive ids differ."""
        return b'["%b"]' % b'","'.join(self._usage(position, locale, json_inside, self.text(position)))

    def _usage(self, position: int, locale: str, write: Callable[[str], bytes], text: bytes) -> list[bytes]:
        """The example sentences as `write` writes their text (json_inside, html_text); `text` is the face as written so."""
        intent = self._intents[position]
        group = (locale, intent, 0 if intent else self._categories_of[position])
        key = (*group, write)
        templates = self._templates.get(key)
        if templates is None:
            templates = tuple(tuple(write(part) for part in template.split("{kaomoji}"))
                              for template in self.catalog.usage_templates(*group))
            self._templates.put(key, templates)
        choices = selections(len(templates))
        return [text.join(templates[i]) for i in choices[(self._ids[position] * 7) % len(choices)]]

    def html_names(self, locale: str) -> list[bytes | None]:
        """Each profile's name in `locale` as HTML for tags and double-quoted attributes, by profile id: the JSON pieces
        themselves where they read the same, which is all but a few names of a locale (those with & < > or "); in a
        locale with none, the very list. A page's cards and title need no second copy of a locale's names."""
        names = (self._locales.get(locale) or self._read_locale(locale)).names
        written = [name if name is None else html_attribute(name) for name in names]
        return names if all(map(operator.is_, written, names)) else written

    def names(self, locale: str) -> list[str | None]:
        """Each profile's name in `locale`, by profile id: read back from the JSON pieces, which are all that is kept."""
        return [None if name is None else orjson.loads(b'"%b"' % name)
                for name in (self._locales.get(locale) or self._read_locale(locale)).names]

    def _read_locale(self, locale: str) -> LocalePieces:
        catalog, frames = self.catalog, self.catalog.frames[locale]
        glosses = packed(map(json_inside, catalog.glosses(locale)[1:]))
        quote = json_inside(frames.gloss_quote).replace(b"%", b"%%").replace(b"{text}", b"%b")
        said = {
            (letter, with_romaji): _template(json_inside(text if with_romaji else NO_ROMAJI.sub("", text)))
            for letter, text in ((b"m", frames.text_means), (b"i", frames.text_is), (b"u", frames.text_unknown),
                                 (b"w", frames.text_unknown_first))
            for with_romaji in (True, False)
        }
        # Profiles share names and keyword lists (~330 names and ~650 lists for ~1,400 profiles): one copy of each, made
        # as its rows are read. Parsed all at once, a locale's rows took ~1.5 MB for a moment and left holes in the
        # worker's memory that it kept (1.3 MB more with twelve locales, bench/worst_memory.py).
        names: list[bytes | None] = [None] * len(self._categories)
        keywords = names.copy()
        encoded_names: dict[str, bytes] = {}
        encoded_keywords: dict[str, bytes] = {}
        for profile, name, words in catalog.profile_rows(locale):
            names[profile] = encoded_names.get(name) or encoded_names.setdefault(name, json_inside(name))
            keywords[profile] = encoded_keywords.get(words) or encoded_keywords.setdefault(words, json_inside(orjson.loads(words)))
        heads, colon = self._heads(json_inside(frames.meaning), quote, glosses, locale)
        separator = json_inside(frames.meaning_separator)
        part_names, when, about = catalog.note_texts(locale)
        part, (when, about) = self._part_writer(part_names), map(numbered, (when, about))
        pieces = self._locales[locale] = LocalePieces(
            names, keywords, glosses, heads, colon, separator,
            said, (json_inside(frames.drawn), json_inside(frames.drawn_face), json_inside(frames.drawn_parts)),
            (json_inside(frames.list_separator), json_inside(frames.list_last)),
            part, when, about, quote, b"" if frames.drawn.encode().endswith(CLOSED) else b" ",
            self._meaning_writer(names, heads, colon, glosses, separator, part),
        )
        return pieces
