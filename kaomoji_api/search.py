"""Keyword and face search over the catalog, ranked by relevance.

Queries match the ~1,200 profiles (entries sharing labels, names and category) through small
indexes of every locale's keys held in memory, so ranking never touches the 70,000 entries; entries of
equally relevant profiles then come cleanest face first, one face per shape before its copies.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import json
import operator
import sys
import threading
import unicodedata
from array import array
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from kaomoji_api import textnorm
from kaomoji_api.catalog import Catalog, Entries
from kaomoji_api.lru import SizedLru

MAX_QUERY_TOKENS = 16
LAST_CODE_POINT = chr(0x10FFFF)
SHORT_PREFIX_KEYS = 16  # a beginning of one or two letters starting more keys has its profiles precomputed
SHORTEST = 4  # letters of a word's beginning that KeyIndex.shortened still matches on

# How a profile matched, best first. Stemmed equality lets "cats" and "dancing" find "cat"
# and "dance"; an exact match still comes first, so "love" ranks love before "lovely".
# LABEL is an exact match on one of the profile's own words (its dataset labels, and the first
# word a locale gives for each), not only on a word of the same concept that the locale files
# add: "victory" is a label of a few proud faces and a keyword of them all; German "müde" is the
# first word for tired and one more word for sleepy. It ranks as EXACT, first among the exact
# matches of the same locale.
# A query that is a category's whole name (or its stem: "run" for Running) comes after the exact
# and stemmed keyword matches but before prefix and partial ones: "running" finds runners before
# the "Running on coffee" faces; a category matched by some of its words comes after them all.
LABEL, EXACT, STEM, CATEGORY_NAME, PREFIX, PARTIAL, CATEGORY, LOOSE = range(8)


def tier_key(strength: int, order, locale_rank: int) -> tuple:
    """Tiers sort by strength, then the matcher's order within it, then the requested locale first."""
    return (max(strength, EXACT), order, min(locale_rank, 1), strength)


class Match(NamedTuple):
    """Why an entry matched: the field, the keyword (or face text, or what the face says) and its locale;
    `corrected_from` is the query as typed when it matched only once its spelling was corrected. A named tuple: it is
    hashed in C (a page's results keep each distinct Match once) and is half the size of a dataclass instance."""

    field: str
    value: str
    locale: str | None
    corrected_from: str | None = None

    def as_dict(self) -> dict:
        found = {"field": self.field, "value": self.value, "locale": self.locale}
        if self.corrected_from is not None:
            found["corrected_from"] = self.corrected_from
        return found


def looks_like_a_face(query: str) -> bool:
    """True when the query holds a symbol or punctuation character, as pasted faces do."""
    if "".join(query.split()).isalnum():  # letters and digits only, as most queries are: no look-up per character
        return False
    return any(unicodedata.category(ch)[0] in "PS" for ch in query if not ch.isspace())


_BITS = bytes.maketrans(b"01", b"\x00\x01")


FEW_PROFILES = 48  # a mask of at most this many profiles is read bit by bit, a larger one through profile_flags()


@functools.cache
def _profile_ids(count: int) -> tuple[int, ...]:
    """0 to count - 1, made once: compress() over a range would make an int object for each of ~1,200 profiles."""
    return tuple(range(count))


def profiles_of(mask: int, count: int) -> list[int]:
    """The profile ids set in a mask, in order. A few are found by taking the lowest bit off, one Python step each; a
    walk of the flags of all ~1,200 profiles (in C) costs less only from about fifty on."""
    if mask.bit_count() > FEW_PROFILES:
        return list(itertools.compress(_profile_ids(count), profile_flags(mask, count)))
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def entries_of(mask: int, counts: tuple[int, ...]) -> int:
    """How many entries the profiles of a mask hold (`counts`: per profile id); many profiles are summed through
    their flags in C rather than listed first."""
    if mask.bit_count() > FEW_PROFILES:
        return sum(itertools.compress(counts, profile_flags(mask, len(counts))))
    return sum(map(counts.__getitem__, profiles_of(mask, len(counts))))


def profile_flags(mask: int, count: int) -> bytes:
    """A bitmask as one byte per profile (1 where set), `count` long: itertools.compress() over it walks
    the set profiles in C, where a loop over the bits costs a Python step each (~300 profiles for "happy")."""
    return bin(mask)[:1:-1].encode().translate(_BITS).ljust(count, b"\x00")[:count]


def _hits(flat) -> zip:
    """(locale, profiles mask, Match) of a flat hits tuple (see KeyIndex)."""
    it = iter(flat)
    return zip(it, it, it, strict=True)


def _by_locale(flat) -> dict:
    """A flat hits tuple as {locale: (profiles mask, Match)}."""
    return {code: (mask, match) for code, mask, match in _hits(flat)}


class KeyIndex:
    """Every locale's search keys, loaded from the catalog's precomputed search_keys table.

    Per kind, a normalised form maps to its hits in every locale, flat: (locale, profiles mask, Match, locale, ...).
    A query looks each of its forms up once for all twelve locales (most forms are a key of one or two), rather
    than once per locale. With ~1,200 profiles a bitmask is a small integer, so AND, OR and "not yet matched"
    are single operations.
    """

    def __init__(self, catalog: Catalog):
        self.stemmers = {code: textnorm.stemmer_for(catalog.locales[code].stemmer) for code in catalog.locales}
        self.function_words = {code: locale.function_words for code, locale in catalog.locales.items()}
        self.distinct_stemmers = list(dict.fromkeys(self.stemmers.values()))  # four locales have none
        indexes: dict[str, dict[str, tuple]] = {kind: {} for kind in ("label", "exact", "stemmed", "token", "category", "category_name")}
        matches: dict[tuple[str, str], dict[str, Match]] = {}
        shared: dict = {}  # identical strings and masks recur across locales and kinds: one object of each
        rows = catalog.db.execute("SELECT kind, key, locale, profiles, field, value FROM search_keys ORDER BY kind, key, locale")
        # Rows come grouped by kind and key: each key's hits are made a tuple as soon as they are all read.
        index, key, flat = None, None, []
        for kind, row_key, code, profiles, field, value in rows:
            if row_key != key or indexes[kind] is not index:
                if flat:
                    index[shared.setdefault(key, key)] = tuple(flat)
                index, key, flat = indexes[kind], row_key, []
            code, field, value = shared.setdefault(code, code), shared.setdefault(field, field), shared.setdefault(value, value)
            of_field = matches.get((code, field))  # keyed by the shared strings: no tuple of three per row
            if of_field is None:
                of_field = matches[code, field] = {}
            match = of_field.get(value)
            if match is None:
                match = of_field[value] = Match(field, value, code)
            mask = int.from_bytes(profiles, "little")
            flat += (code, shared.setdefault(mask, mask), match)
        if flat:
            index[shared.setdefault(key, key)] = tuple(flat)
        self.labels, self.exact, self.stemmed, self.tokens, self.category_tokens, self.category_names = (
            indexes["label"], indexes["exact"], indexes["stemmed"], indexes["token"], indexes["category"], indexes["category_name"]
        )
        self.phrases = sorted(self.exact)
        self.longest_phrase = max(map(len, self.phrases), default=0)
        self.sorted_tokens = sorted(self.tokens)
        self.sorted_category_tokens = sorted(self.category_tokens)
        # The hits of each busy beginning, ORed on its first query (_prefixed) rather than all ~170 when the index loads
        # (~190 KB a worker).
        self.short_prefixes = {id(index): dict.fromkeys(self._busy_prefixes(index)) for index in (self.tokens, self.category_tokens)}

    @staticmethod
    def _busy_prefixes(index: dict) -> list[str]:
        """The beginnings of one or two letters that start more than SHORT_PREFIX_KEYS keys: a query "t" or "a" would
        otherwise OR hundreds of masks each time (a few dozen such beginnings per locale)."""
        counts: dict[str, int] = {}
        for key in index:
            for end in (1, 2)[:len(key)]:
                counts[key[:end]] = counts.get(key[:end], 0) + 1
        return [prefix for prefix, count in counts.items() if count > SHORT_PREFIX_KEYS]

    @staticmethod
    def _with_prefix(keys: list[str], prefix: str) -> list[str]:
        """The sorted keys that start with `prefix`: those from it up to it followed by the last code point."""
        start = bisect.bisect_left(keys, prefix)
        if start == len(keys) or not keys[start].startswith(prefix):  # most often: one bisection, not two
            return []
        return keys[start:bisect.bisect_left(keys, prefix + LAST_CODE_POINT, start)]

    def _prefixed(self, index: dict, keys: list[str], prefix: str, wanted) -> dict[str, list]:
        """{locale: [mask, Match]} of the keys starting with `prefix`, for the locales in `wanted`: their profiles,
        and the Match of the first key. A busy beginning's, for every locale, is made on its first query and kept."""
        busy = self.short_prefixes.get(id(index), {})
        if prefix not in busy:
            return self._ored(index, keys, prefix, wanted)
        flat = busy[prefix]
        if flat is None:
            flat = busy[prefix] = tuple(
                item for code, (mask, match) in self._ored(index, keys, prefix, None).items() for item in (code, mask, match))
        it = iter(flat)
        return {code: [mask, match] for code, mask, match in zip(it, it, it, strict=True) if code in wanted}

    def _ored(self, index: dict, keys: list[str], prefix: str, wanted) -> dict[str, list]:
        """The profiles of the keys starting with `prefix` ORed per locale, for the locales in `wanted` (None: every
        locale), each with the Match of its first key."""
        found: dict[str, list] = {}
        for key in self._with_prefix(keys, prefix):
            it = iter(index[key])
            for code, mask, match in zip(it, it, it, strict=True):
                if wanted is None or code in wanted:
                    entry = found.get(code)
                    if entry is None:
                        found[code] = [mask, match]
                    else:
                        entry[0] |= mask
        return found

    def forms(self, query: textnorm.Query, codes: list[str]) -> dict[str, tuple[str, list[str]]]:
        """{locale: (stemmed query, query tokens)} for each locale of `codes`, in their order; made once per query."""
        forms = query.locale_forms
        if forms is None or forms[0] != codes:
            by_stemmer = {stemmer: query.forms(stemmer, MAX_QUERY_TOKENS) for stemmer in self.distinct_stemmers}
            forms = query.locale_forms = (codes, {code: by_stemmer[self.stemmers[code]] for code in codes}, {}, {})
        return forms[1]

    def _hits(self, query: textnorm.Query, index: dict, key: str) -> dict:
        """{locale: (profiles mask, Match)} of a key of `index`, made once per query (after forms()): the keys' matches
        per locale group, the loose matches and those across locales all ask for the query's tokens."""
        made = query.locale_forms[3]
        hits = made.get((id(index), key))
        if hits is None:
            hits = made[id(index), key] = _by_locale(index.get(key, ()))
        return hits

    def _token_groups(self, query: textnorm.Query, codes: list[str]) -> dict[tuple, list[str]]:
        """The locales of `codes` by the tokens the query has there (most share one reading: only stems differ)."""
        forms = self.forms(query, codes)
        groups = query.locale_forms[2]
        if not groups:
            for code, (_, tokens) in forms.items():
                groups.setdefault(tuple(tokens), []).append(code)
        return groups

    def _all_tokens(self, query: textnorm.Query, index: dict, keys: list[str], groups: dict[tuple, list[str]], strength: int,
                    out: dict) -> None:
        """Profiles having every token, the last one as a prefix (a word being typed), per locale."""
        for tokens, codes in groups.items():
            if not tokens:  # lone letters only (T_T): no word to match
                continue
            masks = dict.fromkeys(codes, -1)
            for token in tokens[:-1]:
                hits = self._hits(query, index, token)
                masks = {code: mask & hits[code][0] for code, mask in masks.items() if code in hits and mask & hits[code][0]}
                if not masks:
                    break
            else:
                for code, (mask, match) in self._prefixed(index, keys, tokens[-1], masks).items():
                    if mask & masks[code]:
                        out[code].append((strength, 0, mask & masks[code], match))

    def match(self, query: textnorm.Query, codes: list[str]) -> dict[str, list]:
        """Per locale of `codes`: (strength, order within it, profiles mask, Match) for each way the query matches
        there, best first."""
        out: dict[str, list] = {code: [] for code in codes}
        folded = query.folded
        if not folded:
            return out
        forms = self.forms(query, codes)
        stems = {code: stemmed for code, (stemmed, _) in forms.items()}
        other_stems = [stemmed for stemmed in dict.fromkeys(stems.values()) if stemmed != folded]
        # In the order LocaleIndex yielded them per locale: label, exact, stemmed, category name, prefix, tokens.
        for strength, flat in ((LABEL, self.labels.get(folded)), (EXACT, self.exact.get(folded))):
            if flat:
                it = iter(flat)
                for code, mask, match in zip(it, it, it, strict=True):
                    out[code].append((strength, 0, mask, match))
        for strength, index, forms_here in ((STEM, self.stemmed, [folded, *other_stems]), (STEM, self.exact, other_stems),
                                            (CATEGORY_NAME, self.category_names, [folded]), (CATEGORY_NAME, self.category_names, other_stems)):
            for form in forms_here:
                flat = index.get(form)
                if flat:
                    it = iter(flat)
                    for code, mask, match in zip(it, it, it, strict=True):
                        if index is self.category_names and form == folded or stems[code] == form:
                            out[code].append((strength, 0, mask, match))
        for phrase in self._with_prefix(self.phrases, folded):
            it = iter(self.exact[phrase])
            for code, mask, match in zip(it, it, it, strict=True):
                out[code].append((PREFIX, 0, mask, match))
        groups = self._token_groups(query, codes)
        self._all_tokens(query, self.tokens, self.sorted_tokens, groups, PARTIAL, out)
        self._all_tokens(query, self.category_tokens, self.sorted_category_tokens, groups, CATEGORY, out)
        return out

    def content_tokens(self, query: textnorm.Query, code: str, tokens: list[str]) -> list[str]:
        """The query's tokens in locale `code` less its function words there ("de", "the"), known by the words as typed,
        not by their stems; all of them when the query has no other."""
        minor = self.function_words[code]
        if not minor:
            return tokens
        # `tokens` may stop at MAX_QUERY_TOKENS: the words after them are not asked.
        return [token for token, word in zip(tokens, query.tokens(None), strict=False) if word not in minor] or tokens

    def loose(self, query: textnorm.Query, codes: list[str]) -> dict[str, list]:
        """Per locale, profiles having some of the query's tokens (谢谢你 finds 谢谢): fewest missed first, then
        whole words before parts of longer ones, then the rarer words: "sad dog", which no face is, shows the dogs
        (a few profiles) before the sad faces (many), and "i love you" love before "I'm…". A function word of the
        locale is neither found nor missed: "llorando de risa" finds the crying and the laughing faces, not every
        keyword with "de" in it."""
        out: dict[str, list] = {code: [] for code in codes}
        hits: dict[str, dict] = {}
        whole_in: dict[str, tuple] = {}  # per token, the locales where a keyword is it whole: read once, not per locale
        for code, (_, tokens) in self.forms(query, codes).items():
            tokens = list(dict.fromkeys(self.content_tokens(query, code, tokens)))
            for token in tokens:
                if token not in hits:
                    hits[token] = self._hits(query, self.tokens, token)
                    whole_in[token] = self._locales_of(self.exact, token)
            # Per token found here: its profiles, its Match, and whether it is only part of longer words here.
            found = [(*hits[t][code], code not in whole_in[t]) for t in tokens if code in hits[t]]
            if not found:
                continue
            ways = out[code]
            for matched in range(len(found), 0, -1):
                for combination in itertools.combinations(found, matched):
                    mask = combination[0][0]
                    for more in combination[1:]:
                        mask &= more[0]
                    if mask:
                        parts = sum(part for _, _, part in combination)
                        ways.append((LOOSE, (len(tokens) - matched, parts, mask.bit_count()), mask, combination[0][1]))
                if matched < len(found) - 2:  # a query of many tokens: two missed is far enough
                    break
        return out

    @staticmethod
    def _locales_of(index: dict, key: str) -> tuple:
        return index.get(key, ())[::3]

    def shortened(self, query: textnorm.Query, codes: list[str]) -> dict[str, list]:
        """The last resort for a word that no keyword has, not even in part: per locale, the keywords starting with
        its longest beginning of at least SHORTEST letters ("angrily" finds angry, "happyness" happy)."""
        out: dict[str, list] = {code: [] for code in codes}
        folded, left = query.folded, len(codes)
        # A beginning longer than every phrase begins none of them.
        for end in range(min(len(folded) - 1, self.longest_phrase), SHORTEST - 1, -1):
            found = self._prefixed(self.exact, self.phrases, folded[:end], out)
            for code, (mask, match) in found.items():
                if not out[code]:
                    out[code].append((LOOSE, (len(folded) - end, 0, mask.bit_count()), mask, match))
                    left -= 1
            if not left:
                break
        return out

    def tokens_by_locale(self, query: textnorm.Query, tokens: list[str]) -> dict[str, dict]:
        """{token: {locale: (mask, Match)}} of the keywords' tokens, of a query whose forms() are made."""
        return {token: self._hits(query, self.tokens, token) for token in tokens}

    def knows(self, word: str) -> bool:
        """Whether a word is a keyword's token in some locale (as that locale stems it), or begins one."""
        if self._with_prefix(self.sorted_tokens, word):  # one bisection: most known words begin a token as written
            return True
        forms = textnorm.Query(word)
        for code, stemmer in self.stemmers.items():
            tokens = forms.tokens(stemmer)
            if tokens and code in self._locales_of(self.tokens, tokens[0]):
                return True
        return False


# Where what faces say ranks among the profile tiers (see tier_key). A face that says the query and has it
# among its keywords or names comes right after the faces whose own words (labels) are the query (晚安, good
# night, is also a word for sleepy: sleepy faces that say おやすみ); then the other keyword matches of the same
# locale; then the other faces that say it (SAYS), before the matches of other locales. A face whose phrase has
# the query's words comes after the partial keyword matches. An intent (joy, laughing) names many faces: they
# come as the phrases do.
SAYS_AND_KEYWORD, SAYS, SAYS_PARTIAL = LABEL + 0.5, STEM + 0.5, PARTIAL + 0.5
# The kinds of says_keys, best first; written and romaji are the same in every locale.
SAYS_AFTER_KEYWORDS = 1 << 30  # sorts a loose phrase match after the loose keyword matches that miss as many words
SAYS_KINDS = ("written", "says", "says_stem", "romaji", "intent")
FRAGMENT_POSITION = (1 << 20) - 1
EXACT_MERGE = 512  # faces of several fragments counted exactly up to this many  # fragment_faces holds bucket << 20 | position
_LOW_NIBBLE = bytes(byte & 0x0F for byte in range(256))


def without_buckets(numbers: array) -> array:
    """Positions of fragment_faces numbers (bucket << 20 | position), in their order: the top twelve bits of every
    number are cleared one byte column at a time, in C, rather than by a Python step a face (thousands of faces say
    the commonest fragments)."""
    raw = bytearray(numbers.tobytes())
    top, next_to_top = (3, 2) if sys.byteorder == "little" else (0, 1)
    raw[next_to_top::4] = raw[next_to_top::4].translate(_LOW_NIBBLE)
    raw[top::4] = bytes(len(raw) // 4)
    return array("I", raw)


class SaysIndex:
    """What faces say (issue 15): keys to the glossary's phrases, romaji and intents, looked up in the catalog
    file (table says_keys), and the faces of each fragment (fragment_faces) or intent, best explained first.

    Nothing of it is held in memory but the faces of each intent (an array of positions): a query costs one
    look-up of its forms, and one of the fragments it names.
    """

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.by_intent: dict[int, array] = {}
        for position, intent in enumerate(catalog.entries.intents):
            if intent:
                self.by_intent.setdefault(intent, array("I")).append(position)
        self.intent_census = {intent: census(positions, catalog.entries) for intent, positions in self.by_intent.items()}

    def _rows(self, keys):
        keys = sorted(keys)  # one statement per number of keys, kept prepared by sqlite3; no JSON to write
        return self.catalog.db.execute(f"SELECT key, locale, kind, targets, value FROM says_keys WHERE key IN ({','.join('?' * len(keys))})", keys)

    def fragment_positions(self, fragments, one_key: bool = True) -> tuple[array, tuple | None]:
        """The faces of the fragments, best explained first, then cleanest, each once; and their census (see
        census()), precomputed for one fragment and for the sets one key finds (table fragment_sets; `one_key`
        False for the fragments that the words of a phrase find together, which it never holds)."""
        fragments = sorted(fragments)
        row = None
        if len(fragments) == 1:
            row = self.catalog.db.execute("SELECT positions, census FROM fragment_faces WHERE fragment_id = ?", fragments).fetchone()
        elif one_key:
            row = self.catalog.db.execute("SELECT positions, census FROM fragment_sets WHERE fragments = ?", (" ".join(map(str, fragments)),)).fetchone()
        if row is None and len(fragments) > 1:  # the words of a phrase found together: merged here
            marks = ",".join("?" * len(fragments))
            encoded, censuses = array("I"), []
            for blob, counts in self.catalog.db.execute(f"SELECT positions, census FROM fragment_faces WHERE fragment_id IN ({marks})", fragments):
                encoded.frombytes(blob)
                censuses.append(array("I", counts))
            if sys.byteorder != "little":
                encoded.byteswap()
                for counts in censuses:
                    counts.byteswap()
            ordered = encoded.tolist()
            ordered.sort()
            positions = without_buckets(array("I", ordered))
            if len(encoded) <= EXACT_MERGE:
                # Each face once, in its best bucket. When no face says two of the fragments (as is usual), their
                # positions are already that, and their censuses add up to the census of the faces, exactly: the
                # total need not walk them.
                listed = positions.tolist()
                if len(set(listed)) == len(listed):
                    return positions, summed_census(censuses)
                return array("I", dict.fromkeys(listed)), None
            # Many faces: ranking skips a face met twice, and the total adds up the fragments' censuses, counting a
            # face that says two of them twice, rather than walking them all.
            return positions, summed_census(censuses)._replace(exact=False)
        counts = array("I", row[1] if row else b"\0\0\0\0")
        if sys.byteorder != "little":
            counts.byteswap()
        encoded = array("I", row[0] if row else b"")
        if sys.byteorder != "little":
            encoded.byteswap()
        return without_buckets(encoded), Census(counts[0], counts[1::2], counts[2::2])

    def rows(self, query: textnorm.Query, forms: dict[str, tuple[str, list[str]]]) -> list[tuple]:
        """The rows of says_keys that the query's forms name: read once for both ways match() takes them."""
        if not query.folded:
            return []
        return self._rows({query.folded, *(stemmed for stemmed, _ in forms.values()), *(t for _, tokens in forms.values() for t in tokens)}).fetchall()

    def match(self, query: textnorm.Query, forms: dict[str, tuple[str, list[str]]], rows: list[tuple],
              loose: bool = False) -> tuple[tuple, array, Match, tuple | None] | None:
        """The best way the query names what faces say (`rows`: see rows()), as (tier key, positions, Match, census
        or None), or None; with `loose`, a phrase holding only some of the query's words will do (merry christmas:
        Christmas)."""
        if not query.folded or not rows:
            return None
        rank = {code: number for number, code in enumerate(forms)}
        best, tokens_found, whole_phrases = None, defaultdict(dict), defaultdict(set)
        for key, locale, kind, targets, value in rows:
            locale_rank = min(rank.get(locale, 0), 1)
            if kind == "says_token":
                if locale in forms and key in forms[locale][1]:
                    tokens_found[locale][key] = (targets, value)
                continue
            if kind in ("says", "says_stem"):
                whole_phrases[locale].add(key)
            stemmed = forms[locale][0] if locale in forms else None
            wanted = query.folded if kind in ("written", "says", "romaji") else stemmed
            if kind == "intent" and key in (query.folded, stemmed) or key == wanted:
                candidate = ((EXACT, 0, locale_rank, SAYS, SAYS_KINDS.index(kind)), locale, kind, targets, value)
                if best is None or candidate[0] < best[0]:
                    best = candidate
        if best is None:  # a phrase holding every word of the query; with `loose`, the most of them
            for locale, found in tokens_found.items():
                wanted = set(forms[locale][1])
                if wanted <= set(found) or loose:
                    # The phrases of the rarest word that is a whole phrase (auguri in tanti auguri: “auguri!”, not “avere
                    # tanto”), or of the rarest word, narrowed by each other word that leaves some.
                    sets = sorted(((set(array_of(t)), token) for token, (t, _) in found.items()),
                                  key=lambda pair: (pair[1] not in whole_phrases[locale], len(pair[0])))
                    targets, kept = sets[0][0], [sets[0][1]]
                    for more, token in sets[1:]:
                        if targets & more:
                            targets, kept = targets & more, [*kept, token]
                    missed = len(wanted) - len(kept)
                    if missed and not loose:
                        continue
                    # A phrase with some of the words comes after the keywords with as many, as whole (sad dog: the dogs,
                    # then woof); a word that is a whole phrase (help in help me: “help!”) is whole, as a keyword is.
                    parts = sum(token not in whole_phrases[locale] for token in kept)
                    strength = (PARTIAL, 0) if not missed else (LOOSE, (missed, parts, SAYS_AFTER_KEYWORDS + len(targets)))
                    candidate = ((*strength, min(rank[locale], 1), SAYS_PARTIAL, 0), locale, "says_token", None, found[kept[0]][1])
                    if best is None or candidate[0] < best[0]:
                        best, partial_targets = candidate, targets
            if best is None:
                return None
        key, locale, kind, targets, value = best
        if kind == "intent":
            intent = array_of(targets)[0]
            positions, counted = self.by_intent.get(intent, array("I")), self.intent_census.get(intent)
        else:
            partial = kind == "says_token"
            positions, counted = self.fragment_positions(partial_targets if partial else array_of(targets), one_key=not partial)
        return key, positions, Match("says", value, locale or None), counted


class Census(NamedTuple):
    """How many of a face tier's faces are not sensitive, and how many of those each profile has (profile ids, counts):
    the total of a search that shows them beside whole profiles is then found without walking them. `exact` is False
    for the censuses of many fragments added up, which count a face saying two of them twice."""

    visible: int
    profiles: array
    counts: array
    exact: bool = True


def summed_census(censuses: list[array]) -> Census:
    """The censuses of several fragments (as stored: faces not sensitive, then profile and count pairs) added up."""
    by_profile: dict[int, int] = {}
    for counts in censuses:
        for profile, count in zip(counts[1::2], counts[2::2], strict=True):
            by_profile[profile] = by_profile.get(profile, 0) + count
    return Census(sum(c[0] for c in censuses), array("I", by_profile), array("I", by_profile.values()))


def census(positions, entries: Entries) -> Census:
    """The census of the faces at `positions` (see Census), counted."""
    by_profile: dict[int, int] = {}
    for position in positions:
        if position < entries.visible:
            profile = entries.profiles[position]
            by_profile[profile] = by_profile.get(profile, 0) + 1
    return Census(sum(by_profile.values()), array("I", by_profile), array("I", by_profile.values()))


def array_of(blob: bytes) -> array:
    """Little-endian 16-bit ids as stored in says_keys."""
    ids = array("H", blob)
    if sys.byteorder != "little":
        ids.byteswap()
    return ids


class EmojiLabels:
    """What a query of emoji means in our labels (issue 15): each emoji's labels, mapped at build time from its
    CLDR names and keywords (table emoji_labels); variation selectors and skin tones fold away."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog

    def words(self, query: str) -> str | None:
        """The query as the first label of each of its emoji ("🐱👋" → "cat greeting"), or None when it holds
        anything but emoji, or no emoji that means a label. A sequence (🐈‍⬛) is looked up whole, then by its parts."""
        folded = textnorm.fold_emoji(query)
        if not folded.strip() or any(not ch.isspace() and ch != ZWJ and unicodedata.category(ch) != "So" for ch in folded):
            return None
        groups = [[token, *token.replace(ZWJ, "")] for token in folded.split()]
        keys = {key for group in groups for key in group}
        labels = dict(self.catalog.db.execute(
            "SELECT emoji, labels FROM emoji_labels WHERE emoji IN (SELECT value FROM json_each(?))", (json.dumps(sorted(keys)),)))
        words = []
        for whole, *parts in groups:
            for key in [whole] if whole in labels else parts:
                if key in labels:
                    words.append(json.loads(labels[key])[0])
        return " ".join(dict.fromkeys(words)) or None


    def words_for(self, query: textnorm.Query, locale: str, known) -> str | None:
        """The query with each word that names nothing (`known` says which do) read as the label of the emoji whose
        CLDR name or keyword it is, the requested locale's first (happy birthday: happy celebrate; a run of CJK text
        is read by its longest such words: 生日快乐: celebrate 快乐); None when no word was read so."""
        pieces = []
        for piece, cjk in query.pieces:
            if cjk:
                pieces.append([piece[i:j] for i in range(len(piece)) for j in range(i + 2, min(len(piece), i + EMOJI_WORD_LONGEST) + 1)])
            else:
                pieces.append([] if known(piece) else [piece])
        keys = {key for candidates in pieces for key in candidates}
        if not keys:
            return None
        labels: dict[str, str] = {}
        for word, found_locale, label in self.catalog.db.execute(
                "SELECT word, locale, label FROM emoji_words WHERE word IN (SELECT value FROM json_each(?))", (json.dumps(sorted(keys)),)):
            if word not in labels or found_locale == locale:
                labels[word] = label
        if not labels:
            return None
        words = []
        for piece, cjk in query.pieces:
            if not cjk:
                words.append(labels.get(piece, piece))
                continue
            start, rest = 0, ""
            while start < len(piece):  # longest known word first, left to right
                end = next((end for end in range(min(len(piece), start + EMOJI_WORD_LONGEST), start + 1, -1) if piece[start:end] in labels), None)
                if end is None:
                    rest, start = rest + piece[start], start + 1
                    continue
                words += [rest] if rest else []
                words.append(labels[piece[start:end]])
                rest, start = "", end
            words += [rest] if rest else []
        return " ".join(dict.fromkeys(words))


ZWJ = "\u200d"
EMOJI_WORD_LONGEST = 8  # characters of the longest CJK word read through emoji_words


class Spelling:
    """Corrects a misspelled query word into the closest word of the index (issue 15): the catalog file holds
    each word with letters deleted (table spelling_deletes), so that a word within the edits a query word is
    allowed (textnorm.edits_allowed) shares one of those forms with it; fewest edits, then a word of the
    requested locale, then a keyword before a word only names have, then the word finding the most profiles, then the
    most faces, win (the weights tools/build_catalog.py writes)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.locale_bits = {code: 1 << position for position, code in enumerate(catalog.locales)}

    def known(self, words: set[str]) -> set[str]:
        """Those of `words` that are words of the index, read in one statement (one per number of words, kept prepared)."""
        found = self.catalog.db.execute(f"SELECT word FROM spellings WHERE word IN ({','.join('?' * len(words))})", sorted(words))
        return {word for (word,) in found}

    def closest(self, word: str, locale: str) -> str | None:
        allowed, bit = textnorm.edits_allowed(word), self.locale_bits.get(locale, 0)
        forms = sorted(textnorm.deletions(word, allowed))  # one statement per number of forms, kept prepared; no JSON
        rows = self.catalog.db.execute(
            "SELECT DISTINCT s.word, s.weight, s.locales FROM spelling_deletes AS d JOIN spellings AS s ON s.id = d.word_id "
            f"WHERE d.form IN ({','.join('?' * len(forms))})",
            forms,
        )
        # Most words sharing a form are further than allowed: their distance stops as soon as that is certain.
        scored = [(textnorm.edit_distance(word, found, allowed), not locales & bit, -weight, found) for found, weight, locales in rows]
        best = min((row for row in scored if row[0] <= allowed), default=None)
        return best[-1] if best else None


@dataclass(frozen=True)
class Ranking:
    """A query's results: tiers in rank order, each a list of (profiles mask, Match) or faces, and their count."""

    tiers: tuple
    total: int
    include_sensitive: bool


# A tier holding at least this share of all entries is walked in quality order, keeping its profiles' entries,
# rather than merged from one stream per profile: a page of "happy" needs a few hundred steps of the walk (in
# C), where merging its ~300 streams costs a Python step per stream before the first result.
DENSE_TIER = 1 / 32


_HIGH_BIT = bytes(1 << byte if byte < 8 else 0 for byte in range(256))  # a profile id's high byte as one bit of eight
FIRST_WINDOW = 256  # entries of a dense tier's walk flagged in one go; each window is twice the one before


def flagged_positions(flags: bytes, profiles: array):
    """The positions whose profile is flagged (`flags`: a byte per profile id; `profiles`: the profile id at each
    position, 16 bits), in order: see _flagged_windows(), walked in C rather than resumed for each position."""
    return itertools.chain.from_iterable(_flagged_windows(flags, profiles))


def _flagged_windows(flags: bytes, profiles: array):
    """Per window of entries, an iterator over its positions whose profile is flagged. A dense tier's first page walks
    hundreds to thousands of entries, ~40 ns each when each entry's flag is looked up; here a window of entries is
    flagged in a few calls over its bytes: the low byte of each profile id is translated into the high bytes under
    which it is flagged (one bit each, so ids below 2,048), the high byte into its own bit, and the two are ANDed as
    integers."""
    if len(flags) > 8 * 256:
        yield itertools.compress(itertools.count(), map(flags.__getitem__, profiles))
        return
    # Per low byte, the bits of the high bytes under which it is flagged: each flag is 0 or 1, so shifting a run of
    # 256 of them as one integer moves each within its byte.
    under = functools.reduce(operator.or_, (int.from_bytes(flags[at:at + 256], "little") << (at >> 8) for at in range(0, len(flags), 256)), 0)
    under = under.to_bytes(256, "little")
    raw = memoryview(profiles).cast("B")
    low, high = (0, 1) if sys.byteorder == "little" else (1, 0)
    start, size, count = 0, FIRST_WINDOW, len(profiles)
    while start < count:
        end = min(count, start + size)
        ids = raw[2 * start:2 * end].tobytes()  # copied whole, then split: a strided view copies a byte at a time
        window = int.from_bytes(ids[low::2].translate(under), "little") & int.from_bytes(ids[high::2].translate(_HIGH_BIT), "little")
        yield itertools.compress(range(start, end), window.to_bytes(end - start, "little"))
        start, size = end, size * 2


def tier_order(kind, payload, entries: Entries, entry_counts: tuple[int, ...]):
    """The positions of a tier in quality order, and the Match of each."""
    if kind == "faces":
        positions, match, _ = payload
        return positions, lambda position: match
    profile_by_position = entries.profiles
    if kind == "subset":  # the faces of a tier whose profile is flagged
        positions, match, flags = payload
        return itertools.compress(positions, map(flags.__getitem__, map(profile_by_position.__getitem__, positions))), lambda position: match

    if len(payload) == 1:  # one way of matching (most tiers): every entry of the tier has its Match
        mask, only = payload[0]

        def match_for(position: int) -> Match:
            return only
    else:
        matches: dict[int, Match] = {}  # per profile: a page asks for tens of faces of a few profiles

        def match_for(position: int) -> Match:
            profile = profile_by_position[position]
            match = matches.get(profile)
            if match is None:
                match = matches[profile] = next(match for mask, match in payload if mask >> profile & 1)
            return match

        mask = functools.reduce(operator.or_, (mask for mask, _ in payload))
    if entries_of(mask, entry_counts) >= DENSE_TIER * len(entries):
        flags = profile_flags(mask, len(entry_counts))
        return flagged_positions(flags, profile_by_position), match_for
    starts, by_profile = entries.profile_starts, entries.by_profile  # Entries.of_profile, inline: a tier may name hundreds
    streams = [by_profile[starts[p]:starts[p + 1]] for p in profiles_of(mask, len(entry_counts)) if entry_counts[p]]
    return (streams[0] if len(streams) == 1 else heapq.merge(*streams)), match_for


def ranked_positions(ranking: Ranking, entries: Entries, depth: int, entry_counts: tuple[int, ...]) -> tuple[array, list[Match]]:
    """The first `depth` results, best first, each entry once: their positions in quality order, and the Match of each.

    Within a tier, a face whose shape was already shown waits until the tier's other faces. What it walks
    through is kept compact (a byte per entry seen, the waiting faces in an array): a query may walk past
    tens of thousands of near-copies to find its first thousand faces. A tier's matches are found once its
    positions are, in one map() over them rather than a call per step of the walk.
    """
    seen, seen_shapes, shape_by_position = bytearray(len(entries)), set(), entries.shapes
    found, matches = array("I"), []
    bound = len(entries) if ranking.include_sensitive else entries.visible  # sensitive faces come last
    for kind, payload in ranking.tiers:
        order, match_for = tier_order(kind, payload, entries, entry_counts)
        first, copies = len(found), array("I")
        for position in order:
            if position >= bound or seen[position]:
                continue
            seen[position] = 1
            shape = shape_by_position[position]
            if shape in seen_shapes:
                copies.append(position)
            else:
                seen_shapes.add(shape)
                found.append(position)
                if len(found) == depth:
                    break
        else:
            found.extend(copies[:depth - len(found)])
        matches += map(match_for, found[first:])
        if len(found) == depth:
            break
    return found, matches


class Results:
    """A query's ranking, and its results as deep as its pages have asked (at most `depth`).

    A first page ranks only that page; a deeper one ranks again from the top, as far as it needs: at most
    `depth` results, which costs less than keeping what ranking walks through between requests.
    """

    def __init__(self, ranking: Ranking, depth: int):
        self.ranking, self.total, self.depth = ranking, ranking.total, depth
        self.positions, self.match_of, self.matches = array("I"), array("H"), []
        self._lock = threading.Lock()  # for threaded servers: one ranks further at a time
        faces = sum(len(payload[0]) for kind, payload in ranking.tiers if kind == "faces")  # a subset shares its tier's
        parts = sum(len(payload) for kind, payload in ranking.tiers if kind == "profiles")
        # A face tier's census: a profile id and a count for each profile its faces belong to (~270 for ー).
        censuses = sum(8 * len(payload[2].profiles) for kind, payload in ranking.tiers if kind == "faces" and payload[2])
        # The most it will hold: `depth` results, the faces it ranks and their censuses, a Match and a mask per part.
        self.size = 512 + 6 * depth + 4 * faces + censuses + 200 * (parts + 1)

    def page(self, offset: int, limit: int, entries: Entries, entry_counts: tuple[int, ...]) -> list[tuple[int, Match]]:
        end = min(offset + limit, self.depth)
        with self._lock:
            if len(self.positions) < end and len(self.positions) < self.total:
                positions, matches = ranked_positions(self.ranking, entries, end, entry_counts)
                known = len(self.positions)
                index = {match: i for i, match in enumerate(self.matches)}
                for match in dict.fromkeys(matches[known:]):  # a page's results share a few matches: each kept once
                    if match not in index:
                        index[match] = len(self.matches)
                        self.matches.append(match)
                self.positions += positions[known:]
                self.match_of.extend(map(index.__getitem__, matches[known:]))
            end = min(end, len(self.positions))
        return list(zip(self.positions[offset:end], map(self.matches.__getitem__, self.match_of[offset:end]), strict=True))


def corrected_tier(kind: str, payload, corrected_from: str):
    """A tier whose matches say that the query was corrected from `corrected_from`."""
    if kind != "profiles":
        return payload[0], payload[1]._replace(corrected_from=corrected_from), *payload[2:]
    return tuple((mask, match._replace(corrected_from=corrected_from)) for mask, match in payload)


class Searcher:
    """Search over one catalog: its indexes are built once; recent results, ranked as deep as search goes
    (`depth`), are kept up to `cache_bytes`, so that the next page of a query is not ranked again."""

    def __init__(self, catalog: Catalog, depth: int, cache_bytes: int):
        self.catalog, self.depth = catalog, depth
        self.profile_by_position = catalog.entries.profiles
        self.profile_count = catalog.profile_count
        # Per profile id: its entries, and those that are not sensitive (by include_sensitive). Tuples rather than
        # arrays (~40 KB more): compress() over them sums the counts of many profiles without making an int each.
        of_profile, visible = catalog.entries.of_profile, catalog.entries.visible
        self.entry_counts = {
            True: tuple(len(of_profile(p)) for p in range(self.profile_count)),
            False: tuple(bisect.bisect_left(of_profile(p), visible) for p in range(self.profile_count)),
        }
        self.keys = KeyIndex(catalog)
        self.stemmers = self.keys.stemmers
        self.says = SaysIndex(catalog)
        self.spelling = Spelling(catalog)
        self.emoji = EmojiLabels(catalog)
        self.results = SizedLru(cache_bytes, lambda results: results.size)

    def clear_cache(self) -> None:
        self.results.clear()

    def _known_words(self, query: textnorm.Query):
        """Whether a word of a query is a word of the index, or begins one (a word being typed), asked of each word
        by both ways of reading it. The index's spellings of all the query's words are read at once, and only the
        others looked for among the keys' tokens in each locale; a query of one word that matched nothing is no
        known word."""
        if len(query.pieces) < 2:
            return lambda word: False
        asked = {piece for piece, cjk in query.pieces if not cjk}
        spelled = self.spelling.known(asked) if asked else set()

        @functools.cache
        def known(word: str) -> bool:
            return word in spelled or self.keys.knows(word) or word not in asked and bool(self.spelling.known({word}))

        return known

    def _across_locales(self, query: textnorm.Query, codes: list[str]) -> tuple[int, Match] | None:
        """Profiles having every word of a query of several words, each in one locale or another, as (mask, Match of
        the last word), or None: a query that mixes languages, as 手を振る猫 reads through the emoji it names
        (greeting 猫), finds the cats that greet before the cats and the greetings. A query has as many tokens in
        every locale (only stems differ), so each token's profiles are gathered over the locales by its place. A
        function word of the query's locale (the first of `codes`) is no word it must have: "mort de rire" needs no
        "de" of Portuguese."""
        if len(query.pieces) < 2:
            return None
        masks, match = None, None
        forms = self.keys.forms(query, codes)
        needed = self.keys.content_tokens(query, codes[0], list(range(len(forms[codes[0]][1]))))  # places, not tokens
        hits = self.keys.tokens_by_locale(query, {token for _, tokens in forms.values() for token in tokens})
        for code, (_, tokens) in forms.items():
            masks = masks or [0] * len(tokens)
            for place, token in enumerate(tokens):
                found = hits[token].get(code)
                if found:
                    masks[place] |= found[0]
                    match = match or (found[1] if place == len(tokens) - 1 else None)
        mask = functools.reduce(lambda a, b: a & b, [masks[place] for place in needed] if masks else [0])
        return (mask, match) if mask and match else None

    def corrected(self, query: textnorm.Query, locale: str, known) -> str | None:
        """The query with each word that names nothing (SPELLING_SHORTEST letters or more) replaced by the closest
        word of the index; None when no word was replaced."""
        words, changed = [], False
        for piece, cjk in query.pieces:
            if not cjk and len(piece) >= textnorm.SPELLING_SHORTEST and piece.isalpha() and not known(piece):
                better = self.spelling.closest(piece, locale)
                if better:
                    piece, changed = better, True
            words.append(piece)
        return " ".join(words) if changed else None

    def ranking(self, query: str, locale: str, include_sensitive: bool = False, *, corrected_from: str | None = None,
                rewritten: bool = False) -> Ranking:
        """The tiers of a query. A query of emoji is searched as the labels they mean, and one whose words name
        nothing as its spelling corrected (`rewritten`: this is such a query, not to be rewritten again)."""
        codes = [locale] + [code for code in self.stemmers if code != locale]
        meaning = None if rewritten else self.emoji.words(query)
        if meaning:  # 😂 searches as laugh, in English: the labels are English words
            ranking = self.ranking(meaning, "en" if "en" in self.stemmers else locale, include_sensitive, rewritten=True)
            if ranking.total:
                return ranking
        forms = textnorm.Query(query)

        def collect(matcher) -> dict[tuple, list]:
            found: dict[tuple, list] = defaultdict(list)
            for rank, ways in enumerate(matcher(forms, codes).values()):
                for strength, order, mask, match in ways:
                    found[tier_key(strength, order, rank)].append((mask, match))
            return found

        found = collect(self.keys.match)
        locale_forms = self.keys.forms(forms, codes)
        said_rows = self.says.rows(forms, locale_forms)
        said = self.says.match(forms, locale_forms, said_rows)
        strict = bool(found or said)
        if not strict and not rewritten:  # words of emoji (birthday: celebrate), then typos (hapy), before the looser ways
            known = self._known_words(forms)
            reading = self.emoji.words_for(forms, locale, known)
            if reading:
                ranking = self.ranking(reading, locale, include_sensitive, rewritten=True)
                if ranking.total:
                    return ranking
            correction = self.corrected(forms, locale, known)
            if correction:
                ranking = self.ranking(correction, locale, include_sensitive, corrected_from=query, rewritten=True)
                if ranking.total:
                    return ranking
        ordered = [((0, *key), "profiles", found[key]) for key in found]
        if said:
            ordered.append(((0, *said[0]), "faces", (said[1], said[2], said[3])))
            exact = functools.reduce(lambda a, b: a | b, (mask for key in found if key[0] == EXACT for mask, _ in found[key]), 0)
            if exact:  # those of its faces that the keyword matches too, walked as far as a page needs
                ordered.append(((0, EXACT, 0, said[0][2], SAYS_AND_KEYWORD), "subset", (said[1], said[2], profile_flags(exact, self.profile_count))))
        # A query that names nothing: loose matches, then the longest known beginning. A query of several words
        # that names something (crying laughing, thank you so much) has its whole-phrase matches first, then
        # the faces that match some of its words.
        if not strict:
            found = collect(self.keys.loose)
            across = self._across_locales(forms, codes)
            if across:
                ordered.append(((1, PARTIAL, 0, 0, PARTIAL), "profiles", [across]))
            said = self.says.match(forms, locale_forms, said_rows, loose=True)
            if said:
                ordered.append(((1, *said[0]), "faces", (said[1], said[2], said[3])))
            elif not found:
                found = collect(self.keys.shortened)
        elif len(set(forms.tokens(None))) > 1:
            found = collect(self.keys.loose)
        else:
            found = {}
        ordered += [((1, *key), "profiles", found[key]) for key in found]
        tiers, claimed = [], 0
        for _key, kind, payload in sorted(ordered, key=lambda item: item[0]):  # each profile counts in the best way it matched
            if kind != "profiles":
                tiers.append((kind, payload))
                continue
            parts = []
            for mask, match in payload:
                if mask & ~claimed:
                    parts.append((mask & ~claimed, match))
                    claimed |= mask
            if parts:
                tiers.append(("profiles", tuple(parts)))

        # Pasted faces: searched when the query looks like one or no keyword equals it, and ranked first for a
        # face-like query, a lone character (ツ, ω, ᴥ are parts of faces, not words), or a query that names
        # nothing: faces that hold ドゴーン as written come before keywords that share one of its bigrams. Not for
        # emoji read as labels (手を振る猫: greeting 猫), which are our words, not text a face holds; a corrected
        # typo is what was meant to be typed, and is looked for.
        exact_words = any(key[1] <= STEM for key, kind, _ in ordered if key[0] == 0 and kind == "profiles")
        # A query that is no keyword but a fragment as faces write it (ドゴーン, キョロキョロ): the faces that hold it
        # as written first, then those that say it otherwise spelled.
        written = bool(said and said[0][-1] == SAYS_KINDS.index("written") and textnorm.has_cjk(query) and not exact_words)
        face_like = looks_like_a_face(query)
        as_typed = not rewritten or corrected_from is not None
        if as_typed and (face_like or written or not exact_words):
            faces = self.catalog.positions_with_text(query)
            if faces:
                face_tier = ("faces", (faces, Match("text", query, None), None))
                first = face_like or written or not strict or len(query) == 1
                tiers.insert(0 if first else len(tiers), face_tier)
        total = self._total(tiers, claimed, include_sensitive)
        if corrected_from is not None:
            tiers = [(kind, corrected_tier(kind, payload, corrected_from)) for kind, payload in tiers]
        return Ranking(tuple(tiers), total, include_sensitive)

    def _total(self, tiers: list, claimed: int, include_sensitive: bool) -> int:
        """How many entries the tiers hold: those of the claimed profiles, and the faces of the face tiers that
        are not among them (nor sensitive, unless asked for)."""
        bound = len(self.catalog.entries) if include_sensitive else self.catalog.entries.visible
        total = entries_of(claimed, self.entry_counts[include_sensitive])
        faces = [payload for kind, payload in tiers if kind == "faces"]  # a "subset" tier's faces are in another
        if not faces:
            return total
        counted = profile_flags(claimed, self.profile_count)
        # A face tier with a census (the only one, or one whose census is exact) is counted by it: its faces not
        # sensitive, per profile, so those already counted with their profile are taken off. The other tiers' faces
        # are then counted but for those it holds (a pasted T_T: the faces that write it, beside those that say it).
        counted_faces = None
        if not include_sensitive:
            counted_faces = faces[0] if len(faces) == 1 else next((f for f in faces if f[2] is not None and f[2].exact), None)
        if counted_faces is not None and counted_faces[2] is not None:
            visible, profiles, counts, _ = counted_faces[2]
            total += visible - sum(itertools.compress(counts, map(counted.__getitem__, profiles)))
            faces = [payload for payload in faces if payload is not counted_faces]
            if not faces:
                return total
            positions = set(itertools.chain(*(payload[0] for payload in faces))).difference(counted_faces[0])
        else:
            faces = [payload[0] for payload in faces]
            # set(), map() and builtin lookups run in C: a letter such as ー is in 20,000 faces.
            positions = set(itertools.chain(*faces)) if len(faces) > 1 else faces[0]
        if positions:
            # Iterated rather than listed: a list of 58,000 ints would leave the worker 2 MB larger. Sensitive faces
            # (from `bound` on) are filtered only when some are there: most face tiers have none.
            filtered = bound < len(self.catalog.entries) and max(positions, default=0) >= bound
            shown = sum(map(bound.__gt__, positions)) if filtered else len(positions)
            total += shown
            if claimed and shown:  # less the faces already counted with their profile
                visible = itertools.compress(positions, map(bound.__gt__, positions)) if filtered else positions
                total -= sum(map(counted.__getitem__, map(self.profile_by_position.__getitem__, visible)))
        return total

    def search(self, query: str, locale: str, offset: int, limit: int, *, include_sensitive: bool = False) -> tuple[list[tuple[int, Match]], int]:
        """A page of (position, Match), best first, and how many results there are in all (also past `depth`).
        Sensitive faces only with `include_sensitive`."""
        key = (query, locale, include_sensitive)
        results = self.results.get(key)
        if results is None:
            results = Results(self.ranking(query, locale, include_sensitive), self.depth)
            self.results.put(key, results)
        return results.page(offset, limit, self.catalog.entries, self.entry_counts[True]), results.total
