"""The structure of the public contract (issue 11): every route charges what it shows, the OpenAPI
document says what the running service does, errors speak the API's words, the builder stays small."""

from __future__ import annotations

import subprocess
import sys

import jsonschema_rs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kaomoji_api import create_app
from kaomoji_api.api import bounds
from kaomoji_api.api.params import WHITESPACE
from kaomoji_api.current import served
from kaomoji_api.limits import limits_of
from kaomoji_api.locales import resolve, tag_pattern
from tests.servers import ROOT

# One request for every route of the API that spends budget; a new route without one fails below.
EXAMPLES = {
    "v1.kaomojis.list_kaomojis": "/api/v1/kaomojis?limit=7&category=cat",
    "v1.kaomojis.get_kaomoji": "/api/v1/kaomojis/1",
    "v1.kaomojis.random_kaomojis": "/api/v1/random?count=4",
    "v1.kaomojis.search_kaomojis": "/api/v1/search?q=dog&limit=6",
    "v1.categories.list_categories": "/api/v1/categories",
}


def entries_left(app) -> int:
    limits = limits_of(app)
    with app.test_request_context():
        return next(w.remaining for w in limits.windows() if w.budget is limits.entries)


def shown(body) -> int:
    data = body.get("data")
    if isinstance(data, dict):
        return 1
    return sum(1 for item in data if "text" in item)  # entries have a face; categories do not


def test_every_route_of_the_api_charges_the_entries_it_shows(full_catalog):
    app = create_app({"CATALOG": str(full_catalog), "GATE_RATE": 0, "RATELIMIT_REQUESTS": "1000 per minute"})
    client = app.test_client()
    routes = {rule.endpoint for rule in app.url_map.iter_rules() if rule.endpoint.startswith("v1.") and rule.endpoint != "v1.docs.openapi_json"}
    assert routes == set(EXAMPLES), "every route of the API needs an example request here"
    for endpoint, path in EXAMPLES.items():
        for _ in range(2):  # the second time from the response cache where the route has one
            before = entries_left(app)
            response = client.get(path)
            assert response.status_code == 200, endpoint
            assert before - entries_left(app) == shown(response.get_json()), endpoint


def test_a_304_a_head_and_an_error_charge_no_entries(full_catalog):
    app = create_app({"CATALOG": str(full_catalog), "GATE_RATE": 0})
    client = app.test_client()
    etag = client.get("/api/v1/kaomojis/1").headers["ETag"]
    before = entries_left(app)
    assert client.get("/api/v1/kaomojis/1", headers={"If-None-Match": etag}).status_code == 304
    assert client.head("/api/v1/kaomojis?limit=50").status_code == 200
    assert client.get("/api/v1/kaomojis?limit=500").status_code == 400
    assert entries_left(app) == before


def test_the_openapi_document_states_the_limits_the_service_runs_with(full_catalog):
    settings = {
        "CATALOG": str(full_catalog), "RATELIMIT_REQUESTS": "7 per 2 seconds", "RATELIMIT_ENTRIES": "3000 per hour",
        "GATE_RATE": 4, "GATE_BURST": 9,
    }
    text = create_app(settings).test_client().get("/api/v1/openapi.json").get_json()["info"]["description"]
    assert "7 requests per 2 seconds" in text and "3,000 entries per hour" in text
    assert "4 requests per second sustained with a burst of 9" in text
    assert "kept per process" in text
    shared = create_app({**settings, "RATELIMIT_STORAGE_URI": "redis://127.0.0.1:1/0"}).test_client()
    assert "shared by every process" in shared.get("/api/v1/openapi.json").get_json()["info"]["description"]
    unlimited = create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": "off"}).test_client()
    assert "without rate limits" in unlimited.get("/api/v1/openapi.json").get_json()["info"]["description"]


def test_the_openapi_document_states_the_bounds_the_views_enforce(client):
    doc = client.get("/api/v1/openapi.json").get_json()

    def parameter(path, name):
        params = doc["paths"][path]["get"]["parameters"]
        found = next(p for p in params if p.get("name") == name or p.get("$ref", "").endswith("/" + name))
        return doc["components"]["parameters"][name]["schema"] if "$ref" in found else found["schema"]

    assert parameter("/api/v1/kaomojis", "limit")["maximum"] == bounds.LIST_MAX
    assert parameter("/api/v1/kaomojis", "limit")["default"] == bounds.LIST_LIMIT
    assert parameter("/api/v1/kaomojis", "max_width")["maximum"] == bounds.MAX_WIDTH
    assert parameter("/api/v1/search", "limit")["maximum"] == bounds.SEARCH_LIMIT
    assert parameter("/api/v1/search", "q")["maxLength"] == bounds.QUERY_MAX_LENGTH
    assert parameter("/api/v1/random", "count")["maximum"] == bounds.RANDOM_MAX
    assert parameter("/api/v1/random", "seed")["maxLength"] == bounds.SEED_MAX_LENGTH
    assert parameter("/api/v1/kaomojis", "page")["maximum"] == bounds.MAX_PAGE
    assert f"{len(doc['components']['schemas']['Locale']['enum'])} locales" in doc["info"]["description"]
    # And the views enforce them: one past each bound is refused.
    for path in (f"/api/v1/kaomojis?limit={bounds.LIST_MAX + 1}", f"/api/v1/search?q=a&limit={bounds.SEARCH_LIMIT + 1}",
                 f"/api/v1/random?count={bounds.RANDOM_MAX + 1}", f"/api/v1/search?q={'a' * (bounds.QUERY_MAX_LENGTH + 1)}",
                 f"/api/v1/random?seed={'a' * (bounds.SEED_MAX_LENGTH + 1)}", f"/api/v1/kaomojis?max_width={bounds.MAX_WIDTH + 1}"):
        assert client.get(path).status_code == 400, path


@pytest.mark.parametrize("path", ["/api/v2/kaomojis", "/api/v1/kaomoji", "/nothing/here"])
def test_an_unknown_path_is_a_404_in_the_apis_words(client, path):
    response = client.get(path)
    body = response.get_json()
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert path in body["detail"] and "/api/v1/openapi.json" in body["detail"]
    assert "spelling" not in body["detail"]


def test_a_method_the_api_does_not_have_is_a_405_in_the_apis_words(client):
    body = client.post("/api/v1/kaomojis").get_json()
    assert body["status"] == 405 and "POST" in body["detail"] and "GET" in body["detail"]


def test_the_catalog_builder_does_not_import_flask():
    code = "import sys, tools.build_catalog; print(sorted(m for m in ('flask', 'flask_limiter', 'swagger_ui_bundle', 'werkzeug') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_yes_no_setting_that_is_neither_fails_at_start(full_catalog):
    with pytest.raises(ValueError, match="yes/no"):
        create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": "maybe"})


def test_the_response_cache_answers_the_second_request(full_catalog):
    app = create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False})
    client = app.test_client()
    with app.app_context():
        cache = served().responses
    client.get("/api/v1/search?q=cat")
    hits = cache.hits
    client.get("/api/v1/search?q=cat")
    assert cache.hits == hits + 1


# What each query parameter accepts beyond its plain type (issue 13 item 4): each decision as the service
# answers it and as the document says it, checked with the validator Schemathesis judges requests by.

def documented(client, path: str, name: str) -> dict:
    """The parameter `name` of GET `path` in the served document, its $ref followed."""
    doc = client.get("/api/v1/openapi.json").get_json()
    found = next(p for p in doc["paths"][path]["get"]["parameters"] if p.get("name") == name or p.get("$ref", "").endswith("/" + name))
    return doc["components"]["parameters"][name] if "$ref" in found else found


def allows(parameter: dict, value) -> bool:
    return jsonschema_rs.validator_for(parameter["schema"]).is_valid(value)


def refused(response, name: str) -> str:
    """The reason a 400 gives for `name`."""
    body = response.get_json()
    assert response.status_code == 400 and response.mimetype == "application/problem+json", body
    return next(p["reason"] for p in body["invalid_params"] if p["name"] == name)


@pytest.mark.parametrize("tag, locale", [
    ("ja", "ja"), ("JA", "ja"), ("pt-BR", "pt"), ("pt_br", "pt"), ("en-US-x-twain", "en"), ("zh", "zh-Hans"),
    ("zh-TW", "zh-Hant"), ("ZH_hk", "zh-Hant"), ("zh-CN", "zh-Hans"), ("zh-Hant-TW", "zh-Hant"), ("zh-Hans-HK", "zh-Hans"),
    ("zh-HANT", "zh-Hant"), ("in", "id"), ("in-ID", "id"),
])
def test_a_locale_tag_or_alias_in_any_case_is_accepted_and_documented(client, tag, locale):
    response = client.get("/api/v1/kaomojis/1", query_string={"locale": tag})
    assert response.status_code == 200 and response.headers["Content-Language"] == locale
    assert allows(documented(client, "/api/v1/kaomojis/{id}", "locale"), tag)


@pytest.mark.parametrize("tag", [" ja", "ja ", "ja\n", "en-", "en--US", "-en", "zh-US", "zh-hansx", "xx", "klingon", "jа", "ja-ÿ",
                                 "en-verylongsubtag", "zh-Hans Hant", "\u3000"])
def test_a_locale_that_names_none_of_the_catalogs_is_refused_and_documented_so(client, tag):
    reason = refused(client.get("/api/v1/categories", query_string={"locale": tag}), "locale")
    assert "zh-Hant" in reason and "pt-BR" in reason
    assert not allows(documented(client, "/api/v1/categories", "locale"), tag)


@settings(max_examples=300, derandomize=True, database=None)
@given(st.text(alphabet="zZhHaAnNsStTwWjJeEpPbBrRiIdD-_ 09٣\n", max_size=14))
@example("zh-Hant-TW")
@example("in-ID")
@example("zh")
@example("en_")
def test_the_locale_pattern_is_exactly_the_tags_resolve_reads(tag):
    codes = ["en", "ja", "ko", "zh-Hans", "zh-Hant", "es", "pt", "fr", "de", "it", "ru", "id"]
    pattern = jsonschema_rs.validator_for({"type": "string", "pattern": tag_pattern(codes)})
    assert pattern.is_valid(tag) == (resolve(tag, codes) is not None)


def test_an_empty_value_is_the_same_as_leaving_the_parameter_out_and_documented_so(client):
    empty = "page=&limit=&max_width=&ascii_safe=&include_sensitive=&category=&type=&locale="
    assert client.get(f"/api/v1/kaomojis?{empty}").get_json() == client.get("/api/v1/kaomojis").get_json()
    assert len(client.get("/api/v1/random?count=&seed=&locale=").get_json()["data"]) == bounds.RANDOM_COUNT
    for name in ("page", "limit", "max_width", "ascii_safe", "include_sensitive", "locale"):
        parameter = documented(client, "/api/v1/kaomojis", name)
        assert parameter["allowEmptyValue"] is True and not allows(parameter, ""), name
    for name in ("category", "type"):  # their patterns take an empty list themselves
        assert allows(documented(client, "/api/v1/kaomojis", name), "")
    # Not q: search needs words.
    assert refused(client.get("/api/v1/search?q="), "q") == "must not be blank"
    assert "allowEmptyValue" not in documented(client, "/api/v1/search", "q")


@pytest.mark.parametrize("value, answer", [("true", True), ("TRUE", True), ("True", True), ("false", False), ("False", False)])
def test_a_boolean_is_true_or_false_in_any_case(client, value, answer):
    items = client.get(f"/api/v1/kaomojis?ascii_safe={value}&limit=20").get_json()["data"]
    assert items and all(item["ascii_safe"] is answer for item in items)


@pytest.mark.parametrize("value", ["1", "0", "yes", "no", "on", "off", "t", "y", "truth", " true", "true "])
def test_any_other_boolean_is_refused_and_the_document_says_so(client, value):
    for name in ("ascii_safe", "include_sensitive"):
        assert refused(client.get("/api/v1/kaomojis", query_string={name: value}), name) == "must be true or false"
    parameter = documented(client, "/api/v1/kaomojis", "include_sensitive")
    assert parameter["schema"]["type"] == "boolean" and "`true` or `false`, in any case" in parameter["description"]


@pytest.mark.parametrize("value", ["٣", "３", "५", "𝟓", " 5", "5 ", "+5", "1_0", "5.0", "0x5", "5e0", "five"])
def test_a_whole_number_in_anything_but_ascii_digits_is_refused(client, value):
    for path, name in (("/api/v1/kaomojis", "limit"), ("/api/v1/kaomojis", "page"), ("/api/v1/random", "count"),
                       ("/api/v1/kaomojis", "max_width"), ("/api/v1/search", "limit")):
        assert "digits 0-9" in refused(client.get(path, query_string={"q": "cat", name: value}), name), (path, name)
    assert "Digits 0-9 only" in documented(client, "/api/v1/random", "count")["description"]


def test_leading_zeros_are_the_same_number(client):
    assert client.get("/api/v1/kaomojis?limit=007").get_json() == client.get("/api/v1/kaomojis?limit=7").get_json()


@pytest.mark.parametrize("id_", ["٣", "３", "1٣"])
def test_an_id_in_other_digits_is_no_path_at_all(client, id_):
    response = client.get(f"/api/v1/kaomojis/{id_}")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"
    assert client.get("/api/v1/kaomojis/1").status_code == 200


@pytest.mark.parametrize("query, name", [
    ("page=1&page=2", "page"), ("locale=ja&locale=ja", "locale"), ("category=cat&category=dog", "category"),
    ("ascii_safe=true&ascii_safe=false", "ascii_safe"),
])
def test_a_parameter_given_twice_is_refused(client, query, name):
    assert refused(client.get(f"/api/v1/kaomojis?{query}"), name).startswith("must be given at most once")


def test_a_parameter_the_operation_does_not_take_is_ignored(client):
    plain = client.get("/api/v1/kaomojis?limit=3").get_json()
    assert client.get("/api/v1/kaomojis?limit=3&utm_source=x&utm_source=y&q=cat").get_json() == plain


def test_q_and_seed_count_their_length_as_sent_and_ignore_white_space_at_either_end(client):
    q, seed = documented(client, "/api/v1/search", "q"), documented(client, "/api/v1/random", "seed")
    padded = " " * 5 + "x" * (bounds.QUERY_MAX_LENGTH - 4)
    assert "at most" in refused(client.get("/api/v1/search", query_string={"q": padded}), "q") and not allows(q, padded)
    assert client.get("/api/v1/search", query_string={"q": "  cat\t"}).get_json() == client.get("/api/v1/search?q=cat").get_json()
    assert allows(q, "  cat\t")
    long_seed = " " + "s" * bounds.SEED_MAX_LENGTH
    assert "at most" in refused(client.get("/api/v1/random", query_string={"seed": long_seed}), "seed") and not allows(seed, long_seed)
    same = [client.get("/api/v1/random", query_string={"seed": s, "count": 5}).get_json()["data"] for s in ("day", " day ")]
    assert same[0] == same[1]


def test_white_space_is_one_set_for_the_service_and_its_patterns(client):
    """Every character str.strip() removes, and none other, is white space in the document's patterns: `\\s`
    differs between Python, ECMA-262 and Rust, so the patterns spell the set out."""
    assert WHITESPACE == "".join(c for c in map(chr, range(0x110000)) if c.isspace())
    q, category = documented(client, "/api/v1/search", "q"), documented(client, "/api/v1/kaomojis", "category")
    for space in WHITESPACE:
        assert not allows(q, space * 3), hex(ord(space))
        assert refused(client.get("/api/v1/search", query_string={"q": space * 3}), "q") == "must not be blank"
        assert allows(category, f"{space}cat,{space}"), hex(ord(space))
        assert client.get("/api/v1/kaomojis", query_string={"category": f"{space}cat,{space}", "limit": 1}).status_code == 200
    for other in ("\u200b", "\ufeff", "\u180e"):  # zero-width space, BOM, Mongolian vowel separator: not white space
        assert allows(q, other * 3)
        assert not allows(category, f"{other}cat")
        assert "unknown value" in refused(client.get("/api/v1/kaomojis", query_string={"category": f"{other}cat"}), "category")


def test_every_query_parameter_of_the_document_reads_empty_as_absent_and_refuses_a_second_value(client):
    """Over the whole document, so that a parameter added later follows the same rules or fails here."""
    doc = client.get("/api/v1/openapi.json").get_json()
    checked = 0
    for path, item in doc["paths"].items():
        for parameter in item["get"].get("parameters", []):
            if "$ref" in parameter:
                parameter = doc["components"]["parameters"][parameter["$ref"].split("/")[-1]]
            if parameter["in"] != "query":
                continue
            name, url = parameter["name"], path.replace("{id}", "1")
            # Search needs words; random picks the same only with a seed (and an empty seed is none).
            base = {"q": "cat"} if "search" in path and name != "q" else {"seed": "day"} if "random" in path else {}
            if not parameter["required"]:
                assert parameter.get("allowEmptyValue") or allows(parameter, ""), (path, name)
                plain = client.get(url, query_string={k: v for k, v in base.items() if k != name})
                empty = client.get(url, query_string={**base, name: ""})
                assert empty.status_code == 200, (path, name, empty.get_json())
                same = (lambda b: len(b["data"])) if name == "seed" else (lambda b: b)
                assert same(empty.get_json()) == same(plain.get_json()), (path, name)
            twice = client.get(url, query_string=[*base.items(), (name, ""), (name, "")])
            assert refused(twice, name).startswith("must be given at most once"), (path, name)
            checked += 1
    assert checked >= 25
