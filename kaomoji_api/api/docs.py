"""The service's own OpenAPI 3.0 description."""

from flask import Blueprint, current_app

from kaomoji_api.catalog import get_catalog
from kaomoji_api.http import LONG, json_response
from kaomoji_api.openapi import openapi_document
from kaomoji_api.response_cache import cached_response

bp = Blueprint("docs", __name__, url_prefix="/api/v1")


@bp.get("/openapi.json")
@cached_response
def openapi_json():
    return json_response(openapi_document(current_app, get_catalog()), LONG)
