"""Recent responses of the current catalog, served again without building them again.

The catalog is read-only: the same path, query and Accept-Language get the same JSON until the
file is replaced, so each worker keeps a bounded LRU of rendered bodies beside its catalog.
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict

from flask import current_app, g, request

from kaomoji_api.catalog import Catalog, get_catalog

# Request state a view leaves in flask.g that later hooks read (Content-Language, item budget).
STATE = ("locale", "entries_returned")


class ResponseCache:
    """An LRU of (body, headers, state) bounded by the total size of the bodies."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.items: OrderedDict = OrderedDict()
        self.size = 0

    def get(self, key):
        item = self.items.get(key)
        if item is not None:
            self.items.move_to_end(key)
        return item

    def put(self, key, body: bytes, headers: list, state: dict) -> None:
        if len(body) > self.max_bytes // 8 or key in self.items:
            return
        self.items[key] = (body, headers, state)
        self.size += len(body)
        while self.size > self.max_bytes:
            _, (old, _, _) = self.items.popitem(last=False)
            self.size -= len(old)


_caches: "weakref.WeakKeyDictionary[Catalog, ResponseCache]" = weakref.WeakKeyDictionary()


def cached_response(view):
    """Serve a view's 200 responses from the cache, unless they say no-store (random picks)."""

    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        max_bytes = current_app.config["RESPONSE_CACHE_BYTES"]
        if not max_bytes:
            return view(*args, **kwargs)
        catalog = get_catalog()
        cache = _caches.get(catalog)
        if cache is None:
            cache = _caches[catalog] = ResponseCache(max_bytes)
        key = (request.endpoint, request.query_string, request.headers.get("Accept-Language", ""), tuple(kwargs.items()))
        hit = cache.get(key)
        if hit is not None:
            body, headers, state = hit
            for name, value in state.items():
                setattr(g, name, value)
            return current_app.response_class(body, headers=headers)
        response = view(*args, **kwargs)
        if response.status_code == 200 and not response.cache_control.no_store:
            response.add_etag()
            state = {name: g.get(name) for name in STATE if name in g}
            cache.put(key, response.get_data(), list(response.headers), state)
        return response

    return wrapper
