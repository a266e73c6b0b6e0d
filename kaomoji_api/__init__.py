"""The Kaomoji Catalog API: a read-only JSON service over catalog.sqlite.

`create_app()` is the one way an app is made: wsgi.py, the tests and the tools call it.
"""

from __future__ import annotations

from flask import Flask

from kaomoji_api import api, catalog, clients, entry_limit, errors, http, limits, search, web
from kaomoji_api.config import DEFAULTS


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("KAOMOJI")
    if test_config:
        app.config.update(test_config)
    errors.init_app(app)
    limits.init_app(app)
    http.init_app(app)
    catalog.init_app(app)
    search.init_app(app)
    api.init_app(app)
    web.init_app(app)
    # WSGI layers, innermost first: the entry-point bucket, then around it the blocklist and the client address.
    entry_limit.init_app(app)
    clients.init_app(app)
    return app
