"""The TypeScript client in clients/typescript: its node tests pass against the real service, and its
generated types are what the service's current OpenAPI document generates."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import need_program
from tests.servers import ROOT

PACKAGE = ROOT / "clients" / "typescript"


def npm(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run npm in the package; the node tests start the service with this interpreter."""
    need_program("node")
    program = need_program("npm")
    if not (PACKAGE / "node_modules").is_dir():
        subprocess.run([program, "ci", "--no-audit", "--no-fund"], cwd=PACKAGE, check=True, capture_output=True, timeout=300)
    return subprocess.run(
        [program, *args], cwd=PACKAGE, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "KAOMOJI_PYTHON": sys.executable, **(env or {})},
    )


def test_typescript_client_passes_its_node_tests_against_the_real_service(sample_catalog):
    result = npm("test", env={"KAOMOJI_TEST_CATALOG": str(sample_catalog)})
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert "# fail 0" in result.stdout


def test_typescript_client_types_are_generated_from_the_current_openapi_document(full_catalog):
    # The full catalog: the document's enumerations (locales, category slugs) come from the catalog served.
    result = npm("run", "check-generated", env={"KAOMOJI_CATALOG": str(full_catalog)}, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
