"""What a face needs to render, computed from its characters at build time (not copied from the dataset).

`needs_cjk_font`: it holds a character that only a CJK font is sure to have: Han, kana (half-width
included), Hangul, Bopomofo, CJK symbols and punctuation, full-width forms. `scripts`: the Unicode
scripts it uses beyond Latin and the common and inherited characters (punctuation, symbols, marks),
by their Unicode names, so that a client can pick fonts (Kannada for ಠ_ಠ, Thai for ฅ^•ﻌ•^ฅ).
Scripts come from fontTools' copy of the Unicode Character Database.
"""

from __future__ import annotations

import functools

from fontTools import unicodedata as ucd

# ISO 15924 codes of the scripts that need a CJK font, and the blocks whose Common characters only CJK
# fonts draw: U+3000 to U+33FF (CJK symbols and punctuation, kana, strokes ㇁, enclosed and compatibility
# letters ㉨ ㍕) and the half-width and full-width forms.
CJK_SCRIPTS = frozenset({"Hani", "Hira", "Kana", "Hang", "Bopo"})
CJK_BLOCKS = ((0x3000, 0x33FF), (0xFF00, 0xFFEF))
# Not a script a font has to supply: Latin, and the characters every script shares.
UNNAMED = frozenset({"Latn", "Zyyy", "Zinh", "Zzzz"})


@functools.cache
def _script(char: str) -> str:
    return ucd.script(char)


def needs_cjk_font(text: str) -> bool:
    return any(
        _script(char) in CJK_SCRIPTS or any(low <= ord(char) <= high for low, high in CJK_BLOCKS)
        for char in text
    )


def scripts(text: str) -> tuple[str, ...]:
    """The names of the scripts `text` uses beyond Latin and common characters, sorted."""
    return tuple(sorted(ucd.script_name(code) for code in {_script(char) for char in text} - UNNAMED))
