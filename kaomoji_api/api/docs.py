"""The service's own OpenAPI 3.0 description, written when its catalog was opened (api/openapi.py)."""

from flask import Blueprint

from kaomoji_api.current import served
from kaomoji_api.http import LONG, json_response
from kaomoji_api.response_cache import cached_response

bp = Blueprint("docs", __name__)


@bp.get("/openapi.json")
@cached_response
def openapi_json():
    return json_response(served().openapi, LONG, entries=0)
