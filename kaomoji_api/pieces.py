"""The JSON of an entry as the API shows it, written from pieces: what never changes for a profile or a text in a
locale is encoded once, and a request joins those bytes with the entry's own instead of serialising a dict.

`ItemWriter` is the one place that knows the names and order of an item's fields; tests/test_api.py checks its
items against the fields read one by one.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import NamedTuple

import orjson

from kaomoji_api.catalog import ASCII_SAFE, ESCAPED, NEEDS_CJK_FONT, RECORD, SENSITIVE, UNIT, Catalog

RECORD_BYTES, UNIT_BYTES = RECORD.encode(), UNIT.encode()
FACTS = ASCII_SAFE | NEEDS_CJK_FONT | SENSITIVE  # the flags an item shows


def json_inside(value: str | tuple) -> bytes:
    """A string as it stands between the quotes of a JSON string, or a tuple between the brackets of a JSON array.

    A slice, also because it is a bytes object of its own size: what orjson returns may hold the rest of its buffer.
    """
    return orjson.dumps(value)[1:-1]


class LocalePieces(NamedTuple):
    """What items in one locale are written with, made on the locale's first request."""

    names: list[str | None]        # each profile's name, by profile id
    names_json: list[bytes | None]  # the same inside a JSON string's quotes
    keywords: list[bytes | None]   # each profile's keywords inside a JSON array's brackets, by profile id
    glosses: tuple[bytes, ...]     # what each glossary fragment says, by fragment id (index 0 unused)
    frame: tuple[bytes, Callable]  # a meaning line: a bytes template, and what picks its values of (text, romaji, gloss)
    bare_frame: tuple[bytes, Callable]  # the same for a run without a reading of its own (ッ alone)
    separator: bytes               # between the lines of two runs


def _template(frame: bytes) -> tuple[bytes, Callable]:
    """A frame of {text}, {romaji} and {gloss} as a %-template, and what picks its values, in the frame's order, from
    (text, romaji, gloss)."""
    names = re.findall(rb"\{(text|romaji|gloss)\}", frame)
    template = re.sub(rb"\{(text|romaji|gloss)\}", b"%b", frame.replace(b"%", b"%%"))
    picks = [(b"text", b"romaji", b"gloss").index(name) for name in names]
    return template, (operator.itemgetter(*picks) if len(picks) > 1 else lambda values: (values[picks[0]],))


class ItemWriter:
    """Items of one catalog as JSON bytes: `{"id":…,"text":…,` then the profile's piece in the locale, the
    rendering facts, the meaning, and what the caller adds (note and usage, a search match)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        entries = catalog.entries
        self._ids, self._ends, self._texts, self._flags = entries.ids, entries.ends, entries.texts, entries.flags
        self._profiles, self._widths, self._script_set = entries.profiles, entries.widths, entries.script_set
        self._readings, self._lead_parts = entries.text_readings, entries.lead_parts
        self._locales: dict[str, LocalePieces] = {}
        self._facts: dict[int, bytes] = {}
        # Each profile's category and categories, the same in every locale: one piece per set of categories.
        shared: dict[tuple, bytes] = {}
        self._categories = [
            None if slugs is None else shared.setdefault(slugs, b'"category":"%b","categories":%b,' % (slugs[0].encode(), orjson.dumps(slugs)))
            for slugs in catalog.profile_categories
        ]

    def item(self, position: int, locale: str, extra: bytes = b"") -> bytes:
        """The entry at `position` as a JSON object; `extra` is more members, each starting with a comma."""
        pieces = self._locales.get(locale) or self._read_locale(locale)
        text = self._texts[self._ends[position]:self._ends[position + 1]]
        flags = self._flags[position]
        if flags & ESCAPED:
            text = json_inside(text.decode())
        key = (flags & FACTS) << 16 | self._script_set[position]
        profile = self._profiles[position]
        return b'{"id":%d,"text":"%b",%b"name":"%b","keywords":[%b],"display_width":%d,%b"meaning":%b%b}' % (
            self._ids[position], text, self._categories[profile], pieces.names_json[profile], pieces.keywords[profile],
            self._widths[position], self._facts.get(key) or self._facts_piece(key), self.meaning(position, locale, pieces), extra,
        )

    def meaning(self, position: int, locale: str, pieces: LocalePieces | None = None) -> bytes:
        """The entry's meaning as a JSON string: what its text says; failing that, its most telling drawn part;
        failing that, its name."""
        pieces = pieces or self._locales.get(locale) or self._read_locale(locale)
        reading = self._readings[position]
        said = self.catalog.reading_pieces(reading) if reading else b""
        if said:
            lines = []
            for run in said.split(RECORD_BYTES) if RECORD_BYTES in said else (said,):
                # Runs are kana and kanji, romaji ASCII letters: nothing in them needs escaping in JSON.
                text, romaji, fragment = run.split(UNIT_BYTES)
                template, values = pieces.frame if romaji else pieces.bare_frame
                lines.append(template % values((text, romaji, pieces.glosses[int(fragment)])))
            return b'"%b"' % (lines[0] if len(lines) == 1 else pieces.separator.join(lines))
        part = self._lead_parts[position]
        if part:
            return orjson.dumps(self.catalog.part_names[(part, locale)])
        return b'"%b"' % pieces.names_json[self._profiles[position]]

    def names(self, locale: str) -> list[str | None]:
        """Each profile's name in `locale`, by profile id."""
        return (self._locales.get(locale) or self._read_locale(locale)).names

    def _read_locale(self, locale: str) -> LocalePieces:
        frame, separator = map(json_inside, self.catalog.frames[locale][:2])
        # Profiles share names and keyword lists (a few hundred of each for ~1,000 profiles): one copy of each.
        encoded: dict = {}
        texts = self.catalog.profile_texts(locale)
        pieces = self._locales[locale] = LocalePieces(
            [None if t is None else encoded.setdefault(t[0], t[0]) for t in texts],
            [None if t is None else encoded.get((t[0],)) or encoded.setdefault((t[0],), json_inside(t[0])) for t in texts],
            [None if t is None else encoded.get(t[1]) or encoded.setdefault(t[1], json_inside(t[1])) for t in texts],
            tuple(map(json_inside, self.catalog.glosses(locale))), _template(frame), _template(frame.replace(b" {romaji}", b"")), separator,
        )
        return pieces

    def _facts_piece(self, key: int) -> bytes:
        """The rendering facts after display_width: a few hundred distinct ones in the whole catalog (the sets of
        scripts with the flags)."""
        flags, scripts = key >> 16, self.catalog.entries.script_sets[key & 0xFFFF]
        piece = self._facts[key] = orjson.dumps({
            "ascii_safe": flags & ASCII_SAFE != 0, "needs_cjk_font": flags & NEEDS_CJK_FONT != 0,
            "scripts": scripts, "sensitive": flags & SENSITIVE != 0,
        })[1:-1] + b","
        return piece
