"""Recent responses of the current catalog, served again without building them again.

The catalog is read-only: the same path, query and Accept-Language get the same JSON until the
file is replaced, so each worker keeps a bounded LRU of rendered bodies and their headers beside
its catalog.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from typing import NamedTuple

from flask import current_app, g, request

from kaomoji_api.catalog import Catalog, get_catalog
from kaomoji_api.http import representation

# Request state a view leaves in flask.g that later hooks read (the item budget of limits.py).
STATE = ("entries_returned",)
# What an item costs beyond its body: the key, the header list and the objects around them.
ITEM_OVERHEAD = 1024


class Cached(NamedTuple):
    body: bytes
    headers: list
    etag: str
    state: dict


class ResponseCache:
    """An LRU of cached responses bounded by their total size."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.items: OrderedDict = OrderedDict()
        self.size = 0

    def get(self, key) -> Cached | None:
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
        return item

    def put(self, key, item: Cached) -> None:
        size = len(item.body) + ITEM_OVERHEAD
        if size > self.max_bytes // 8 or key in self.items:
            return
        self.items[key] = item
        self.size += size
        while self.size > self.max_bytes:
            _, old = self.items.popitem(last=False)
            self.size -= len(old.body) + ITEM_OVERHEAD


_caches: "weakref.WeakKeyDictionary[Catalog, ResponseCache]" = weakref.WeakKeyDictionary()


def cached_response(view=None, *, when=None):
    """Serve a view's 200 responses from the cache, unless they say no-store.

    For views whose answers are cheap to make or rarely asked twice, don't: a miss costs more than
    making the answer. `when` (a function of the request) limits caching to some requests.
    """
    if view is None:
        return functools.partial(cached_response, when=when)

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        max_bytes = current_app.config["RESPONSE_CACHE_BYTES"]
        if not max_bytes or (when is not None and not when()):
            return view(*args, **kwargs)
        catalog = get_catalog()
        cache = _caches.get(catalog)
        if cache is None:
            cache = _caches[catalog] = ResponseCache(max_bytes)
        key = (request.endpoint, request.query_string, request.headers.get("Accept-Language", ""), tuple(kwargs.items()))
        hit = cache.get(key)
        if hit is not None:
            for name, value in hit.state.items():
                setattr(g, name, value)
            return representation(hit.body, hit.headers, hit.etag)
        response = view(*args, **kwargs)
        if response.status_code == 200 and not response.cache_control.no_store:
            state = {name: g.get(name) for name in STATE if name in g}
            cache.put(key, Cached(response.get_data(), list(response.headers), response.headers["ETag"], state))
        return response

    return wrapper
