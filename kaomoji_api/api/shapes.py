"""The JSON shapes of entries and pages, shared by the blueprints."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import g, request

from kaomoji_api.catalog import Catalog, Entry


def entry_item(catalog: Catalog, entry: Entry, locale: str, *, detail: bool) -> dict:
    """An entry as the API shows it; `note` and `usage` only in detail (single entry, search)."""
    # The item budget (limits.py) charges a request for the entries it showed.
    g.entries_returned = g.get("entries_returned", 0) + 1
    name, keywords = catalog.name_and_keywords(entry.profile_id, locale)
    item = {
        "id": entry.id,
        "text": entry.text,
        "category": catalog.category_by_id[entry.category_id].slug,
        "name": name,
        "keywords": keywords,
        "display_width": entry.display_width,
        "ascii_safe": entry.ascii_safe,
        "needs_cjk_font": entry.needs_cjk_font,
    }
    if detail:
        item["note"] = catalog.note_for(entry, locale)
        item["usage"] = catalog.usage_for(entry, locale)
    return item


def pagination(page: int, limit: int, total: int) -> tuple[dict, str]:
    """The pagination object and an RFC 8288 Link header (first, prev, next, last)."""
    total_pages = max(1, -(-total // limit))
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
    return {"page": page, "limit": limit, "total": total, "total_pages": total_pages}, header
