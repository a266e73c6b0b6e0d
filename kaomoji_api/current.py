"""The catalog a worker serves and everything derived from it, opened together and replaced together.

When catalog.sqlite is replaced, the new file is opened, its search index built, its response cache
made empty and its OpenAPI document written before it serves; one assignment then swaps them all,
so nothing of the old catalog stays referenced once its last request has finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from kaomoji_api import response_cache
from kaomoji_api.catalog import Catalog
from kaomoji_api.lru import SizedLru
from kaomoji_api.search import Searcher
from kaomoji_api.watch import WatchedFile


@dataclass(frozen=True)
class Served:
    catalog: Catalog
    searcher: Searcher
    responses: SizedLru
    openapi: dict


def open_served(app, path: str) -> Served:
    # kaomoji_api.api imports this module for its views; its bounds and OpenAPI builder are imported when
    # first needed, so that this module can be imported first.
    from kaomoji_api.api.bounds import SEARCH_DEPTH
    from kaomoji_api.api.openapi import build_document

    catalog = Catalog(path)
    searcher = Searcher(catalog, depth=SEARCH_DEPTH, cache_bytes=int(app.config["SEARCH_CACHE_BYTES"]))
    responses = response_cache.response_cache(int(app.config["RESPONSE_CACHE_BYTES"]))
    return Served(catalog, searcher, responses, build_document(catalog, app))


def served() -> Served:
    """What this worker serves now: the request's catalog and its derived state."""
    return current_app.extensions["kaomoji_served"].get()


def init_app(app) -> None:
    def rejected(error: Exception) -> None:
        app.logger.warning("catalog %s not taken, still serving the last one: %s", app.config["CATALOG"], error)

    app.extensions["kaomoji_served"] = WatchedFile(app.config["CATALOG"], lambda path: open_served(app, path), rejected)
