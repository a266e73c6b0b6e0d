"""The files the pages load (static/, Swagger UI's), addressed with a hash of their content."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from flask import url_for
from swagger_ui_bundle import swagger_ui_path

STATIC = Path(__file__).resolve().parent / "static"


@functools.cache
def _fingerprint(directory: Path, filename: str) -> str:
    return hashlib.sha256((directory / filename).read_bytes()).hexdigest()[:12]


def asset_url(filename: str) -> str:
    """The URL of a file of static/, with its content hash so a changed file is never served stale."""
    return url_for("web.static", filename=filename, v=_fingerprint(STATIC, filename))


def swagger_url(filename: str) -> str:
    return url_for("web.swagger_asset", filename=filename, v=_fingerprint(Path(swagger_ui_path), filename))
