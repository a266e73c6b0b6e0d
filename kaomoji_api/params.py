"""Query parameters read and checked in one place, with every problem reported at once.

Views declare what they take; a bad value becomes a 400 naming the parameter and the reason.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from flask import request
from werkzeug.exceptions import BadRequest

from kaomoji_api.errors import BadParameters
from kaomoji_api.locales import DEFAULT_LOCALE, negotiate, resolve

TRUE, FALSE = {"1", "true", "yes"}, {"0", "false", "no"}
MAX_PAGE = 1_000_000


def reject_undecodable_query() -> None:
    """400 for a query string that is not UTF-8, before Werkzeug replaces the bad bytes."""
    query = request.query_string
    if query.isascii() and b"%" not in query:
        return
    try:
        unquote_to_bytes(query).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("the query string is not valid UTF-8") from None


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
        if raw.lower() in TRUE | FALSE:
            return raw.lower() in TRUE
        self._fail(name, "must be true or false")
        return None

    def text(self, name: str, *, required: bool = False, max_length: int = 100) -> str | None:
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
        """A comma-separated list of values, each one of `allowed`."""
        raw = self.args.get(name)
        if raw is None or not raw.strip():
            return None
        values = [v.strip() for v in raw.split(",") if v.strip()]
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
