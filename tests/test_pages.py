"""The pages with their own addresses (issue 13): catalog, category, kaomoji and search pages, their 404 and 400
pages, the sitemap and robots.txt, as HTTP resources. What they do in a browser is in test_browser.py.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html import unescape
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from kaomoji_api import create_app
from kaomoji_api.web import SIMILAR, STATIC, render
from kaomoji_api.web.sitemap import URLS_PER_FILE

LABELS = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))
LOCALES = list(LABELS)
ATTRIBUTION = "FontVibe (https://fontvibe.ai/tools/kaomoji)"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


class Html(HTMLParser):
    """What the tests read of a page: head tags, scripts, elements by id or class, and the visible text."""

    def __init__(self, html: str):
        super().__init__()
        self.title, self.meta, self.links, self.scripts = "", {}, [], []
        self.text, self.by_class, self.json = [], {}, {}
        self._open: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta":
            self.meta[attrs.get("name") or attrs.get("property")] = attrs.get("content")
        elif tag == "link":
            self.links.append(attrs)
        elif tag == "script":
            self.scripts.append(attrs)
        if tag not in ("meta", "link", "input", "br", "img"):
            self._open.append((tag, attrs))

    def handle_endtag(self, tag):
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        tag, attrs = self._open[-1] if self._open else ("", {})
        if tag == "title":
            self.title += data
        elif tag == "script":
            self.json[attrs.get("id")] = json.loads(data)
        else:
            self.text.append(data)
            for _, open_attrs in self._open:
                for name in (open_attrs.get("class") or "").split():
                    self.by_class.setdefault(name, []).append(data)

    def texts(self, class_name: str) -> list[str]:
        return self.by_class.get(class_name, [])

    @property
    def all_text(self) -> str:
        return " ".join("".join(self.text).split())


def page(client, path: str, status: int = 200):
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "text/html"
    return response, Html(response.get_data(as_text=True))


def api(client, path: str, **params) -> dict:
    response = client.get(path, query_string=params)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


@pytest.fixture(scope="module")
def sensitive_id(catalog) -> int:
    return catalog.entries.ids[catalog.entries.visible]


PAGES = ["/", "/ja/", "/category/cat", "/ko/category/happy", "/kaomoji/1", "/zh-Hant/kaomoji/1", "/de/search?q=katze"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_title_description_open_graph_canonical_link_and_hreflang_for_the_12_locales(client, path):
    _, html = page(client, path)
    assert html.title.strip() and html.meta["description"].strip()
    for tag in ("og:title", "og:description", "og:url", "og:type", "og:site_name"):
        assert html.meta[tag].strip(), tag
    canonical = [link["href"] for link in html.links if link.get("rel") == "canonical"]
    path_only = path.split("?")[0]
    assert len(canonical) == 1 and urlsplit(canonical[0]).path == path_only
    assert html.meta["og:url"] == canonical[0]
    alternates = {link["hreflang"]: link["href"] for link in html.links if link.get("rel") == "alternate"}
    assert set(alternates) == {*LOCALES, "x-default"}
    suffix = re.sub(r"^/(ja|ko|zh-Hans|zh-Hant|es|pt|fr|de|it|ru|id)/", "/", path_only)
    assert urlsplit(alternates["en"]).path == suffix == urlsplit(alternates["x-default"]).path
    assert urlsplit(alternates["zh-Hans"]).path == "/zh-Hans" + suffix
    # FontVibe's attribution stays visible on every page.
    assert ATTRIBUTION in html.all_text and "CC BY 4.0" in html.all_text


@pytest.mark.parametrize("path", PAGES + ["/kaomoji/999999999"])
def test_pages_run_no_inline_script_and_pass_their_data_as_json(client, path):
    response = client.get(path)
    assert "script-src" not in response.headers["Content-Security-Policy"]  # default-src 'self': no inline script
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    html = Html(response.get_data(as_text=True))
    for script in html.scripts:
        assert script.get("src") or script.get("type") == "application/json", script
    assert html.json["settings"]["locale"] in LOCALES and html.json["view"]["kind"]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_category_page_lists_what_the_default_api_list_shows_with_its_texts_in_the_html(client, locale):
    path = "/category/cat" if locale == "en" else f"/{locale}/category/cat"
    _, html = page(client, path)
    expected = api(client, "/api/v1/kaomojis", category="cat", locale=locale, limit=24)
    assert html.texts("face-text") == [e["text"] for e in expected["data"]]
    assert html.texts("name") == [e["name"] for e in expected["data"]]
    category = next(c for c in api(client, "/api/v1/categories", locale=locale)["data"] if c["slug"] == "cat")
    assert category["name"] in html.title and category["name"] in "".join(html.texts("results-heading"))
    # The category's `url` in the API is this page.
    assert urlsplit(category["url"]).path == path
    assert html.json["settings"]["locale"] == locale
    assert client.get(path).headers["Content-Language"] == locale


def test_a_category_pages_next_page_is_the_apis_next_page_and_the_pager_links_both_ways(client):
    _, html = page(client, "/category/cat?page=2")
    expected = api(client, "/api/v1/kaomojis", category="cat", limit=24, page=2)
    assert html.texts("face-text") == [e["text"] for e in expected["data"]]
    total_pages = -(-expected["pagination"]["total"] // 24)
    assert LABELS["en"]["page_of"].format(page=2, pages=total_pages) in html.all_text
    body = client.get("/category/cat?page=2").get_data(as_text=True)
    assert 'rel="prev" href="/category/cat?page=1"' in body and 'rel="next" href="/category/cat?page=3"' in body


def test_the_catalog_page_shows_the_first_faces_of_the_catalog_in_its_locale(client):
    _, html = page(client, "/ru/")
    expected = api(client, "/api/v1/kaomojis", locale="ru", limit=24)["data"]
    assert html.texts("face-text") == [e["text"] for e in expected]
    assert html.texts("name") == [e["name"] for e in expected]
    assert LABELS["ru"]["tagline"] in html.all_text


@pytest.mark.parametrize("locale", ["en", "ja", "pt"])
def test_a_kaomoji_page_shows_the_face_its_note_usage_keywords_and_category_links(client, locale):
    path = "/kaomoji/1" if locale == "en" else f"/{locale}/kaomoji/1"
    response, html = page(client, path)
    entry = api(client, "/api/v1/kaomojis/1", locale=locale)["data"]
    assert html.texts("entry-face") == [entry["text"]] and entry["text"] in html.title
    assert html.texts("entry-name") == [entry["name"]]
    assert html.texts("entry-note") == [entry["note"]]
    assert [t for t in html.texts("usage")] == entry["usage"]
    assert html.texts("entry-categories") == [
        next(c["name"] for c in api(client, "/api/v1/categories", locale=locale)["data"] if c["slug"] == slug)
        for slug in entry["categories"]
    ]
    body = response.get_data(as_text=True)
    for slug in entry["categories"]:
        assert f'href="{"" if locale == "en" else "/" + locale}/category/{slug}"' in body
    # The copy button is there for the script to show; without script it stays hidden.
    assert re.search(r'<button type="button" id="entry-copy" class="copy" hidden>' + re.escape(LABELS[locale]["copy"]), body)
    assert html.meta["og:title"].startswith(entry["text"])
    assert "robots" not in html.meta


@pytest.mark.parametrize("locale", ["en", "fr", "ja"])
def test_a_kaomoji_page_says_what_its_item_says_where_html_or_json_escape_a_character(client, locale):
    """A page's texts are written as HTML from the pieces the API writes its JSON from (pieces.ItemWriter.html). Read
    back, they say what the item says, for every entry whose face, name, meaning, note, usage or keywords hold a
    character that JSON or HTML escapes (\\ " & < > ')."""
    state = client.application.extensions["kaomoji_served"].value
    items, entries = state.items, state.catalog.entries
    escaping = [position for position in range(entries.visible) if re.search(rb"[&<>'\\\\]", items.detail(position, locale))]
    assert len(escaping) > 100
    for position in escaping[::max(1, len(escaping) // 400)]:
        entry = json.loads(items.detail(position, locale))
        _, html = page(client, f"{render.prefix(locale)}/kaomoji/{entry['id']}")
        assert html.texts("entry-face") == [entry["text"]] and html.title.startswith(f'{entry["text"]} {entry["name"]}')
        assert html.texts("entry-name") == [entry["name"]]
        assert html.texts("entry-meaning") == [entry["meaning"]]
        assert html.texts("entry-note") == [entry["note"]]
        assert html.texts("usage") == entry["usage"]
        assert html.texts("keywords")[:len(entry["keywords"])] == entry["keywords"]
        assert html.meta["description"] == render.shorten(entry["note"])
        assert html.json["view"] == {"kind": "kaomoji", "id": entry["id"], "text": entry["text"], "name": entry["name"],
                                     "category": entry["category"]}


@pytest.mark.parametrize("locale", ["en", "fr", "ja"])
def test_a_kaomoji_pages_description_is_its_note_shortened_whatever_its_length_and_script(client, locale):
    """Cut as render.shorten cuts the note, read back: over notes short and long, with and without a space where the cut
    falls, and with characters that HTML escapes."""
    state = client.application.extensions["kaomoji_served"].value
    items, entries = state.items, state.catalog.entries
    lengths = []
    for position in range(0, entries.visible, 13):
        note = json.loads(items.note(position, locale))
        lengths.append(len(note))
        described = render.page_description(items.html(position, locale).note).decode()
        assert unescape(described) == render.shorten(note) and '"' not in described, position
    assert min(lengths) <= render.DESCRIPTION_LENGTH < max(lengths)
    for position in range(0, entries.visible, 5000):
        _, html = page(client, f"{render.prefix(locale)}/kaomoji/{entries.ids[position]}")
        assert html.meta["description"] == html.meta["og:description"] == render.shorten(json.loads(items.note(position, locale)))


def test_faces_like_it_come_from_the_same_labels_first_and_are_never_the_face_itself_or_a_near_copy(client, catalog):
    _, html = page(client, "/kaomoji/1")
    similar = [int(i) for i in re.findall(r'<li class="card" data-id="(\d+)"', client.get("/kaomoji/1").get_data(as_text=True))]
    assert 1 <= len(similar) <= 8 and 1 not in similar
    entries = catalog.entries
    shapes = [entries.shapes[entries.position(i)] for i in [1, *similar]]
    assert len(set(shapes)) == len(shapes)
    assert entries.profiles[entries.position(similar[0])] == entries.profiles[entries.position(1)]
    assert html.texts("results-heading") == [LABELS["en"]["similar"]]


def test_the_faces_like_it_on_a_kaomoji_page_are_those_made_for_it_even_when_kept_from_an_earlier_page(client):
    """Pages of one profile's faces mostly show the same faces like them, whose cards are kept (render.similar_cards):
    each page, in each locale, must still show the cards made for its own."""
    state = client.application.extensions["kaomoji_served"].value
    entries = state.catalog.entries
    positions = [*entries.of_profile(entries.profiles[0])[:10], *entries.of_profile(entries.profiles[500])[:3]]
    for locale in ("en", "ja", "en"):
        for position in positions:
            body = client.get(f"{render.prefix(locale)}/kaomoji/{entries.ids[position]}").get_data(as_text=True)
            fresh = render.cards(state, state.catalog.similar_positions(position, SIMILAR), locale).decode()
            assert f'<ul id="results" class="grid" aria-busy="false">{fresh}</ul>' in body, (locale, position)


def test_cards_write_faces_with_the_characters_html_escapes_as_text(client):
    """A card writes a face as its bytes stand unless it holds & < > " or ' (HTML_ESCAPED): every such face of the catalog,
    and faces without, read back from the markup as themselves, with their names."""
    state = client.application.extensions["kaomoji_served"].value
    entries = state.catalog.entries
    special = [p for p in range(entries.visible) if set(entries.text_at(p)) & set("&<>\"'")]
    assert len(special) > 100
    positions = [*special, *range(50)]
    html = Html(f"<ul>{render.cards(state, positions, 'fr').decode()}</ul>")
    assert html.texts("face-text") == [entries.text_at(p) for p in positions]
    names = state.items.names("fr")
    assert html.texts("name") == [names[entries.profiles[p]] for p in positions]


def test_every_name_reads_as_itself_from_a_card_in_every_locale(client):
    """A card writes its face's name between tags and in two double-quoted attributes, with the items' own JSON pieces
    wherever those read the same (ItemWriter.html_names): every profile's name in every locale reads back as itself
    from all three, the few that hold & < > or " (Pachinko & slot, Encontro "por acaso") among them."""
    state = client.application.extensions["kaomoji_served"].value
    entries = state.catalog.entries
    positions = [shown[0] for profile in range(len(state.catalog.profile_categories))
                 if (shown := [p for p in entries.of_profile(profile) if p < entries.visible])]
    escaped = 0
    for locale in render.page_locales():
        names = [state.items.names(locale)[entries.profiles[p]] for p in positions]
        cards = render.cards(state, positions, locale).decode()
        assert Html(f"<ul>{cards}</ul>").texts("name") == names, locale
        labels = [unescape(label) for label in re.findall(r'aria-label="([^"]*)"', cards)]
        assert all(name in labels[2 * i] and name in labels[2 * i + 1] for i, name in enumerate(names)), locale
        escaped += sum(bool(set(name) & set('&<>"')) for name in names)
    assert escaped >= 2


def test_a_sensitive_face_has_its_own_page_unindexed_and_is_never_listed_elsewhere(client, catalog, sensitive_id):
    _, html = page(client, f"/kaomoji/{sensitive_id}")
    assert html.meta["robots"] == "noindex"
    text = catalog.entry(sensitive_id).text
    assert html.texts("entry-face") == [text]
    # Not among the faces like another one of its labels, not in its category's pages, not in the sitemap.
    entries = catalog.entries
    for position in entries.of_profile(entries.profiles[entries.position(sensitive_id)])[:5]:
        assert f'data-id="{sensitive_id}"' not in client.get(f"/kaomoji/{entries.ids[position]}").get_data(as_text=True)
    assert sensitive_id not in catalog.indexable_ids()
    assert len(catalog.indexable_ids()) == entries.visible


def test_a_redirected_id_is_a_301_to_the_kept_id_in_the_same_locale(client, catalog):
    old, kept = next(iter(catalog.redirects.items()))
    response = client.get(f"/ja/kaomoji/{old}?ref=x")
    assert response.status_code == 301 and response.headers["Location"] == f"/ja/kaomoji/{kept}?ref=x"
    assert client.get(f"/kaomoji/{old}").headers["Location"] == f"/kaomoji/{kept}"


@pytest.mark.parametrize(("path", "locale"), [
    ("/kaomoji/999999999", "en"), ("/ja/kaomoji/999999999", "ja"), ("/kaomoji/abc", "en"), ("/kaomoji/-1", "en"),
    ("/category/no-such-category", "en"), ("/ko/category/no-such-category", "ko"), ("/category/cat?page=999", "en"),
])
def test_unknown_ids_slugs_and_pages_get_an_html_404_page_in_the_pages_language(client, path, locale):
    response, html = page(client, path, 404)
    assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers
    assert LABELS[locale]["not_found_title"] in html.title
    assert LABELS[locale]["not_found"] in html.all_text and LABELS[locale]["back_home"] in html.all_text
    assert html.meta["robots"] == "noindex"
    assert ATTRIBUTION in html.all_text


@pytest.mark.parametrize("query", ["page=abc", "page=0", "page=-3", "page=1.5", "page=%EF%BC%92", "page=99999999999"])
def test_a_bad_page_number_is_an_html_400_page_never_a_500(client, query):
    for path, locale in (("/category/cat?", "en"), ("/fr/search?q=chat&", "fr")):
        response, html = page(client, path + query, 400)
        assert LABELS[locale]["bad_request_title"] in html.title
        assert "Traceback" not in html.all_text


def test_a_query_string_that_is_not_utf8_is_not_a_500(client):
    assert client.get("/search?q=%FF%FE").status_code in (200, 400)
    assert client.get("/category/cat?page=%FF").status_code == 400


def test_a_search_page_shows_the_apis_search_results_and_is_not_indexed(client):
    _, html = page(client, "/ja/search?q=%E7%8C%AB")
    expected = api(client, "/api/v1/search", q="猫", locale="ja", limit=24)["data"]
    assert html.texts("face-text") == [e["text"] for e in expected]
    assert html.meta["robots"] == "noindex"
    assert html.json["view"] == {"kind": "search", "query": "猫", "page": 1, "total_pages": html.json["view"]["total_pages"]}


def test_a_search_page_escapes_the_query_everywhere(client):
    body = client.get("/search", query_string={"q": '"><script>alert(1)</script>'}).get_data(as_text=True)
    assert "<script>alert" not in body
    view = Html(body).json["view"]
    assert view["query"] == '"><script>alert(1)</script>'


def test_a_search_page_drops_what_the_search_box_cannot_send_instead_of_refusing_it(client):
    _, html = page(client, "/search?q=" + "cat" * 40 + "%00")
    assert html.json["view"]["query"] == ("cat" * 40)[:100]


@pytest.mark.parametrize("path", ["/kaomoji/%00", "/ja/kaomoji/1%00", "/category/%00cat", "/fr/category/c%00at"])
def test_a_nul_in_a_page_address_gets_the_not_found_page(client, path):
    """A page's parts are joined at NUL markers (web/render.py Chrome.fill): a NUL from the address must not break it."""
    response, html = page(client, path, 404)
    assert "\x00" not in response.get_data(as_text=True) and html.json["view"] == {"kind": "message"}


def test_a_blank_search_goes_to_the_catalog_page(client):
    response = client.get("/es/search?q=++")
    assert response.status_code == 302 and response.headers["Location"] == "/es/"


@pytest.mark.parametrize(("path", "location"), [("/en/", "/"), ("/en/kaomoji/1", "/kaomoji/1"), ("/zh-hans/category/cat", "/zh-Hans/category/cat")])
def test_a_locale_prefix_in_another_spelling_redirects_to_the_canonical_address(client, path, location):
    response = client.get(path)
    assert response.status_code == 301 and response.headers["Location"] == location


def test_paths_that_are_not_pages_stay_problem_json(client):
    for path in ("/nope", "/xx/category/cat", "/api/search"):
        response = client.get(path)
        assert response.status_code == 404 and response.mimetype == "application/problem+json", path


@pytest.mark.parametrize("path", ["/category/cat", "/kaomoji/1", "/ja/", "/search?q=cat"])
def test_pages_carry_cache_control_and_an_etag_and_answer_304(client, path):
    response = client.get(path)
    assert response.headers["Cache-Control"] == ("public, max-age=300" if "search" in path else "public, max-age=3600")
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    again = client.get(path, headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_pages_etag_is_made_from_what_makes_it_the_same_in_every_worker(client, full_catalog, sample_catalog):
    """Pages' ETags are made from the code, the catalog, the locale's chrome and the public address (web/render.py
    Chrome.etag), not by hashing each page: two workers give one page one ETag, and it changes with what makes the page.
    (An ETag only tells apart what one address sent at two times: pages at two addresses may share one.)"""
    other = create_app({"TESTING": True, "CATALOG": str(full_catalog)}).test_client()
    paths = ["/kaomoji/1", "/kaomoji/2", "/ja/kaomoji/1", "/category/cat", "/category/cat?page=2", "/search?q=cat", "/search?q=dog", "/"]
    etags = [client.get(path).headers["ETag"] for path in paths]
    assert etags == [other.get(path).headers["ETag"] for path in paths]
    assert etags[0] != etags[2]  # another locale's chrome
    assert client.get("/kaomoji/1", base_url="http://other.example").headers["ETag"] != etags[0]
    another_catalog = create_app({"TESTING": True, "CATALOG": str(sample_catalog)}).test_client()
    assert another_catalog.get("/").headers["ETag"] != etags[-1]


def test_a_page_asked_under_two_addresses_links_to_each_its_own(client):
    """A chrome keeps one template per public address (render.Chrome._split): a worker asked under two names writes each
    page's canonical, Open Graph and hreflang links with the name it was asked under, and keeps the first's."""
    pages = {}
    for base in ("http://localhost", "http://other.example", "http://localhost"):
        html = client.get("/ja/kaomoji/1", base_url=base).get_data(as_text=True)
        hrefs = re.findall(r'<link rel="(?:canonical|alternate)"[^>]* href="([^"]+)"', html)
        assert len(hrefs) == 14 and all(href.startswith(base + "/") for href in hrefs), (base, hrefs)
        assert f'<meta property="og:url" content="{base}/ja/kaomoji/1">' in html
        pages.setdefault(base, html)
        assert html == pages[base]


@pytest.mark.parametrize("path", ["/category/%22%3E%3Cb%3Ex", "/ja/kaomoji/%22%3E%3Cb%3Ex", "/category/a%26b%3Cscript%3E"])
def test_an_address_with_markup_in_it_is_not_markup_on_its_404_page(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.mimetype == "text/html"
    text = response.get_data(as_text=True)
    # Werkzeug decodes the path: the page must not put it back as it was sent.
    assert "<b>" not in text and "<script>" not in text


def test_pages_spend_no_per_minute_budget_but_the_entry_point_limit_counts_them(full_catalog):
    app = create_app({"TESTING": True, "CATALOG": str(full_catalog), "RATELIMIT_REQUESTS": "3 per minute",
                      "GATE_RATE": 1000, "GATE_BURST": 1000})
    client = app.test_client()
    for _ in range(5):
        response = client.get("/category/cat")
        assert response.status_code == 200 and "X-RateLimit-Remaining" not in response.headers
        assert client.get("/kaomoji/1").status_code == 200
    assert [client.get("/api/v1/kaomojis/1").status_code for _ in range(4)] == [200, 200, 200, 429]
    gated = create_app({"TESTING": True, "CATALOG": str(full_catalog), "GATE_RATE": 1, "GATE_BURST": 2})
    statuses = [gated.test_client().get("/kaomoji/1").status_code for _ in range(5)]
    assert statuses[:3] == [200, 200, 200] and 429 in statuses[3:]


def test_the_sitemap_is_an_index_of_files_of_at_most_50000_addresses_naming_every_page_in_every_locale(client, catalog):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200 and response.mimetype == "application/xml" and response.headers["ETag"]
    files = [loc.text for loc in ET.fromstring(response.data).iter(f"{SITEMAP}loc")]
    paths = set()
    for url in files:
        part = client.get(urlsplit(url).path)
        assert part.status_code == 200 and part.mimetype == "application/xml"
        locs = [loc.text for loc in ET.fromstring(part.get_data()).iter(f"{SITEMAP}loc")]
        assert 0 < len(locs) <= URLS_PER_FILE
        paths.update(urlsplit(loc).path for loc in locs)
    ids = catalog.indexable_ids()
    for locale in LOCALES:
        prefix = "" if locale == "en" else f"/{locale}"
        assert {f"{prefix}/category/{c.slug}" for c in catalog.categories} <= paths
        kaomoji = {p for p in paths if p.startswith(f"{prefix}/kaomoji/")}
        assert kaomoji == {f"{prefix}/kaomoji/{i}" for i in ids}, locale
    assert len(paths) == len(LOCALES) * (1 + len(catalog.categories) + len(ids))
    assert client.get("/sitemaps/en-99.xml").status_code == 404
    assert client.get("/sitemap.xml", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304


def test_robots_txt_points_to_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    assert "Sitemap: http://localhost/sitemap.xml" in response.get_data(as_text=True).splitlines()


def test_page_labels_exist_in_every_locale_written_natively():
    for key in ("copy", "similar", "page_of", "previous", "next", "not_found_title", "not_found", "bad_request_title",
                "bad_page", "back_home", "category_title", "category_description", "description", "languages"):
        english = LABELS["en"][key]
        for locale in LOCALES:
            assert LABELS[locale][key].strip(), (locale, key)
            if locale != "en":
                assert LABELS[locale][key] != english, (locale, key)
    assert "Página" in LABELS["pt"]["page_of"] and "Próxima" in LABELS["pt"]["next"]  # Brazilian, not "Seguinte"
