"""HTTP behaviour shared by every response: CORS, JSON encoding, ETags, language headers, entry cost.

Every JSON body of the API is made by `json_response` (and served again by the response cache through
`ok_or_not_modified`), which writes all its headers at once: Werkzeug's header objects cost
microseconds per change, and a response here should take no longer to make than a bare Flask route's.
That is also why it checks If-None-Match itself instead of calling `Response.make_conditional`, which
parses Range and date headers no API response uses. Cache lifetimes are chosen by the views.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from pathlib import Path

import flask
import orjson
from flask import request
from flask.sessions import NullSession, SessionInterface
from flask_cors import CORS
from werkzeug.datastructures import Headers

EXPOSED_HEADERS = [
    "ETag", "Link", "Retry-After", "Content-Language",
    "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
]

# Seconds a response may be cached, per kind of resource (README "Caching").
LONG = 86400      # single entries, categories, the OpenAPI document: change only with the catalog
SHORT = 300       # lists and searches
SEEDED = 3600     # a seeded random pick: the same for the same catalog
PAGE = 3600       # the web page, the docs page and their files: a release should reach browsers within the hour
NO_STORE = None   # an unseeded random pick, /healthz: never stored, so never revalidated (no ETag)

# CORS allows any origin, without credentials, so its headers on a GET are the same for every request.
# flask-cors answers preflights and adds them to every other response; JSON responses carry them from
# the start, and flask-cors leaves a response alone that has them.
CORS_HEADERS = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", ", ".join(EXPOSED_HEADERS)))
# On every response: browsers take each body as the type it is sent as, never sniff another.
NOSNIFF = ("X-Content-Type-Options", "nosniff")
# On every page: everything it loads comes from this origin; nothing is fetched from elsewhere at run time.
# Swagger UI sets inline styles on its elements, hence 'unsafe-inline' for styles only.
# No page may be framed by another site (clickjacking): frame-ancestors 'none'.
CONTENT_SECURITY_POLICY = ("Content-Security-Policy", (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
))


def _release() -> bytes:
    """A hash of every file of this package (code, templates, static files): what writes responses and pages in this
    release. With the catalog's version it names what a response is made from, where an ETag need not hash the body
    (pages, single entries)."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha1()
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(b"%b\0%b\0" % (path.relative_to(package).as_posix().encode(), path.read_bytes()))
    return digest.digest()


RELEASE = _release()


class Response(flask.Response):
    """Flask's response, sent as the type it says: what the app makes beside json_response and html_response (errors,
    redirects, files, preflights) says nosniff too. (An after-request hook adding it cost every request ~1 µs.)"""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.headers.setdefault(*NOSNIFF)


class App(flask.Flask):
    """Flask with this module's Response, asking once per function whether it is a coroutine: Flask asks `inspect` again
    on every request, for the view and each after-request hook (~75 steps of the interpreter a request)."""

    response_class = Response

    def ensure_sync(self, func):
        return self.async_to_sync(func) if _is_coroutine(func) else func


_is_coroutine = functools.lru_cache(maxsize=256)(inspect.iscoroutinefunction)  # bounded: keeps no closure for good


class ApiResponse(Response):
    """A response that says how many entries it shows: what the per-minute entry budget charges for it."""

    entries = 0

    @classmethod
    def ok(cls, body: bytes, headers: Headers, entries: int = 0) -> ApiResponse:
        """A 200 whose headers are all given, Content-Type and Content-Length among them.

        Made without Werkzeug's constructor, which looks through the headers for Content-Type, parses the status and
        sets Content-Length, each a loop in Python over the headers: ~2 µs a response, a fifth of what writing a
        single entry takes. It sets what the constructor sets (tests/test_api.py compares the two on every run).

        The body goes to the WSGI server as it is (direct_passthrough): a list of one bytes object needs none of the
        generator and closing iterator Werkzeug would wrap it in, for the server to step through in Python (~2 µs).
        """
        response = cls.__new__(cls)
        response.headers = headers
        response._status, response._status_code = "200 OK", 200
        response.direct_passthrough = True  # [body] is bytes, as WSGI wants them
        response._on_close = []
        response.response = [body]
        response.entries = entries
        return response

    def get_wsgi_headers(self, environ) -> Headers:
        # Werkzeug copies every header (checking each value again) to fix Location, Content-Location and
        # Content-Length for the WSGI server. A 200 of ours has none of the first two and its length already
        # (set_data), and the object is not reused after it is sent, so its own headers serve as they are.
        if self.status_code == 200:
            return self.headers
        return super().get_wsgi_headers(environ)


def checked_headers(own: list[tuple[str, str]], given=()) -> Headers:
    """Headers of `own`, which this module writes from constants, digests and locale codes (never from the request,
    so they hold no line break), then `given`, which Headers checks as it adds them.

    Werkzeug checks each value for line breaks as it is added: ~0.7 µs a header, which a response of ten headers
    would pay twice (here and in get_wsgi_headers) while a bare route pays it for two.
    """
    headers = Headers()
    headers._list = own  # the list Headers keeps its items in (Werkzeug 2 and 3)
    if given:
        headers.extend(given)
    return headers


def cors_headers() -> dict:
    """CORS for responses made in front of Flask (blocklist, gate), as flask-cors sets it."""
    return dict((*CORS_HEADERS, NOSNIFF))


def json_response(payload, max_age: int | None, *, entries: int, headers=(), locale: str | None = None,
                  etag: str | None = None) -> ApiResponse:
    """A JSON response showing `entries` entries, cached for `max_age` seconds by anyone, or NO_STORE.

    It has CORS headers; for a `locale` chosen by the view, Content-Language with Vary: Accept-Language;
    and when it may be stored, an ETag (304 when the client has the same): the body's SHA-1, or `etag` when the view
    names what makes the body (a single entry: api/items.py entry_etag), which spares hashing it on every request.
    """
    body = orjson.dumps(payload)
    etag = None if max_age is NO_STORE else etag or f'"{hashlib.sha1(body).hexdigest()}"'
    own = [
        *CORS_HEADERS,  # first: flask-cors looks for Access-Control-Allow-Origin header by header after every request
        ("Content-Type", "application/json"),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-store" if max_age is NO_STORE else f"public, max-age={max_age}"),
        *([("ETag", etag)] if etag else []),
        NOSNIFF,
    ]
    if locale:
        own += [("Content-Language", locale), ("Vary", "Accept-Language")]
    return ok_or_not_modified(body, checked_headers(own, headers), etag, entries)


def html_response(data: bytes, etag: str, max_age: int | None, *, locale: str, status: int = 200) -> ApiResponse:
    """A page in `locale`, made like json_response in one step: cached for `max_age` seconds with its `etag` (which its
    maker computes from what makes the page: kaomoji_api/web/render.py), or NO_STORE (error pages). It shows no
    entries in the sense of the API's budget: pages spend none."""
    etag = None if max_age is NO_STORE or status != 200 else etag
    own = [
        *CORS_HEADERS,  # first, as json_response's
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Length", str(len(data))),
        ("Cache-Control", "no-store" if etag is None else f"public, max-age={max_age}"),
        *([("ETag", etag)] if etag else []),
        NOSNIFF,
        CONTENT_SECURITY_POLICY,
        ("Content-Language", locale),
    ]
    if status != 200:
        return ApiResponse(data, status, headers=checked_headers(own))
    return ok_or_not_modified(data, checked_headers(own), etag, 0)


def ok_or_not_modified(body: bytes, headers: Headers, etag: str | None, entries: int) -> ApiResponse:
    """200 with the body, or 304 without it when If-None-Match has its ETag (a 304 shows no entries); `headers` are
    the 200's, Content-Length included."""
    asked = request._get_current_object()  # once: each attribute read through the proxy costs ~0.7 µs
    if etag and "HTTP_IF_NONE_MATCH" in asked.environ and asked.if_none_match.contains_weak(etag[1:-1]):
        return ApiResponse(b"", 304, headers=headers)  # Werkzeug drops the body's own headers from a 304
    return ApiResponse.ok(body, headers, entries)


class NoSessions(SessionInterface):
    """The service keeps no sessions and sets no cookies: every request gets the same read-only empty session, instead of
    Flask's default looking for a session cookie and making a new empty one on each request."""

    null = NullSession()

    def open_session(self, app, request) -> NullSession:
        return self.null

    def save_session(self, app, session, response) -> None:
        pass  # never called: Flask saves no null session


def init_app(app) -> None:
    app.session_interface = NoSessions()
    # A preflight names only the methods the API has.
    CORS(app, origins="*", methods=["GET", "HEAD", "OPTIONS"], expose_headers=EXPOSED_HEADERS, max_age=86400, send_wildcard=True)
