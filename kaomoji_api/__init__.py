"""The Kaomoji Catalog API: a read-only JSON service over catalog.sqlite.

`create_app()` is the one way an app is made: wsgi.py, the tests and the tools call it.
"""

from __future__ import annotations


def create_app(test_config: dict | None = None):
    # Imported here, not above: the catalog builder imports kaomoji_api.textnorm, and must not pull in
    # Flask and the web stack with it.
    from kaomoji_api import api, clients, current, errors, gate, http, limits, web
    from kaomoji_api.config import DEFAULTS

    app = http.App(__name__, static_folder=None)
    # A doubled slash is a 404, not a redirect to a Location built from the client's Host header.
    app.url_map.merge_slashes = False
    app.config.from_mapping(DEFAULTS)
    app.config.from_prefixed_env("KAOMOJI")
    if test_config:
        app.config.update(test_config)
    errors.init_app(app)
    limits.init_app(app)
    http.init_app(app)
    current.init_app(app)
    api.init_app(app)
    web.init_app(app)
    # WSGI layers, innermost first: the gate, then around it the blocklist and the client address.
    gate.init_app(app)
    clients.init_app(app)
    return app
