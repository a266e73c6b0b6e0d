"""The search index the builder precomputes: for each normalised key of a locale, the profiles it matches.

kaomoji_api/search.py loads what this writes (table search_keys) and ranks with it; the kinds of key are
described there and in schema.sql.
"""

from __future__ import annotations

import re
from array import array

from kaomoji_api import textnorm


def index_keys(terms) -> dict[tuple[str, str], list]:
    """The search keys of one locale from its terms, as the builder stores them in search_keys.

    `terms` are (profile_id, field, value, folded, stemmed, tokens, is_label) rows, is_label telling
    a keyword that is one of the profile's own words (see LABEL); the result maps (kind, key) to
    [profiles bitmask, field, value], the first term seen being the one reported.
    """
    keys: dict[tuple[str, str], list] = {}
    for profile_id, field, value, folded, stemmed, tokens, is_label in terms:
        if field == "category":
            kinds = [("category", t) for t in tokens.split()] + [("category_name", folded), ("category_name", stemmed)]
        else:
            kinds = [("exact", folded)] + ([("stemmed", stemmed)] if stemmed != folded else [])
            kinds += [("token", t) for t in tokens.split()]
            kinds += [("label", folded)] if is_label else []
        for kind in kinds:
            entry = keys.get(kind)
            if entry is None:
                keys[kind] = [1 << profile_id, field, value]
            else:
                entry[0] |= 1 << profile_id
    return keys


# ---------------------------------------------------------------- what faces say (issue 15)

# A gloss starts with the phrase a fragment says, in the locale's quotes: “good night”: said before…,
# „gute Nacht“: …, « bonne nuit » : …, 「晚安」：…; a gloss of a thing starts with its name: a wall, which…
_QUOTED = re.compile(r"\s*[“„«「\"‘]\s*([^”“»」\"’]+?)\s*[”“»」\"’]")
_NAME_END = re.compile(r"[:;,(，：；（、]")


def gloss_phrase(gloss: str) -> str:
    """The phrase a gloss gives a fragment: its leading quoted words, or the words before its first pause."""
    quoted = _QUOTED.match(gloss)
    if quoted:
        return quoted.group(1)
    return _NAME_END.split(gloss, 1)[0].strip()


def says_keys(fragments, intents, stemmer) -> dict[tuple[str, str], list]:
    """One locale's keys to what faces say, as table says_keys holds them: (kind, key) -> [targets, value].

    `fragments` are (fragment id, gloss) pairs, `intents` (intent id, label, name) rows. Kinds: says (a gloss's
    phrase, folded), says_stem (stemmed, where it differs), says_token (a word of a phrase), intent (an
    intent's label or name, folded or stemmed); targets are fragment ids, or the intent id.
    """
    keys: dict[tuple[str, str], list] = {}

    def add(kind: str, key: str, target: int, value: str) -> None:
        if key:
            entry = keys.setdefault((kind, key), [[], value])
            if target not in entry[0]:
                entry[0].append(target)

    for fragment_id, gloss in fragments:
        phrase = gloss_phrase(gloss)
        folded, stemmed = textnorm.comparable(phrase), textnorm.comparable(phrase, stemmer)
        add("says", folded, fragment_id, phrase)
        if stemmed != folded:
            add("says_stem", stemmed, fragment_id, phrase)
        for token in textnorm.index_tokens(phrase, stemmer):
            add("says_token", token, fragment_id, phrase)
    for intent_id, *names in intents:
        for name in filter(None, names):
            for key in dict.fromkeys((textnorm.comparable(name), textnorm.comparable(name, stemmer))):
                add("intent", key, intent_id, name)
    return keys


def written_keys(rows) -> dict[tuple[str, str], list]:
    """The locale-free keys to what faces say: each fragment as written (its key and variants, folded: ドゴーン,
    ｵﾔｽﾐ) and its romaji (oyasumi, with and without spaces). `rows` are (fragment id, key, variants, romaji)."""
    keys: dict[tuple[str, str], list] = {}
    for fragment_id, key, variants, romaji in rows:
        for kind, forms in (("written", [key, *variants]), ("romaji", romaji_forms(romaji))):
            for form in forms:
                folded = textnorm.comparable(form)
                if folded:
                    entry = keys.setdefault((kind, folded), [[], form])
                    if fragment_id not in entry[0]:
                        entry[0].append(fragment_id)
    return keys


def romaji_forms(romaji: str) -> list[str]:
    """A reading as people type it: the glossary doubles long vowels (arigatoo, omedetoo); users write ou, or
    one vowel (arigatou, omedeto), and run words together (oyasumi nasai, oyasuminasai)."""
    forms = [romaji]
    for long, typed in (("oo", "ou"), ("oo", "o"), ("uu", "u"), ("aa", "a"), ("ii", "i"), ("ee", "e"), ("ee", "ei")):
        forms += [form.replace(long, typed) for form in forms if long in form]
    return list(dict.fromkeys(forms + [form.replace(" ", "").replace("-", "") for form in forms]))


# How much of a face a fragment explains, best first: all its text, its leading text, some of it.
WHOLE, LEADING, SOME = range(3)
BUCKET_SHIFT = 20  # positions stay below 2**20; fragment_faces holds bucket << 20 | position


def fragment_faces(faces, phrases: dict[int, set[tuple[str, ...]]] | None = None) -> dict[int, array]:
    """Per glossary row number, its faces as (bucket << BUCKET_SHIFT | position), ascending: the faces it
    explains whole first, then those it leads, then the rest, each in quality order. `faces` are (text,
    Reading) in quality order. A word spelled one letter per face (お(^o^)や(^o^)す(^o^)み) is read, but does not
    say it as plainly as a face that writes it: such faces come with the rest.

    A face that writes a row's phrase in Latin letters (`phrases`, see latin_phrase: Merry*Christmas, Good Night,
    HELP) says it too, less plainly than in the Japanese the glossary reads: with the rest."""
    found: dict[int, dict[int, int]] = {}
    by_first: dict[str, list] = {}
    for row, words in ((row, words) for row, forms in (phrases or {}).items() for words in forms):
        by_first.setdefault(words[0], []).append((row, words))
    for position, (text, reading) in enumerate(faces):
        explained = [run for run in reading.runs if run.rows]
        rows = {row for run in explained for row in run.rows}
        whole = len(rows) == 1 and reading.explained
        buckets = {}
        for row in rows:
            written = any(row in run.rows and run.text in text for run in explained)
            buckets[row] = SOME if not written else WHOLE if whole else LEADING if row in explained[0].rows else SOME
        words = latin_words(text) if by_first else ()
        for start, word in enumerate(words):
            for row, phrase in by_first.get(word, ()):
                if words[start:start + len(phrase)] == phrase:
                    buckets.setdefault(row, SOME)
        for row, bucket in buckets.items():
            found.setdefault(row, {})[position] = bucket
    return {row: array("I", sorted(bucket << BUCKET_SHIFT | position for position, bucket in faces_of.items()))
            for row, faces_of in found.items()}


_LATIN_WORD = re.compile(r"[a-z]+")
LATIN_SHORTEST = 3  # letters of the shortest phrase a face is read as writing in Latin letters (not oh, ah)


def latin_words(text: str) -> tuple[str, ...]:
    """The words a text writes in Latin letters, folded (“Merry*Christmas”☆: merry, christmas)."""
    return tuple(_LATIN_WORD.findall(textnorm.fold(text)))


def latin_phrase(phrase: str) -> tuple[str, ...] | None:
    """A gloss's phrase as the words a face would write it with in Latin letters (help!, Merry Christmas,
    bon appétit), or None when it has other letters (晚安, спасибо) or fewer than LATIN_SHORTEST."""
    letters = [ch for ch in textnorm.fold(phrase) if ch.isalpha()]
    if len(letters) < LATIN_SHORTEST or any(not "a" <= ch <= "z" for ch in letters):
        return None
    return latin_words(phrase)


# ---------------------------------------------------------------- spelling (issue 15)

SPELLED = 3  # letters of the shortest word a query is corrected into


def spelling_word(word: str) -> bool:
    """Whether an indexed word is of an alphabet (Latin, Greek, Cyrillic...) and long enough to correct into."""
    return len(word) >= SPELLED and word.isalpha() and not textnorm.has_cjk(word)


def spelling_rows(weights: dict[str, int], locales: dict[str, int]) -> tuple[list[tuple], list[tuple]]:
    """Rows of tables spellings (id, word, weight, locales) and spelling_deletes (form, word id) for a vocabulary: each
    word with as many letters deleted as a query of its length may be wrong by (textnorm.edits_allowed), so
    that a query within the edits it is allowed shares a form with the word."""
    words = sorted(weights)
    deletes = sorted(
        (form, number) for number, word in enumerate(words, 1)
        for form in textnorm.deletions(word, textnorm.edits_allowed(word))
    )
    return [(number, word, weights[word], locales[word]) for number, word in enumerate(words, 1)], deletes


# ---------------------------------------------------------------- emoji (issue 15)

EMOJI_MIN_VOTES = 2  # keywords, over all locales, that must name a label for an emoji to mean it


def emoji_labels(annotations: dict[str, dict[str, list[str]]], concepts: dict[str, dict[str, list[str]]], stemmers: dict) -> dict[str, list[str]]:
    """Each emoji's labels, the most named first, from its CLDR names and keywords in every locale.

    A keyword names a label when it is one of the label's words in that locale (tools/locales/<code>.json
    `concepts`), compared folded and stemmed; every keyword in every locale is a vote ("crying", "laugh",
    "lol", "haha" for 😂: laugh wins over crying), and labels with at least half the votes of the first, and
    EMOJI_MIN_VOTES, are kept. Keys are folded as queries are (textnorm.fold_emoji): no variation selectors
    nor skin tones.
    """
    votes: dict[str, dict[str, int]] = {}
    for code, by_emoji in annotations.items():
        if code not in concepts:
            continue
        stemmer = stemmers[code]
        words: dict[str, set[str]] = {}
        for concept, synonyms in concepts[code].items():
            for word in ([concept] if code == "en" else []) + synonyms:
                words.setdefault(textnorm.comparable(word, stemmer), set()).add(concept)
        for emoji, keywords in by_emoji.items():
            key = textnorm.fold_emoji(emoji)
            named = votes.setdefault(key, {})
            for keyword in {textnorm.comparable(k, stemmer) for k in keywords}:
                for concept in words.get(keyword, ()):
                    named[concept] = named.get(concept, 0) + 1
    found = {}
    for emoji, named in votes.items():
        if named:
            ranked = sorted(named.items(), key=lambda kv: (-kv[1], kv[0]))
            kept = [concept for concept, count in ranked if count >= max(EMOJI_MIN_VOTES, ranked[0][1] / 2)]
            if kept:
                found[emoji] = kept
    return found


def fragment_census(encoded: array, visible: int, profile_at: list[int]) -> array:
    """What search totals a fragment's faces with (kaomoji_api/search.py census): how many are not sensitive (below
    `visible`), then (profile id, faces) pairs of those."""
    by_profile: dict[int, int] = {}
    for value in encoded:
        position = value & ((1 << BUCKET_SHIFT) - 1)
        if position < visible:
            by_profile[profile_at[position]] = by_profile.get(profile_at[position], 0) + 1
    return array("I", [sum(by_profile.values()), *(n for pair in sorted(by_profile.items()) for n in pair)])


def merge_fragment_faces(lists: list[array]) -> array:
    """The faces of several fragments as fragment_faces holds one's: each face once, in its best bucket."""
    best: dict[int, int] = {}
    for value in sorted(v for values in lists for v in values):
        best.setdefault(value & ((1 << BUCKET_SHIFT) - 1), value)
    return array("I", sorted(best.values()))


def emoji_words(annotations: dict[str, dict[str, list[str]]], labels: dict[str, list[str]], stemmers: dict) -> dict[tuple[str, str], str]:
    """(folded word, locale) -> label: the CLDR names and keywords of emoji that mean a label, as words of their
    locale (birthday, auguri, 生日, 手を振る), each to the label most of its emoji mean. Search reads a query word
    that names nothing through them, as a query of emoji is read (happy birthday: happy celebrate)."""
    found = {}
    for code, by_emoji in annotations.items():
        votes: dict[str, dict[str, int]] = {}
        for emoji, keywords in by_emoji.items():
            meaning = labels.get(textnorm.fold_emoji(emoji))
            for keyword in {textnorm.comparable(k) for k in keywords} if meaning else ():
                if keyword:
                    counts = votes.setdefault(keyword, {})
                    counts[meaning[0]] = counts.get(meaning[0], 0) + 1
        for word, counts in votes.items():
            label, count = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
            if count * 2 > sum(counts.values()):
                found[word, code] = label
    return found
