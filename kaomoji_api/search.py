"""Keyword and face search over the catalog, ranked by relevance.

Words are matched against profiles (the ~900 groups of entries that share labels, names
and category) through the per-locale FTS5 tables, so ranking never touches the 70,000
entries; entries of equally relevant profiles then come cleanest face first.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import unicodedata
import weakref
from array import array
from dataclasses import dataclass

from kaomoji_api import textnorm
from kaomoji_api.catalog import Catalog

MAX_QUERY_TOKENS = 16

# Match strengths, best first.
EXACT, PREFIX, PARTIAL, CATEGORY = 0, 1, 2, 3


@dataclass(frozen=True)
class Match:
    """Why an entry matched: the field, the keyword (or face text) and its locale."""

    field: str
    value: str
    locale: str | None

    def as_dict(self) -> dict:
        return {"field": self.field, "value": self.value, "locale": self.locale}


@dataclass(frozen=True)
class Ranking:
    """A query's results as tiers of profiles and face matches, in rank order."""

    tiers: tuple  # ((kind, payload, match_by_profile_or_match), ...)
    total: int


def fts_query(tokens: list[str]) -> str:
    """An FTS5 query that all tokens must match, the last one as a prefix.

    Every token is a quoted string, so no input (quotes, *, NEAR, OR, -) is FTS5 syntax.
    """
    quoted = ['"' + t.replace('"', '""') + '"' for t in tokens]
    quoted[-1] += "*"
    return " ".join(quoted)


def looks_like_a_face(query: str) -> bool:
    """True when the query holds a symbol or punctuation character, as pasted faces do."""
    return any(unicodedata.category(ch)[0] in "PS" for ch in query if not ch.isspace())


class Searcher:
    """Search over one catalog; results of recent queries are cached with it."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        # Every entry in quality order, and each profile's entries as positions in that order.
        self.ids_by_quality, self.profile_by_position = array("I"), array("I")
        self.positions_by_profile: dict[int, array] = {}
        for position, (entry_id, profile_id) in enumerate(
            catalog.db.execute("SELECT id, profile_id FROM entries ORDER BY quality")
        ):
            self.ids_by_quality.append(entry_id)
            self.profile_by_position.append(profile_id)
            self.positions_by_profile.setdefault(profile_id, array("I")).append(position)
        self.ranking = functools.lru_cache(maxsize=1024)(self._ranking)

    def _comparables(self, profile_id: int, locale: str, stemmer) -> list[tuple[str, str, str]]:
        name, keywords = self.catalog.name_and_keywords(profile_id, locale)
        fields = [("keyword", kw) for kw in keywords] + [("name", name)]
        return [(field, value, textnorm.comparable(value, stemmer)) for field, value in fields]

    def _profile_matches(self, query: str, locale: str) -> dict[int, tuple[int, Match]]:
        """Profiles matching the query in one locale's table, with strength and reason."""
        stemmer = textnorm.stemmer_for(self.catalog.locales[locale].stemmer)
        tokens = textnorm.query_tokens(query, stemmer)[:MAX_QUERY_TOKENS]
        if not tokens:
            return {}
        table = "search_" + locale.lower().replace("-", "_")
        wanted = textnorm.comparable(query, stemmer)
        found = {}
        rows = self.catalog.db.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ?", (fts_query(tokens),))
        for (profile_id,) in rows:
            best = None
            for field, value, comparable in self._comparables(profile_id, locale, stemmer):
                if comparable == wanted:
                    strength = EXACT
                elif comparable.startswith(wanted):
                    strength = PREFIX
                elif all(t in comparable for t in tokens):
                    strength = PARTIAL
                else:
                    continue
                if best is None or strength < best[0]:
                    best = (strength, Match(field, value, locale))
            if best is None:  # only the category name matched
                category_id = self.catalog.profiles[profile_id][0]
                best = (CATEGORY, Match("category", self.catalog.category_name(category_id, locale), locale))
            found[profile_id] = best
        return found

    def _face_matches(self, query: str) -> list[int]:
        """Positions (quality order) of entries whose text contains the query; exact faces first."""
        db = self.catalog.db
        if len(query) >= 3:
            rows = db.execute(
                "SELECT e.id, e.quality, e.text = ? FROM entry_text_search f JOIN entries e ON e.id = f.rowid "
                "WHERE entry_text_search MATCH ?",
                (query, '"' + query.replace('"', '""') + '"'),
            )
        else:
            rows = db.execute("SELECT id, quality, text = ? FROM entries WHERE instr(text, ?) > 0", (query, query))
        return [quality for _, quality, _ in sorted(rows.fetchall(), key=lambda r: (not r[2], r[1]))]

    def _ranking(self, query: str, locale: str) -> Ranking:
        locales = [locale] + [code for code in self.catalog.locales if code != locale]
        best: dict[int, tuple[tuple[int, int], Match]] = {}
        for rank, code in enumerate(locales):
            for profile_id, (strength, match) in self._profile_matches(query, code).items():
                key = (strength, min(rank, 1))  # the requested locale first, all others alike
                if profile_id not in best or key < best[profile_id][0]:
                    best[profile_id] = (key, match)
        faces = self._face_matches(query)
        face_first = looks_like_a_face(query) or not any(key[0] == EXACT for key, _ in best.values())

        tiers = []
        by_key: dict[tuple, list[int]] = {}
        for profile_id, (key, _) in best.items():
            by_key.setdefault(key, []).append(profile_id)
        ordered = sorted(by_key.items())
        face_tier = ("faces", tuple(faces), Match("text", query, None))
        if faces and face_first:
            tiers.append(face_tier)
        for key, profile_ids in ordered:
            tiers.append(("profiles", tuple(sorted(profile_ids)), {p: best[p][1] for p in profile_ids}))
        if faces and not face_first:
            tiers.append(face_tier)

        matched_profiles = set(best)
        extra_faces = sum(1 for pos in faces if self.profile_by_position[pos] not in matched_profiles)
        total = sum(self.catalog.profiles[p][2] for p in matched_profiles) + extra_faces
        return Ranking(tuple(tiers), total)

    def _ranked_positions(self, ranking: Ranking):
        """Every result as (position in quality order, Match), best first, each entry once."""
        seen = set()
        for kind, payload, matches in ranking.tiers:
            if kind == "faces":
                for position in payload:
                    if position not in seen:
                        seen.add(position)
                        yield position, matches
            else:
                streams = [self.positions_by_profile[p] for p in payload]
                for position in heapq.merge(*streams):
                    if position not in seen:
                        seen.add(position)
                        yield position, matches[self.profile_by_position[position]]

    def search(self, query: str, locale: str, offset: int, limit: int) -> tuple[list[tuple[int, Match]], int]:
        """One page of (entry id, Match), best first, and the number of results in all."""
        ranking = self.ranking(query, locale)
        page = itertools.islice(self._ranked_positions(ranking), offset, offset + limit)
        return [(self.ids_by_quality[position], match) for position, match in page], ranking.total


_searchers: "weakref.WeakKeyDictionary[Catalog, Searcher]" = weakref.WeakKeyDictionary()


def search_entries(catalog: Catalog, query: str, locale: str, offset: int, limit: int):
    """One page of (entry id, Match) for a query, best first, and the number of results in all."""
    searcher = _searchers.get(catalog)
    if searcher is None:
        searcher = _searchers[catalog] = Searcher(catalog)
    return searcher.search(query, locale, offset, limit)
