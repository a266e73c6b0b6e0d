"""The published OpenAPI document: valid 3.0.3, complete, and in step with the app and README."""

from __future__ import annotations

import re
from pathlib import Path

from openapi_spec_validator import validate

from kaomoji_api.config import DEFAULTS

ROOT = Path(__file__).resolve().parent.parent


def document(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def test_openapi_document_is_valid_openapi_3_0(client):
    doc = document(client)
    assert doc["openapi"] == "3.0.3"
    validate(doc)


# Pages for people, not API operations: they are not in the OpenAPI document.
WEB_ROUTES = {
    "/", "/<page_locale:locale>/", "/category/<slug>", "/<page_locale:locale>/category/<slug>",
    "/kaomoji/<entry_id>", "/<page_locale:locale>/kaomoji/<entry_id>", "/search", "/<page_locale:locale>/search",
    "/sitemap.xml", "/sitemaps/<locale>-<int:number>.xml", "/robots.txt",
    "/docs", "/static/<path:filename>", "/docs/assets/<path:filename>",
}


def test_every_api_route_of_the_app_is_documented_and_the_rest_are_the_web_pages(app, client):
    documented = set(document(client)["paths"])
    api_routes, other_routes = set(), set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") or rule.rule == "/healthz":
            api_routes.add(re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule).replace("{entry_id}", "{id}"))
        else:
            other_routes.add(rule.rule)
    assert api_routes == documented
    assert other_routes == WEB_ROUTES


def test_info_states_usage_terms_attribution_and_limits(full_catalog):
    from kaomoji_api import create_app

    description = document(create_app({"CATALOG": str(full_catalog)}).test_client())["info"]["description"]
    assert "CC0 1.0" in description and "bulk copying" in description and "MIT licence" in description
    assert "Kaomoji data from FontVibe (https://fontvibe.ai/tools/kaomoji), CC BY 4.0" in description
    assert "60 requests per minute" in description and "1,000" in description and "burst" in description


def test_parameters_carry_enums_bounds_and_defaults(client):
    doc = document(client)
    codes = ["en", "ja", "ko", "zh-Hans", "zh-Hant", "es", "pt", "fr", "de", "it", "ru", "id"]
    assert sorted(doc["components"]["schemas"]["Locale"]["enum"]) == sorted(codes)
    locale = doc["components"]["parameters"]["locale"]["schema"]
    assert all(re.search(locale["pattern"], code) for code in codes) and locale["default"] == "en"
    params = {p.get("name"): p for p in doc["paths"]["/api/v1/random"]["get"]["parameters"] if "name" in p}
    assert params["count"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 10, "default": 1}
    search = {p.get("name"): p for p in doc["paths"]["/api/v1/search"]["get"]["parameters"] if "name" in p}
    assert search["q"]["required"] and search["limit"]["schema"]["maximum"] == 25


def test_errors_are_documented_as_problems_and_429_carries_retry_after(client):
    doc = document(client)
    too_many = doc["components"]["responses"]["TooManyRequests"]
    assert "Retry-After" in too_many["headers"]
    assert "application/problem+json" in too_many["content"]
    for path, item in doc["paths"].items():
        if path.startswith("/api/v1/") and path != "/api/v1/openapi.json":
            assert "400" in item["get"]["responses"] and "429" in item["get"]["responses"], path


def test_every_setting_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in DEFAULTS:
        assert f"KAOMOJI_{name}" in readme, name
