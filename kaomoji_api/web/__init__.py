"""The pages for people: the catalog, category, kaomoji and search pages in 12 locales, and the API docs at /docs.

Pages are rendered on the server (kaomoji_api/web/render.py), so their faces and texts are in the HTML, then taken
over by static/catalog.js. They are not API calls: they spend no per-minute budget (only the gate counts them).
The sitemap and robots.txt are in sitemap.py.
"""

from __future__ import annotations

from flask import Blueprint, abort, make_response, redirect, render_template, request, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path
from werkzeug.routing import BaseConverter

from kaomoji_api.api.bounds import MAX_PAGE, QUERY_MAX_LENGTH, SEARCH_DEPTH
from kaomoji_api.api.items import public_url
from kaomoji_api.current import Served, served
from kaomoji_api.http import CONTENT_SECURITY_POLICY, NO_STORE, PAGE, SHORT, html_response
from kaomoji_api.locales import DEFAULT_LOCALE, resolve
from kaomoji_api.response_cache import cached_response
from kaomoji_api.web import render, sitemap
from kaomoji_api.web.assets import STATIC, asset_url, swagger_url

__all__ = ["STATIC", "asset_url", "bp", "init_app"]

PAGE_SIZE = 24  # faces on a category or search page: what catalog.js asks the API for at a time
SIMILAR = 8     # faces like it, on a kaomoji page

# The only Swagger UI files /docs uses; the bundle's sample index.html (which loads the petstore) is not served.
SWAGGER_FILES = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"})

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static")


class PageLocaleConverter(BaseConverter):
    """The first segment of a localized page: a locale with pages, as written or in lower case (which redirects)."""

    def __init__(self, url_map):
        super().__init__(url_map)
        codes = sorted({*render.page_locales(), *(code.lower() for code in render.page_locales())}, key=len, reverse=True)
        self.regex = "|".join(codes)


def _page(html: str):
    response = make_response(html)
    response.headers["Cache-Control"] = f"public, max-age={PAGE}"
    response.headers.set(*CONTENT_SECURITY_POLICY)
    response.add_etag()
    return response.make_conditional(request)


# Pages ---------------------------------------------------------------------------------------------------------

def _localized(locale: str | None) -> str | None:
    """The locale of a path's first segment, or None when the path should be redirected to its canonical spelling
    (/en/... is /..., /zh-hans/... is /zh-Hans/...)."""
    if locale is None:
        return DEFAULT_LOCALE
    code = resolve(locale, render.page_locales())
    return None if code != locale or code == DEFAULT_LOCALE else code


def _to_canonical(locale: str, path_after_prefix: str):
    code = resolve(locale, render.page_locales())
    query = request.query_string.decode("latin-1")
    return redirect(render.prefix(code) + path_after_prefix + (f"?{query}" if query else ""), 301)


def _page_number() -> int | None:
    """?page=, from 1; None when it is not a whole number in range."""
    raw = request.args.get("page", "").strip()
    if not raw:
        return 1
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= MAX_PAGE:
        return int(raw)
    return None


def _show(state: Served, locale: str, suffix: str, title: bytes, description: bytes, *, max_age=PAGE, status: int = 200,
          index: bool = True, view: dict | bytes, heading: str = "", cards: bytes = b"", pager: str = "", article: bytes = b"",
          query: str = "", og_type: str = "website", chips: bool = True):
    """A page: the locale's chrome filled with this page's parts (all escaped already; its title and description
    encoded too); `suffix` is its address after the locale's prefix, query included, which with the public address
    names what the page shows."""
    chrome = render.chrome(state, locale)
    base = public_url()
    page = chrome.fill(base, (  # in the order of render.PARTS
        chrome.title(title),
        description,
        render.view_json(view),
        query.encode(),
        chrome.chips if chips else b"",
        article,
        heading.encode(),
        cards,
        pager.encode(),
        suffix.encode(),
        title,
        og_type.encode(),
        b"" if index and status == 200 else render.NOINDEX,
    ))
    return html_response(page, chrome.etag(base), max_age, locale=locale, status=status)


def _error(locale: str, status: int, text: str):
    """A 404 or 400 page in the page's language: never cached, never indexed."""
    title = render.labels()[locale]["not_found_title" if status == 404 else "bad_request_title"]
    # The address as sent, percent-encoded: it goes into links and tags, and Werkzeug has decoded %22, %3C and %00.
    suffix = render.quote(request.path.removeprefix(render.prefix(locale)) or "/", safe="/")
    return _show(served(), locale, suffix, title.encode(), text.encode(), max_age=NO_STORE, status=status, view={"kind": "message"},
                 article=render.message_article(title, text, locale))


def _bad_page(locale: str, total_pages: int):
    pages = render.format_count(total_pages, locale)
    return _error(locale, 400, render.label(locale, "bad_page", pages=pages))


@bp.get("/")
@bp.get("/<page_locale:locale>/", strict_slashes=False)
@cached_response(per_host=True)
def catalog_page(locale: str | None = None):
    code = _localized(locale)
    if code is None:
        return _to_canonical(locale, "/")
    state, t = served(), render.labels()[code]
    total = state.catalog.entries.visible
    return _show(
        state, code, "/", t["title"].encode(), t["description"].encode(),
        view={"kind": "browse", "category": None, "page": 1, "total_pages": -(-total // PAGE_SIZE)},
        heading=f'{t["heading_all"]} · {render.label(code, "count", count=render.format_count(total, code))}',
        cards=render.cards(state, range(min(PAGE_SIZE, total)), code),
    )


@bp.get("/category/<slug>")
@bp.get("/<page_locale:locale>/category/<slug>")
@cached_response(per_host=True)
def category_page(slug: str, locale: str | None = None):
    code = _localized(locale)
    if code is None:
        return _to_canonical(locale, f"/category/{slug}")
    state = served()
    catalog = state.catalog
    category = catalog.category_by_slug.get(slug)
    if category is None:
        return _error(code, 404, render.labels()[code]["not_found"])
    page = _page_number()
    positions, total = catalog.list_positions(category_ids=[category.id], offset=((page or 1) - 1) * PAGE_SIZE, limit=PAGE_SIZE)
    total_pages = max(1, -(-total // PAGE_SIZE))
    if page is None:
        return _bad_page(code, total_pages)
    if page > total_pages:
        return _error(code, 404, render.labels()[code]["not_found"])
    name = render.escape(catalog.category_name(category.id, code))
    count = render.format_count(total, code)
    title = render.label(code, "category_title", name=name)
    description = render.label(code, "category_description", name=name, count=count,
                               description=render.escape(catalog.category_description(category.id, code)))
    suffix = f"/category/{slug}" + (f"?page={page}" if page > 1 else "")
    return _show(
        state, code, suffix, title.encode(), render.shorten(description).encode(),
        view={"kind": "browse", "category": slug, "page": page, "total_pages": total_pages},
        heading=f'{name} · {render.label(code, "count", count=count)}', cards=render.cards(state, positions, code),
        pager=render.pager(render.category_path(slug, code), page, total_pages, code),
    )


@bp.get("/kaomoji/<entry_id>")
@bp.get("/<page_locale:locale>/kaomoji/<entry_id>")
def kaomoji_page(entry_id: str, locale: str | None = None):
    code = _localized(locale)
    if code is None:
        return _to_canonical(locale, f"/kaomoji/{entry_id}")
    state = served()
    catalog = state.catalog
    number = int(entry_id) if entry_id.isascii() and entry_id.isdigit() and len(entry_id) <= 10 else -1
    position = catalog.entries.position(number)
    if position is None and number in catalog.redirects:
        # The same face under a second id, as the API answers it.
        query = request.query_string.decode("latin-1")
        return redirect(render.kaomoji_path(catalog.redirects[number], code) + (f"?{query}" if query else ""), 301)
    if position is None:
        return _error(code, 404, render.labels()[code]["not_found"])
    page = render.kaomoji_page(state, position, code)
    similar = render.similar_cards(state, position, SIMILAR, code)
    return _show(
        state, code, f"/kaomoji/{number}", page.title, page.description, index=not page.sensitive, og_type="article", chips=False,
        view=page.view, article=page.article, heading=render.labels()[code]["similar"] if similar else "", cards=similar,
    )


@bp.get("/search")
@bp.get("/<page_locale:locale>/search")
@cached_response(per_host=True)
def search_page(locale: str | None = None):
    code = _localized(locale)
    if code is None:
        return _to_canonical(locale, "/search")
    t = render.labels()[code]
    # A page is lenient where the API is strict: what the search box cannot send is dropped, not refused.
    query = request.args.get("q", "").replace("\x00", "").strip()[:QUERY_MAX_LENGTH].strip()
    if not query:
        return redirect(render.home_path(code), 302)
    page = _page_number()
    total_pages_at_most = -(-SEARCH_DEPTH // PAGE_SIZE)
    if page is None or page > total_pages_at_most:
        return _bad_page(code, total_pages_at_most)
    state = served()
    hits, total = state.searcher.search(query, code, (page - 1) * PAGE_SIZE, PAGE_SIZE)
    total_pages = max(1, -(-min(total, SEARCH_DEPTH) // PAGE_SIZE))
    if page > total_pages:
        return _error(code, 404, t["not_found"])
    shown = render.escape(query)
    heading = render.label(code, "heading_search", query=shown)
    suffix = f"/search?q={render.escape(render.quote(query, safe=''))}" + (f"&amp;page={page}" if page > 1 else "")
    cards = render.cards(state, [position for position, _ in hits], code)
    return _show(
        state, code, suffix, heading.encode(), t["description"].encode(), max_age=SHORT, index=False, query=shown,
        view={"kind": "search", "query": query, "page": page, "total_pages": total_pages},
        heading=f'{heading} · {render.label(code, "count", count=render.format_count(total, code))}',
        cards=cards or f'<li class="empty">{t["no_results"]}</li>'.encode(),
        pager=render.pager(render.search_path(code), page, total_pages, code, query),
    )


# Docs ----------------------------------------------------------------------------------------------------------

@bp.get("/docs")
def api_docs():
    return _page(render_template(
        "docs.html", openapi_url=url_for("v1.docs.openapi_json"), asset_url=asset_url, swagger_url=swagger_url,
    ))


@bp.get("/docs/assets/<path:filename>")
def swagger_asset(filename: str):
    if filename not in SWAGGER_FILES:
        abort(404, f"no such file: {filename}")
    return send_from_directory(swagger_ui_path, filename, max_age=PAGE)


def init_app(app) -> None:
    app.url_map.converters["page_locale"] = PageLocaleConverter
    app.register_blueprint(bp)
    app.register_blueprint(sitemap.bp)
    # The blueprint's static files (static/) are fingerprinted by asset_url: browsers may keep them an hour.
    if app.config["SEND_FILE_MAX_AGE_DEFAULT"] is None:
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = PAGE
