"""The daily refresh (deploy/kaomoji-catalog-refresh.service and .timer): the builder's --if-changed and
its check of a new catalog, run as the unit runs it against a real gunicorn serving the live file.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.conftest import need_program
from tests.servers import ROOT, fetch, free_port, gunicorn_command, running
from tools.build_catalog import CatalogInvalid, check_catalog

SERVICE = ROOT / "deploy" / "kaomoji-catalog-refresh.service"
TIMER = ROOT / "deploy" / "kaomoji-catalog-refresh.timer"


def unit_setting(path, name: str) -> str:
    return next(line.split("=", 1)[1] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith(f"{name}="))


def test_the_refresh_units_are_valid_and_run_the_builder_once_a_day(tmp_path):
    systemd_analyze = need_program("systemd-analyze")
    assert unit_setting(TIMER, "OnCalendar") == "daily" and unit_setting(SERVICE, "Type") == "oneshot"
    assert unit_setting(SERVICE, "ExecStart") == "/srv/kaomoji-api/.venv/bin/python -m tools.build_catalog --out data/catalog.sqlite --if-changed"
    # As they would be on a VM whose virtual environment is this one, checked by systemd itself; the
    # timer starts the service of its own name, which systemd finds beside it.
    service = tmp_path / SERVICE.name
    service.write_text(SERVICE.read_text(encoding="utf-8").replace("/srv/kaomoji-api/.venv/bin/python", sys.executable), encoding="utf-8")
    shutil.copy(TIMER, tmp_path / TIMER.name)
    checked = subprocess.run([systemd_analyze, "verify", str(service), str(tmp_path / TIMER.name)], capture_output=True, text=True)
    assert checked.returncode == 0 and not checked.stderr.strip(), checked.stderr


def test_the_refresh_swaps_in_a_new_version_and_leaves_an_unchanged_one_alone(sample_catalog, tmp_path):
    """The unit's command, run in a copy of its working directory whose data/ a gunicorn serves."""
    data = tmp_path / "data"
    data.mkdir()
    live = data / "catalog.sqlite"
    shutil.copy(sample_catalog, live)
    command = shlex.split(unit_setting(SERVICE, "ExecStart").replace("/srv/kaomoji-api/.venv/bin/python", sys.executable))
    # Other inputs than the live catalog's: 200 entries and one locale, not 400 and twelve.
    command += ["--sample", "200", "--locales", "en"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the unit runs in the repository, where tools/ is
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running(gunicorn_command(port, workers=1), f"{base}/healthz", env={"KAOMOJI_CATALOG": str(live)}, log=tmp_path / "gunicorn.log"):
        before = fetch(f"{base}/healthz")[2]["catalog"]["version"]
        refreshed = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert refreshed.returncode == 0, refreshed.stderr
        after = sqlite3.connect(f"file:{live}?mode=ro", uri=True).execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0]
        assert after != before and f"version {after}" in refreshed.stdout
        deadline = time.monotonic() + 5  # a worker looks at the file again within a second
        while fetch(f"{base}/healthz")[2]["catalog"]["version"] != after:
            assert time.monotonic() < deadline, "the server still serves the old catalog"
            time.sleep(0.2)

        inode, modified = live.stat().st_ino, live.stat().st_mtime_ns
        again = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0 and "left as it was" in again.stdout, again.stderr
        assert (live.stat().st_ino, live.stat().st_mtime_ns) == (inode, modified)
        # No temporary file left behind; the catalog's second name for workers that start while it is bad.
        assert sorted(p.name for p in data.iterdir()) == ["catalog.sqlite", "catalog.sqlite.last-good"]
        assert fetch(f"{base}/healthz")[2]["catalog"]["version"] == after


def broken_copies(catalog, folder):
    """Copies of a good catalog, each broken in one way the check must see."""
    def copy(name):
        path = folder / name
        shutil.copy(catalog, path)
        return path

    no_version = copy("no-version.sqlite")
    with sqlite3.connect(no_version) as db:
        db.execute("DELETE FROM meta WHERE key = 'version'")
    no_table = copy("no-table.sqlite")
    with sqlite3.connect(no_table) as db:
        db.execute("DROP TABLE search_keys")
    no_fragments = copy("no-fragments.sqlite")
    with sqlite3.connect(no_fragments) as db:
        db.execute("DROP TABLE face_fragments")
    corrupt = copy("corrupt.sqlite")
    size = corrupt.stat().st_size
    with open(corrupt, "r+b") as file:
        file.seek(size // 2)
        file.write(b"\xff" * 65536)
    truncated = copy("truncated.sqlite")
    with open(truncated, "r+b") as file:
        file.truncate(size // 2)
    return [no_version, no_table, no_fragments, corrupt, truncated]


def test_a_catalog_is_checked_before_it_is_renamed_into_place(sample_catalog, tmp_path):
    check_catalog(sample_catalog)
    for broken in broken_copies(sample_catalog, tmp_path):
        with pytest.raises(CatalogInvalid):
            check_catalog(broken)
