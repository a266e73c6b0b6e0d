"""The HTTP contract of ../shared/spec/kaomoji-api.md and the decisions of issue 3, one rule a test."""

from __future__ import annotations

import os
import re
from array import array

import orjson
import pytest

from kaomoji_api import create_app
from kaomoji_api.catalog import NOTE_PARTS, Ahead
from kaomoji_api.pieces import WRITTEN_AHEAD, WRITTEN_LOCALES, ItemWriter
from kaomoji_api.textnorm import drawn_face

ENTRY_FIELDS = {
    "id", "text", "category", "categories", "name", "meaning", "keywords", "display_width", "ascii_safe", "needs_cjk_font",
    "scripts", "sensitive",
}
DETAIL_FIELDS = ENTRY_FIELDS | {"note", "usage"}


def get(client, url, **kw):
    response = client.get(url, **kw)
    return response, response.get_json(silent=True)


# Resources and fields --------------------------------------------------------------------------

def test_list_items_never_carry_note_or_usage(client):
    response, body = get(client, "/api/v1/kaomojis?limit=100")
    assert response.status_code == 200 and len(body["data"]) == 100
    for item in body["data"]:
        assert set(item) == ENTRY_FIELDS


@pytest.mark.parametrize("path", ["/api/v1/random?count=10", "/api/v1/kaomojis/random?count=10"])
def test_random_items_never_carry_note_or_usage(client, path):
    response, body = get(client, path)
    assert response.status_code == 200 and len(body["data"]) == 10
    for item in body["data"]:
        assert set(item) == ENTRY_FIELDS


def test_single_entry_carries_note_and_usage(client):
    response, body = get(client, "/api/v1/kaomojis/1")
    assert response.status_code == 200
    item = body["data"]
    assert set(item) == DETAIL_FIELDS
    assert item["id"] == 1 and item["text"] == "(◕‿◕)" and item["category"] == "happy"
    assert isinstance(item["note"], str) and item["note"]
    assert 2 <= len(item["usage"]) <= 3 and all("(◕‿◕)" in s for s in item["usage"])


@pytest.mark.parametrize("path", ["/api/v1/search", "/api/v1/kaomojis/search"])
def test_search_items_carry_note_usage_and_why_they_matched(client, path):
    response, body = get(client, path, query_string={"q": "cat"})
    assert response.status_code == 200 and body["data"]
    for item in body["data"]:
        assert set(item) == DETAIL_FIELDS | {"match"}
        assert item["match"]["field"] in {"keyword", "name", "category", "text"}


def drawn_parts(catalog, texts) -> dict[int, str]:
    """Each part as a note names it, by drawings.id, read from the file's rows: the part's name with the face's drawing
    in its brackets, or without them for a part drawn as no note shows (or a name with no place for one)."""
    named = {}
    for number, part, drawing in catalog.db.execute("SELECT id, part_id, drawing FROM drawings"):
        name = texts.parts[part]
        named[number] = name.replace("{drawing}", drawing) if drawing and "{drawing}" in name else re.sub(r"\s?[(（]\{drawing\}[)）]", "", name)
    return named


def test_items_written_from_stored_pieces_show_each_entry_as_its_fields_say(client, catalog):
    """Items are joined from build-time pieces (kaomoji_api/pieces.py): each must still be valid JSON holding the entry's
    own fields, in every locale, faces with quotes and backslashes included."""
    entries = catalog.entries
    escaped = [p for p in range(entries.visible) if '"' in entries.text_at(p) or "\\" in entries.text_at(p)]
    positions = [*escaped[:40], *range(0, entries.visible, 997)]
    assert len(escaped) > 40
    for locale in catalog.locales:
        names, texts = catalog.profile_texts(locale), catalog.note_texts(locale)
        part = drawn_parts(catalog, texts)
        for position in positions:
            entry = entries.at(position)
            response, body = get(client, f"/api/v1/kaomojis/{entry.id}?locale={locale}")
            item = body["data"]
            name, keywords = names[entry.profile_id]
            assert {k: item[k] for k in ENTRY_FIELDS - {"meaning"}} == {
                "id": entry.id, "text": entry.text, "category": catalog.category_slugs[entry.category_id],
                "categories": list(catalog.profile_categories[entry.profile_id]), "name": name, "keywords": list(keywords),
                "display_width": entry.display_width, "ascii_safe": entry.ascii_safe, "needs_cjk_font": entry.needs_cjk_font,
                "scripts": list(entry.scripts), "sensitive": entry.sensitive,
            }, (locale, entry.id)
            said = catalog.reading_runs(entry.text_reading)
            if said:
                glosses = catalog.glosses(locale)
                for text, _, fragment in said:
                    assert text in item["meaning"] and glosses[fragment] in item["meaning"], (locale, item)
            elif entry.lead_part:
                assert item["meaning"] == part[entry.lead_part]
            else:
                assert item["meaning"] == name
            # The note: what each piece of its text says, the face it draws and its first parts, then when to send it.
            note, face = item["note"], drawn_face(entry.text)
            parts = [int(p) for p in catalog.db.execute("SELECT parts FROM entries WHERE id = ?", (entry.id,)).fetchone()[0].split()[:NOTE_PARTS]]
            for piece in filter(None, catalog.said_pieces(entry.text_reading).decode().split("\x1e") if entry.text_reading else ()):
                text, _, fragment, _ = piece.split("\x1f")
                # Less the gloss's own quote of the text, when the locale's glosses quote it (ja: 「ポッ」：…).
                quote = catalog.frames[locale].gloss_quote.replace("{text}", text)
                gloss = catalog.glosses(locale)[int(fragment)]
                assert text in note and (gloss.removeprefix(quote) if quote else gloss) in note, (locale, note)
            assert (face or "") in note and all(part[drawing] in note for drawing in parts), (locale, note)
            assert note.endswith(texts.when[entry.intent_id] if entry.intent_id else texts.about[entry.category_id]), (locale, note)


def test_keywords_are_arrays_of_strings_and_category_a_slug(client):
    _, body = get(client, "/api/v1/kaomojis?limit=50")
    slugs = {c["slug"] for c in get(client, "/api/v1/categories")[1]["data"]}
    for item in body["data"]:
        assert item["keywords"] and all(isinstance(k, str) and k for k in item["keywords"])
        assert item["category"] in slugs


# List ------------------------------------------------------------------------------------------

def test_list_defaults_to_page_1_of_20(client):
    _, body = get(client, "/api/v1/kaomojis")
    assert len(body["data"]) == 20
    assert body["pagination"]["page"] == 1 and body["pagination"]["limit"] == 20
    assert body["pagination"]["total"] >= 68000
    assert body["pagination"]["total_pages"] == -(-body["pagination"]["total"] // 20)


def test_list_limit_is_at_most_100(client):
    assert client.get("/api/v1/kaomojis?limit=100").status_code == 200
    response, body = get(client, "/api/v1/kaomojis?limit=101")
    assert response.status_code == 400 and body["invalid_params"][0]["name"] == "limit"


def test_list_pages_do_not_overlap_and_carry_link_headers(client):
    first, body1 = get(client, "/api/v1/kaomojis?category=cat&limit=10")
    second, body2 = get(client, "/api/v1/kaomojis?category=cat&limit=10&page=2")
    assert not {i["id"] for i in body1["data"]} & {i["id"] for i in body2["data"]}
    links = dict((rel, url) for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', first.headers["Link"]))
    assert set(links) == {"first", "next", "last"}
    assert "page=2" in links["next"] and "category=cat" in links["next"]
    links2 = dict((rel, url) for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', second.headers["Link"]))
    assert "page=1" in links2["prev"]


def test_list_filters_by_category_one_or_several(client):
    _, body = get(client, "/api/v1/kaomojis?category=cute&limit=100")
    assert body["data"] and all("cute" in i["categories"] for i in body["data"])
    _, both = get(client, "/api/v1/kaomojis?category=cat,dog&limit=100")
    assert all({"cat", "dog"} & set(i["categories"]) for i in both["data"])
    counts = {c["slug"]: c["count"] for c in get(client, "/api/v1/categories")[1]["data"]}
    # An entry in both is listed once.
    assert max(counts["cat"], counts["dog"]) <= both["pagination"]["total"] <= counts["cat"] + counts["dog"]


def test_list_filters_by_type_ascii_safe_and_max_width(client):
    _, animals = get(client, "/api/v1/kaomojis?type=animal&limit=100")
    animal_slugs = {c["slug"] for c in get(client, "/api/v1/categories?type=animal")[1]["data"]}
    assert animals["data"] and all(animal_slugs & set(i["categories"]) for i in animals["data"])
    _, ascii_only = get(client, "/api/v1/kaomojis?ascii_safe=true&max_width=6&limit=100")
    assert ascii_only["data"]
    for item in ascii_only["data"]:
        assert item["ascii_safe"] and item["display_width"] <= 6 and item["text"].isascii()


def test_a_page_past_the_end_is_empty_not_an_error(client):
    response, body = get(client, "/api/v1/kaomojis?category=spider&page=50")
    assert response.status_code == 200 and body["data"] == [] and body["pagination"]["page"] == 50


# Single entry ----------------------------------------------------------------------------------

def test_unknown_id_is_404_problem(client):
    response, body = get(client, "/api/v1/kaomojis/999999999")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert body["status"] == 404 and "999999999" in body["detail"]


@pytest.mark.parametrize("path", ["/api/v1/kaomojis/abc", "/api/v1/kaomojis/-1", "/api/v1/kaomojis/1.5", "/api/v1/kaomojis/99999999999999999999999"])
def test_malformed_ids_are_404_not_500(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


# Random ----------------------------------------------------------------------------------------

def test_random_defaults_to_one_and_allows_at_most_ten(client):
    assert len(get(client, "/api/v1/random")[1]["data"]) == 1
    response, body = get(client, "/api/v1/random?count=11")
    assert response.status_code == 400 and body["invalid_params"] == [{"name": "count", "reason": "must be from 1 to 10"}]


def test_random_alias_is_the_same_handler(client):
    one = get(client, "/api/v1/random?count=5&seed=same")[1]
    two = get(client, "/api/v1/kaomojis/random?count=5&seed=same")[1]
    assert one == two


def test_random_with_a_seed_is_reproducible_and_without_one_is_not_stored(client):
    first, body1 = get(client, "/api/v1/random?count=10&seed=2026-11-21")
    _, body2 = get(client, "/api/v1/random?count=10&seed=2026-11-21")
    _, other = get(client, "/api/v1/random?count=10&seed=2026-11-22")
    assert body1 == body2 and body1 != other
    assert "max-age" in first.headers["Cache-Control"]
    unseeded = client.get("/api/v1/random")
    assert unseeded.headers["Cache-Control"] == "no-store"


def test_random_picks_ten_different_faces_spread_over_the_whole_catalog(client, catalog):
    """Unseeded picks take indexes drawn ahead (catalog.Ahead): ten different faces each time, from anywhere in the
    catalog, in no order of position; 300 picks of ten run through refills."""
    seen, ordered = set(), 0
    for _ in range(300):
        ids = [item["id"] for item in get(client, "/api/v1/random?count=10")[1]["data"]]
        assert len(set(ids)) == 10
        positions = [catalog.entries.position(i) for i in ids]
        ordered += positions == sorted(positions)
        seen.update(positions)
    assert ordered < 3
    # 3,000 draws from ~69,000 faces: in each tenth of the catalog, close to a tenth of them.
    tenths = [sum(1 for p in seen if p * 10 // catalog.entries.visible == t) for t in range(10)]
    assert len(seen) > 2900 and min(tenths) > 220, tenths


def test_indexes_drawn_ahead_are_different_within_a_refill_and_a_forked_child_draws_its_own():
    ahead = Ahead(69_000)
    first = ahead.take(100)
    taken = [first, *(ahead.take(100) for _ in range(len(ahead.drawn) // 100 - 1))]
    assert len({i for pick in taken for i in pick}) == 100 * len(taken) and max(first) < 69_000
    assert ahead.take(100) is not None and ahead.next == 100  # a refill
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child's next pick, then out
        os.write(writer, ahead.take(10).tobytes())
        os._exit(0)
    os.waitpid(child, 0)
    os.close(writer)
    in_child = array("I", os.read(reader, 40))
    os.close(reader)
    assert len(in_child) == 10 and list(in_child) != list(ahead.take(10))
    assert Ahead(50).take(100) is None  # more than a refill can hold: the caller samples


def test_unseeded_picks_written_ahead_are_the_faces_items_different_in_every_locale_and_forgotten_by_a_child(client, catalog):
    writer = ItemWriter(catalog)
    for locale, count in [("en", 10), ("ja", 1), ("en", 25), ("ja", 30), ("en", 100), ("ru", 10), ("ja", 10)] * 3:
        taken = writer.picks.take(count, locale)
        ids = [orjson.loads(item)["id"] for item in taken]
        assert len(set(ids)) == len(ids) == count
        assert taken == writer.items([catalog.entries.position(i) for i in ids], locale)
        # Three locales asked for: the batches of the last two are kept, the other's dropped.
        assert len(writer.picks.batches) <= WRITTEN_LOCALES < 3
        assert sum(len(items) for items, _ in writer.picks.batches.values()) <= WRITTEN_AHEAD * WRITTEN_LOCALES
    writer.picks.take(1, "en")
    reader, pipe = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(pipe, orjson.dumps([orjson.loads(item)["id"] for item in writer.picks.take(5, "en")]))
        os._exit(0)
    os.waitpid(child, 0)
    os.close(pipe)
    in_child = orjson.loads(os.read(reader, 1000))
    os.close(reader)
    assert len(in_child) == 5 and in_child != [orjson.loads(item)["id"] for item in writer.picks.take(5, "en")]


def test_random_honours_category(client):
    _, body = get(client, "/api/v1/random?count=10&category=cat")
    assert body["data"] and all("cat" in i["categories"] for i in body["data"])


# Search ----------------------------------------------------------------------------------------

def test_search_returns_at_most_25_ranked_with_pagination(client):
    response, body = get(client, "/api/v1/search?q=happy")
    assert response.status_code == 200 and len(body["data"]) == 25
    assert body["pagination"]["limit"] == 25 and body["pagination"]["total"] > 1000
    assert client.get("/api/v1/search?q=happy&limit=26").status_code == 400
    page2 = get(client, "/api/v1/search?q=happy&page=2")[1]
    assert not {i["id"] for i in body["data"]} & {i["id"] for i in page2["data"]}


@pytest.mark.parametrize("q", ["", "   ", "x" * 101, "x" * 10000])
def test_search_query_must_be_1_to_100_characters(client, q):
    response, body = get(client, "/api/v1/search", query_string={"q": q})
    assert response.status_code == 400 and body["invalid_params"][0]["name"] == "q"


def test_search_without_q_is_400(client):
    assert client.get("/api/v1/search").status_code == 400


@pytest.mark.parametrize("q", ['"', '""', "cat*", "NEAR(", "NEAR(cat dog)", "cat OR dog", "-cat", "cat AND", "(", ")", "^", "a:b", "{x}", "'", "\\", "%", "*"])
def test_no_query_raises_an_fts_syntax_error(client, q):
    response = client.get("/api/v1/search", query_string={"q": q})
    assert response.status_code == 200, (q, response.get_data(as_text=True))


@pytest.mark.parametrize("q", ["\x00", "a\x00b", "é\x00.\U0001f3fbX"])
def test_a_query_with_a_nul_character_is_400_not_500(client, q):
    response, body = get(client, "/api/v1/search", query_string={"q": q})
    assert response.status_code == 400 and body["invalid_params"][0]["name"] == "q"


def test_cross_language_queries_work_whatever_the_locale(client):
    _, body = get(client, "/api/v1/search?q=cat&locale=ja&limit=5")
    assert body["data"] and all(i["category"] == "cat" or "猫" in i["keywords"] for i in body["data"])
    assert all("猫" in i["keywords"] for i in body["data"])  # shown in Japanese


def test_pasting_a_face_finds_entries_containing_it(client):
    _, body = get(client, "/api/v1/search", query_string={"q": "┻━┻", "limit": 10})
    assert len(body["data"]) == 10 and all("┻━┻" in i["text"] for i in body["data"])


# Categories ------------------------------------------------------------------------------------

def test_categories_list_id_slug_name_type_count_emoji_description_url_and_filter_by_type(client):
    _, body = get(client, "/api/v1/categories")
    assert len(body["data"]) >= 40
    for c in body["data"]:
        assert set(c) == {"id", "slug", "name", "type", "count", "emoji", "description", "url"} and c["count"] > 0
        assert c["id"] == c["slug"] and c["emoji"] and c["description"].endswith(".")
    _, emotions = get(client, "/api/v1/categories?type=emotion")
    assert emotions["data"] and all(c["type"] == "emotion" for c in emotions["data"])
    response, bad = get(client, "/api/v1/categories?type=nonsense")
    assert response.status_code == 400 and "emotion" in bad["invalid_params"][0]["reason"]


def test_every_item_lists_its_categories_main_one_first(client):
    for path in ["/api/v1/kaomojis?limit=100", "/api/v1/random?count=10", "/api/v1/search?q=cat", "/api/v1/kaomojis?category=dog"]:
        for item in get(client, path)[1]["data"]:
            assert item["categories"][0] == item["category"] and len(set(item["categories"])) == len(item["categories"]), path
    assert get(client, "/api/v1/kaomojis/1")[1]["data"]["categories"] == ["happy"]


def test_a_category_url_is_its_page_in_the_requested_locale(client):
    urls = {c["id"]: c["url"] for c in get(client, "/api/v1/categories", base_url="https://kaomoji.example")[1]["data"]}
    assert urls["cat"] == "https://kaomoji.example/category/cat"
    ja = {c["id"]: c["url"] for c in get(client, "/api/v1/categories?locale=ja", base_url="https://kaomoji.example")[1]["data"]}
    assert ja["table-flip"] == "https://kaomoji.example/ja/category/table-flip"
    # The response cache keeps one answer per address the request was sent to.
    assert get(client, "/api/v1/categories", base_url="http://other.example")[1]["data"][0]["url"].startswith("http://other.example/category/")


def test_behind_proxies_the_public_url_setting_makes_category_urls(full_catalog):
    from kaomoji_api import create_app

    app = create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False, "PUBLIC_URL": "https://kaomoji.example/"})
    body = app.test_client().get("/api/v1/categories?locale=zh-Hant", base_url="http://127.0.0.1:8000").get_json()
    assert {c["url"] for c in body["data"]} == {f"https://kaomoji.example/zh-Hant/category/{c['id']}" for c in body["data"]}


def test_category_descriptions_are_localized(client):
    en = {c["id"]: c["description"] for c in get(client, "/api/v1/categories")[1]["data"]}
    ja = {c["id"]: c["description"] for c in get(client, "/api/v1/categories?locale=ja")[1]["data"]}
    assert all(ja[slug] != en[slug] and ja[slug].endswith("。") for slug in en)


def test_unknown_category_lists_the_valid_ones(client):
    response, body = get(client, "/api/v1/kaomojis?category=nonsense")
    assert response.status_code == 400 and "cute" in body["invalid_params"][0]["reason"]


# Locales ---------------------------------------------------------------------------------------

def test_locale_works_on_every_endpoint_single_entry_included(client):
    for path in ["/api/v1/kaomojis/1", "/api/v1/kaomojis?limit=1", "/api/v1/random", "/api/v1/search?q=cat", "/api/v1/categories"]:
        response = client.get(path + ("&" if "?" in path else "?") + "locale=ja")
        assert response.status_code == 200 and response.headers["Content-Language"] == "ja"
    _, body = get(client, "/api/v1/kaomojis/1?locale=ja")
    assert body["data"]["name"] != get(client, "/api/v1/kaomojis/1?locale=en")[1]["data"]["name"]


def test_unknown_locale_is_400_listing_the_supported_ones(client):
    response, body = get(client, "/api/v1/kaomojis/1?locale=xx")
    assert response.status_code == 400
    reason = body["invalid_params"][0]["reason"]
    for code in ["en", "ja", "ko", "zh-Hans", "zh-Hant", "es", "pt", "fr", "de", "it", "ru", "id"]:
        assert code in reason


@pytest.mark.parametrize("tag, expected", [
    ("zh", "zh-Hans"), ("zh-CN", "zh-Hans"), ("ZH-cn", "zh-Hans"), ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
    ("zh-hant", "zh-Hant"), ("pt-BR", "pt"), ("en-US", "en"), ("JA", "ja"), ("fr-CA", "fr"),
])
def test_locale_aliases_are_accepted_case_insensitively(client, tag, expected):
    response = client.get(f"/api/v1/kaomojis/1?locale={tag}")
    assert response.status_code == 200 and response.headers["Content-Language"] == expected


def test_accept_language_is_negotiated_and_english_is_the_default(client):
    assert client.get("/api/v1/kaomojis/1").headers["Content-Language"] == "en"
    negotiated = client.get("/api/v1/kaomojis/1", headers={"Accept-Language": "xx, de-AT;q=0.9, en;q=0.5"})
    assert negotiated.headers["Content-Language"] == "de"
    assert client.get("/api/v1/kaomojis/1", headers={"Accept-Language": "zh-TW"}).headers["Content-Language"] == "zh-Hant"
    explicit = client.get("/api/v1/kaomojis/1?locale=ko", headers={"Accept-Language": "de"})
    assert explicit.headers["Content-Language"] == "ko"
    assert "Accept-Language" in negotiated.headers["Vary"]


# Errors ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "/api/v1/kaomojis?page=0", "/api/v1/kaomojis?page=99999999999999999999", "/api/v1/kaomojis?page=abc",
    "/api/v1/kaomojis?limit=0", "/api/v1/random?count=11", "/api/v1/random?count=0", "/api/v1/kaomojis?ascii_safe=maybe",
    "/api/v1/kaomojis?max_width=-3", "/api/v1/search?q=", "/api/v1/search?q=cat&page=-1", "/api/v1/random?seed=" + "s" * 101,
])
def test_bad_parameters_are_400_problems_naming_the_parameter(client, path):
    response, body = get(client, path)
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert {"type", "title", "status", "detail", "invalid_params"} <= set(body)
    assert body["invalid_params"][0]["name"] in path


@pytest.mark.parametrize(("path", "name"), [("/api/v1/search?q=%FF%FE", "q"), ("/api/v1/kaomojis?category=%C3%28", "category")])
def test_bytes_that_are_not_utf8_are_400_naming_the_parameter(client, path, name):
    response = client.get(path)
    assert response.status_code == 400 and response.mimetype == "application/problem+json"
    assert response.get_json() == {
        "type": "about:blank", "title": "Bad Request", "status": 400, "detail": f"{name}: is not valid UTF-8",
        "invalid_params": [{"name": name, "reason": "is not valid UTF-8"}],
    }


def test_unknown_paths_are_404_problems(client):
    response, body = get(client, "/api/v2/kaomojis")
    assert response.status_code == 404 and body["status"] == 404 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_other_methods_are_405_with_allow(client, method):
    response = getattr(client, method)("/api/v1/kaomojis")
    assert response.status_code == 405 and response.mimetype == "application/problem+json"
    assert set(response.headers["Allow"].split(", ")) >= {"GET", "HEAD"}


def test_unexpected_failures_are_500_problems_without_a_traceback(full_catalog, monkeypatch):
    from kaomoji_api import catalog as catalog_module
    from kaomoji_api import create_app

    def explode(self, *args):
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr(catalog_module.Catalog, "category_name", explode)
    app = create_app({"CATALOG": str(full_catalog), "PROPAGATE_EXCEPTIONS": False})
    response = app.test_client().get("/api/v1/categories")
    assert response.status_code == 500 and response.mimetype == "application/problem+json"
    text = response.get_data(as_text=True)
    assert "Traceback" not in text and "secret" not in text
    assert response.headers["Access-Control-Allow-Origin"] == "*"


# HTTP behaviour --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/v1/kaomojis/1", "/api/v1/kaomojis/999999999", "/nope", "/api/v1/search?q="])
def test_cors_allows_any_origin_on_every_response(client, path):
    response = client.get(path, headers={"Origin": "https://example.org"})
    assert response.headers.getlist("Access-Control-Allow-Origin") == ["*"]  # once, however it was added
    assert len(response.headers.getlist("Access-Control-Expose-Headers")) == 1


def test_cors_exposes_the_headers_browsers_need(client):
    exposed = client.get("/api/v1/kaomojis", headers={"Origin": "https://example.org"}).headers["Access-Control-Expose-Headers"]
    for header in ["ETag", "Link", "Retry-After", "Content-Language", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]:
        assert header.lower() in exposed.lower()


def test_preflight_is_answered(client):
    response = client.options("/api/v1/search", headers={
        "Origin": "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "Accept-Language",
    })
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "GET" in response.headers["Access-Control-Allow-Methods"]


def test_every_200_has_an_etag_and_a_matching_if_none_match_gets_304(client):
    for path in ["/api/v1/kaomojis/1", "/api/v1/kaomojis", "/api/v1/search?q=cat", "/api/v1/categories", "/api/v1/openapi.json", "/api/v1/random?seed=x"]:
        response = client.get(path)
        etag = response.headers["ETag"]
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.data == b"", path
    for path in ["/api/v1/random", "/healthz"]:  # never stored, so never revalidated
        response = client.get(path)
        assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers


def test_a_single_entrys_etag_is_made_from_what_makes_it_the_same_in_every_worker(client, full_catalog, sample_catalog):
    """A single entry's ETag names the code, the catalog, the locale and the id (api/items.py entry_etag) rather than
    hashing the body: two workers give one entry one ETag, and it changes with each of them, as the body does."""
    other = create_app({"TESTING": True, "CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False}).test_client()
    paths = ["/api/v1/kaomojis/1", "/api/v1/kaomojis/2", "/api/v1/kaomojis/1?locale=ja"]
    responses = [client.get(path) for path in paths]
    etags = [response.headers["ETag"] for response in responses]
    assert etags == [other.get(path).headers["ETag"] for path in paths]
    assert len(set(etags)) == 3 and responses[0].data != responses[2].data
    assert client.get("/api/v1/kaomojis/1", headers={"Accept-Language": "ja"}).headers["ETag"] == etags[2]
    assert client.get("/api/v1/kaomojis/1", headers={"If-None-Match": etags[0]}).status_code == 304
    assert client.get("/api/v1/kaomojis/1", headers={"If-None-Match": etags[2]}).status_code == 200
    sample = create_app({"TESTING": True, "CATALOG": str(sample_catalog), "RATELIMIT_ENABLED": False}).test_client()
    some_id = sample.get("/api/v1/kaomojis?limit=1").get_json()["data"][0]["id"]  # the sample's faces are the full catalog's
    in_sample, in_full = sample.get(f"/api/v1/kaomojis/{some_id}"), client.get(f"/api/v1/kaomojis/{some_id}")
    assert in_sample.status_code == in_full.status_code == 200 and in_sample.headers["ETag"] != in_full.headers["ETag"]


def test_a_response_made_in_one_step_is_what_werkzeug_would_make(client):
    """ApiResponse.ok skips Werkzeug's constructor (kaomoji_api/http.py): it must set the same attributes to the same
    values as Werkzeug's constructor given the body passed through, so that a Werkzeug release that sets more fails here
    rather than in production."""
    from flask import Response
    from werkzeug.datastructures import Headers

    from kaomoji_api.http import ApiResponse

    body = b'{"data":[]}'
    headers = [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")]
    fast, usual = ApiResponse.ok(body, Headers(headers), entries=3), Response(body, 200, headers=Headers(headers), direct_passthrough=True)
    assert vars(fast).keys() - {"entries"} == vars(usual).keys()
    assert {k: v for k, v in vars(fast).items() if k != "entries"} == vars(usual) and fast.entries == 3
    # And as the client sees it: the length is the body's, once.
    response = client.get("/api/v1/kaomojis/1")
    assert response.headers.getlist("Content-Length") == [str(len(response.data))]


@pytest.mark.parametrize("path", [
    "/api/v1/random?count=10", "/api/v1/kaomojis/1", "/api/v1/kaomojis?limit=20", "/api/v1/search?q=cat", "/api/v1/categories",
    "/kaomoji/1", "/category/cat",
])
def test_a_usual_request_raises_no_exception_on_its_way(app, path):
    """An exception raised and caught, even deep in Werkzeug (a KeyError for each absent parameter or header), costs a
    worker microseconds: three of them took 7% of a random pick's time in the app (README, "What changed in session
    21"). A usual request takes no such path, from the WSGI call to its body."""
    import sys

    from werkzeug.test import EnvironBuilder

    environ = EnvironBuilder(path=path.split("?")[0], query_string=path.partition("?")[2], headers={"Host": "localhost"}).get_environ()
    b"".join(app(dict(environ), lambda *args: None))  # what a first request makes once (chrome, pieces) may raise and catch
    raised = []

    def trace(frame, event, arg):
        if event == "exception":
            raised.append(f"{arg[0].__name__} in {frame.f_code.co_filename}:{frame.f_lineno}")
        return trace

    sys.settrace(trace)
    try:
        body = b"".join(app(dict(environ), lambda status, headers: raised.append(status) if not status.startswith("200") else None))
    finally:
        sys.settrace(None)
    assert body
    assert raised == []


@pytest.mark.parametrize("path, policy", [
    ("/api/v1/kaomojis/1", "public, max-age=86400"), ("/api/v1/categories", "public, max-age=86400"),
    ("/api/v1/openapi.json", "public, max-age=86400"), ("/api/v1/kaomojis", "public, max-age=300"),
    ("/api/v1/search?q=cat", "public, max-age=300"), ("/api/v1/random", "no-store"), ("/api/v1/random?seed=a", "public, max-age=3600"),
])
def test_cache_control_is_chosen_per_endpoint(client, path, policy):
    assert client.get(path).headers["Cache-Control"] == policy


def test_head_works_wherever_get_does(client):
    for path in ["/api/v1/kaomojis/1", "/api/v1/kaomojis", "/api/v1/search?q=cat", "/api/v1/categories", "/api/v1/openapi.json", "/healthz", "/api/v1/random"]:
        response = client.head(path)
        assert response.status_code == 200 and response.data == b"", path


def test_json_is_utf8_with_real_characters(client):
    response = client.get("/api/v1/kaomojis/1")
    assert response.mimetype == "application/json"
    raw = response.get_data()
    assert "(◕‿◕)".encode() in raw and b"\\u" not in raw


def test_healthz_reports_the_catalog(client):
    response, body = get(client, "/healthz")
    assert response.status_code == 200 and body["status"] == "ok"
    assert len(body["catalog"]["version"]) == 16 and body["catalog"]["counts"]["entries"] >= 69000
    assert len(body["catalog"]["locales"]) == 12


def test_a_cached_response_is_the_same_as_a_fresh_one(full_catalog):
    from kaomoji_api import create_app
    from kaomoji_api.current import served

    app = create_app({"TESTING": True, "CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False})
    cached = app.test_client()
    with app.app_context():
        cache = served().responses
    fresh = create_app({"TESTING": True, "CATALOG": str(full_catalog), "RESPONSE_CACHE_BYTES": 0, "RATELIMIT_ENABLED": False}).test_client()
    for path, headers in [("/api/v1/search?q=cat", {}), ("/api/v1/search?q=cat", {"Accept-Language": "ja"}),
                          ("/api/v1/kaomojis?category=dog", {"Accept-Language": "ko"}), ("/api/v1/categories?locale=de", {}),
                          ("/api/v1/random?seed=day&count=3", {"Accept-Language": "fr"})]:
        first = cached.get(path, headers=headers)
        hits = cache.hits
        second, reference = cached.get(path, headers=headers), fresh.get(path, headers=headers)
        assert cache.hits == hits + 1, path  # the second answer came from the cache
        assert first.data == second.data == reference.data
        for header in ("ETag", "Content-Language", "Cache-Control", "Link"):
            assert second.headers.get(header) == reference.headers.get(header), (path, header)
    picks = {cached.get("/api/v1/random?count=10").data for _ in range(5)}
    assert len(picks) > 1  # unseeded random picks are never served from the cache
