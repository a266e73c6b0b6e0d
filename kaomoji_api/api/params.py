"""Query parameters read and checked in one place, with every problem reported at once.

Views declare what they take; a bad value becomes a 400 naming the parameter and the reason. What is
accepted here is what the OpenAPI document (api/openapi.py) says, to the character.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from flask import request
from werkzeug.datastructures import ImmutableMultiDict

from kaomoji_api.api.bounds import MAX_PAGE
from kaomoji_api.errors import BadParameters
from kaomoji_api.locales import DEFAULT_LOCALE, negotiate, resolve

# What str.strip() removes and what counts as blank: every character str.isspace() accepts (none lies
# above U+3000). The document's patterns spell the same set as WHITESPACE_CLASS, not as \s, whose
# meaning differs between Python, ECMA-262 and other regular expression engines.
WHITESPACE = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
WHITESPACE_CLASS = "".join(f"\\u{ord(c):04x}" for c in WHITESPACE)
# Whole numbers in ASCII digits; int() alone would also take " 5", "+5", "1_000" and "٣".
DIGITS = re.compile("-?[0-9]+")
BOOLEANS = {"true": True, "false": False}  # in any case: Python's requests sends True and False
NO_ARGS = ImmutableMultiDict()


def reject_undecodable_query(query: bytes) -> None:
    """400 naming each parameter of the query string `query` that is not UTF-8, before Werkzeug replaces its bad bytes."""
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
    """Collects parameter errors while a view reads its parameters; `done()` raises them.

    An empty value (`page=`) is read as an absent parameter; a parameter given twice is refused, as
    either reading would be a guess. Parameters the view does not read are ignored.
    """

    def __init__(self):
        # The request itself, once: each use of the `request` proxy looks it up again, and a view reads it often.
        self.request = current = request._get_current_object()
        reject_undecodable_query(current.query_string)
        # Werkzeug parses even an empty query string into a new MultiDict: a single entry rarely has one.
        self.args = current.args if current.query_string else NO_ARGS
        self.invalid: list[dict] = []

    def _fail(self, name: str, reason: str) -> None:
        self.invalid.append({"name": name, "reason": reason})

    def _raw(self, name: str, hint: str = "") -> str | None:
        """The one value of `name` as sent, or None when it is absent or given more than once."""
        if name not in self.args:  # most parameters are absent, and getlist finds that out by catching a KeyError
            return None
        values = self.args.getlist(name)
        if len(values) > 1:
            self._fail(name, "must be given at most once" + hint)
            return None
        return values[0] if values else None

    def integer(self, name: str, default: int | None, minimum: int, maximum: int) -> int | None:
        raw = self._raw(name)
        if not raw:
            return default
        if not DIGITS.fullmatch(raw):
            self._fail(name, f"must be a whole number from {minimum} to {maximum}, in the digits 0-9")
            return default
        value = int(raw)
        if not minimum <= value <= maximum:
            self._fail(name, f"must be from {minimum} to {maximum}")
            return default
        return value

    def boolean(self, name: str) -> bool | None:
        raw = self._raw(name)
        if not raw:
            return None
        answer = BOOLEANS.get(raw.lower())
        if answer is None:
            self._fail(name, "must be true or false")
        return answer

    def text(self, name: str, *, max_length: int, required: bool = False) -> str | None:
        """The value without white space at either end; its length counts as sent. A blank value is
        absent, or refused when required."""
        raw = self._raw(name)
        if raw is None and required:
            self._fail(name, "is required")
            return None
        if raw is None:
            return None
        if len(raw) > max_length:
            self._fail(name, f"must be at most {max_length} characters")
            return None
        if "\x00" in raw:
            # SQLite ends a string at NUL, so full-text search could not take it as typed.
            self._fail(name, "must not contain NUL characters")
            return None
        value = raw.strip()
        if not value and required:
            self._fail(name, "must not be blank")
        return value or None

    def choices(self, name: str, allowed) -> list[str] | None:
        """A comma-separated list of values, each one of `allowed`; blank items are ignored, and None (no
        filter) when there is none at all: `category=` and `category=,` filter nothing."""
        raw = self._raw(name, "; separate several values with commas")
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
        raw = self._raw("locale")
        if raw:
            found = resolve(raw, supported)
            if found is None:
                self._fail("locale", f"unsupported locale {raw!r}; use one of: {', '.join(supported)}, or a tag such as pt-BR or zh-TW")
                found = DEFAULT_LOCALE
        elif "HTTP_ACCEPT_LANGUAGE" in self.request.environ:
            found = negotiate(self.request.accept_languages, supported)
        else:
            found = DEFAULT_LOCALE
        return found

    def page(self) -> int:
        return self.integer("page", 1, 1, MAX_PAGE)

    def done(self) -> None:
        if self.invalid:
            raise BadParameters(self.invalid)
