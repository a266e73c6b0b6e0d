"""The catalog page and the docs in a real browser: Debian's Chromium driven by Playwright.

The server is a real gunicorn on 127.0.0.1 over the full test catalog; every check is what a person sees.
"""

from __future__ import annotations

import json
import time
import unicodedata
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from kaomoji_api.web import STATIC
from tests.conftest import need_program
from tests.servers import fetch, gunicorn_serving
from tools.browser import chromium
from tools.rendering import CJK_SCRIPTS

EXPECT_MS = 15_000  # how long a person would wait for the page to react, at most
LABELS = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def base_url(full_catalog):
    need_program("chromium")
    # The tests load the page many times a minute from one address; the rate limits are not what they test.
    with gunicorn_serving(full_catalog, workers=2, env={"KAOMOJI_RATELIMIT_ENABLED": "false"}) as base:
        yield base


@pytest.fixture(scope="module")
def browser(base_url):
    with chromium() as launched:
        yield launched


@pytest.fixture()
def context(browser, base_url):
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}, base_url=base_url)
    context.set_default_timeout(EXPECT_MS)
    yield context
    context.close()


@pytest.fixture()
def page_errors():
    """Script errors and console errors (a blocked load, a CSP violation) of the test's page."""
    return []


@pytest.fixture()
def page(context, page_errors):
    page = context.new_page()
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and page_errors.append(message.text))
    return page


def api(base_url, path, **params):
    status, _, body = fetch(f"{base_url}{path}?{urlencode(params)}")
    assert status == 200, (path, params, body)
    return body


def open_catalog(page):
    page.goto("/")
    page.wait_for_selector("#results .card")
    page.wait_for_selector("#chips .chip")
    return page


# Playwright's waits take functions: a bare expression would need eval, which the page's CSP forbids.
def wait_for_heading(page, text: str) -> None:
    page.wait_for_function("text => document.querySelector('#results-heading').textContent.includes(text)", arg=text)


def wait_for_language(page, code: str) -> None:
    page.wait_for_function("code => document.documentElement.lang === code", arg=code)


def wait_for_dialog(page, *, open: bool) -> None:
    page.wait_for_function("open => document.querySelector('#detail').open === open", arg=open)


def card_ids(page) -> list[int]:
    return [int(i) for i in page.eval_on_selector_all("#results .card", "cards => cards.map(c => c.dataset.id)")]


def card_names(page) -> list[str]:
    return page.eval_on_selector_all("#results .card .name", "names => names.map(n => n.textContent)")


def api_requests(page, path: str) -> list:
    """The requests the page sends to an API path, as they happen."""
    seen = []
    page.on("request", lambda request: urlsplit(request.url).path == path and seen.append(request))
    return seen


def test_typing_a_query_shows_the_matching_faces_after_one_debounced_request(page, base_url, page_errors):
    open_catalog(page)
    searches = api_requests(page, "/api/v1/search")
    page.locator("#query").press_sequentially("cat", delay=80)
    wait_for_heading(page, "cat")
    expected = api(base_url, "/api/v1/search", q="cat", locale="en", limit=24)["data"]
    assert card_ids(page) == [e["id"] for e in expected]
    assert card_names(page) == [e["name"] for e in expected]
    # Three keystrokes inside the debounce interval: one request, for the whole word.
    assert [parse_qs(urlsplit(r.url).query)["q"] for r in searches] == [["cat"]]
    # A space changes nothing once trimmed: no request is sent for it.
    page.locator("#query").press(" ")
    page.wait_for_timeout(800)
    assert len(searches) == 1
    assert not page_errors


def test_a_category_chip_shows_its_kaomoji_and_show_more_adds_the_next_page(page, base_url, page_errors):
    open_catalog(page)
    chip = page.locator("#chips .chip").nth(1)
    slug = chip.get_attribute("data-slug")
    category = next(c for c in api(base_url, "/api/v1/categories", locale="en")["data"] if c["slug"] == slug)
    assert chip.text_content() == f"{category['name']} {category['count']:,}"
    chip.click()
    wait_for_heading(page, category["name"])
    assert chip.get_attribute("aria-pressed") == "true"
    first = api(base_url, "/api/v1/kaomojis", category=slug, limit=24, page=1)["data"]
    assert card_ids(page) == [e["id"] for e in first]
    page.click("#more")
    page.wait_for_function("() => document.querySelectorAll('#results .card').length === 48")
    second = api(base_url, "/api/v1/kaomojis", category=slug, limit=24, page=2)["data"]
    assert card_ids(page) == [e["id"] for e in first + second]
    # Focus moves to the first face that was added, so a keyboard user carries on from there.
    assert page.evaluate("document.activeElement.closest('.card').dataset.id") == str(second[0]["id"])
    assert not page_errors


def test_random_shows_ten_faces_that_stay_the_same_when_the_language_changes(page, page_errors):
    open_catalog(page)
    randoms = api_requests(page, "/api/v1/random")
    page.click("#random")
    wait_for_heading(page, LABELS["en"]["heading_random"])
    ids = card_ids(page)
    assert len(ids) == 10 and len(randoms) == 1
    page.select_option("#language", "ko")
    wait_for_heading(page, LABELS["ko"]["heading_random"])
    assert card_ids(page) == ids
    assert not page_errors


def test_a_search_that_finds_nothing_says_so(page, page_errors):
    open_catalog(page)
    page.fill("#query", "qwxzqwxz")
    wait_for_heading(page, "qwxzqwxz")
    assert card_ids(page) == []
    assert page.text_content("#results .empty") == LABELS["en"]["no_results"]
    assert page.is_hidden("#more")
    assert not page_errors


def test_switching_language_translates_the_labels_and_the_names_and_is_remembered(page, base_url, page_errors):
    open_catalog(page)
    ids = card_ids(page)
    english = card_names(page)
    page.select_option("#language", "ja")
    wait_for_language(page, "ja")
    japanese = {e["id"]: e["name"] for e in api(base_url, "/api/v1/kaomojis", locale="ja", limit=24)["data"]}
    page.wait_for_function(
        "name => document.querySelector('#results .card .name').textContent === name", arg=japanese[ids[0]]
    )
    assert card_names(page) == [japanese[i] for i in ids] != english
    assert page.text_content("label[for=query]") == LABELS["ja"]["search_label"]
    assert page.get_attribute("#query", "placeholder") == LABELS["ja"]["search_placeholder"]
    assert page.text_content("#random") == LABELS["ja"]["random"]
    chips = page.eval_on_selector_all("#chips .chip span:first-child", "spans => spans.map(s => s.textContent)")
    categories = {c["name"] for c in api(base_url, "/api/v1/categories", locale="ja")["data"]}
    assert chips[0] == LABELS["ja"]["all"] and set(chips[1:]) == categories
    assert "顔文字データ" in page.text_content("#attribution")
    # The choice survives a reload.
    open_catalog(page)
    wait_for_language(page, "ja")
    assert page.input_value("#language") == "ja"
    assert not page_errors


@pytest.mark.parametrize(
    ("browser_locale", "page_locale"),
    [("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans"), ("pt-BR", "pt"), ("de-AT", "de"), ("ko-KR", "ko"), ("sv-SE", "en")],
)
def test_a_first_visit_follows_the_browsers_language_with_the_apis_aliases(browser, base_url, browser_locale, page_locale):
    context = browser.new_context(locale=browser_locale, base_url=base_url)
    try:
        page = context.new_page()
        open_catalog(page)
        wait_for_language(page, page_locale)
        assert page.input_value("#language") == page_locale
        assert page.text_content("#random") == LABELS[page_locale]["random"]
    finally:
        context.close()


def test_clicking_a_face_copies_it_to_the_clipboard_and_says_so(context, page, base_url, page_errors):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    open_catalog(page)
    card = page.locator("#results .card").nth(2)
    text = card.locator(".face-text").text_content()
    card.locator(".face").click()
    page.wait_for_function("text => document.querySelector('#toast').textContent.includes(text)", arg=text)
    assert page.text_content("#toast") == LABELS["en"]["copied"].replace("{text}", text)
    assert page.evaluate("navigator.clipboard.readText()") == text
    assert not page_errors


def test_the_detail_view_shows_note_usage_and_keywords_and_escape_closes_it(page, base_url, page_errors):
    open_catalog(page)
    singles = api_requests(page, "/api/v1/kaomojis/" + str(card_ids(page)[0]))
    info = page.locator("#results .card .info").first
    info.click()
    expected = api(base_url, f"/api/v1/kaomojis/{card_ids(page)[0]}", locale="en")["data"]
    page.wait_for_function("note => document.querySelector('#detail-note').textContent === note", arg=expected["note"])
    assert len(singles) == 1
    assert page.is_visible("#detail")
    assert page.text_content("#detail-name") == expected["name"]
    assert page.text_content("#detail-face") == expected["text"]
    assert page.eval_on_selector_all("#detail-usage li", "l => l.map(i => i.textContent)") == expected["usage"]
    assert page.eval_on_selector_all("#detail-keywords li", "l => l.map(i => i.textContent)") == expected["keywords"]
    page.keyboard.press("Escape")
    wait_for_dialog(page, open=False)
    # Focus goes back to the button that opened the dialog.
    assert page.evaluate("document.activeElement === document.querySelector('#results .card .info')")
    assert not page_errors


@pytest.fixture(scope="module")
def limited_url(full_catalog):
    """A second server with the per-minute request limit on, over a window of 8 seconds so that the test
    waits seconds, not a minute (tests/test_limits.py waits out a real minute); one worker, so one counter;
    the gate off."""
    env = {"KAOMOJI_GATE_RATE": "0", "KAOMOJI_RATELIMIT_REQUESTS": "10 per 8 seconds"}
    with gunicorn_serving(full_catalog, workers=1, env=env) as base:
        yield base


def test_a_429_says_slow_down_with_retry_after_and_no_request_is_sent_sooner(browser, limited_url):
    """A real 429: the test spends this address's requests of the window, then the page searches.

    The page must say so with the Retry-After it got, send nothing before that time is over (even
    for a new query typed meanwhile), and then show the results.
    """
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}, base_url=limited_url)
    context.set_default_timeout(EXPECT_MS)
    page = context.new_page()
    sent, refused = [], []  # (monotonic time, query) of the searches the page sends; Retry-After of its 429s
    page.on("request", lambda r: "/api/v1/search?" in r.url and sent.append((time.monotonic(), parse_qs(urlsplit(r.url).query)["q"][0])))
    page.on("response", lambda r: r.status == 429 and refused.append(int(r.headers["retry-after"])))
    try:
        open_catalog(page)
        while fetch(f"{limited_url}/api/v1/kaomojis/1")[0] != 429:  # at most 10 requests
            pass
        page.fill("#query", "cat")
        page.wait_for_selector("#notice:not([hidden])")
        retry_after = refused[0]
        assert page.text_content("#notice") == LABELS["en"]["slow_down"].replace("{seconds}", str(retry_after))
        refused_at = sent[0][0]
        page.wait_for_timeout(1000)
        page.fill("#query", "dog")
        page.wait_for_function(
            "text => document.querySelector('#results-heading').textContent.includes(text)",
            arg="dog", timeout=(retry_after + 20) * 1000,
        )
        assert page.is_hidden("#notice")
        assert [query for _, query in sent] == ["cat", "dog"]
        assert sent[1][0] - refused_at >= retry_after - 0.05
        assert len(page.locator("#results .card").all()) > 0
    finally:
        context.close()


def test_the_docs_list_every_endpoint_of_the_openapi_document(page, base_url, page_errors):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/docs")
    page.wait_for_selector(".opblock-summary-path")
    listed = page.eval_on_selector_all(
        ".opblock", "blocks => blocks.map(b => [b.querySelector('.opblock-summary-method').textContent,"
        " b.querySelector('.opblock-summary-path').dataset.path])"
    )
    documented = api(base_url, "/api/v1/openapi.json")["paths"]
    assert sorted(tuple(x) for x in listed) == sorted((method.upper(), path) for path, item in documented.items() for method in item)
    assert all(url.startswith(base_url) for url in requests), requests
    assert not page_errors


def test_the_page_loads_nothing_from_another_origin_and_logs_no_error(page, base_url, page_errors):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    open_catalog(page)
    page.click("#random")
    wait_for_heading(page, LABELS["en"]["heading_random"])
    assert all(url.startswith(base_url) for url in requests), requests
    assert not page_errors


def test_the_page_works_with_the_keyboard_alone(context, page, base_url):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    open_catalog(page)
    visited = []
    for _ in range(80):
        page.keyboard.press("Tab")
        visited.append(page.evaluate("document.activeElement.id || document.activeElement.className"))
        if visited[-1] == "face":
            break
    assert "query" in visited and "random" in visited and "language" in visited and visited[-1] == "face"
    # The focused button shows it.
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth")
    assert not outline.startswith("none") and not outline.endswith(" 0px"), outline
    text = page.evaluate("document.activeElement.querySelector('.face-text').textContent")
    page.keyboard.press("Enter")
    page.wait_for_function("text => document.querySelector('#toast').textContent.includes(text)", arg=text)
    assert page.evaluate("navigator.clipboard.readText()") == text
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "info"
    page.keyboard.press("Enter")
    wait_for_dialog(page, open=True)
    assert page.evaluate("document.querySelector('#detail').contains(document.activeElement)")
    page.keyboard.press("Escape")
    wait_for_dialog(page, open=False)
    assert page.evaluate("document.activeElement.className") == "info"


def test_every_control_has_a_name_for_screen_readers(page):
    open_catalog(page)
    unnamed = page.evaluate("""() => {
        const controls = [...document.querySelectorAll('button, input, select, a[href]')].filter(el => !el.closest('dialog'));
        return controls.filter(el => {
            const labelled = el.labels && [...el.labels].some(l => l.textContent.trim());
            return !(el.getAttribute('aria-label') || labelled || el.textContent.trim());
        }).map(el => el.outerHTML.slice(0, 80));
    }""")
    assert unnamed == []
    assert page.get_attribute("#results .card .face", "aria-label").startswith("Copy “")
    assert page.get_attribute("#results .card .info", "aria-label").startswith("Details: ")
    assert page.get_attribute("#status", "aria-live") == "polite"
    assert page.get_by_label(LABELS["en"]["search_label"]).count() == 1
    assert page.get_by_label(LABELS["en"]["language"]).count() == 1


def test_the_page_fits_a_phone_screen(browser, base_url):
    context = browser.new_context(locale="en-US", viewport={"width": 360, "height": 740}, base_url=base_url, is_mobile=True)
    try:
        page = context.new_page()
        open_catalog(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        boxes = [card.bounding_box() for card in page.locator("#results .card").all()[:4]]
        assert all(0 <= box["x"] and box["x"] + box["width"] <= 360 for box in boxes)
        assert boxes[0]["y"] == boxes[1]["y"] and boxes[2]["y"] > boxes[0]["y"]  # two faces to a row
        assert page.locator("#query").bounding_box()["width"] >= 300
    finally:
        context.close()


def test_faces_that_need_a_cjk_font_are_drawn_with_one(context, page, base_url):
    open_catalog(page)
    entries = api(base_url, "/api/v1/kaomojis", locale="en", limit=24)["data"]
    # A face whose only scripts are CJK ones, so that no other script's font (Kannada for ಠ) draws first.
    cjk = next(e for e in entries if e["needs_cjk_font"] and set(e["scripts"]) <= CJK_SCRIPTS)
    plain = next(e for e in entries if not e["needs_cjk_font"])
    selector = f"#results .card[data-id='{cjk['id']}'] .face-text"
    family = page.eval_on_selector(selector, "el => getComputedStyle(el).fontFamily")
    assert family.startswith('"Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "Microsoft YaHei", "PingFang SC"')
    assert not page.eval_on_selector(f"#results .card[data-id='{plain['id']}'] .face-text", "el => el.classList.contains('cjk')")
    # The font actually used to draw the glyphs, as Chromium reports it.
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    assert fonts and fonts[0]["familyName"].startswith("Noto Sans CJK"), fonts


# Pages with their own addresses (issue 13) ------------------------------------------------------------------------

def test_a_category_pages_address_opened_directly_shows_its_faces(page, base_url, page_errors):
    page.goto("/de/category/cat")
    wait_for_language(page, "de")
    expected = api(base_url, "/api/v1/kaomojis", category="cat", locale="de", limit=24)["data"]
    assert card_ids(page) == [e["id"] for e in expected]
    assert card_names(page) == [e["name"] for e in expected]
    # The script takes the page over: the chip of its category is pressed, and "Show more" adds page 2.
    page.wait_for_selector("#chips .chip[data-slug='cat'][aria-pressed='true']")
    page.click("#more")
    page.wait_for_function("() => document.querySelectorAll('#results .card').length === 48")
    second = api(base_url, "/api/v1/kaomojis", category="cat", locale="de", limit=24, page=2)["data"]
    assert card_ids(page) == [e["id"] for e in expected + second]
    assert not page_errors


def test_a_kaomoji_pages_copy_button_copies_the_face(context, page, base_url, page_errors):
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    entry = api(base_url, "/api/v1/kaomojis/1", locale="ja")["data"]
    page.goto("/ja/kaomoji/1")
    assert page.text_content("#entry-face") == entry["text"]
    assert page.text_content(".entry-note") == entry["note"]
    page.click("#entry-copy")
    page.wait_for_function("text => document.querySelector('#entry-status').textContent.includes(text)", arg=entry["text"])
    assert page.text_content("#entry-status") == LABELS["ja"]["copied"].replace("{text}", entry["text"])
    assert page.evaluate("navigator.clipboard.readText()") == entry["text"]
    assert not page_errors


def test_a_search_has_an_address_that_shows_the_same_results_in_a_new_page_and_back_returns(browser, page, base_url, page_errors):
    open_catalog(page)
    first = card_ids(page)
    page.locator("#query").press_sequentially("dog", delay=50)
    wait_for_heading(page, "dog")
    page.wait_for_url("**/search?q=dog")
    found = card_ids(page)
    assert found == [e["id"] for e in api(base_url, "/api/v1/search", q="dog", locale="en", limit=24)["data"]]
    address = page.url
    other = browser.new_context(locale="en-US", base_url=base_url, java_script_enabled=True)
    try:
        shared = other.new_page()
        shared.goto(address)
        assert card_ids(shared) == found
        assert shared.input_value("#query") == "dog"
    finally:
        other.close()
    # Reload shows the same; back shows the catalog again.
    page.reload()
    assert card_ids(page) == found
    page.go_back()
    page.wait_for_url(base_url + "/")
    page.wait_for_function("ids => document.querySelector('#results .card').dataset.id === String(ids[0])", arg=first)
    assert card_ids(page) == first
    assert not page_errors


def test_opening_a_face_gives_the_address_of_its_page_and_closing_it_goes_back(page, base_url, page_errors):
    page.goto("/category/dog")
    first = card_ids(page)[0]
    page.locator("#results .card .info").first.click()
    wait_for_dialog(page, open=True)
    page.wait_for_url(f"**/kaomoji/{first}")
    page.keyboard.press("Escape")
    wait_for_dialog(page, open=False)
    page.wait_for_url("**/category/dog")
    # The address of the face opened directly is its own page.
    page.goto(f"/kaomoji/{first}")
    assert page.text_content("#entry-face") == api(base_url, f"/api/v1/kaomojis/{first}")["data"]["text"]
    assert not page_errors


def test_without_javascript_a_category_page_and_a_kaomoji_page_show_their_faces_and_texts(browser, base_url):
    context = browser.new_context(locale="en-US", base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/fr/category/happy")
        expected = api(base_url, "/api/v1/kaomojis", category="happy", locale="fr", limit=24)["data"]
        assert page.eval_on_selector_all("#results .face-text", "s => s.map(x => x.textContent)") == [e["text"] for e in expected]
        assert card_names(page) == [e["name"] for e in expected]
        assert page.is_visible("#pager") and page.is_hidden("#more")
        entry = api(base_url, f"/api/v1/kaomojis/{expected[0]['id']}", locale="fr")["data"]
        page.click("#results .card .info >> nth=0")  # a plain link without script
        page.wait_for_url(f"**/fr/kaomoji/{entry['id']}")
        assert page.text_content("#entry-face") == entry["text"]
        assert page.text_content(".entry-note") == entry["note"]
        assert page.eval_on_selector_all(".entry .usage li", "l => l.map(i => i.textContent)") == entry["usage"]
        assert page.is_hidden("#entry-copy")  # nothing to click that would do nothing
        assert "FontVibe" in page.text_content("#attribution")
    finally:
        context.close()


def test_an_unknown_address_shows_the_404_page(page, page_errors):
    response = page.goto("/ko/kaomoji/999999999")
    assert response.status == 404
    assert page.text_content("#message h2") == LABELS["ko"]["not_found_title"]
    page.click(f"text={LABELS['ko']['back_home']}")
    page.wait_for_url("**/ko/")
    page.wait_for_selector("#results .card")
    # The browser reports the 404 document itself; nothing else may fail.
    assert [e for e in page_errors if "404" not in e] == []


def faces_by_script(catalog) -> dict[str, list[str]]:
    """Up to three faces for every script the catalog uses, the cleanest first."""
    faces: dict[str, list[str]] = {}
    entries = catalog.entries
    for position in range(len(entries)):
        for script in entries.at(position).scripts:
            if len(faces.setdefault(script, [])) < 3:
                faces[script].append(entries.text_at(position))
    return faces


# Characters no font can draw: private-use code points of one vendor's emoji set, in one face each. They show as
# a box on every system; README says so.
UNDRAWABLE = {"\U000feb0f", "\uf8e7"}
# Letters that carry a combining mark of another script which no font has beside them: Malayalam റ with a Latin
# breve or ring below (U+0D31 U+0306), Kannada ೫ with rings below (U+0CEB U+0325 U+0359). Chromium shapes a letter
# and its marks with one font, so one of them shows as a box whatever the fonts: two faces; README says so.
UNSHARED_MARKS = {"\u0d31", "\u0ceb"}


def without_a_font_for_its_mark(text: str, index: int, coverage: dict) -> bool:
    """Whether the letter at `index` is followed by a combining mark that no font of the machine has with it."""
    letter, following = ord(text[index]), text[index + 1:index + 2]
    return bool(following) and unicodedata.category(following) == "Mn" and not any(
        letter in codes and ord(following) in codes for codes in coverage.values())


def test_every_script_the_catalog_uses_is_drawn_with_real_glyphs_never_the_missing_glyph_box(context, page, catalog):
    from tests.fonts import font_coverage, is_invisible

    faces = faces_by_script(catalog)
    assert {"Kannada", "Thai", "Arabic", "Oriya", "Tamil"} <= set(faces) and len(faces) >= 30
    page.goto("/kaomoji/1")
    # The faces set as the pages set them, one element each.
    page.evaluate("""faces => {
        const list = document.querySelector('#results');
        list.replaceChildren(...faces.map(text => {
            const span = document.createElement('span');
            span.className = 'face-text';
            span.textContent = text;
            const item = document.createElement('li');
            item.append(span);
            return item;
        }));
    }""", [text for texts in faces.values() for text in texts])
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "#results .face-text"})["nodeIds"]
    coverage = font_coverage()
    boxes = {}
    for node, text in zip(nodes, [text for texts in faces.values() for text in texts], strict=True):
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        drawn = set().union(*(coverage.get(f["familyName"], set()) for f in fonts))
        missing = {ch for ch in text if not is_invisible(ch) and ord(ch) not in drawn} - UNDRAWABLE
        unshared = {text[i] for i in range(len(text)) if text[i] in missing and without_a_font_for_its_mark(text, i, coverage)}
        assert unshared <= UNSHARED_MARKS, unshared
        missing -= unshared
        if missing:
            boxes[text] = (sorted(f"U+{ord(ch):04X}" for ch in missing), [f["familyName"] for f in fonts])
    assert boxes == {}, "\n".join(f"{text}: {info}" for text, info in boxes.items())
