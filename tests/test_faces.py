"""The reading of the Japanese text in faces (tools/faces.py) and the glossary files (issue 14)."""

from __future__ import annotations

import json

import pytest

from tools import faces

GLOSSARY = faces.GLOSSARY_DIR
ROOT = GLOSSARY.parent.parent


def load(name: str):
    return json.loads((GLOSSARY / name).read_text(encoding="utf-8"))


# ------------------------------------------------------------------------- reading runs

@pytest.mark.parametrize(("face", "runs"), [
    ("ヾ(・ω・)ノｵﾔｽﾐ~", ["ｵﾔｽﾐ"]),
    ("ヽ(`Д´)ﾉ", []),
    ("(╬ಠ益ಠ)", []),
    ("(・ω・)ノシ", []),
    ("¯\\_(ツ)_/¯", []),
    ("|壁|･ω･)", ["壁"]),
    ("ｷﾀ━━━(ﾟ∀ﾟ)━━━!!", ["ｷﾀ"]),
    ("(oﾟﾛﾟ)ﾉ", []),
    ("(*￣.￣*)エヘヘ", ["エヘヘ"]),
    ("ｶﾞﾝﾊﾞ!o(￣へ￣o)", ["ｶﾞﾝﾊﾞ"]),
    ("(´・ω・)おやすみ〜", ["おやすみ〜"]),
    ("(￣日￣)y-°°°", []),              # 日 drawn as a mouth
    ("ドラム缶パンチ!ｏ(メ・・)=日☆", ["ドラム缶パンチ"]),  # 日 drawn as the can, 缶 written
    ("(・∀・)つ目 ｵﾁｬﾉﾒ!", ["ｵﾁｬﾉﾒ"]),   # 目 drawn as a mug of tea
    ("ヽ／(≡´　x　｀≡)＼ノお～い♪", ["お～い"]),  # a rabbit's ears are its edges: the arms glued to them are drawn
    ("ビールはうみゃ～ヽ／(≡ @　x　@≡)＼ノ□", ["ビールはうみゃ～"]),
    ("(づ￣ ³￣)づ", []),  # arms reaching out to hug
    ("(・ω・)ゞテ゛シッ!!", ["テ゛シッ"]),  # a spacing voicing mark after a kana it voices is part of the word
    ("(″ロ゛)", []), ("。゜゜(´Ｏ`) ゜゜。", []),  # after a mouth or alone it is drawn
    ("(= ・ ェ ・=)お(= - ェ -=)は(= _    _=)つ～♪", ["お", "は", "つ～"]),  # a つ drawn out is a letter (o-ha-tsu)
    ("(^_^)おかたづけ", ["おかたづけ"]),  # a づ in a word is read
    # A bear's paws and a bird's wings are edges too: the arm glued to them is drawn (み, not のみ).
    ("⊂((〃´○｀ 〃))⊃お♪⊂((〃 ´⊥｀〃))⊃ノみ♪", ["お", "み"]),
    ("∈(・●・)∋ノあ！", ["あ"]),
    ("ヽ∪´ ェ ｀∪ノはうー", ["はうー"]), ("|ノ・_・|ノオオオォォォ-", ["オオオォォォ"]),  # a dog's ears, a boxed face's sides
    ("[ﾉヽ\"－力]ﾍﾟﾀｯ", ["ﾍﾟﾀｯ"]),  # a kana with a voicing mark is a letter, not an arm: peta
    ("( ▼_▼)ノ －－－－－－ -=≡卍シュッ", ["シュッ"]),  # a thrown shuriken glued to the swish is drawn
    ("( --)_中☆(>_< )　ピコンッ", ["ピコンッ"]),  # 中 alone is a hammer, not the red dragon tile
    ("r(-◎_◎-)　考え中", ["考え中"]),  # in a word it is written: thinking
])
def test_runs_are_the_text_without_the_drawn_parts(face, runs):
    assert faces.japanese_runs(face) == runs


def test_face_part_characters_alone_are_parts_not_text():
    for drawn in ["口", "旦", "凸", "皿", "ノ彡", "川ノ", "ーー", "圀圀圀", "ェ", "曲", "々"]:
        assert faces.is_face_part(drawn), drawn
    for written in ["エヘヘ", "ツー", "シッ", "壁", "東"]:
        assert not faces.is_face_part(written), written


# ------------------------------------------------------------------------- normalising

def test_half_width_katakana_and_hiragana_meet_one_key():
    keys = {faces.normalise(run) for run in ["ｵﾔｽﾐ", "オヤスミ", "おやすみ〜", "おやすみぃ"]}
    assert keys == {"おやすみ"}


def test_elongation_trailing_small_tsu_and_repeated_small_kana_fold():
    assert faces.normalise("わぁい") == faces.normalise("ワーイ") == faces.normalise("わ～～い") == "わーい"
    assert faces.normalise("ヒイィィ") == "ひい"
    assert faces.normalise("わーいっ") == "わーい"
    assert faces.normalise("ｷｬｰｯ") == "きゃ"
    assert faces.normalise("ドンマイ") == faces.normalise("ﾄﾞﾝﾏｲ") == "どんまい"


def test_a_longer_phrase_keeps_its_own_key():
    # おやすみなさい is a different fragment; a glossary row joins it through its variants.
    assert faces.normalise("オヤスミナサイ") == "おやすみなさい" != faces.normalise("ｵﾔｽﾐ")


def test_a_kana_with_a_spacing_voicing_mark_after_it_is_the_voiced_kana():
    assert faces.normalise("オネカ゛イ") == "おねがい" and faces.normalise("ハ゜ン") == "ぱん"
    assert faces.reading("ト゛ソ゛") == "どぞ"


# ------------------------------------------------------------------------- splitting

def test_split_cuts_a_run_into_keys_at_word_boundaries():
    assert faces.split("さようならまたね", frozenset({"さようなら", "また"})) == ["さようなら", "また", "ね"]


def test_split_fails_when_a_piece_is_unknown():
    assert faces.split("さようならまたね", frozenset({"さようなら"})) is None


def test_split_without_keys_gives_the_words():
    assert faces.split("さようならまたね") == ["さようなら", "また", "ね"]


# ------------------------------------------------------------------------- romanising

@pytest.mark.parametrize(("text", "romaji"), [
    ("おやすみ", "oyasumi"), ("どんまい", "donmai"), ("りーち", "riichi"),
    ("ばいばーい", "baibaai"), ("電柱", "denchuu"),
])
def test_romanise_is_hepburn_by_cutlet(text, romaji):
    assert faces.romanise(text) == romaji


@pytest.mark.parametrize("text", ["翻桌", "欢迎", "起床啦", "屮", "丿うりゃぁ"])
def test_a_text_cutlet_cannot_read_whole_has_no_romaji(text):
    assert faces.romanise(text) == ""


def test_reading_keeps_a_long_vowel_but_not_a_wave():
    assert faces.romanise(faces.reading("ジィィ")) == "jii"
    assert faces.romanise(faces.reading("ｵﾔｽﾐ～")) == "oyasumi"


# ------------------------------------------------------------------------- glossary files

def test_every_source_key_is_normalised_and_in_one_row_only():
    owner: dict[str, str] = {}
    for row in load("source.json"):
        assert faces.normalise(row["key"]) == row["key"]
        for text in [row["key"], *row["variants"]]:
            key = faces.normalise(text)
            assert owner.setdefault(key, row["key"]) == row["key"], f"{text} in {row['key']} and {owner[key]}"


def test_every_row_has_a_known_intent_and_romaji():
    intents = {intent["id"] for intent in load("intents.json")}
    for row in load("source.json"):
        assert row["intent"] in intents, row["key"]
        assert row["romaji"].isascii() and row["romaji"], row["key"]
        assert row.get("sensitive", True) is True, "sensitive is only ever true"


def test_greeting_type_intents_are_marked():
    greeting = {intent["id"] for intent in load("intents.json") if intent["greeting"]}
    assert {"hello", "goodbye", "good-night", "good-morning", "welcome-back", "im-home",
            "thanks", "apology"} <= greeting


def test_locale_files_have_exactly_the_keys_of_the_source_files():
    fragments = {row["key"] for row in load("source.json")}
    parts = {row["id"] for row in load("parts.json")}
    for path in sorted(GLOSSARY.glob("*.json")):
        if path.stem in {"source", "parts", "intents", "candidates", "parts-candidates", "sensitive"}:
            continue
        texts = load(path.name)
        assert set(texts["fragments"]) == fragments, path.name
        assert set(texts["parts"]) == parts, path.name
        texts = [*texts["fragments"].values(), *texts["parts"].values()]
        assert all(isinstance(text, str) and text.strip() for text in texts), path.name


def test_locale_files_name_exactly_what_rows_parts_and_naming_intents_name():
    named = {row["name"] for row in load("source.json") if row.get("name")}
    named |= {row["name"] for row in load("parts.json") if row.get("name")}
    naming = {intent["id"] for intent in load("intents.json") if intent.get("naming") and not intent.get("label_name")}
    english = json.loads((ROOT / "tools" / "locales" / "en.json").read_text(encoding="utf-8"))["names"]
    assert all(row["label_name"] in english for row in load("intents.json") + load("parts.json") if row.get("label_name"))
    assert {"merry-christmas", "never-mind", "bowing", "palms-together", "landing-a-blow"} <= named
    assert {"consolation", "seasons", "tasty", "games", "anger"} <= naming
    for path in sorted(GLOSSARY.glob("*.json")):
        if path.stem in {"source", "parts", "intents", "candidates", "parts-candidates", "sensitive"}:
            continue
        assert set(load(path.name)["names"]) == named, path.name
        intent_texts = load(f"intent-texts/{path.name}")["intents"]
        assert {intent for intent, texts in intent_texts.items() if texts.get("name")} == naming, path.name


def test_an_intent_names_faces_by_the_text_or_when_contradicted_and_says_what_contradicts_it():
    concepts = set(json.loads((ROOT / "tools" / "locales" / "en.json").read_text(encoding="utf-8"))["concepts"])
    for intent in load("intents.json"):
        assert intent.get("naming") in (None, "text", "contradicted"), intent["id"]
        assert not intent["greeting"] or intent["naming"] == "text", intent["id"]
        assert intent.get("contradicts") or intent.get("naming") != "contradicted", intent["id"]
        assert set(intent.get("contradicts", ())) <= concepts, intent["id"]
        # The concepts whose words its faces carry first, and those they never carry (a name that is no concept would
        # be passed over without a word).
        assert {*intent.get("keywords", ()), *intent.get("not_keywords", ())} <= concepts, intent["id"]
    for row in load("source.json"):
        assert {*row.get("keywords", ()), *row.get("not_keywords", ())} <= concepts, row["key"]
        assert row.get("name") or not (row.get("keywords") or row.get("not_keywords")), row["key"]


def test_a_small_kana_that_starts_a_word_is_read_full_size():
    assert faces.big_first("ｮｯ") == "ﾖｯ" and faces.big_first("ぉはょぅ") == "おはょぅ"
    assert faces.big_first("ｯｽ") == "ｯｽ"  # ッス starts with its small tsu


def test_english_glosses_are_short():
    for key, gloss in load("en.json")["fragments"].items():
        assert len(gloss.split()) <= 22, key
