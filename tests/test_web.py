"""The catalog page and the docs page as HTTP resources: caching, CORS, assets, labels, footer.

What they do in a browser is tested in test_browser.py.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from kaomoji_api.locales import ALIASES
from kaomoji_api.web import STATIC

ATTRIBUTION = "Kaomoji data from FontVibe (https://fontvibe.ai/tools/kaomoji), CC BY 4.0"


class Page(HTMLParser):
    """The parts of a page the tests look at: what it loads, its links, its text, its settings."""

    def __init__(self, html: str):
        super().__init__()
        self.loads, self.links, self.text, self.settings, self.labelled = [], {}, [], None, []
        self._in_settings, self._label = False, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._label = attrs.get("data-i18n")
        if self._label:
            self.labelled.append((self._label, ""))
        if tag == "script" and attrs.get("id") == "settings":
            self._in_settings = True
        elif tag == "script" and "src" in attrs:
            self.loads.append(attrs["src"])
        elif tag == "link" and "href" in attrs and attrs.get("rel") not in ("canonical", "alternate"):
            self.loads.append(attrs["href"])  # canonical and alternate links name pages; the browser loads none
        elif tag == "a":
            self.links[attrs.get("href")] = attrs

    def handle_data(self, data):
        if self._in_settings:
            self.settings = json.loads(data)
        else:
            self.text.append(data)
            if self._label:
                self.labelled[-1] = (self._label, self.labelled[-1][1] + data)

    def handle_endtag(self, tag):
        self._in_settings, self._label = False, None


def labels() -> dict:
    return json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))


def test_the_catalog_page_is_html_cached_for_an_hour_with_cors(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    assert client.get("/", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304


def test_every_file_the_pages_load_comes_from_this_app_cached_for_an_hour(client):
    for path in ("/", "/docs"):
        page = Page(client.get(path).get_data(as_text=True))
        assert page.loads, path
        for url in page.loads:
            assert url.startswith("/") and not url.startswith("//"), url  # same origin, no CDN
            response = client.get(url)
            assert response.status_code == 200, url
            assert response.headers["Cache-Control"] == "public, max-age=3600", url
            assert response.headers["Access-Control-Allow-Origin"] == "*", url


def test_every_asset_url_carries_a_hash_of_its_content(client):
    # A new release is never run with last hour's cached script: its URL changes with its content.
    for path in ("/", "/docs"):
        page = Page(client.get(path).get_data(as_text=True))
        versions = [re.search(r"[?&]v=([0-9a-f]{12})$", url) for url in page.loads]
        assert all(versions), page.loads
        assert len({v.group(1) for v in versions}) == len(versions), page.loads


@pytest.mark.parametrize("path", ["/static/nope.js", "/static/../__init__.py", "/docs/assets/index.html", "/docs/assets/nope.css"])
def test_an_unknown_page_file_is_a_problem_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["status"] == 404
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_the_page_knows_the_catalogs_locales_aliases_and_api_paths(client, catalog):
    settings = Page(client.get("/").get_data(as_text=True)).settings
    assert [locale["code"] for locale in settings["locales"]] == list(catalog.locales)
    assert {locale["code"]: locale["name"] for locale in settings["locales"]}["ja"] == "日本語"
    assert settings["aliases"] == ALIASES and settings["default_locale"] == "en"
    assert settings["api"] == {
        "kaomojis": "/api/v1/kaomojis", "search": "/api/v1/search",
        "random": "/api/v1/random", "categories": "/api/v1/categories",
    }
    assert client.get(settings["i18n"]).status_code == 200


def test_ui_labels_exist_in_every_locale_of_the_catalog_with_no_english_left(catalog):
    messages = labels()
    assert sorted(messages) == sorted(catalog.locales)
    english = messages["en"]
    placeholders = {key: set(re.findall(r"\{\w+\}", text)) for key, text in english.items()}
    for code, texts in messages.items():
        assert set(texts) == set(english), code
        for key, text in texts.items():
            assert text.strip(), (code, key)
            assert set(re.findall(r"\{\w+\}", text)) == placeholders[key], (code, key)
            if code != "en":
                assert text != english[key], f"{code}.{key} is still English"


def test_ui_labels_are_written_in_their_own_script():
    # A label left in English would be Latin letters in a Japanese, Korean, Chinese or Russian UI.
    scripts = {"ja": r"[\u3040-\u30ff\u4e00-\u9fff]", "ko": r"[\uac00-\ud7a3]", "zh-Hans": r"[\u4e00-\u9fff]",
               "zh-Hant": r"[\u4e00-\u9fff]", "ru": r"[\u0400-\u04ff]"}
    messages = labels()
    for code, pattern in scripts.items():
        for key, text in messages[code].items():
            bare = re.sub(r"\{\w+\}|\(◕‿◕\)|cat|API|JSON|CC0 1\.0|CC BY 4\.0|2026-08-25", "", text)
            assert re.search(pattern, bare), f"{code}.{key}: {text}"


def test_the_page_without_script_shows_the_english_labels(client):
    page = Page(client.get("/").get_data(as_text=True))
    english = labels()["en"]
    assert len({key for key, _ in page.labelled}) >= 15
    for key, text in page.labelled:
        assert " ".join(text.split()) == english[key], key


def test_the_footer_carries_the_data_attribution_with_its_link_and_the_usage_terms(client):
    page = Page(client.get("/").get_data(as_text=True))
    text = " ".join("".join(page.text).split())
    assert ATTRIBUTION in text
    assert "https://fontvibe.ai/tools/kaomoji" in page.links
    # The English sentence around the link is the same one the page builds in every language.
    assert labels()["en"]["attribution"].replace("{link}", "FontVibe (https://fontvibe.ai/tools/kaomoji)") == ATTRIBUTION
    for code, texts in labels().items():
        assert "{link}" in texts["attribution"] and "CC BY 4.0" in texts["attribution"], code
        assert "CC0 1.0" in texts["terms"] and "2026-08-25" in texts["terms"], code
    terms = labels()["en"]["terms"]
    for essential in ("CC0 1.0", "no guarantee", "credit this service with a link", "bulk copying", "dataset",
                      "Commercial use is allowed", "2026-08-25"):
        assert essential in terms and essential in text, essential


def test_the_docs_page_points_swagger_ui_at_the_openapi_document(client):
    response = client.get("/docs")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "public, max-age=3600"
    html = response.get_data(as_text=True)
    assert 'data-openapi-url="/api/v1/openapi.json"' in html
    assert any("swagger-ui-bundle.js" in url for url in Page(html).loads)
