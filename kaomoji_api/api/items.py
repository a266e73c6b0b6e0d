"""The JSON of entries, categories and page metadata, shared by the views."""

from __future__ import annotations

import functools
import hashlib
from urllib.parse import urlencode

import orjson
from flask import current_app, request
from werkzeug.sansio.utils import get_current_url

from kaomoji_api.api.bounds import MAX_LINK_HEADER
from kaomoji_api.catalog import Catalog, Category
from kaomoji_api.current import Served
from kaomoji_api.http import RELEASE
from kaomoji_api.locales import DEFAULT_LOCALE


def entry_items(served: Served, positions, locale: str, *, detail: bool, matches=None) -> orjson.Fragment:
    """The entries at `positions` as the API shows them, as one JSON array (kaomoji_api/pieces.py) that orjson writes
    into the payload as it is; `note` and `usage` only in detail (search), and each entry's search `match` when given."""
    writer = served.items
    if not detail:
        written = writer.items(positions, locale)
    elif matches is None:
        written = [writer.detail(position, locale) for position in positions]
    else:
        written = [writer.detail(position, locale, b',"match":%b' % orjson.dumps(match.as_dict()))
                   for position, match in zip(positions, matches, strict=True)]
    return items_array(written)


def picked_items(served: Served, count: int, locale: str, category_ids: list[int] | None, seed: str | None) -> list[bytes]:
    """Up to `count` entries at random as the API shows them: an unseeded pick from every entry takes items written
    ahead (pieces.WrittenAhead); a seeded or filtered one is drawn and written now."""
    if seed or category_ids is not None:
        return served.items.items(served.catalog.random_positions(count, category_ids, seed), locale)
    return served.items.picks.take(count, locale)


def items_array(written: list[bytes]) -> orjson.Fragment:
    """Items as one JSON array that orjson writes into the payload as it is."""
    return orjson.Fragment(b"[%b]" % b",".join(written))


def entry_item(served: Served, position: int, locale: str) -> orjson.Fragment:
    """The entry at `position` as a single entry shows it, with its note and usage."""
    return orjson.Fragment(served.items.detail(position, locale))


def entry_etag(served: Served, entry_id: int, locale: str) -> str:
    """A single entry's ETag: what its body is made from (this release's code, the catalog, the locale) and its id. A
    single entry is not kept rendered, and its ~1 KB need not be hashed on every request to say what the client has."""
    return f'"{_made_from(served.catalog.version, locale)}-{entry_id}"'


@functools.lru_cache(maxsize=64)
def _made_from(version: str, locale: str) -> str:
    return hashlib.sha1(b"%b\0%b\0%b" % (RELEASE, version.encode(), locale.encode())).hexdigest()


def public_url() -> str:
    """The service's public address without a trailing slash: KAOMOJI_PUBLIC_URL, else the request's."""
    configured = current_app._get_current_object().config["PUBLIC_URL"]  # each read through a proxy costs ~0.7 µs
    if configured:
        return configured.rstrip("/")
    environ = request._get_current_object().environ
    return _host_url(environ["wsgi.url_scheme"], environ.get("HTTP_HOST"), environ.get("SERVER_NAME"), environ.get("SERVER_PORT"))


@functools.lru_cache(maxsize=64)
def _host_url(scheme: str, host: str | None, server_name: str | None, server_port: str | None) -> str:
    # Kept by what Werkzeug makes the address from: making it costs a tenth of a page's time (it decodes an
    # internationalised host name), a server is asked under a few names, and at most 64 are kept whatever Host headers
    # clients send. A Host that TRUSTED_HOSTS refuses raises in request.host, and an exception is never kept.
    return get_current_url(request.scheme, request.host).rstrip("/")


def category_url(slug: str, locale: str) -> str:
    """The category's web page: /category/<slug> in the default locale, /<locale>/category/<slug> otherwise."""
    prefix = "" if locale == DEFAULT_LOCALE else f"/{locale}"
    return f"{public_url()}{prefix}/category/{slug}"


def category_items(catalog: Catalog, categories: list[Category], locale: str) -> list[dict]:
    """Category records as the API shows them: `id` is the slug, kept as `slug` too."""
    return [
        {
            "id": c.slug,
            "slug": c.slug,
            "name": catalog.category_name(c.id, locale),
            "type": c.type,
            "count": c.count,
            "emoji": c.emoji,
            "description": catalog.category_description(c.id, locale),
            "url": category_url(c.slug, locale),
        }
        for c in categories
    ]


def pagination(page: int, limit: int, total: int, depth: int | None = None) -> tuple[dict, list[tuple[str, str]]]:
    """The pagination object and the headers with its RFC 8288 links (first, prev, next, last).

    With a `depth`, pages stop there (search): total_pages counts only the pages that can be asked for.
    """
    reachable = total if depth is None else min(total, depth)
    total_pages = max(1, -(-reachable // limit))
    links = {"first": 1, "last": total_pages}
    if page > 1:
        links["prev"] = min(page - 1, total_pages)
    if page < total_pages:
        links["next"] = page + 1
    args = request.args.to_dict()
    header = ", ".join(
        f'<{request.path}?{urlencode({**args, "page": number})}>; rel="{rel}"'
        for rel, number in links.items()
    )
    meta = {"page": page, "limit": limit, "total": total, "total_pages": total_pages}
    return meta, [("Link", header)] if len(header) <= MAX_LINK_HEADER else []
