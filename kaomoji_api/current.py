"""The catalog a worker serves and everything derived from it, opened together and replaced together.

When catalog.sqlite is replaced, the new file is opened, its search index built, its response cache
made empty and its OpenAPI document written before it serves; one assignment then swaps them all,
so nothing of the old catalog stays referenced once its last request has finished.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import random
import sqlite3
import time
import weakref
from dataclasses import dataclass, field

import orjson
from flask import current_app

from kaomoji_api import response_cache
from kaomoji_api.catalog import LAST_GOOD_SUFFIX, Catalog, CatalogError
from kaomoji_api.lru import SizedLru
from kaomoji_api.pieces import ItemWriter
from kaomoji_api.response_cache import exact_copy
from kaomoji_api.search import Searcher
from kaomoji_api.watch import WatchedFile

RESTART_SPREAD = 10.0  # seconds over which the workers that swapped catalogs restart
TRIM_SECONDS = 1.0  # a process hands its freed heap back at least this often while it answers (trim_heap)
LONG_REQUEST_SECONDS = 0.002  # and after any request that took longer: one that freed much (trim_heap)


@dataclass(frozen=True)
class Served:
    catalog: Catalog
    items: ItemWriter
    searcher: Searcher
    responses: SizedLru
    openapi: orjson.Fragment  # the OpenAPI document, encoded: a quarter of its size as objects
    # What the web pages make of this catalog as they are asked for (kaomoji_api/web/render.py): kept with it and
    # replaced with it.
    pages: dict = field(default_factory=dict)


def open_served(app, path: str) -> Served:
    # kaomoji_api.api imports this module for its views; its bounds and OpenAPI builder are imported when
    # first needed, so that this module can be imported first.
    from kaomoji_api.api.bounds import SEARCH_DEPTH
    from kaomoji_api.api.openapi import build_document

    catalog = Catalog(path)
    try:
        searcher = Searcher(catalog, depth=SEARCH_DEPTH, cache_bytes=int(app.config["SEARCH_CACHE_BYTES"]))
    except (sqlite3.DatabaseError, LookupError, ValueError, TypeError) as error:
        raise CatalogError(f"not a whole kaomoji catalog: {path} (search index: {error})") from None
    responses = response_cache.response_cache(int(app.config["RESPONSE_CACHE_BYTES"]))
    served = Served(catalog, ItemWriter(catalog), searcher, responses, orjson.Fragment(exact_copy(orjson.dumps(build_document(catalog, app)))))
    release_memory()  # what opening read and dropped: rows, JSON, SQLite pages
    return served


def release_memory() -> None:
    """Hand freed memory back to the system: what opening a catalog read and dropped, and a catalog that is
    gone. glibc keeps freed heap for reuse, so without this a worker would hold it for good."""
    gc.collect()
    _malloc_trim()


def _malloc_trim() -> None:
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to do
        ctypes.CDLL(None).malloc_trim(0)


_last_trim = _last_answered = time.monotonic()


def trim_heap() -> None:
    """Hand the heap's freed pages back to the system after a request that took over LONG_REQUEST_SECONDS since the last
    one was answered, and otherwise once every TRIM_SECONDS; called after each request (deploy/gunicorn.conf.py,
    post_request).

    What a request allocates and frees (a cold search's candidates, a list's rows) stays with glibc for reuse, in
    pages scattered through the heap that it does not give back by itself: after the broadest searches in six
    locales a worker holds ~1.2 MB of them. malloc_trim takes ~0.25 ms then, ~0.06 ms when there is little to give.
    Trimmed only once a second, a worker kept what its last heavy requests freed for up to a second, ~0.7 MB of its
    worst case (README, "Memory"). A request that takes milliseconds is one that allocates much (a broad search ranked
    afresh, a list read from the file), or one after an idle moment; the sub-millisecond requests that make up a busy
    worker's load are followed by one only once a second.
    """
    global _last_trim, _last_answered
    now = time.monotonic()
    if now - _last_answered >= LONG_REQUEST_SECONDS or now - _last_trim >= TRIM_SECONDS:
        _malloc_trim()
        _last_trim = now
    _last_answered = time.monotonic()


def restart_due(app) -> bool:
    """Whether this process should be replaced by a fresh one once it has answered its request.

    A process that swapped catalogs has freed the old one, but its heap stays fragmented around it: about
    15 MB more than a fresh process, which would pass the memory budget. Under gunicorn the worker is
    restarted (deploy/gunicorn.conf.py, post_request) at a moment spread over RESTART_SPREAD seconds after
    its swap, so that the workers of a server do not all restart at once.
    """
    replaced_at = app.extensions["kaomoji_served"].replaced_at
    if replaced_at is None:
        return False
    delay = app.extensions.setdefault("kaomoji_restart_delay", random.uniform(0, RESTART_SPREAD))
    return time.monotonic() - replaced_at >= delay


def served() -> Served:
    """What this worker serves now: the request's catalog and its derived state."""
    # The app itself, not an attribute through the proxy: each of those costs ~0.7 µs, a hundredth of a request.
    return current_app._get_current_object().extensions["kaomoji_served"].get()


def last_good(path: str) -> str:
    """Where the builder keeps a second name of the last catalog it checked and installed."""
    return path + LAST_GOOD_SUFFIX


def catalog_file() -> WatchedFile:
    """The catalog file of this app, with what was last said of it (`rejected`)."""
    return current_app.extensions["kaomoji_served"]


def init_app(app) -> None:
    path = app.config["CATALOG"]

    def rejected(error: Exception) -> None:
        app.logger.error("catalog %s rejected, still serving the one before: %s", path, error)

    def start_on_last_good(error: Exception) -> Served:
        # A bad file renamed into place must not stop a worker that starts now (a crash, a reload): it
        # serves the last catalog the builder checked, and says loudly that the file is bad.
        app.logger.error("catalog %s rejected (%s); serving the last good one, %s", path, error, last_good(path))
        try:
            return open_served(app, last_good(path))
        except (OSError, CatalogError):
            raise error from None

    def replaced(old: Served) -> None:
        # Once the last request that holds the old catalog has finished with it.
        weakref.finalize(old.catalog, release_memory)

    app.extensions["kaomoji_served"] = WatchedFile(path, lambda file: open_served(app, file), rejected, start_on_last_good, replaced)
