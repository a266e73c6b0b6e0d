"""Entries: the filtered list, one entry by id, random picks and search."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from kaomoji_api.api import bounds
from kaomoji_api.api.items import entry_etag, entry_item, entry_items, items_array, pagination, picked_items
from kaomoji_api.api.params import Params
from kaomoji_api.current import served
from kaomoji_api.http import LONG, NO_STORE, SEEDED, SHORT, json_response
from kaomoji_api.response_cache import cached_response

bp = Blueprint("kaomojis", __name__)


@bp.get("/kaomojis")
@cached_response
def list_kaomojis():
    state, params = served(), Params()
    catalog = state.catalog
    locale = params.locale(catalog.locales)
    page = params.page()
    limit = params.integer("limit", bounds.LIST_LIMIT, 1, bounds.LIST_MAX)
    slugs = params.choices("category", catalog.category_by_slug)
    types = params.choices("type", catalog.category_types)
    ascii_safe = params.boolean("ascii_safe")
    max_width = params.integer("max_width", None, 1, bounds.MAX_WIDTH)
    include_sensitive = bool(params.boolean("include_sensitive"))
    params.done()

    positions, total = catalog.list_positions(
        category_ids=catalog.category_ids(slugs, types), ascii_safe=ascii_safe, max_width=max_width,
        include_sensitive=include_sensitive, offset=(page - 1) * limit, limit=limit,
    )
    meta, link = pagination(page, limit, total)
    data = entry_items(state, positions, locale, detail=False)
    return json_response({"data": data, "pagination": meta}, SHORT, entries=len(positions), headers=link, locale=locale)


# Not cached: an entry is read from memory in microseconds, and ~70,000 ids would only churn the cache.
@bp.get(f"/kaomojis/<digits(max={bounds.MAX_ID}):entry_id>")
def get_kaomoji(entry_id: int):
    state, params = served(), Params()
    catalog = state.catalog
    locale = params.locale(catalog.locales)
    params.done()
    position = catalog.entries.position(entry_id)
    if position is None and entry_id in catalog.redirects:
        # The same face under a second id: one id per face, and links to the other keep working.
        return redirect(url_for(request.endpoint, entry_id=catalog.redirects[entry_id], **request.args), 301)
    if position is None:
        abort(404, f"no kaomoji has id {entry_id}")
    return json_response({"data": entry_item(state, position, locale)}, LONG, entries=1, locale=locale,
                         etag=entry_etag(state, entry_id, locale))


@bp.get("/kaomojis/random")
@bp.get("/random")
@cached_response(when=lambda: "seed" in request._get_current_object().args)  # an unseeded pick is never the same twice
def random_kaomojis():
    state, params = served(), Params()
    catalog = state.catalog
    locale = params.locale(catalog.locales)
    count = params.integer("count", bounds.RANDOM_COUNT, 1, bounds.RANDOM_MAX)
    slugs = params.choices("category", catalog.category_by_slug)
    seed = params.text("seed", max_length=bounds.SEED_MAX_LENGTH)
    params.done()

    written = picked_items(state, count, locale, catalog.category_ids(slugs, None), seed)
    return json_response({"data": items_array(written)}, SEEDED if seed else NO_STORE, entries=len(written), locale=locale)


@bp.get("/kaomojis/search")
@bp.get("/search")
@cached_response
def search_kaomojis():
    state, params = served(), Params()
    locale = params.locale(state.catalog.locales)
    query = params.text("q", required=True, max_length=bounds.QUERY_MAX_LENGTH)
    page = params.page()
    limit = params.integer("limit", bounds.SEARCH_LIMIT, 1, bounds.SEARCH_LIMIT)
    include_sensitive = bool(params.boolean("include_sensitive"))
    params.done()

    hits, total = state.searcher.search(query, locale, (page - 1) * limit, limit, include_sensitive=include_sensitive)
    data = entry_items(state, [position for position, _ in hits], locale, detail=True, matches=[match for _, match in hits])
    meta, link = pagination(page, limit, total, depth=bounds.SEARCH_DEPTH)
    return json_response({"data": data, "pagination": meta}, SHORT, entries=len(hits), headers=link, locale=locale)
