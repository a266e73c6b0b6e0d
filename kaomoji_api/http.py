"""HTTP behaviour shared by every response: CORS, JSON encoding, ETags, language headers.

Cache lifetimes are chosen by the views through `json_response(max_age=...)`.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import g, jsonify, request
from flask_cors import CORS
from werkzeug.exceptions import BadRequest

EXPOSED_HEADERS = [
    "ETag", "Link", "Retry-After", "Content-Language",
    "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
]

# Seconds a response may be cached, per kind of resource (README "Caching").
LONG = 86400      # single entries, categories, the OpenAPI document: change only with the catalog
SHORT = 300       # lists and searches
SEEDED = 3600     # a seeded random pick: the same for the same catalog
PAGE = 3600       # the web page, the docs page and their files: a release should reach browsers within the hour


def cors_headers() -> dict:
    """CORS for responses made in front of Flask (blocklist, entry-point limit), as flask-cors sets it."""
    return {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": ", ".join(EXPOSED_HEADERS)}


def json_response(payload, max_age: int | None, headers=None):
    """A JSON response cached for `max_age` seconds by anyone, or not stored when None."""
    response = jsonify(payload)
    if max_age is None:
        response.headers["Cache-Control"] = "no-store"
    else:
        response.headers["Cache-Control"] = f"public, max-age={max_age}"
    if headers:
        response.headers.extend(headers)
    return response


def reject_undecodable_query():
    """400 for a query string that is not UTF-8, before Werkzeug replaces the bad bytes."""
    try:
        unquote_to_bytes(request.query_string).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the query string is not valid UTF-8") from None


def finish_response(response):
    if getattr(g, "locale", None):
        response.headers["Content-Language"] = g.locale
        response.vary.add("Accept-Language")
    if response.status_code == 200 and request.method in ("GET", "HEAD") and not response.direct_passthrough:
        if "ETag" not in response.headers:
            response.add_etag()
        if request.if_none_match.contains(response.get_etag()[0]):
            # Werkzeug's make_conditional also handles dates and ranges, which JSON here never needs.
            response.status_code = 304
            response.set_data(b"")
            response.headers.pop("Content-Length", None)
    return response


def init_app(app) -> None:
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.json.compact = True
    CORS(app, origins="*", expose_headers=EXPOSED_HEADERS, max_age=86400, send_wildcard=True)
    app.before_request(reject_undecodable_query)
    app.after_request(finish_response)
