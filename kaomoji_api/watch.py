"""A value read from a file and read again when the file changes: the catalog, the blocklist.

The file is looked at (one stat) no more than once a second, on the request that comes after. A new
version is read in a thread: the request that noticed it waits a moment (a small file is read by then),
never the seconds a new catalog takes to open and check; until it is ready, the last value serves.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

CHECK_SECONDS = 1.0
WAIT_SECONDS = 0.05  # how long the request that noticed a change waits for the new value


def file_stamp(path) -> tuple | None:
    """What changes when a file is replaced or written: inode, modification time, size; None if missing."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


class WatchedFile(Generic[T]):
    """`load(path)` now, and again each time the file's stamp changes.

    When a new version cannot be loaded (load raises), the last good value stays, `rejected` says why,
    and `on_reject` is told once: the same bad file is not tried again, a newer one is. When the first
    cannot be loaded, `fallback(error)` gives the value to start with, if there is one. `on_replace` is
    given each value that a new one replaced.
    """

    def __init__(self, path, load: Callable[[str], T], on_reject: Callable[[Exception], None] | None = None,
                 fallback: Callable[[Exception], T] | None = None, on_replace: Callable[[T], None] | None = None):
        self.path = str(path)
        self._load, self._on_reject, self._on_replace = load, on_reject, on_replace
        self._lock = threading.Lock()
        self._loading: threading.Thread | None = None
        self._stamp = file_stamp(self.path)
        self.rejected: str | None = None
        self.replaced_at: float | None = None  # monotonic time of the last swap to a new value
        try:
            self.value: T = load(self.path)
        except Exception as error:
            if fallback is None:
                raise
            self.value, self.rejected = fallback(error), str(error)
        self._checked = time.monotonic()

    def get(self) -> T:
        now = time.monotonic()
        if now - self._checked >= CHECK_SECONDS:
            started = None
            with self._lock:
                if now - self._checked >= CHECK_SECONDS:
                    self._checked = now
                    started = self._reload_if_changed()
            if started:
                started.join(WAIT_SECONDS)
        return self.value

    def _reload_if_changed(self) -> threading.Thread | None:
        if self._loading is not None and self._loading.is_alive():
            return None
        stamp = file_stamp(self.path)
        if stamp == self._stamp:
            return None
        self._stamp = stamp
        self._loading = threading.Thread(target=self._reload, name=f"reload {self.path}", daemon=True)
        self._loading.start()
        return self._loading

    def _reload(self) -> None:
        try:
            new = self._load(self.path)
        except Exception as error:  # whatever a bad file makes the loader raise; the last good value serves on
            self.rejected = str(error)
            if self._on_reject:
                self._on_reject(error)
            return
        old, self.value, self.rejected = self.value, new, None
        self.replaced_at = time.monotonic()
        if self._on_replace:
            self._on_replace(old)
