"""Which characters the fonts of this machine draw, by family name, as fontconfig lists them.

The browser test of the faces' fonts (test_browser.py) checks each character a face uses against the fonts
Chromium says it drew the face with: a character none of them has is drawn as the missing-glyph box.
"""

from __future__ import annotations

import functools
import subprocess
import unicodedata

from fontTools.ttLib import TTCollection, TTFont

# Characters that draw nothing: controls, format characters (zero-width joiners, marks of direction), separators
# other than spaces, and variation selectors (which pick a glyph of the character before them).
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def is_invisible(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) in INVISIBLE_CATEGORIES or any(low <= code <= high for low, high in VARIATION_SELECTORS)


@functools.cache
def font_coverage() -> dict[str, frozenset[int]]:
    """Every font family of the machine (each of the names fontconfig gives it) and the code points it has."""
    listing = subprocess.run(["fc-list", "--format", "%{family}\t%{file}\t%{index}\n"], capture_output=True, text=True, check=True)
    coverage: dict[str, set[int]] = {}
    for line in listing.stdout.splitlines():
        families, path, index = line.split("\t")
        collection = path.endswith((".ttc", ".otc"))
        try:
            with TTCollection(path) if collection else TTFont(path, lazy=True) as opened:
                codes = set((opened.fonts[int(index)] if collection else opened).getBestCmap() or {})
        except Exception:  # a font file fontTools cannot read draws nothing we can count on
            continue
        for family in families.split(","):
            coverage.setdefault(family, set()).update(codes)
    return {family: frozenset(codes) for family, codes in coverage.items()}
