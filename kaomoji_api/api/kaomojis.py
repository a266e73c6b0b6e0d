"""Entries: the filtered list, one entry by id, random picks and search."""

from __future__ import annotations

import random

from flask import Blueprint, abort, request

from kaomoji_api.api.shapes import entry_items, pagination
from kaomoji_api.catalog import get_catalog
from kaomoji_api.http import LONG, SEEDED, SHORT, json_response
from kaomoji_api.params import Params
from kaomoji_api.response_cache import cached_response
from kaomoji_api.search import search_entries

bp = Blueprint("kaomojis", __name__, url_prefix="/api/v1")

LIST_LIMIT, LIST_MAX = 20, 100
RANDOM_MAX = 10
SEARCH_LIMIT = 25
MAX_ID = 2**31 - 1


def _category_ids(catalog, slugs):
    return None if slugs is None else [catalog.category_by_slug[s].id for s in slugs]


@bp.get("/kaomojis")
@cached_response
def list_kaomojis():
    catalog, params = get_catalog(), Params()
    locale = params.locale(catalog.locales)
    page = params.page()
    limit = params.integer("limit", LIST_LIMIT, 1, LIST_MAX)
    slugs = params.choices("category", catalog.category_by_slug)
    types = params.choices("type", catalog.category_types)
    ascii_safe = params.boolean("ascii_safe")
    max_width = params.integer("max_width", None, 1, 1000)
    params.done()

    category_ids = _category_ids(catalog, slugs)
    if types is not None:
        of_type = [c.id for c in catalog.categories if c.type in types]
        category_ids = of_type if category_ids is None else [c for c in category_ids if c in of_type]
    positions, total = catalog.list_positions(
        category_ids=category_ids, ascii_safe=ascii_safe, max_width=max_width, offset=(page - 1) * limit, limit=limit
    )
    meta, link = pagination(page, limit, total)
    data = entry_items(catalog, positions, locale, detail=False)
    return json_response({"data": data, "pagination": meta}, SHORT, headers=[("Link", link)], locale=locale)


# Not cached: an entry is read from memory in microseconds, and ~70,000 ids would only churn the cache.
@bp.get(f"/kaomojis/<int(max={MAX_ID}):entry_id>")
def get_kaomoji(entry_id: int):
    catalog, params = get_catalog(), Params()
    locale = params.locale(catalog.locales)
    params.done()
    position = catalog.entries.position(entry_id)
    if position is None:
        abort(404, f"no kaomoji has id {entry_id}")
    return json_response({"data": entry_items(catalog, [position], locale, detail=True)[0]}, LONG, locale=locale)


@bp.get("/kaomojis/random")
@bp.get("/random")
@cached_response(when=lambda: "seed" in request.args)  # an unseeded pick is never the same twice
def random_kaomojis():
    catalog, params = get_catalog(), Params()
    locale = params.locale(catalog.locales)
    count = params.integer("count", 1, 1, RANDOM_MAX)
    slugs = params.choices("category", catalog.category_by_slug)
    seed = params.text("seed", max_length=100)
    params.done()

    category_ids = _category_ids(catalog, slugs)
    available = catalog.count(category_ids)
    # A seed makes the pick a function of (seed, catalog, filter): the same "kaomoji of the day" for everyone.
    rng = random.Random(f"{catalog.version}|{seed}|{','.join(slugs or [])}") if seed else random
    picks = rng.sample(range(available), min(count, available))
    data = entry_items(catalog, [catalog.entries.position_in(i, category_ids) for i in picks], locale, detail=False)
    return json_response({"data": data}, SEEDED if seed else None, locale=locale)


@bp.get("/kaomojis/search")
@bp.get("/search")
@cached_response
def search_kaomojis():
    catalog, params = get_catalog(), Params()
    locale = params.locale(catalog.locales)
    query = params.text("q", required=True, max_length=100)
    page = params.page()
    limit = params.integer("limit", SEARCH_LIMIT, 1, SEARCH_LIMIT)
    params.done()

    hits, total = search_entries(catalog, query, locale, (page - 1) * limit, limit)
    data = entry_items(catalog, [position for position, _ in hits], locale, detail=True)
    for item, (_, match) in zip(data, hits):
        item["match"] = match.as_dict()
    meta, link = pagination(page, limit, total)
    return json_response({"data": data, "pagination": meta}, SHORT, headers=[("Link", link)], locale=locale)
