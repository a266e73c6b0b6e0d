"""Categories with their localized names, types and entry counts."""

from flask import Blueprint

from kaomoji_api.api.params import Params
from kaomoji_api.current import served
from kaomoji_api.http import LONG, json_response
from kaomoji_api.response_cache import cached_response

bp = Blueprint("categories", __name__)


@bp.get("/categories")
@cached_response
def list_categories():
    catalog, params = served().catalog, Params()
    locale = params.locale(catalog.locales)
    types = params.choices("type", catalog.category_types)
    params.done()
    data = [
        {"slug": c.slug, "name": catalog.category_name(c.id, locale), "type": c.type, "count": c.count}
        for c in catalog.categories
        if types is None or c.type in types
    ]
    return json_response({"data": data}, LONG, entries=0, locale=locale)
