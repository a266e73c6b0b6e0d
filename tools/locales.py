"""Load and check the per-locale source files under tools/locales/.

One JSON file per locale; tools/locales/README.md describes the format. Run
`python -m tools.locales [CODE ...]` to check files before a build.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

LOCALES_DIR = Path(__file__).parent / "locales"
LOANWORDS_FILE = Path(__file__).parent / "loanwords.json"
REFERENCE = "en"
PLACEHOLDER = "{kaomoji}"
# The frames a note and a meaning are written in (tools/readings.py, kaomoji_api/catalog.py), with the
# placeholders each must keep; {romaji} may go where readers have no use for it (ja).
READING_FRAMES = {
    "text_means": ("{text}", "{gloss}"), "text_is": ("{text}", "{gloss}"), "text_unknown": ("{text}",), "text_unknown_first": ("{text}",),
    "drawn": ("{face}", "{parts}"), "drawn_face": ("{face}",), "drawn_parts": ("{parts}",),
    "list_separator": (), "list_last": (), "meaning": ("{text}", "{gloss}"), "meaning_separator": (),
}
# Frames a locale may leave out. gloss_quote: how its glosses quote the Japanese they explain, when they start by
# quoting it (ja: "「{text}」："); a run written as its gloss quotes it is then not quoted twice (kaomoji_api/pieces.py).
OPTIONAL_READING_FRAMES = {"gloss_quote": ("{text}",)}
MIN_USAGE_PER_CATEGORY = 5
# A sentence ends at one of these: a category description is one sentence, so none may come before its end.
SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？](?=.)")
SENTENCE_FINAL = (".", "!", "?", "。", "！", "？")


def locale_codes() -> list[str]:
    """Every locale that has a source file, English first, then by code."""
    codes = sorted(p.stem for p in LOCALES_DIR.glob("*.json"))
    return sorted(codes, key=lambda c: (c != REFERENCE, c))


def _read(code: str) -> dict:
    with (LOCALES_DIR / f"{code}.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def _merge(base: dict, over: dict) -> dict:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _convert(value, convert):
    if isinstance(value, str):
        return convert(value)
    if isinstance(value, list):
        return [_convert(v, convert) for v in value]
    if isinstance(value, dict):
        return {k: _convert(v, convert) for k, v in value.items()}
    return value


def load_locale(code: str) -> dict:
    """A locale's texts, with a derived locale converted from its source.

    A file with `"derive": {"from": "zh-Hans", "opencc": "s2twp"}` is the
    source locale run through OpenCC, then the file's own fields laid over it
    (hand corrections where the conversion is wrong).
    """
    own = _read(code)
    derive = own.get("derive")
    if not derive:
        return own
    import opencc  # only derived locales need it

    converter = opencc.OpenCC(derive["opencc"])
    source = load_locale(derive["from"])
    texts = {k: v for k, v in source.items() if k in ("categories", "category_descriptions", "concepts", "names", "usage", "note", "reading")}
    converted = _convert(texts, converter.convert)
    # Keys (concept heads, English names, slugs) are identifiers, not text: keep them.
    return _merge(converted, {k: v for k, v in own.items() if k != "derive"})


def problems(code: str, locale: dict, reference: dict) -> list[str]:
    """What is missing or malformed in one locale, measured against English."""
    found: list[str] = []
    for field in ("locale", "name", "english_name"):
        if not isinstance(locale.get(field), str) or not locale[field].strip():
            found.append(f"{field}: missing")
    for section in ("categories", "category_descriptions", "concepts", "names", "usage"):
        have = locale.get(section) or {}
        for key in reference[section]:
            value = have.get(key)
            if not value:
                found.append(f"{section}[{key!r}]: missing or empty")
        for key in set(have) - set(reference[section]):
            found.append(f"{section}[{key!r}]: not a key of {REFERENCE}.json")
    for key, words in (locale.get("concepts") or {}).items():
        if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
            found.append(f"concepts[{key!r}]: must be a list of non-empty strings")
    words = locale.get("function_words", [])
    if not isinstance(words, list) or not all(isinstance(w, str) and w and w == w.strip().lower() and " " not in w for w in words):
        found.append("function_words: must be a list of single words in lower case (search counts no query's match on them)")
    for slug, sentences in (locale.get("usage") or {}).items():
        if not isinstance(sentences, list) or len(set(sentences)) < MIN_USAGE_PER_CATEGORY:
            found.append(f"usage[{slug!r}]: needs at least {MIN_USAGE_PER_CATEGORY} distinct sentences")
            continue
        for s in sentences:
            if s.count(PLACEHOLDER) != 1:
                found.append(f"usage[{slug!r}]: {s!r} must contain {PLACEHOLDER} exactly once")
    for slug, text in (locale.get("category_descriptions") or {}).items():
        if not isinstance(text, str) or not text.strip().endswith(SENTENCE_FINAL) or SENTENCE_END.search(text.strip()):
            found.append(f"category_descriptions[{slug!r}]: must be one sentence, ending with its full stop")
    note = locale.get("note") or {}
    for slug in reference["categories"]:
        if not (note.get("about") or {}).get(slug):
            found.append(f"note.about[{slug!r}]: missing")
    frames = locale.get("reading") or {}
    for key, placeholders in READING_FRAMES.items():
        if not isinstance(frames.get(key), str) or not frames[key]:
            found.append(f"reading.{key}: missing")
        elif missing := [p for p in placeholders if p not in frames[key]]:
            found.append(f"reading.{key}: must contain {', '.join(missing)}")
        elif key == "meaning" and not frames[key].endswith("{gloss}"):
            # The service writes each run's line up to its gloss once for all runs (kaomoji_api/pieces.py _heads).
            found.append("reading.meaning: must end with {gloss}")
    for key, placeholders in OPTIONAL_READING_FRAMES.items():
        if key in frames and (not isinstance(frames[key], str) or [p for p in placeholders if p not in frames[key]]):
            found.append(f"reading.{key}: must be a string containing {', '.join(placeholders)}")
    for key in set(frames) - set(READING_FRAMES) - set(OPTIONAL_READING_FRAMES):
        found.append(f"reading.{key}: not a frame")
    return found


def text_strings(locale: dict) -> set[str]:
    """The distinct strings a reader sees: keywords, names, category names and descriptions, usage and note texts."""
    note = locale.get("note") or {}
    strings = {w for words in (locale.get("concepts") or {}).values() for w in words}
    strings |= set((locale.get("names") or {}).values())
    strings |= set((locale.get("categories") or {}).values())
    strings |= set((locale.get("category_descriptions") or {}).values())
    strings |= {s for sentences in (locale.get("usage") or {}).values() for s in sentences}
    strings |= set((note.get("about") or {}).values())
    # Frames with words in them: `meaning` ("「{text}」 {romaji}: {gloss}") and the separators are punctuation only.
    frames = (locale.get("reading") or {}).values()
    strings |= {v for v in frames if any(ch.isalpha() for ch in re.sub(r"\{\w+\}", "", v))}
    return {s for s in strings if isinstance(s, str) and s}


def loanwords() -> set[str]:
    with LOANWORDS_FILE.open(encoding="utf-8") as fh:
        return {w.casefold() for w in json.load(fh)["words"]}


def same_as_english(locale: dict, reference: dict) -> list[str]:
    """Strings of a locale identical (ignoring case) to an English string, loanwords aside."""
    english = {s.casefold() for s in text_strings(reference)}
    allowed = loanwords()
    return sorted(s for s in text_strings(locale) if s.casefold() in english and s.casefold() not in allowed)


def load_all(codes: list[str] | None = None) -> dict[str, dict]:
    """Every locale, checked; raises ValueError naming each problem."""
    codes = [c for c in locale_codes() if c in codes] if codes else locale_codes()
    reference = load_locale(REFERENCE)
    loaded, report = {}, []
    for code in codes:
        locale = load_locale(code)
        report += [f"{code}: {p}" for p in problems(code, locale, reference)]
        loaded[code] = locale
    if report:
        raise ValueError("locale files have problems:\n  " + "\n  ".join(report))
    return loaded


def main(argv: list[str]) -> int:
    reference = load_locale(REFERENCE)
    status = 0
    for code in argv or locale_codes():
        locale = load_locale(code)
        found = problems(code, locale, reference)
        print(f"{code}: {'ok' if not found else f'{len(found)} problems'}")
        for p in found[:200]:
            print(f"  {p}")
        if code != REFERENCE:
            same = same_as_english(locale, reference)
            share = len(same) / max(1, len(text_strings(locale)))
            print(f"  identical to English: {len(same)} strings ({share:.1%}; must stay under 2%)")
            for s in same:
                print(f"    {s!r}")
        status |= bool(found)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
