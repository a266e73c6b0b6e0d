"""HTTP behaviour shared by every response: CORS, JSON encoding, ETags, language headers.

Every JSON body of the API is made by `json_response` (and served again by the response cache through
`representation`), which writes all its headers at once: Werkzeug's header objects cost microseconds
per change, and a response here should take no longer to make than a bare Flask route's.
Cache lifetimes are chosen by the views through `json_response(max_age=...)`.
"""

from __future__ import annotations

import hashlib
import orjson
from flask import Response, request
from flask_cors import CORS

EXPOSED_HEADERS = [
    "ETag", "Link", "Retry-After", "Content-Language",
    "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
]

# Seconds a response may be cached, per kind of resource (README "Caching").
LONG = 86400      # single entries, categories, the OpenAPI document: change only with the catalog
SHORT = 300       # lists and searches
SEEDED = 3600     # a seeded random pick: the same for the same catalog
PAGE = 3600       # the web page, the docs page and their files: a release should reach browsers within the hour

# CORS allows any origin, without credentials, so its headers on a GET are the same for every request.
# flask-cors answers preflights and adds them to every other response; JSON responses carry them from
# the start, and flask-cors leaves a response alone that has them.
CORS_HEADERS = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", ", ".join(EXPOSED_HEADERS)))


def cors_headers() -> dict:
    """CORS for responses made in front of Flask (blocklist, entry-point limit), as flask-cors sets it."""
    return dict(CORS_HEADERS)


def json_response(payload, max_age: int | None, headers=(), *, locale: str | None = None) -> Response:
    """A JSON response cached for `max_age` seconds by anyone, or not stored when None.

    It has CORS headers; for a `locale` chosen by the view, Content-Language with Vary: Accept-Language;
    and when it may be stored, an ETag (304 when the client has the same). A response that is not
    stored is never revalidated, so it has no ETag.
    """
    body = orjson.dumps(payload)
    etag = None if max_age is None else f'"{hashlib.sha1(body).hexdigest()}"'
    all_headers = [
        ("Content-Type", "application/json"),
        ("Cache-Control", "no-store" if max_age is None else f"public, max-age={max_age}"),
        *([("ETag", etag)] if etag else []),
        *CORS_HEADERS,
        *headers,
    ]
    if locale:
        all_headers += [("Content-Language", locale), ("Vary", "Accept-Language")]
    return representation(body, all_headers, etag)


def representation(body: bytes, headers: list, etag: str | None) -> Response:
    """The response for a body and its headers: 304 without the body when If-None-Match has its ETag."""
    if etag and "HTTP_IF_NONE_MATCH" in request.environ and request.if_none_match.contains_weak(etag[1:-1]):
        return Response(b"", 304, headers=headers)  # Werkzeug drops the body's own headers from a 304
    return Response(body, 200, headers=headers)


def conditional(response: Response) -> Response:
    """An ETag for a response made elsewhere (the web pages), and 304 when If-None-Match has it."""
    response.add_etag()
    if request.if_none_match.contains_weak(response.get_etag()[0]):
        response.status_code = 304
        response.set_data(b"")
        response.headers.pop("Content-Length", None)
    return response


def init_app(app) -> None:
    CORS(app, origins="*", expose_headers=EXPOSED_HEADERS, max_age=86400, send_wildcard=True)
