"""Real servers for tests: start a program on 127.0.0.1 at a free port, stop it by its process id."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, headers: dict | None = None, timeout: float = 5.0, source: str | None = None, method: str = "GET"):
    """(status, headers, body as JSON or text) of a GET, errors included.

    `source` is the loopback address to send from (127.0.0.2, ...): another client, as the server sees it.
    """
    if source or method != "GET":
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout, source_address=(source, 0) if source else None)
        try:
            connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers or {})
            response = connection.getresponse()
            status, head, raw = response.status, response.headers, response.read()
        finally:
            connection.close()
    else:
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


def raw_request(base: str, request: bytes, source: str | None = None) -> tuple[int, dict, dict | str]:
    """Send bytes as they are (no HTTP library would send them) and read the server's answer.

    Returns the status, the headers (names in lower case) and the body as JSON or, failing that, text.
    `source` is the loopback address to send from, as in `fetch`.
    """
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10, source_address=(source, 0) if source else None) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
        head, _, body = answer.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
        while len(body) < int(headers["content-length"]):  # the connection may stay open
            body += sock.recv(65536)
    try:
        return int(status_line.split()[1]), headers, json.loads(body)
    except ValueError:
        return int(status_line.split()[1]), headers, body.decode("utf-8", "replace")


def accepts_connections(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1.0):
        return True
    return False


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 60.0, port: int | None = None) -> None:
    """Until `url` answers 200 or, without a url, until `port` accepts connections."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read() if process.stdout else ""
            raise RuntimeError(f"server exited with {process.returncode}: {output}")
        if url is None:
            if accepts_connections(port):
                return
        else:
            with contextlib.suppress(OSError):
                if fetch(url, timeout=1.0)[0] == 200:
                    return
        time.sleep(0.2)
    raise RuntimeError(f"server did not answer {url or port} within {seconds} s")


@contextlib.contextmanager
def running(command: list[str], health_url: str | None, env: dict | None = None, cwd: Path = ROOT,
            port: int | None = None, log: Path | None = None):
    """Run a server in its own process group; on exit stop the group by its process id.

    It is up when `health_url` answers 200, or (without one) when `port` accepts connections. With `log`
    its output goes to that file, which nothing has to keep reading, rather than to a pipe.
    """
    output = open(log, "w", encoding="utf-8") if log else subprocess.PIPE
    process = subprocess.Popen(
        command, cwd=cwd, env={**os.environ, **(env or {})}, start_new_session=True,
        stdout=output, stderr=subprocess.STDOUT, text=True,
    )
    try:
        wait_until_up(health_url, process, port=port)
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if log:
            output.close()


@contextlib.contextmanager
def redis_server(port: int, redis_program: str):
    """A throwaway redis-server on 127.0.0.1:`port`, keeping nothing on disk."""
    command = [redis_program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"]
    with running(command, None, port=port) as process:
        yield process


def nginx_site(site: str, listen_port: int, upstream_port: int) -> str:
    """deploy/nginx.conf made to listen on loopback at `listen_port` and proxy to `upstream_port`."""
    site = re.sub(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{listen_port};", site, flags=re.M)
    site = re.sub(r"^\s*listen \[::\]:80;\n", "", site, flags=re.M)
    site = re.sub(r"server 127\.0\.0\.1:8000;", f"server 127.0.0.1:{upstream_port};", site)
    assert f"listen 127.0.0.1:{listen_port};" in site and f"server 127.0.0.1:{upstream_port};" in site
    return site


@contextlib.contextmanager
def nginx_in_front(nginx_program: str, upstream_port: int, folder: Path, site: Path = ROOT / "deploy" / "nginx.conf"):
    """A real nginx serving `site` (the deployment's site file) on a free port, all its files in `folder`.

    Yields the base URL. It runs in the foreground, so stopping it by its process id stops it.
    """
    port = free_port()
    (folder / "site.conf").write_text(nginx_site(site.read_text(encoding="utf-8"), port, upstream_port), encoding="utf-8")
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"worker_processes 1;\ndaemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temp}\n    include {folder / 'site.conf'};\n}}\n",
        encoding="utf-8",
    )
    command = [nginx_program, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e", str(folder / "error.log")]
    with running(command, None, port=port, log=folder / "nginx.out"):
        yield f"http://127.0.0.1:{port}"


def gunicorn_command(port: int, workers: int | None = None) -> list[str]:
    """gunicorn as deployed (deploy/gunicorn.conf.py) on 127.0.0.1:`port`, with this interpreter."""
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}"]
    if workers:
        command += ["--workers", str(workers)]
    return command + ["wsgi:app"]


def burst(url: str, count: int, source: str) -> tuple[list[tuple], float]:
    """`count` GETs of `url` from `source`, sent at once on connections opened beforehand.

    Opening every connection first means the requests arrive together, and that each worker of a
    server has accepted one before any is answered. Returns the (status, headers, body) of each and
    the seconds from the first send to the last answer.
    """
    parts = urllib.parse.urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    results: list = [None] * count
    ready = threading.Barrier(count + 1)

    def send(index: int) -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=15, source_address=(source, 0))
        try:
            connection.connect()
            ready.wait()
            connection.request("GET", path)
            response = connection.getresponse()
            raw = response.read()
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode("utf-8", "replace")
            results[index] = (response.status, response.headers, body)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    ready.wait()
    started = time.monotonic()
    for thread in threads:
        thread.join()
    return results, time.monotonic() - started


def wait_for_workers(url: str, log: Path, count: int, seconds: float = 60.0) -> None:
    """Until gunicorn's access log in `log` shows `count` different workers answering `url`.

    Each worker loads the app itself after the first one answers, so a burst sent at once may
    otherwise find only one of them ready.
    """
    path = urllib.parse.urlsplit(url).path
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        burst(url, 2 * count, source="127.0.0.2")
        pids = set(re.findall(rf'^127\.0\.0\.2 "GET {re.escape(path)} HTTP/1\.1" 200 .* <(\d+)>$', log.read_text(encoding="utf-8"), flags=re.M))
        if len(pids) >= count:
            return
        time.sleep(0.2)
    raise RuntimeError(f"fewer than {count} workers answered {url} within {seconds} s")


def stop(process: subprocess.Popen) -> None:
    """Stop a server started by `running` before its block ends, by its process id."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=15)


@contextlib.contextmanager
def gunicorn_serving(catalog: Path, workers: int = 2, env: dict | None = None):
    """The app (wsgi:app) under a real gunicorn on 127.0.0.1 serving `catalog`; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "wsgi:app"]
    with running(command, f"{base}/healthz", env={"KAOMOJI_CATALOG": str(catalog), **(env or {})}):
        yield base
