"""Query parameters read and checked in one place, with every problem reported at once.

Views declare what they take; a bad value becomes a 400 naming the parameter and the reason.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import request

from kaomoji_api.api.bounds import MAX_PAGE
from kaomoji_api.config import NO, YES, yes_or_no
from kaomoji_api.errors import BadParameters
from kaomoji_api.locales import DEFAULT_LOCALE, negotiate, resolve


def reject_undecodable_query() -> None:
    """400 naming each parameter that is not UTF-8, before Werkzeug replaces its bad bytes."""
    query = request.query_string
    if query.isascii() and b"%" not in query:
        return
    invalid = []
    for pair in query.split(b"&"):
        name, _, value = pair.partition(b"=")
        try:
            unquote_to_bytes(name).decode("utf-8")
            unquote_to_bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            invalid.append({"name": unquote_to_bytes(name).decode("utf-8", "replace"), "reason": "is not valid UTF-8"})
    if invalid:
        raise BadParameters(invalid)


class Params:
    """Collects parameter errors while a view reads its parameters; `done()` raises them."""

    def __init__(self):
        reject_undecodable_query()
        self.args = request.args.to_dict()  # the first value of each; a dict answers get() fastest
        self.invalid: list[dict] = []

    def _fail(self, name: str, reason: str) -> None:
        self.invalid.append({"name": name, "reason": reason})

    def integer(self, name: str, default: int | None, minimum: int, maximum: int) -> int | None:
        raw = self.args.get(name)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw.strip())
        except ValueError:
            self._fail(name, f"must be a whole number from {minimum} to {maximum}")
            return default
        if not minimum <= value <= maximum:
            self._fail(name, f"must be from {minimum} to {maximum}")
            return default
        return value

    def boolean(self, name: str) -> bool | None:
        raw = self.args.get(name)
        if raw is None or raw == "":
            return None
        answer = yes_or_no(raw)
        if answer is None:
            self._fail(name, f"must be one of {', '.join(sorted(YES | NO))}")
        return answer

    def text(self, name: str, *, max_length: int, required: bool = False) -> str | None:
        raw = self.args.get(name)
        value = raw.strip() if raw is not None else None
        if not value:
            if required:
                self._fail(name, "is required and must not be blank")
            return None
        if len(value) > max_length:
            self._fail(name, f"must be at most {max_length} characters")
            return None
        if "\x00" in value:
            # SQLite ends a string at NUL, so full-text search could not take it as typed.
            self._fail(name, "must not contain NUL characters")
            return None
        return value

    def choices(self, name: str, allowed) -> list[str] | None:
        """A comma-separated list of values, each one of `allowed`; blank items are ignored, and None (no
        filter) when there is none at all: `category=` and `category=,` filter nothing."""
        raw = self.args.get(name)
        values = [v.strip() for v in raw.split(",") if v.strip()] if raw else []
        if not values:
            return None
        unknown = [v for v in values if v not in allowed]
        if unknown:
            self._fail(name, f"unknown value {', '.join(unknown)}; use one of: {', '.join(allowed)}")
            return None
        return list(dict.fromkeys(values))

    def locale(self, supported) -> str:
        """The `locale` parameter, else the best of Accept-Language."""
        raw = self.args.get("locale")
        if raw is not None and raw.strip():
            found = resolve(raw, supported)
            if found is None:
                self._fail("locale", f"unsupported locale {raw.strip()!r}; use one of: {', '.join(supported)}")
                found = DEFAULT_LOCALE
        elif "HTTP_ACCEPT_LANGUAGE" in request.environ:
            found = negotiate(request.accept_languages, supported)
        else:
            found = DEFAULT_LOCALE
        return found

    def page(self) -> int:
        return self.integer("page", 1, 1, MAX_PAGE)

    def done(self) -> None:
        if self.invalid:
            raise BadParameters(self.invalid)
