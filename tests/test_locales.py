"""The twelve locales on the full catalog: complete, in their own language and script, searchable."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from tests.test_search import labels_of
from tools import locales

NON_ENGLISH = [c for c in locales.locale_codes() if c != "en"]
PLACEHOLDERS = re.compile(r"\{(kaomoji|text|romaji|gloss|face|parts)\}")


def catalog_strings(db, code: str) -> set[str]:
    """The distinct keyword, name, category name and description, usage and note strings of a locale in the catalog,
    the intents' names, sentences and usage, and the frames notes are written in. (The glosses and part names quote
    romaji and drawn characters; tests/test_readings.py checks their script.)"""
    strings = set()
    for name, keywords in db.execute("SELECT name, keywords FROM profile_texts WHERE locale = ?", (code,)):
        strings.add(name)
        strings.update(json.loads(keywords))
    for texts in db.execute("SELECT name, about, description FROM category_texts WHERE locale = ?", (code,)):
        strings.update(texts)
    strings.update(t for (t,) in db.execute("SELECT template FROM usage_templates WHERE locale = ?", (code,)))
    strings.update(t for (t,) in db.execute("SELECT template FROM intent_usage WHERE locale = ?", (code,)))
    for texts in db.execute("SELECT name, send_when FROM intent_texts WHERE locale = ?", (code,)):
        strings.update(t for t in texts if t)
    strings.update(db.execute("SELECT drawn, drawn_face, drawn_parts FROM note_frames WHERE locale = ?", (code,)).fetchone())
    return strings


@pytest.fixture(scope="module")
def db(full_catalog):
    conn = sqlite3.connect(f"file:{full_catalog}?mode=ro", uri=True)
    yield conn
    conn.close()


@pytest.mark.parametrize("code", NON_ENGLISH)
def test_fewer_than_two_percent_of_strings_are_identical_to_english(db, code):
    english = {s.casefold() for s in catalog_strings(db, "en")}
    allowed = locales.loanwords()
    strings = catalog_strings(db, code)
    same = sorted(s for s in strings if s.casefold() in english and s.casefold() not in allowed)
    assert len(same) / len(strings) < 0.02, same


def letters(text: str) -> list[str]:
    """The letters of the words of a text, leaving out placeholders and the documented loanwords.

    A lone letter is not a word: notes quote faces such as ( ͡° ͜ʖ ͡°) whose ʖ is a Latin letter.
    """
    text = PLACEHOLDERS.sub(" ", text)
    allowed = locales.loanwords()
    words = re.findall(r"[^\W\d_]{2,}", text)
    return [ch for w in words if w.casefold() not in allowed for ch in w]


@pytest.mark.parametrize("code, script, pattern", [
    ("ko", "Hangul", re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")),
    ("ru", "Cyrillic", re.compile(r"[\u0400-\u04ff]")),
])
def test_text_is_in_the_locale_script(db, code, script, pattern):
    wrong = {s for s in catalog_strings(db, code) if any(not pattern.match(ch) for ch in letters(s))}
    assert not wrong, f"{code} strings with letters outside {script}: {sorted(wrong)[:10]}"


def test_traditional_chinese_has_no_simplified_characters_left(db):
    import opencc

    # OpenCC's Taiwan table turns the correct 傢伙 (guy) into 傢夥 and 看表情 (look at my face) into 看錶情 (look at
    # my watch); those words are taken out before the check.
    check = opencc.OpenCC("s2tw")

    def without_known_errors(text: str) -> str:
        return text.replace("傢伙", "").replace("表情", "")

    wrong = [s for s in catalog_strings(db, "zh-Hant") if check.convert(without_known_errors(s)) != without_known_errors(s)]
    assert not wrong, wrong[:10]


EVERYDAY_WORDS = {
    # locale: words for happy, sad, angry, cat, dog, thanks
    "en": ["happy", "sad", "angry", "cat", "dog", "thanks"],
    "ja": ["嬉しい", "悲しい", "怒る", "猫", "犬", "ありがとう"],
    "zh-Hans": ["开心", "难过", "生气", "猫", "狗", "谢谢"],
    "zh-Hant": ["開心", "難過", "生氣", "貓", "狗", "謝謝"],
    "ko": ["행복", "슬픔", "화남", "고양이", "강아지", "감사"],
    "es": ["feliz", "triste", "enojado", "gato", "perro", "gracias"],
    "pt": ["feliz", "triste", "bravo", "gato", "cachorro", "obrigado"],
    "fr": ["heureux", "triste", "en colère", "chat", "chien", "merci"],
    "de": ["glücklich", "traurig", "wütend", "Katze", "Hund", "danke"],
    "it": ["felice", "triste", "arrabbiato", "gatto", "cane", "grazie"],
    "ru": ["радость", "грусть", "злой", "кот", "собака", "спасибо"],
    "id": ["senang", "sedih", "marah", "kucing", "anjing", "terima kasih"],
}
LABELS = {"happy": {"happy"}, "sad": {"sad", "crying", "unhappy"}, "angry": {"angry"}, "cat": {"cat"}, "dog": {"dog"}, "thanks": {"thanks"}}


@pytest.mark.parametrize("code", sorted(EVERYDAY_WORDS))
def test_everyday_words_of_each_locale_find_entries_with_those_labels(client, catalog, code):
    for word, meaning in zip(EVERYDAY_WORDS[code], LABELS, strict=False):
        body = client.get("/api/v1/search", query_string={"q": word, "locale": code, "limit": 10}).get_json()
        assert len(body["data"]) == 10, (code, word)
        for item in body["data"]:
            # Its labels, or the English keywords of what it says: ｰ^)ﾉ ﾄﾞﾓ (thanks) was labelled Waving.
            labels = labels_of(catalog, item)
            assert labels & LABELS[meaning], (code, word, item["text"], labels)


def test_the_catalog_lists_the_twelve_locales_with_their_names(db):
    listed = {code: (name, english) for code, name, english in db.execute("SELECT code, name, english_name FROM locales")}
    assert len(listed) == 12
    assert listed["ja"][0] == "日本語" and listed["ko"][1] == "Korean"


def test_a_locale_file_is_checked_for_its_reading_frames_the_optional_gloss_quote_included():
    """`python -m tools.locales` names a missing frame, an unknown one, a meaning that does not end with its gloss, and
    a gloss_quote (optional: ja's glosses quote the word they explain) without its {text}; the twelve files as they
    are pass."""
    reference = locales.load_locale("en")
    for code in locales.locale_codes():
        assert not [p for p in locales.problems(code, locales.load_locale(code), reference) if p.startswith("reading.")], code
    ja = locales.load_locale("ja")
    broken = {**ja, "reading": {**{k: v for k, v in ja["reading"].items() if k != "drawn"}, "gloss_quote": "「」：", "quote": "x",
                                "meaning": "{gloss}（「{text}」）"}}
    found = [p for p in locales.problems("ja", broken, reference) if p.startswith("reading.")]
    assert sorted(found) == ["reading.drawn: missing", "reading.gloss_quote: must be a string containing {text}",
                             "reading.meaning: must end with {gloss}", "reading.quote: not a frame"]


# What a category's sentence said of many faces, which a note said of one: "Faces casting spells with wands and
# sparkles; send them…", «Expresan duda…; úsalas» after «Dibujada como…».
PLURAL_FACES = {
    "en": r"\bFaces\b|\b(send|use) them\b", "es": r"(?i)\b(envíalas|úsalas|caritas|expresan)\b", "pt": r"(?i)\bcarinhas\b",
    "it": r"(?i)\b(mandale|usale|faccine)\b", "de": r"\bGesichter\b", "fr": r"(?i)\bvisages\b",
}


@pytest.mark.parametrize("code", sorted(PLURAL_FACES))
def test_a_notes_category_sentence_speaks_of_the_one_face_and_claims_nothing_it_may_not_draw(code):
    """A note's last sentence is its category's (note.about), read after the sentences about this face: until session 31
    it spoke of faces in the plural and claimed what a face may not draw ("Shows surprise or shock, with wide eyes and
    open mouths" under Σ(‐△‐●), whose eyes are lines)."""
    about = locales.load_locale(code)["note"]["about"]
    assert not [slug for slug, text in about.items() if re.search(PLURAL_FACES[code], text)], code
    if code == "en":
        claims = ("wide eyes", "open mouths", "surrounded by", "with wands", "with a pen", "with whiskers", "with a snout",
                  "long ears", "floppy ears", "little beaks", "spider legs", "music notes")
        assert not [slug for slug, text in about.items() if any(claim in text for claim in claims)]


def test_portuguese_names_say_carinha_where_cara_alone_would_read_guy():
    """"Cara feliz" also reads "happy guy": a face's name is a Carinha, as pt already named Carinha fofa, unless it is
    an idiom of cara de (Cara de sono, Cara de nojo). Sixteen names until session 31."""
    names = locales.load_locale("pt")["names"].values()
    assert not [name for name in names if name.startswith("Cara ") and not name.startswith("Cara de ")]
    assert "Carinha feliz" in names and "Cara de sono" in names


@pytest.mark.parametrize(("code", "on_the_face"), [("ko", "얼굴에 적힌"), ("zh-Hans", "脸上"), ("zh-Hant", "臉上")])
def test_a_note_says_the_text_is_written_in_the_kaomoji_not_on_the_face(code, on_the_face):
    """The text of a kaomoji stands beside its face (ﾜｰｲ, ブー): readers of the session-31 review read 얼굴에 적힌 and 脸上的
    as "written on the face"."""
    frames = locales.load_locale(code)["reading"]
    assert not [key for key, frame in frames.items() if on_the_face in frame], frames
