"""Text normalisation and segmentation shared by the catalog builder and search.

Index and query go through the same functions, so whatever folding is done here
(NFKC, case, kana, accents, stems, CJK n-grams) matches on both sides.
"""

from __future__ import annotations

import functools
import re
import unicodedata

import snowballstemmer

_WORD = re.compile(r"[^\W_]+")
# Scripts written without spaces between words, or with syllable blocks that a
# 1- or 2-character query must match: Han, kana, Hangul.
_CJK = re.compile(
    "[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\uac00-\ud7af\uf900-\ufaff\U00020000-\U0002fa1f]+"
)
_KATAKANA_TO_HIRAGANA = {cp: cp - 0x60 for cp in range(0x30A1, 0x30F7)}


def _strip_accents(text: str) -> str:
    """Drop accents from Latin, Greek and Cyrillic letters only.

    Kana voicing marks and Hangul jamo also decompose under NFD, and they change
    the word, so other scripts keep their marks.
    """
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) == "Mn" and out and out[-1] < "\u0530":
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


@functools.lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """NFKC, case-folded, katakana as hiragana, Latin/Greek/Cyrillic without accents.

    NFKC turns half-width ｲﾇ into イヌ and full-width Ａ into A; the kana fold
    then makes イヌ and いぬ the same.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return _strip_accents(text.translate(_KATAKANA_TO_HIRAGANA))


@functools.cache
def stemmer_for(language: str | None):
    """A Snowball stemmer for a language's English name ("French"), or None."""
    name = (language or "").lower()
    return snowballstemmer.stemmer(name) if name in snowballstemmer.algorithms() else None


def _stem(word: str, stemmer) -> str:
    return stemmer.stemWord(word) if stemmer is not None and not word.isdigit() else word


def _pieces(text: str):
    """Folded words, each marked True when it is a CJK run."""
    for word in _WORD.findall(fold(text)):
        start = 0
        for run in _CJK.finditer(word):
            if run.start() > start:
                yield word[start:run.start()], False
            yield run.group(), True
            start = run.end()
        if start < len(word):
            yield word[start:], False


def index_tokens(text: str, stemmer=None) -> list[str]:
    """Tokens to index: stems of words, and every unigram and bigram of CJK runs."""
    tokens: list[str] = []
    for piece, cjk in _pieces(text):
        if cjk:
            tokens.extend(piece)
            tokens.extend(piece[i:i + 2] for i in range(len(piece) - 1))
        else:
            tokens.append(_stem(piece, stemmer))
    return tokens


def _lone_letter(piece: str, cjk: bool) -> bool:
    """A letter of an alphabet standing alone in a query (the t of T_T or don't, the s of it's): as a word it names
    nothing, and as a token it would match every keyword holding one (je t'aime for T_T). A CJK character is a word."""
    return not cjk and len(piece) == 1 and piece.isalpha()


def query_tokens(text: str, stemmer=None) -> list[str]:
    """Tokens a query must all match: one CJK character stands alone, longer runs become bigrams; a lone letter of an
    alphabet is none (_lone_letter)."""
    tokens: list[str] = []
    for piece, cjk in _pieces(text):
        if _lone_letter(piece, cjk):
            continue
        if cjk and len(piece) > 1:
            tokens.extend(piece[i:i + 2] for i in range(len(piece) - 1))
        else:
            tokens.append(piece if cjk else _stem(piece, stemmer))
    return tokens


def comparable(text: str, stemmer=None) -> str:
    """A phrase reduced to what decides equality: folded, stemmed words joined by spaces."""
    return " ".join(
        piece if cjk else _stem(piece, stemmer) for piece, cjk in _pieces(text)
    )


# The face a kaomoji draws between its brackets: (－_－) of ヾ(－_－)ﾉ, the first pair holding 1 to 12 characters that are
# not a word (bracketed_word).
DRAWN_FACE = re.compile(r"[(（]([^()（）]{1,12})[)）]")
# A snout or a nose in brackets of its own inside a face (( o(エ)o), (=ノ(●●)・、=), ('(ェ)'；)): the face is the pair
# around it, with at most five characters on either side (sixteen in all, 48 bytes at most: catalog._drawn_span).
SNOUTED_FACE = re.compile(r"[(（][^()（）]{1,5}[(（][^()（）]{1,2}[)）][^()（）]{1,5}[)）]")
# What a word in brackets is written in: kana letters and kanji, the marks that lengthen a sound, a half-width voicing mark
# after a kana that takes it (ﾊﾞ, ﾎﾟ), and its ! ? or …, set off by ≪ ≫ (≪ドカーン！！！≫). Not ・ nor a mark standing alone
# (゜, or ﾟ after ﾛ), nor ≫ ≪ facing inwards (≫皿≪): faces draw eyes with them.
_KANA = "\u3041-\u3096\u30a1-\u30fa\uff66-\uff6f\uff71-\uff9d"
_KANJI = "\u3400-\u4dbf\u4e00-\u9fff"
_WORD_IN_BRACKETS = re.compile(f"[≪《]?(?:[ｳｶ-ﾄﾊ-ﾎ]ﾞ|[ﾊ-ﾎ]ﾟ|[{_KANA}{_KANJI}\u3005ー～〜ｰ!！?？…])+[≫》]?")
_KANJI_OR_TWO_KANA = re.compile(f"[{_KANJI}]|[{_KANA}].*[{_KANA}]")
_CAPITALS = re.compile("[A-ZＡ-Ｚ]{3,}")  # a word in capitals: (BOMB) goes off, where (TOT) cries


def bracketed_word(inner: str) -> bool:
    """Whether what a pair of brackets holds is a word said, not a face drawn: kana and kanji (with a word's ! ? …, and
    ≪ ≫ around it) and nothing else, a kanji or two kana letters at least (ドカーン, 笑, 自動ドア, ≪ドカーン！！！≫; a kanji
    alone is also the mouth or hands inside a larger face, as 工 in (-(工)-)). A pair that mirrors itself as eyes do is
    drawn with them: (ロロ), (炎ロ炎), (亝艸亝); so is a lone kana (ツ) or marks alone (ーー). Three capitals or more are a
    word too ((((((BOMB))))))☆), unless they read the same backwards, as eyes and a mouth do: (TOT) cries."""
    if _CAPITALS.fullmatch(inner):
        return inner != inner[::-1]
    return (_WORD_IN_BRACKETS.fullmatch(inner) is not None and _KANJI_OR_TWO_KANA.search(inner) is not None
            and not (len(inner) > 1 and inner[0] == inner[-1]))


def drawn_face_match(text: str) -> re.Match | None:
    """Where the face a kaomoji draws is in `text`: its first pair of brackets that holds no word and not only spaces
    (an empty ( ) draws nothing a note can name: ﾀﾗｲﾏ's faces appear one stroke at a time, ( ) ( ﾟ) ( ﾟｰ) (ﾟｰﾟ)ﾉ), or
    the pair around it when that is a snout (SNOUTED_FACE: ( o(エ)o) is drawn as itself, not as (エ), the bear's snout)."""
    for found in DRAWN_FACE.finditer(text):
        if found.group(1).strip() and not bracketed_word(found.group(1)):
            around = SNOUTED_FACE.search(text, max(0, found.start() - 6), found.end() + 6)
            return around if around and around.start() < found.start() and around.end() > found.end() else found
    return None


def drawn_face(text: str) -> str | None:
    """The drawn face between its brackets, brackets included, when the kaomoji has one: what a note names."""
    found = drawn_face_match(text)
    return found.group() if found else None


def face_shape(text: str) -> str:
    """A face with its letters and digits blurred: near-copies share a shape.

    o(*^ω^*)oども～ and o(*^Ω^*)oども～ differ only in letters, so they are one shape;
    (^_^)v and (^_^)/ are two. Search shows one face per shape before the copies.
    """
    return "".join("·" if unicodedata.category(ch)[0] in "LN" else ch for ch in text if not ch.isspace())


class Query:
    """A search query's forms: folded once, then stemmed once per stemmer (locales without one share them).

    `tokens(stemmer)` are query_tokens(), `stemmed(stemmer)` is comparable(); search asks for both in
    each of the twelve locales.
    """

    def __init__(self, text: str):
        self.text = text
        self.pieces = list(_pieces(text))
        self.folded = " ".join(piece for piece, _ in self.pieces)
        self._bigrams = any(cjk and len(piece) > 1 for piece, cjk in self.pieces)  # tokens are then not the words
        self._lone_letters = any(_lone_letter(piece, cjk) for piece, cjk in self.pieces)  # nor when a letter stands alone
        self._forms: dict = {}
        self.locale_forms = None  # search's forms of it per locale, made once per query (search.KeyIndex.forms)

    def _for(self, stemmer) -> tuple[list[str], str]:
        forms = self._forms.get(stemmer)
        if forms is None:
            # Made for each of nine stemmers per query, and again for a query rewritten: one comprehension, and the
            # words themselves as tokens when no CJK run is cut into bigrams.
            words = [piece if cjk else _stem(piece, stemmer) for piece, cjk in self.pieces]
            tokens = words
            if self._bigrams or self._lone_letters:
                tokens = []
                for (piece, cjk), word in zip(self.pieces, words, strict=True):
                    if cjk and len(piece) > 1:
                        tokens.extend(piece[i:i + 2] for i in range(len(piece) - 1))
                    elif not _lone_letter(piece, cjk):
                        tokens.append(word)
            forms = self._forms[stemmer] = (tokens, " ".join(words))
        return forms

    def forms(self, stemmer, most: int) -> tuple[str, list[str]]:
        """stemmed(stemmer) and the first `most` of tokens(stemmer), in one call."""
        tokens, stemmed = self._for(stemmer)
        return stemmed, tokens[:most]

    def tokens(self, stemmer) -> list[str]:
        return self._for(stemmer)[0]

    def stemmed(self, stemmer) -> str:
        return self._for(stemmer)[1]


def has_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


# Spelling (issue 15): a query word of SPELLING_SHORTEST letters or more that names nothing is matched within
# one edit of the index's own words, two from SPELLING_TWO_EDITS letters on.
SPELLING_SHORTEST, SPELLING_TWO_EDITS = 4, 8


def edits_allowed(word: str) -> int:
    return 2 if len(word) >= SPELLING_TWO_EDITS else 1


def deletions(word: str, distance: int) -> set[str]:
    """The word with up to `distance` letters deleted, itself included: two words within `distance` edits share
    one of these forms (SymSpell's symmetric deletion), which the catalog stores for its words."""
    found, edge = {word}, {word}
    for _ in range(distance):
        edge = {w[:i] + w[i + 1:] for w in edge for i in range(len(w))}
        found |= edge
    return found


def edit_distance(a: str, b: str, most: int | None = None) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. With `most`,
    any distance above it is `most + 1`, found as soon as it is certain (a typo's candidates mostly are)."""
    # What the two share at either end costs nothing (as SymSpell trims it): a typo's table of a few letters is
    # filled rather than one of every letter (suprised, surprised: "" against "r").
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[start:len(a) - end], b[start:len(b) - end]
    if not a or not b:
        return len(a) + len(b) if most is None else min(len(a) + len(b), most + 1)
    if most is not None:
        if abs(len(a) - len(b)) > most:
            return most + 1
        if most == 1:  # what is left differs at both ends: one edit is one letter replaced, or two swapped
            return 1 if len(a) == len(b) == 1 or len(a) == len(b) == 2 and a == b[::-1] else 2
    previous2, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if previous2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if most is not None and min(current) > most:  # a row's least never shrinks further down, swaps included
            return most + 1
        previous2, previous = previous, current
    return previous[-1] if most is None else min(previous[-1], most + 1)


# Variation selectors (text or emoji presentation) and skin tones: an emoji means the same with or without them.
_EMOJI_VARIANTS = dict.fromkeys([0xFE0E, 0xFE0F, *range(0x1F3FB, 0x1F400)])


def fold_emoji(text: str) -> str:
    return text.translate(_EMOJI_VARIANTS)
