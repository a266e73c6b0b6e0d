"""A least-recently-used cache bounded by the bytes its values hold, not by their count.

A worker's memory is what its budget limits; one search for `(` and one for `cat` must not count the same.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable


class SizedLru:
    """Values kept while their total `size` stays within `max_bytes`; the least recently used go first.

    A value larger than an eighth of the whole is not kept: it would push out many others for one request.
    """

    def __init__(self, max_bytes: int, size: Callable[[object], int]):
        self.max_bytes, self._size = max_bytes, size
        self._items: OrderedDict = OrderedDict()
        self.bytes = 0
        self.hits = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key):
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
            self.hits += 1
        return value

    def put(self, key, value) -> None:
        size = self._size(value)
        if size > self.max_bytes // 8 or key in self._items:
            return
        self._items[key] = value
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, old = self._items.popitem(last=False)
            self.bytes -= self._size(old)

    def clear(self) -> None:
        self._items.clear()
        self.bytes = 0
