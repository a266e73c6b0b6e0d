"""Recent responses of the current catalog, served again without building them again.

The catalog is read-only: the same path, query and Accept-Language get the same JSON until the
file is replaced, so each worker keeps a bounded LRU of rendered bodies, their headers and the
number of entries they show beside its catalog (kaomoji_api/current.py).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from flask import current_app, request

from kaomoji_api import current
from kaomoji_api.http import checked_headers, ok_or_not_modified
from kaomoji_api.lru import SizedLru

# What an item costs beyond its body: the key, the header list and the objects around them (~1.2 KB, measured by
# tests/test_faults.py).
ITEM_OVERHEAD = 1280


class Cached(NamedTuple):
    body: bytes
    headers: list
    etag: str
    entries: int


def exact_copy(body: bytes) -> bytes:
    """The body in a bytes object of its own size. What orjson.dumps returns keeps the buffer it was written in, up to
    ten times its length (32 KB for a body of 3 KB): kept as it is, a cache would hold far more than it counts."""
    return bytes(memoryview(body))


def response_cache(max_bytes: int) -> SizedLru:
    """The cache of one catalog's responses, bounded by their bodies' size."""
    return SizedLru(max_bytes, lambda item: len(item.body) + ITEM_OVERHEAD)


def cached_response(view=None, *, when=None, per_host=False):
    """Serve a view's 200 responses from the cache, unless they say no-store.

    For views whose answers are cheap to make or rarely asked twice, don't: a miss costs more than
    making the answer. `when` (a function of the request) limits caching to some requests. `per_host`
    keeps an answer per address the request was sent to, for views that write absolute URLs.
    """
    if view is None:
        return functools.partial(cached_response, when=when, per_host=per_host)

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        cache = current.served().responses
        if not cache.max_bytes or (when is not None and not when()):
            return view(*args, **kwargs)
        asked = request._get_current_object()  # once: each attribute read through the proxy costs ~0.7 µs
        # From the environ: Headers.get finds an absent header by catching a KeyError, which costs a request microseconds.
        key = (asked.endpoint, asked.query_string, asked.environ.get("HTTP_ACCEPT_LANGUAGE", ""), tuple(kwargs.items()))
        if per_host and not current_app._get_current_object().config["PUBLIC_URL"]:
            key += (asked.host_url,)
        hit = cache.get(key)
        if hit is not None:
            # Checked when the response was first made; a copy, since hooks add headers to each response.
            return ok_or_not_modified(hit.body, checked_headers(list(hit.headers)), hit.etag, hit.entries)
        response = view(*args, **kwargs)
        if response.status_code == 200 and not response.cache_control.no_store:
            cache.put(key, Cached(exact_copy(response.get_data()), list(response.headers), response.headers["ETag"], response.entries))
        return response

    return wrapper
