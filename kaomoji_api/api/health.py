"""Liveness for load balancers: the catalog version and counts this worker serves."""

import json

from flask import Blueprint

from kaomoji_api.catalog import get_catalog
from kaomoji_api.http import json_response

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    catalog = get_catalog()
    return json_response(
        {
            "status": "ok",
            "catalog": {
                "version": catalog.version,
                "built_at": catalog.meta["built_at"],
                "counts": json.loads(catalog.meta["counts"]),
                "locales": list(catalog.locales),
            },
        },
        None,
    )
