"""Real servers for tests: start a program on 127.0.0.1 at a free port, stop it by its process id."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, headers: dict | None = None, timeout: float = 5.0):
    """(status, headers, body as JSON or text) of a GET, errors included."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, head, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, head, raw = error.code, error.headers, error.read()
    try:
        body = json.loads(raw)
    except ValueError:
        body = raw.decode("utf-8", "replace")
    return status, head, body


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stdout.read() if process.stdout else ''}")
        with contextlib.suppress(OSError):
            if fetch(url, timeout=1.0)[0] == 200:
                return
        time.sleep(0.2)
    raise RuntimeError(f"server did not answer {url} within {seconds} s")


@contextlib.contextmanager
def running(command: list[str], health_url: str, env: dict | None = None, cwd: Path = ROOT):
    """Run a server in its own process group; on exit stop the group by its process id."""
    process = subprocess.Popen(
        command, cwd=cwd, env={**os.environ, **(env or {})}, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        wait_until_up(health_url, process)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@contextlib.contextmanager
def gunicorn_serving(catalog: Path, workers: int = 2, env: dict | None = None):
    """The app (wsgi:app) under a real gunicorn on 127.0.0.1 serving `catalog`; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "wsgi:app"]
    with running(command, f"{base}/healthz", env={"KAOMOJI_CATALOG": str(catalog), **(env or {})}):
        yield base
