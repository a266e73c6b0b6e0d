"""The public contract: the HTTP API under /api/v1, its bounds, parameters, JSON and OpenAPI document.

One parent blueprint owns the prefix and registers one blueprint per resource; each view only parses
its parameters, calls the catalog or search, and shapes JSON. /healthz is outside the prefix.
"""

from flask import Blueprint
from werkzeug.routing import IntegerConverter

from kaomoji_api import limits
from kaomoji_api.api import categories, docs, health, kaomojis

v1 = Blueprint("v1", __name__, url_prefix="/api/v1")
v1.register_blueprint(kaomojis.bp)
v1.register_blueprint(categories.bp)
v1.register_blueprint(docs.bp)


class DigitsConverter(IntegerConverter):
    """A whole number in the ASCII digits 0-9: Werkzeug's `int` matches \\d, which takes ٣ and other digits too."""

    regex = "[0-9]+"


def init_app(app) -> None:
    app.url_map.converters["digits"] = DigitsConverter  # before the rules that use it are added
    app.register_blueprint(v1)
    app.register_blueprint(health.bp)
    # What spends the per-minute budgets: every request of v1 but the document that describes them.
    # /healthz, the web pages and unknown paths spend nothing.
    if rate_limits := limits.limits_of(app):
        rate_limits.spend_budget(v1, free=[docs.bp])
