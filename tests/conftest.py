"""Fixtures: catalogs built once per test session, the app and its client.

`full_catalog` is the real catalog (every labelled entry, every locale); `sample_catalog`
is a small one for builder tests. Both are built by tools/build_catalog.py, as in production.
"""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest

from kaomoji_api import create_app
from tools import build_catalog

REQUIRE_REAL = os.environ.get("KAOMOJI_REQUIRE_REAL_PROGRAMS", "").lower() in {"1", "true", "yes"}


def need_program(name: str) -> str:
    """The path of a real program a test needs; skip without it, or fail where CI requires it."""
    path = shutil.which(name) or next((p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(p, os.X_OK)), None)
    if path:
        return path
    message = f"{name} is not installed (Debian package); install it to run this test"
    if REQUIRE_REAL:
        pytest.fail(message + " — KAOMOJI_REQUIRE_REAL_PROGRAMS forbids skipping")
    pytest.skip(message)


class Quiet:
    """A progress sink for builds inside tests."""

    def step(self, *args):
        pass


@pytest.fixture(scope="session")
def full_catalog(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("full") / "catalog.sqlite"
    build_catalog.build(path, progress=Quiet())
    return path


@pytest.fixture(scope="session")
def sample_catalog(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sample") / "catalog.sqlite"
    build_catalog.build(path, sample=400, progress=Quiet())
    return path


@pytest.fixture(scope="session")
def app(full_catalog):
    # Limits off: the tests of the API send far more than 60 requests a minute. tests/test_limits*.py,
    # test_gate.py and test_deploy.py make their own apps and servers with limits on.
    return create_app({"TESTING": True, "CATALOG": str(full_catalog), "RATELIMIT_ENABLED": False})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def catalog(app):
    from kaomoji_api.current import served

    with app.app_context():
        return served().catalog


def pytest_sessionfinish(session, exitstatus):
    # The dataset and the catalogs the suite loaded are millions of objects: freezing them spares the
    # interpreter's last garbage collection a walk through them all, seconds of silence after the report.
    gc.freeze()
