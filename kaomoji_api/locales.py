"""Which locale a request is answered in: the `locale` parameter, else Accept-Language.

Tags are matched case-insensitively, with common aliases (zh-CN, zh-TW, pt-BR, en-US); `tag_pattern`
writes the same rule as the regular expression the OpenAPI document gives for `locale`.
"""

from __future__ import annotations

import re

DEFAULT_LOCALE = "en"

# Region tags that pick a script for Chinese; every other tag falls back to its language.
ALIASES = {
    "zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans",
    "zh-tw": "zh-Hant", "zh-hk": "zh-Hant", "zh-mo": "zh-Hant",
    "in": "id",  # the pre-1989 code for Indonesian, still sent by some Android versions
}

# A tag is subtags of 1 to 8 ASCII letters or digits joined by - (or _, as in POSIX locale names).
SEPARATOR = re.compile("[-_]")
SUBTAG = re.compile("[A-Za-z0-9]{1,8}")


def resolve(tag: str, supported) -> str | None:
    """The supported locale a language tag names, or None: `ja`, `JA`, `pt-BR` and `pt_BR`, `zh-TW`,
    `zh-Hant-TW`, `en-US-x-foo` name one; blanks, empty subtags and unknown languages do not."""
    parts = SEPARATOR.split(tag)
    if not all(SUBTAG.fullmatch(part) for part in parts):
        return None
    parts = [part.lower() for part in parts]
    by_lower = {code.lower(): code for code in supported}
    if parts[0] == "zh":
        if len(parts) == 1:
            return ALIASES["zh"] if ALIASES["zh"] in supported else None
        # zh-Hant-TW, zh-Hans-CN, zh-HK-x...: the first script or region subtag that names one decides.
        for part in parts[1:]:
            found = by_lower.get(f"zh-{part}") or ALIASES.get(f"zh-{part}")
            if found in supported:
                return found
        return None
    found = by_lower.get(parts[0]) or ALIASES.get(parts[0])
    return found if found in supported else None


def _any_case(word: str) -> str:
    # JSON Schema patterns (ECMA-262) have no case-insensitive flag: each letter is a class of both cases.
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


def tag_pattern(supported) -> str:
    """The regular expression of every tag `resolve` accepts, for the OpenAPI document."""
    subtags = "([-_][A-Za-z0-9]{1,8})*"
    languages = [code.lower() for code in supported if "-" not in code]
    languages += [alias for alias, code in ALIASES.items() if "-" not in alias and alias != "zh" and code in supported]
    branches = [f"({'|'.join(map(_any_case, sorted(languages)))}){subtags}"]
    deciding = {code.lower().split("-", 1)[1] for code in supported if code.lower().startswith("zh-")}
    deciding |= {alias.split("-", 1)[1] for alias, code in ALIASES.items() if alias.startswith("zh-") and code in supported}
    chinese = f"{subtags}[-_]({'|'.join(map(_any_case, sorted(deciding)))}){subtags}" if deciding else None
    if ALIASES["zh"] in supported:
        branches.append(f"[zZ][hH]({chinese})?" if chinese else "[zZ][hH]")
    elif chinese:
        branches.append(f"[zZ][hH]{chinese}")
    return f"^({'|'.join(branches)})$"


def negotiate(accept_languages, supported) -> str:
    """The best supported locale of an Accept-Language header (Werkzeug's parsed form), else English."""
    for tag, quality in accept_languages:
        if quality > 0 and tag != "*":
            found = resolve(tag, supported)
            if found:
                return found
    return DEFAULT_LOCALE
