"""The HTTP API: one blueprint per resource, each only parsing, calling and shaping JSON."""

from kaomoji_api.api import categories, docs, health, kaomojis

BLUEPRINTS = (kaomojis.bp, categories.bp, docs.bp, health.bp)


def init_app(app) -> None:
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
