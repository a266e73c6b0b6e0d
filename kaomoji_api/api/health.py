"""Liveness for load balancers: the catalog version and counts this worker serves, and the state of the
file on disk (a rejected file is reported, while the last good catalog keeps serving: still 200)."""

import json

from flask import Blueprint

from kaomoji_api.current import catalog_file, served
from kaomoji_api.http import NO_STORE, json_response

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    catalog, file = served().catalog, catalog_file()
    body = {
        "status": "ok",
        "catalog": {
            "version": catalog.version,
            "built_at": catalog.meta["built_at"],
            "counts": json.loads(catalog.meta["counts"]),
            "locales": list(catalog.locales),
        },
        "file": {"state": "serving"} if file.rejected is None else {"state": "rejected", "reason": file.rejected},
    }
    return json_response(body, NO_STORE, entries=0)
