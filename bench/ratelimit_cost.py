"""Benchmark: what the rate limits cost a request (README "Rate limits").

    python bench/ratelimit_cost.py [--requests N] [--catalog PATH]

Serves the catalog with a real gunicorn (deploy/gunicorn.conf.py, one worker) three ways: limits off,
counters in memory, counters in a local redis-server (when it is installed). Each way it sends N requests
for /api/v1/kaomojis/1 one after another, each from its own loopback address (127.0.x.y) so that no limit
is reached, and prints the median and 90th percentile time of a request and the requests per second.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port: int, path: str, source: str = "127.0.0.1") -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@contextlib.contextmanager
def started(command: list[str], env: dict, port: int, ready):
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not ready(port):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{command[0]} did not start")
            time.sleep(0.2)
        yield
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def http_ready(port: int) -> bool:
    with contextlib.suppress(OSError):
        return get(port, "/healthz") == 200
    return False


def tcp_ready(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


def measure(catalog: Path, settings: dict, requests: int) -> list[float]:
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "--workers", "1",
               "--bind", f"127.0.0.1:{port}", "--access-logfile", "/dev/null", "wsgi:app"]
    with started(command, {"KAOMOJI_CATALOG": str(catalog), **settings}, port, http_ready):
        for _ in range(50):  # warm up the worker
            get(port, "/api/v1/kaomojis/1", "127.1.0.1")
        times = []
        for n in range(requests):
            source = f"127.0.{n // 250}.{n % 250 + 2}"
            begun = time.perf_counter()
            status = get(port, "/api/v1/kaomojis/1", source)
            times.append(time.perf_counter() - begun)
            if status != 200:
                raise RuntimeError(f"{settings}: request {n} got {status}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--catalog", type=Path, default=ROOT / "catalog.sqlite")
    args = parser.parse_args()
    if not args.catalog.is_file():
        sys.exit(f"no catalog at {args.catalog}: build it with `make catalog`")
    ways = {"limits off": {"KAOMOJI_RATELIMIT_ENABLED": "false"}, "memory://": {}}
    redis_program = shutil.which("redis-server")
    redis_port = free_port()
    with contextlib.ExitStack() as stack:
        if redis_program:
            stack.enter_context(started([redis_program, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
                                        {}, redis_port, tcp_ready))
            ways["redis://"] = {"KAOMOJI_RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{redis_port}/0"}
        else:
            print("redis-server is not installed: no redis run")
        for name, settings in ways.items():
            times = measure(args.catalog, settings, args.requests)
            median, p90 = statistics.median(times), statistics.quantiles(times, n=10)[-1]
            print(f"{name:11} median {median * 1000:.2f} ms, p90 {p90 * 1000:.2f} ms, {len(times) / sum(times):.0f} requests/s")


if __name__ == "__main__":
    main()
