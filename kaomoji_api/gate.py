"""The gate: spec part 7's entry-point limit, a token bucket per client address in front of the application.

nginx applies it in production (deploy/nginx.conf); this WSGI layer applies the same bucket without nginx.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import math
import mmap
import os
import struct
import threading
import time

from kaomoji_api.config import is_on
from kaomoji_api.errors import problem
from kaomoji_api.http import cors_headers

# A slot is (client key, theoretical arrival time in ns). A full bucket needs no state, so a slot whose
# client has been quiet for a burst's time is free again: the table only holds clients active just now.
SLOT = struct.Struct("<Qq")
SLOTS = 16384
PROBES = 16  # slots looked at per client; when all are busy the one closest to full is forgotten
TABLE_BYTES = SLOT.size * SLOTS


class Buckets:
    """Token buckets per client, as GCRA: each client's state is the time its bucket will be full again.

    `rate` tokens a second; a client may send 1 + `burst` requests at once, as nginx's limit_req burst
    allows. The table is in anonymous memory (one process), or in a file mapped by every process of a
    server, locked with lockf, so that the processes limit each client together.
    """

    def __init__(self, rate: float, burst: int, path: str | None = None):
        self.interval = round(1e9 / rate)  # ns per token
        self.tolerance = int(burst) * self.interval
        self._thread_lock = threading.Lock()
        self._fd = None
        if path:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            if os.fstat(self._fd).st_size < TABLE_BYTES:
                os.ftruncate(self._fd, TABLE_BYTES)
            self._table = mmap.mmap(self._fd, TABLE_BYTES)
        else:
            self._table = mmap.mmap(-1, TABLE_BYTES)

    @contextlib.contextmanager
    def _locked(self):
        with self._thread_lock:
            if self._fd is None:
                yield
                return
            fcntl.lockf(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._fd, fcntl.LOCK_UN)

    def _slot_of(self, key: int, now: int) -> int:
        first = key % SLOTS
        free = fullest = None
        fullest_tat = None
        for probe in range(PROBES):
            offset = (first + probe) % SLOTS * SLOT.size
            slot_key, tat = SLOT.unpack_from(self._table, offset)
            if slot_key == key:
                return offset
            if free is None and (slot_key == 0 or tat <= now):
                free = offset
            if fullest_tat is None or tat < fullest_tat:
                fullest, fullest_tat = offset, tat
        return free if free is not None else fullest

    def take(self, client: str) -> float:
        """Take a token for `client`: 0 when it may pass, else the seconds until it may."""
        key = int.from_bytes(hashlib.blake2b(client.encode(), digest_size=8).digest(), "little") or 1
        with self._locked():
            now = time.monotonic_ns()
            offset = self._slot_of(key, now)
            slot_key, tat = SLOT.unpack_from(self._table, offset)
            # A time further ahead than any token could have put it comes from another clock (a reboot
            # with the file kept, another rate): start that client afresh.
            if slot_key != key or tat < now or tat > now + self.tolerance + self.interval:
                tat = now
            if tat - now > self.tolerance:
                return (tat - now - self.tolerance) / 1e9
            SLOT.pack_into(self._table, offset, key, tat + self.interval)
            return 0.0


class Gate:
    """WSGI middleware: 429 problem+json with Retry-After for a client over its bucket."""

    def __init__(self, wsgi_app, buckets: Buckets, rate: float, burst: int):
        self.wsgi_app, self.buckets = wsgi_app, buckets
        self.limit = f"{rate:g} requests per second, burst {burst}"

    def __call__(self, environ, start_response):
        wait = self.buckets.take(environ.get("REMOTE_ADDR") or "")
        if not wait:
            return self.wsgi_app(environ, start_response)
        seconds = max(1, math.ceil(wait))
        response = problem(
            429,
            f"Over the entry-point rate for this address ({self.limit}); retry in {seconds} s.",
            headers={"Retry-After": str(seconds), **cors_headers()},
            limit=self.limit,
        )
        return response(environ, start_response)


def init_app(app) -> None:
    rate, burst = float(app.config["GATE_RATE"]), int(app.config["GATE_BURST"])
    if not is_on(app.config["RATELIMIT_ENABLED"]) or rate <= 0:
        return
    buckets = Buckets(rate, burst, app.config["GATE_BUCKETS_FILE"] or None)
    app.wsgi_app = Gate(app.wsgi_app, buckets, rate, burst)
