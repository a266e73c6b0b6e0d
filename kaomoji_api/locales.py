"""Which locale a request is answered in: the `locale` parameter, else Accept-Language.

Tags are matched case-insensitively, with common aliases (zh-CN, zh-TW, pt-BR, en-US).
"""

from __future__ import annotations

DEFAULT_LOCALE = "en"

# Region tags that pick a script for Chinese; every other tag falls back to its language.
ALIASES = {
    "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans",
    "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
    "in": "id",  # the pre-1989 code for Indonesian, still sent by some Android versions
}


def resolve(tag: str, supported) -> str | None:
    """The supported locale a language tag names, or None."""
    tag = tag.strip().replace("_", "-").lower()
    by_lower = {code.lower(): code for code in supported}
    if tag in by_lower:
        return by_lower[tag]
    if tag in ALIASES and ALIASES[tag] in supported:
        return ALIASES[tag]
    parts = tag.split("-")
    if parts[0] == "zh" and len(parts) > 1:
        # zh-Hant-TW, zh-Hans-CN, zh-HK-x...: the script subtag or the region decides.
        for part in parts[1:]:
            found = by_lower.get(f"zh-{part}") or ALIASES.get(f"zh-{part}")
            if found in supported:
                return found
        return None
    return by_lower.get(parts[0]) or (ALIASES.get(parts[0]) if ALIASES.get(parts[0]) in supported else None)


def negotiate(accept_languages, supported) -> str:
    """The best supported locale of an Accept-Language header (Werkzeug's parsed form), else English."""
    for tag, quality in accept_languages:
        if quality > 0 and tag != "*":
            found = resolve(tag, supported)
            if found:
                return found
    return DEFAULT_LOCALE
