"""The JSON of entries, categories and page metadata, shared by the views."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import current_app, request

from kaomoji_api.api.bounds import MAX_LINK_HEADER
from kaomoji_api.catalog import Catalog, Category
from kaomoji_api.locales import DEFAULT_LOCALE


def entry_items(catalog: Catalog, positions, locale: str, *, detail: bool) -> list[dict]:
    """The entries at `positions` as the API shows them; `note` and `usage` only in detail (single entry, search)."""
    names, slugs, items = catalog.profile_texts[locale], catalog.category_slugs, []
    categories = catalog.profile_categories  # one shared tuple per set of categories: nothing to build here
    entries = list(map(catalog.entries.at, positions))
    details = catalog.details(entries, locale) if detail and entries else {}
    for entry in entries:
        name, keywords = names[entry.profile_id]
        item = {
            "id": entry.id,
            "text": entry.text,
            "category": slugs[entry.category_id],
            "categories": categories[entry.profile_id],
            "name": name,
            "meaning": catalog.meaning_for(entry, locale, name),
            "keywords": keywords,
            "display_width": entry.display_width,
            "ascii_safe": entry.ascii_safe,
            "needs_cjk_font": entry.needs_cjk_font,
            "scripts": entry.scripts,
            "sensitive": entry.sensitive,
        }
        if detail:
            item["note"] = catalog.note_for(entry, locale, details[entry.id])
            item["usage"] = catalog.usage_for(entry, locale)
        items.append(item)
    return items


def public_url() -> str:
    """The service's public address without a trailing slash: KAOMOJI_PUBLIC_URL, else the request's."""
    return (current_app.config["PUBLIC_URL"] or request.host_url).rstrip("/")


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
