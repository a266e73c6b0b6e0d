"""The full catalog: every labelled kaomoji, every locale complete, counts that add up."""

from __future__ import annotations

import json
import re
import sqlite3

import orjson
import pytest

from kaomoji_api.catalog import SIMILAR_KEPT, _drawn_span
from kaomoji_api.pieces import ItemWriter
from kaomoji_api.textnorm import drawn_face
from tools import build_catalog, locales, readings

LOCALES = locales.locale_codes()


@pytest.fixture(scope="module")
def db(full_catalog):
    conn = sqlite3.connect(f"file:{full_catalog}?mode=ro", uri=True)
    yield conn
    conn.close()


def test_the_catalog_serves_every_labelled_face_once(db):
    import kaomoji_dataset

    labelled = {e["text"] for e in kaomoji_dataset.all() if e["emotion"] or e["intent"] or e["subject"]}
    texts = [text for (text,) in db.execute("SELECT text FROM entries")]
    assert len(texts) >= 69000
    assert sorted(texts) == sorted(labelled)


def test_ids_equal_the_dataset_numbers_the_lowest_of_a_face_kept(db):
    import kaomoji_dataset

    expected: dict[str, int] = {}
    for e in sorted(kaomoji_dataset.all(), key=lambda e: e["id"]):
        if e["emotion"] or e["intent"] or e["subject"]:
            expected.setdefault(e["text"], int(e["id"][4:]))
    assert dict(db.execute("SELECT text, id FROM entries")) == expected


def test_the_catalog_has_twelve_locales(db):
    codes = [code for (code,) in db.execute("SELECT code FROM locales ORDER BY position")]
    assert sorted(codes) == sorted(["en", "ja", "ko", "zh-Hans", "zh-Hant", "es", "pt", "fr", "de", "it", "ru", "id"])


def test_every_locale_is_complete_for_every_entry(db):
    (profiles,) = db.execute("SELECT count(*) FROM profiles").fetchone()
    (categories,) = db.execute("SELECT count(*) FROM categories").fetchone()
    for code in LOCALES:
        texts = db.execute("SELECT name, keywords FROM profile_texts WHERE locale = ?", (code,)).fetchall()
        assert len(texts) == profiles, code
        assert all(name.strip() and json.loads(keywords) for name, keywords in texts), code
        names = db.execute("SELECT name, about, description FROM category_texts WHERE locale = ?", (code,)).fetchall()
        assert len(names) == categories and all(n.strip() and a.strip() and d.strip() for n, a, d in names), code
        usage = db.execute("SELECT category_id, count(*) FROM usage_templates WHERE locale = ? GROUP BY category_id", (code,)).fetchall()
        assert len(usage) == categories and min(n for _, n in usage) >= 4, code
    # No entry points at a profile without texts.
    assert db.execute("SELECT count(*) FROM entries WHERE profile_id NOT IN (SELECT id FROM profiles)").fetchone() == (0,)


def test_entries_held_in_memory_are_the_rows_of_the_file(catalog):
    rows = catalog.db.execute(
        "SELECT e.id, e.text, e.profile_id, e.category_id, e.ascii_safe, e.needs_cjk_font, e.display_width, e.ja_context,"
        " e.quality, s.names, e.sensitive, e.text_reading, e.intent_id, e.lead_part FROM entries e JOIN script_sets s ON s.id = e.script_set"
    ).fetchall()
    assert len(rows) == len(catalog.entries)
    for row in rows:
        expected = (*row[:4], bool(row[4]), bool(row[5]), row[6], bool(row[7]), row[8], tuple(json.loads(row[9])), bool(row[10]), *row[11:])
        assert tuple(catalog.entry(row[0])) == expected
    known = {row[0] for row in rows}
    missing = next(i for i in range(1, 10**6) if i not in known)
    assert catalog.entry(missing) is None and catalog.entry(10**9) is None and catalog.entry(-1) is None


@pytest.mark.parametrize("fragment", ["ツ", "ᴥ", "ω", "^", ")(", "(", "m", "┻━┻", "(╯°□°)╯", "ʕ•ᴥ•ʔ"])
def test_faces_with_a_text_are_those_sqlite_finds_exact_first_then_in_quality_order(catalog, fragment):
    """One or two characters come from the face_fragments index, more from the trigram index."""
    rows = catalog.db.execute(
        "SELECT quality FROM entries WHERE instr(text, ?) > 0 ORDER BY text != ?, quality", (fragment, fragment)
    ).fetchall()
    assert list(catalog.positions_with_text(fragment)) == [position for (position,) in rows]


def test_a_face_searched_by_its_whole_text_comes_first(catalog):
    # Faces none of which holds a text are none of them either: the look-up of faces that are exactly it is skipped
    # then, so each face (all of one or two characters, every 40th of the others) must be found by its own text.
    entries = catalog.entries
    short = [p for p in range(len(entries)) if len(entries.text_at(p)) <= 2]
    checked = 0
    for position in short + list(range(0, len(entries), 40)):
        text = entries.text_at(position)
        found = catalog.positions_with_text(text)
        exact = [p for p in found if entries.text_at(p) == text]
        assert position in exact and list(found[:len(exact)]) == sorted(exact), text
        checked += 1
    assert checked > 1500 and short
    assert list(catalog.positions_with_text("zzqx no face holds this")) == []


def test_every_usage_sentence_contains_its_kaomoji_and_every_note_says_when_to_send_it(catalog):
    entries = [catalog.entries.at(p) for p in range(len(catalog.entries))]
    writer = ItemWriter(catalog)
    for code in LOCALES:
        texts = catalog.note_texts(code)
        for start in range(0, len(entries), 1000):
            chunk = entries[start:start + 1000]
            for entry in chunk:
                usage = orjson.loads(writer.usage(entry.position, code))
                assert 2 <= len(usage) <= 3 and len(set(usage)) == len(usage)
                assert all(entry.text in sentence for sentence in usage), (entry.id, code)
                when = texts.when[entry.intent_id] if entry.intent_id else texts.about[entry.category_id]
                assert orjson.loads(writer.note(entry.position, code)).endswith(when), (entry.id, code)


def test_neighbouring_entries_get_different_usage_sentences(catalog):
    writer = ItemWriter(catalog)
    pairs = catalog.db.execute(
        "SELECT a.id, b.id FROM entries a JOIN entries b ON b.id = a.id + 1 AND b.category_id = a.category_id LIMIT 2000"
    ).fetchall()
    assert len(pairs) == 2000
    for a, b in pairs:
        first, second = catalog.entry(a), catalog.entry(b)
        def strip(e):
            return [s.replace(e.text, "") for s in orjson.loads(writer.usage(e.position, "en"))]
        assert strip(first) != strip(second)


def test_faces_like_a_face_are_its_profiles_then_its_categorys_cleanest_one_per_shape_none_of_its_own(catalog):
    """similar_positions keeps the first faces of each profile's walk (catalog.SIMILAR_KEPT): for every kind of face,
    it must give what walking them for that face gives."""
    entries = catalog.entries

    def walked(position: int, count: int) -> list[int]:
        shapes, found = {entries.shapes[position]}, []
        for stream in (entries.of_profile(entries.profiles[position]), entries.by_category[entries.categories[position]]):
            for other in stream:
                if other >= entries.visible or len(found) == count:
                    break
                if entries.shapes[other] not in shapes:
                    shapes.add(entries.shapes[other])
                    found.append(other)
        return found

    positions = [*range(0, len(entries), 7), *range(entries.visible, len(entries))]  # sensitive faces too
    for count in (8, 1, SIMILAR_KEPT, 20):
        for position in positions[::1 if count == 8 else 11]:
            assert catalog.similar_positions(position, count) == walked(position, count), (position, count)


def test_faces_that_share_a_set_of_faces_like_them_are_shown_the_same(catalog):
    """similar_set names what similar_positions gives a kaomoji page (render.similar_cards keeps the cards by it): faces
    that share it must be shown the same faces, over every face of the catalog; and the faces of a profile share a few."""
    shown: dict[int, list[int]] = {}
    for position in range(len(catalog.entries)):
        faces = catalog.similar_positions(position, 8)
        assert shown.setdefault(catalog.similar_set(position, 8), faces) == faces, position
    assert len(shown) < 4 * len(catalog.profile_categories)  # ~3.5 sets a profile


def test_the_face_each_kaomoji_draws_is_found_where_the_catalog_holds_it(catalog):
    """Notes name the face a kaomoji draws from where the catalog found it on loading (Entries.drawn): for every face,
    what that says is what textnorm.drawn_face finds in its text."""
    entries = catalog.entries
    for position in range(len(entries)):
        span, start = entries.drawn[position], entries.ends[position]
        found = entries.texts[start + (span >> 6):start + (span >> 6) + (span & 63)].decode() if span else None
        assert found == drawn_face(entries.text_at(position)), entries.text_at(position)


@pytest.mark.parametrize(("text", "face"), [
    ("() ( ) ( ) ( ﾟ) ( ﾟｰ) (ﾟｰﾟ)ﾉ ﾀﾗｲﾏ", "( ﾟ)"), ("(\u3000\u3000)3～♪♪♪", None), ("( )ﾟДﾟ（ )", None), ("(^_^)", "(^_^)"),
])
def test_an_empty_pair_of_brackets_draws_no_face(text, face):
    """Brackets holding only spaces (( ), (　　)) are no face a note can name: 110 served faces were "Drawn as ( )"."""
    assert drawn_face(text) == face


@pytest.mark.parametrize(("text", "face"), [
    ("( o(エ)o)ガーン", "( o(エ)o)"), ("o('(ェ)'；) ウゥム…", "('(ェ)'；)"), ('"(=ノ(●●)・、=)"グスングスン', "(=ノ(●●)・、=)"),
    ("((=^ ェ ^=))", "(=^ ェ ^=)"), ("(￣ー￣(￣ー￣))", "(￣ー￣)"),  # a face of its own inside is no snout
])
def test_a_face_with_a_snout_in_brackets_is_drawn_as_the_whole_face(client, text, face):
    """A bear's or a pig's snout has brackets of its own: ~2,700 faces were "Drawn as (エ)" (or (ェ), (●●)), found by
    reviewers of every locale in session 31; the face is the pair around the snout."""
    assert drawn_face(text) == face
    assert len(face.encode()) < 64  # what Entries.drawn can hold
    item = client.get("/api/v1/kaomojis/31948").get_json()["data"]
    assert "(＾(エ)＾o)" in item["note"] and "Drawn as (エ)" not in item["note"], item["note"]


def test_where_a_drawn_face_is_is_held_in_two_bytes_and_one_past_a_texts_first_kilobyte_is_not_named():
    assert _drawn_span("ヾ(－_－)ﾉ") == len("ヾ".encode()) << 6 | len("(－_－)".encode())
    assert _drawn_span("(" * 3) == 0 and _drawn_span("x" * 1100 + "(^_^)") == 0


def test_category_counts_are_the_entries_with_the_category_that_are_not_sensitive(db):
    counted = dict(db.execute(
        "SELECT pc.category_id, count(*) FROM entries e JOIN profile_categories pc ON pc.profile_id = e.profile_id "
        "WHERE e.sensitive = 0 GROUP BY pc.category_id"))
    for category_id, slug, count in db.execute("SELECT id, slug, entry_count FROM categories"):
        assert counted.get(category_id, 0) == count, slug
    (main,) = db.execute("SELECT count(*) FROM entries e JOIN categories c ON c.id = e.category_id").fetchone()
    assert main == db.execute("SELECT count(*) FROM entries").fetchone()[0]


def test_categories_have_url_safe_slugs_a_documented_type_and_no_uncategorized(db):
    doc = json.loads(build_catalog.CATEGORIES.read_text())
    for slug, type_ in db.execute("SELECT slug, type FROM categories"):
        assert slug.replace("-", "").isalnum() and slug == slug.lower(), slug
        assert type_ in doc["types"]
    assert db.execute("SELECT count(*) FROM categories WHERE slug = 'uncategorized'").fetchone() == (0,)


def test_uncategorized_entries_are_rehomed_by_their_labels(db):
    """Entries left in `other` carry no label that a re-homing rule places; all others found a home."""
    rules = {concept for concept, _ in json.loads(build_catalog.CATEGORIES.read_text())["rehome"]}
    (other_count,) = db.execute("SELECT count(*) FROM entries e JOIN categories c ON c.id = e.category_id WHERE c.slug = 'other'").fetchone()
    assert 0 < other_count < 1000  # the dataset files 6,791 labelled entries under uncategorized
    for (labels,) in db.execute("SELECT p.labels FROM profiles p JOIN categories c ON c.id = p.category_id WHERE c.slug = 'other'"):
        assert not rules & set(json.loads(labels)), labels
    happy = db.execute("SELECT e.category_id FROM entries e WHERE e.id = 10188").fetchone()  # (＾人＾), uncategorized, labelled thanks
    assert db.execute("SELECT slug FROM categories WHERE id = ?", happy).fetchone() == ("greeting",)


@pytest.mark.parametrize("code, query", [("ja", "猫"), ("zh-Hans", "猫"), ("zh-Hant", "貓"), ("ko", "곰"), ("ja", "犬"), ("zh-Hans", "开心")])
def test_one_and_two_character_cjk_queries_match(client, code, query):
    body = client.get("/api/v1/search", query_string={"q": query, "locale": code}).get_json()
    assert body["data"] and body["data"][0]["match"]["locale"] == code


def test_pasted_faces_are_searchable_by_their_text(db):
    (count,) = db.execute("SELECT count(*) FROM entry_text_search WHERE entry_text_search MATCH '\"┻━┻\"'").fetchone()
    assert count > 50


def test_the_file_stays_within_budget(full_catalog):
    assert full_catalog.stat().st_size <= 150 * 1024 * 1024


def test_every_profile_lists_its_categories_main_one_first(db):
    listed: dict[int, list[int]] = {}
    for pid, category_id in db.execute("SELECT profile_id, category_id FROM profile_categories ORDER BY profile_id, position"):
        listed.setdefault(pid, []).append(category_id)
    rows = db.execute("SELECT id, category_id FROM profiles").fetchall()
    assert rows and all(listed[pid][0] == main for pid, main in rows)


def test_entries_of_a_category_share_one_tuple_of_categories(catalog):
    """`categories` costs nothing per entry: profiles with the same categories hold the same tuple."""
    tuples = [t for t in catalog.profile_categories if t is not None]
    assert len({id(t) for t in tuples}) == len(set(tuples))


# What only a CJK font is sure to draw, written out as code point ranges (tools/rendering.py reads scripts).
CJK_RANGES = re.compile(
    "[\u1100-\u11ff\u2e80-\u2fdf\u3000-\u30ff\u3100-\u312f\u3130-\u318f\u31a0-\u33ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
)


def test_needs_cjk_font_agrees_with_the_characters_of_every_face(catalog):
    wrong = [
        catalog.entries.text_at(position) for position in range(len(catalog.entries))
        if catalog.entries.at(position).needs_cjk_font != bool(CJK_RANGES.search(catalog.entries.text_at(position)))
    ]
    assert wrong == [], wrong[:20]


@pytest.mark.parametrize(("text", "cjk", "scripts"), [
    ("(♥ω♥*)", False, ("Greek",)), ("╮(╯_╰)╭", False, ()), ("ಠ_ಠ", False, ("Kannada",)),
    ("ฅ^•ﻌ•^ฅ", False, ("Arabic", "Thai")), ("(◕‿◕)", False, ()), ("(＾人＾)", True, ("Han",)),
    ("(=^･ω･^=)", True, ("Greek",)),
])
def test_rendering_facts_of_a_face_come_from_its_characters(client, text, cjk, scripts):
    item = next(i for i in client.get("/api/v1/search", query_string={"q": text}).get_json()["data"] if i["text"] == text)
    assert item["needs_cjk_font"] is cjk and item["scripts"] == list(scripts)


def test_arms_reaching_out_are_named_for_a_hug_or_a_gift_as_the_part_is_defined(client):
    """⊂ ⊃, つ and づ draw arms held out, to hug or to hand something over (tools/glossary/parts.json): (๑>ω<๑)⊃口 holds
    out a cup, and its meaning, the part's name, said it hugged until session 30."""
    assert "offering" in readings.Glossary().parts["hug"]["definition"]
    meanings = {locale: client.get(f"/api/v1/kaomojis/1000?locale={locale}").get_json()["data"]["meaning"] for locale in LOCALES}
    assert meanings["en"] == "arms reaching out to hug or to give (⊃)"  # the one arm it draws (session 33)
    assert all(meaning.endswith(("(⊃)", "（⊃）")) for meaning in meanings.values()), meanings
    assert "dar algo" in meanings["es"] and "差し出" in meanings["ja"] and "дать" in meanings["ru"] and "递东西" in meanings["zh-Hans"]
