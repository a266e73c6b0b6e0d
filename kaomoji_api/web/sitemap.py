"""/sitemap.xml and /robots.txt: where crawlers find every category and kaomoji page in every locale.

The sitemap is an index of files of at most 50,000 addresses (the sitemaps.org limit), one locale's pages after
another; each file is written as it is sent, so that a worker never holds megabytes of XML.
"""

from __future__ import annotations

import hashlib
import math
from html import escape

from flask import Blueprint, Response, abort, request

from kaomoji_api.api.items import public_url
from kaomoji_api.current import served
from kaomoji_api.http import LONG, PAGE
from kaomoji_api.web import render

URLS_PER_FILE = 50_000  # sitemaps.org: at most 50,000 addresses (and 50 MB) a file
CHUNK = 2_000           # addresses written at a time

bp = Blueprint("sitemap", __name__)


def _paths(locale: str) -> tuple[list[str], list[int]]:
    """A locale's pages: its home and category pages, then its kaomoji pages (by id; sensitive faces are left out)."""
    catalog = served().catalog
    return [render.home_path(locale), *(render.category_path(c.slug, locale) for c in catalog.categories)], catalog.indexable_ids()


def _files(locale: str) -> int:
    fixed, ids = _paths(locale)
    return max(1, math.ceil((len(fixed) + len(ids)) / URLS_PER_FILE))


def _xml(body, etag: str, max_age: int) -> Response:
    headers = {"Cache-Control": f"public, max-age={max_age}", "ETag": etag}
    if request.if_none_match.contains_weak(etag.strip('"')):
        return Response(b"", 304, headers=headers)
    return Response(body, mimetype="application/xml", headers=headers)


def _etag(*parts: str) -> str:
    return '"' + hashlib.sha1("|".join((served().catalog.version, public_url(), *parts)).encode()).hexdigest() + '"'


@bp.get("/sitemap.xml")
def sitemap_index():
    base = escape(public_url())
    files = [f"{base}/sitemaps/{locale}-{n}.xml" for locale in render.page_locales() for n in range(1, _files(locale) + 1)]
    body = ('<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + "".join(f"<sitemap><loc>{loc}</loc></sitemap>\n" for loc in files) + "</sitemapindex>\n")
    return _xml(body, _etag("index"), LONG)


@bp.get("/sitemaps/<locale>-<int:number>.xml")
def sitemap_file(locale: str, number: int):
    if locale not in render.page_locales() or not 1 <= number <= _files(locale):
        abort(404, f"no sitemap file {locale}-{number}.xml")
    fixed, ids = _paths(locale)
    start, stop = (number - 1) * URLS_PER_FILE, number * URLS_PER_FILE
    base, kaomoji = escape(public_url()), render.kaomoji_path(0, locale)[:-1]

    def addresses():
        for path in fixed[start:stop]:
            yield f"{base}{path}"
        for index in range(max(0, start - len(fixed)), max(0, stop - len(fixed))):
            if index >= len(ids):
                return
            yield f"{base}{kaomoji}{ids[index]}"

    def body():
        yield '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        chunk = []
        for loc in addresses():
            chunk.append(f"<url><loc>{loc}</loc></url>\n")
            if len(chunk) == CHUNK:
                yield "".join(chunk)
                chunk = []
        yield "".join(chunk) + "</urlset>\n"

    return _xml(body(), _etag(locale, str(number)), LONG)


@bp.get("/robots.txt")
def robots_txt():
    # Search result pages say noindex, and the API is for programs: crawlers keep to the pages the sitemap names.
    body = f"User-agent: *\nDisallow: /api/\nDisallow: /search\nDisallow: /*/search\nSitemap: {public_url()}/sitemap.xml\n"
    return Response(body, mimetype="text/plain", headers={"Cache-Control": f"public, max-age={PAGE}"})
