"""The pages for people: the catalog page at / and the interactive API docs at /docs.

Plain HTML, CSS and JavaScript shipped in this package; Swagger UI's files come from swagger-ui-bundle.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from flask import Blueprint, abort, make_response, render_template, request, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

from kaomoji_api.current import served
from kaomoji_api.http import PAGE
from kaomoji_api.locales import ALIASES, DEFAULT_LOCALE

STATIC = Path(__file__).resolve().parent / "static"

# The only Swagger UI files /docs uses; the bundle's sample index.html (which loads the petstore) is not served.
SWAGGER_FILES = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"})

# Everything the pages load comes from this origin; nothing is fetched from elsewhere at run time.
# Swagger UI sets inline styles on its elements, hence 'unsafe-inline' for styles only.
# No page may be framed by another site (clickjacking): frame-ancestors 'none'.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static")


@functools.cache
def _fingerprint(directory: Path, filename: str) -> str:
    return hashlib.sha256((directory / filename).read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    """The URL of a file of static/, with its content hash so a changed file is never served stale."""
    return url_for("web.static", filename=filename, v=_fingerprint(STATIC, filename))


def swagger_url(filename: str) -> str:
    return url_for("web.swagger_asset", filename=filename, v=_fingerprint(Path(swagger_ui_path), filename))


def _page(html: str):
    response = make_response(html)
    response.headers["Cache-Control"] = f"public, max-age={PAGE}"
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.add_etag()
    return response.make_conditional(request)


@bp.get("/")
def catalog_page():
    catalog = served().catalog
    settings = {
        "locales": [{"code": code, "name": locale.name} for code, locale in catalog.locales.items()],
        "default_locale": DEFAULT_LOCALE,
        "aliases": ALIASES,
        "i18n": asset_url("i18n.json"),
        "api": {
            "kaomojis": url_for("v1.kaomojis.list_kaomojis"),
            "search": url_for("v1.kaomojis.search_kaomojis"),
            "random": url_for("v1.kaomojis.random_kaomojis"),
            "categories": url_for("v1.categories.list_categories"),
        },
    }
    return _page(render_template("catalog.html", settings=settings, asset_url=asset_url))


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
    app.register_blueprint(bp)
    # The blueprint's static files (static/) are fingerprinted by asset_url: browsers may keep them an hour.
    if app.config["SEND_FILE_MAX_AGE_DEFAULT"] is None:
        app.config["SEND_FILE_MAX_AGE_DEFAULT"] = PAGE
