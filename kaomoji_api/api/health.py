"""Liveness for load balancers: the catalog version and counts this worker serves."""

import json

from flask import Blueprint

from kaomoji_api.current import served
from kaomoji_api.http import NO_STORE, json_response

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    catalog = served().catalog
    body = {
        "status": "ok",
        "catalog": {
            "version": catalog.version,
            "built_at": catalog.meta["built_at"],
            "counts": json.loads(catalog.meta["counts"]),
            "locales": list(catalog.locales),
        },
    }
    return json_response(body, NO_STORE, entries=0)
