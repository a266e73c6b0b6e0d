"""A value read from a file and read again when the file changes: the catalog, the blocklist.

The file is looked at (one stat) no more than once a second, on the request that comes after.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

CHECK_SECONDS = 1.0


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
    and `on_reject` is told once: the same bad file is not tried again, a newer one is.
    """

    def __init__(self, path, load: Callable[[str], T], on_reject: Callable[[Exception], None] | None = None):
        self.path = str(path)
        self._load, self._on_reject = load, on_reject
        self._lock = threading.Lock()
        self._stamp = file_stamp(self.path)
        self.value: T = load(self.path)
        self.rejected: str | None = None
        self._checked = time.monotonic()

    def get(self) -> T:
        now = time.monotonic()
        if now - self._checked >= CHECK_SECONDS:
            with self._lock:
                if now - self._checked >= CHECK_SECONDS:
                    self._checked = now
                    self._reload_if_changed()
        return self.value

    def _reload_if_changed(self) -> None:
        stamp = file_stamp(self.path)
        if stamp == self._stamp:
            return
        self._stamp = stamp
        try:
            self.value, self.rejected = self._load(self.path), None
        except Exception as error:  # whatever a bad file makes the loader raise; the last good value serves on
            self.rejected = str(error)
            if self._on_reject:
                self._on_reject(error)
