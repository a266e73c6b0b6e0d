"""Categories with their localized names and descriptions, types, emoji, entry counts and page addresses."""

from flask import Blueprint

from kaomoji_api.api.items import category_items
from kaomoji_api.api.params import Params
from kaomoji_api.current import served
from kaomoji_api.http import LONG, json_response
from kaomoji_api.response_cache import cached_response

bp = Blueprint("categories", __name__)


@bp.get("/categories")
@cached_response(per_host=True)  # each record's `url` is built from the request's address without KAOMOJI_PUBLIC_URL
def list_categories():
    catalog, params = served().catalog, Params()
    locale = params.locale(catalog.locales)
    types = params.choices("type", catalog.category_types)
    params.done()
    categories = [c for c in catalog.categories if types is None or c.type in types]
    return json_response({"data": category_items(catalog, categories, locale)}, LONG, entries=0, locale=locale)
