"""Categories with their localized names, types and entry counts."""

from flask import Blueprint

from kaomoji_api.catalog import get_catalog
from kaomoji_api.http import LONG, json_response
from kaomoji_api.params import Params
from kaomoji_api.response_cache import cached_response

bp = Blueprint("categories", __name__, url_prefix="/api/v1")


@bp.get("/categories")
@cached_response
def list_categories():
    catalog, params = get_catalog(), Params()
    locale = params.locale(catalog.locales)
    types = params.choices("type", catalog.category_types)
    params.done()
    data = [
        {"slug": c.slug, "name": catalog.category_name(c.id, locale), "type": c.type, "count": c.count}
        for c in catalog.categories
        if types is None or c.type in types
    ]
    return json_response({"data": data}, LONG, locale=locale)
