"""The structure of the public contract (issue 11): every route charges what it shows, the OpenAPI
document says what the running service does, errors speak the API's words, the builder stays small."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kaomoji_api import create_app
from kaomoji_api.api import bounds
from kaomoji_api.current import served
from kaomoji_api.limits import limits_of
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
    assert f"{len(doc['components']['parameters']['locale']['schema']['enum'])} locales" in doc["info"]["description"]
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
