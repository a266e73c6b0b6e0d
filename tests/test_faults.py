"""Issue 12 in the app: bounded memory, cheap worst requests, small headers, empty filters, security headers."""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

import pytest

from kaomoji_api import create_app
from kaomoji_api.api import bounds
from kaomoji_api.current import served


@pytest.fixture(scope="module")
def small_caches(full_catalog):
    return create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False, "SEARCH_CACHE_BYTES": 300_000, "RESPONSE_CACHE_BYTES": 200_000})


def test_the_search_cache_is_bounded_by_bytes_whatever_is_asked(small_caches):
    client = small_caches.test_client()
    with small_caches.app_context():
        cache = served().searcher.results
    # The broadest queries there are: one character of half the faces, in every locale, on many pages.
    for query in ["(", ")", "・", "ω", "a", "e", "o", "_", "^", "ノ", "ツ", "ー"]:
        for locale in ["en", "ja", "fr", "ko"]:
            for page in (1, 7, 40):
                assert client.get("/api/v1/search", query_string={"q": query, "locale": locale, "page": page}).status_code == 200
            assert cache.bytes <= cache.max_bytes
    assert len(cache) >= 2  # it still keeps several queries


def test_the_response_cache_is_bounded_by_bytes(small_caches):
    client = small_caches.test_client()
    with small_caches.app_context():
        cache = served().responses
    for page in range(1, 60):
        client.get(f"/api/v1/kaomojis?limit=100&page={page}")
        assert cache.bytes <= cache.max_bytes


def test_the_response_cache_holds_no_more_memory_than_it_counts(small_caches):
    """What clearing the cache frees is what it counted (bodies, and an allowance for their keys and headers): a body
    kept as orjson returned it would hold its whole write buffer, up to ten times its length."""
    client = small_caches.test_client()
    with small_caches.app_context():
        cache = served().responses
    cache.clear()
    tracemalloc.start()
    try:
        for query in ["cat", "dog", "happy", "sad", "bear", "fish", "love", "angry"]:
            for page in (1, 2, 3):
                assert client.get("/api/v1/search", query_string={"q": query, "page": page, "limit": 10}).status_code == 200
        gc.collect()
        counted, held = cache.bytes, tracemalloc.get_traced_memory()[0]
        cache.clear()
        gc.collect()
        freed = held - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(cache) == 0 and counted > 50_000
    assert freed <= counted


def cold_search_ms(client, searcher, asked: list[tuple[str, int]], rounds: int = 5) -> dict[tuple[str, int], float]:
    """The fastest of `rounds` cold runs of each (query, page), in CPU time of this thread, not the wall clock: another
    process's burst on a shared machine is no cost of the query's. Each round runs every query once, so that a slower
    spell of the machine slows the queries compared alike, not a block of one of them."""
    best: dict[tuple[str, int], float] = {}
    for _ in range(rounds):
        for query, page in asked:
            searcher.clear_cache()
            started = time.thread_time()
            assert client.get("/api/v1/search", query_string={"q": query, "page": page}).status_code == 200
            took = (time.thread_time() - started) * 1000
            best[query, page] = min(took, best.get((query, page), took))
    return best


def test_no_search_costs_over_ten_times_the_median_search_cold(full_catalog):
    app = create_app({"CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False, "RESPONSE_CACHE_BYTES": 0})
    client = app.test_client()
    with app.app_context():
        searcher = served().searcher
    usual = [(q, 1) for q in ["cat", "happy", "猫", "sad dog", "ツ", "T_T", "good night", "dance"]]
    deepest = bounds.SEARCH_DEPTH // bounds.SEARCH_LIMIT
    worst = [("(", 1), (")", 1), ("a", 1), ("a", deepest), ("(", deepest), ("a", 10**6), ("・", 1), ("猫" * 100, 1), ("(" * 100, 1)]
    ms = cold_search_ms(client, searcher, usual + worst)
    median = statistics.median(ms[asked] for asked in usual)
    for asked in worst:
        assert ms[asked] <= 10 * median, (asked, ms[asked], median)


def test_search_pages_go_as_deep_as_the_bound_and_past_it_are_empty(client):
    deepest = bounds.SEARCH_DEPTH // bounds.SEARCH_LIMIT
    body = client.get("/api/v1/search", query_string={"q": "a", "page": deepest}).get_json()
    assert len(body["data"]) == bounds.SEARCH_LIMIT
    assert body["pagination"]["total"] > bounds.SEARCH_DEPTH and body["pagination"]["total_pages"] == deepest
    response = client.get("/api/v1/search", query_string={"q": "a", "page": deepest + 1})
    assert response.status_code == 200 and response.get_json()["data"] == []
    assert 'rel="next"' not in response.headers.get("Link", "")


def test_a_long_query_leaves_out_the_link_header_not_the_page(client):
    response = client.get("/api/v1/search", query_string={"q": "🐱" * 100, "page": 2})
    assert response.status_code == 200 and "pagination" in response.get_json()
    assert "Link" not in response.headers
    assert sum(len(k) + len(v) + 4 for k, v in response.headers.items()) < 2048
    assert "Link" in client.get("/api/v1/search", query_string={"q": "cat", "page": 2}).headers


@pytest.mark.parametrize("query", ["category=,", "type=,", "category=", "type= , ", "category=cat,,"])
def test_an_empty_filter_filters_nothing(client, query):
    body = client.get(f"/api/v1/kaomojis?{query}").get_json()
    expected = client.get("/api/v1/kaomojis?category=cat" if "=cat" in query else "/api/v1/kaomojis").get_json()
    assert body["pagination"]["total"] == expected["pagination"]["total"] > 0


@pytest.mark.parametrize("path", ["/api/v1/kaomojis/1", "/api/v1/nope", "/", "/docs", "/static/catalog.css", "/healthz", "/api/v1/search?q=%FF"])
def test_every_response_says_nosniff(client, path):
    assert client.get(path).headers["X-Content-Type-Options"] == "nosniff"


def test_redirects_preflights_and_304s_say_nosniff_too(client, catalog):
    """What no view writes with its headers (http.Response)."""
    old = next(iter(catalog.redirects))
    preflight = {"Origin": "https://example.org", "Access-Control-Request-Method": "GET"}
    entry = client.get("/api/v1/kaomojis/1")
    responses = {
        301: client.get(f"/api/v1/kaomojis/{old}"),
        200: client.options("/api/v1/kaomojis", headers=preflight),
        304: client.get("/api/v1/kaomojis/1", headers={"If-None-Match": entry.headers["ETag"]}),
    }
    for status, response in responses.items():
        assert response.status_code == status and response.headers["X-Content-Type-Options"] == "nosniff", status


@pytest.mark.parametrize("path", ["/", "/docs"])
def test_pages_may_not_be_framed_and_run_no_inline_script(client, path):
    response = client.get(path)
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "'unsafe-inline'" not in policy.split("script-src")[-1].split(";")[0]
    assert "script-src" not in policy or "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    html = response.get_data(as_text=True)
    assert "<script>" not in html  # every script is a file of ours; the settings block is JSON, not code


def test_a_preflight_names_only_the_methods_the_api_has(client):
    response = client.options("/api/v1/kaomojis", headers={"Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
    assert set(response.headers["Access-Control-Allow-Methods"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}
