"""Read the Japanese text written inside faces: runs, normalised keys, splits, romaji.

Build-time only (issue 14): the catalog builder and the glossary tools use it; it never
imports Flask or the web stack, only the text folding shared with search.

    python -m tools.faces candidates   # writes tools/glossary/candidates.json, prints coverage
    python -m tools.faces parts        # writes tools/glossary/parts-candidates.json

Libraries, all permissive: fugashi (MIT; bundles MeCab, BSD-3-Clause), unidic-lite
(MIT wrapper; UniDic 2.1.2 data BSD-3-Clause), cutlet (MIT; with jaconv MIT and mojimoji
Apache-2.0). cutlet needs fugashi + unidic-lite, so one tokenizer serves both splitting
and romanisation. No dictionary glosses are used (JMdict is CC BY-SA): glosses are ours.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import time
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

from kaomoji_api.textnorm import fold

# The kana a spacing voicing mark (゛ ゜) voices when written after them: テ゛ is デ, ハ゜ is パ.
_VOICEABLE = {
    mark: frozenset(ch for ch in map(chr, [*range(0x3041, 0x3097), *range(0x30a1, 0x30fb)])
                    if len(unicodedata.normalize("NFC", ch + combining)) == 1)
    for mark, combining in (("゛", "\u3099"), ("゜", "\u309a"))
}
_SPACED_VOICING = re.compile("([^゛゜])([゛゜])")


def _voiced(text: str) -> str:
    """Kana with a spacing voicing mark after them written as the voiced kana: テ゛シッ → デシッ, オネカ゛イ → オネガイ.
    NFKC would make the mark a space and a combining mark."""
    return _SPACED_VOICING.sub(
        lambda m: unicodedata.normalize("NFC", m.group(1) + ("\u3099" if m.group(2) == "゛" else "\u309a"))
        if m.group(1) in _VOICEABLE[m.group(2)] else m.group(0), text)


# A run is a maximal stretch of: hiragana (not the spacing voicing marks ゛゜, which faces
# use as eyes, unless right after a kana they voice), katakana (not the middle dot ・),
# half-width katakana (ﾞﾟ only right after a half-width kana they can voice: ﾊﾟ, ｶﾞ; in (oﾟﾛﾟ)
# the ﾟ are eyes), small katakana ㇰ-ㇿ, CJK ideographs, 々 〆 and the elongation marks ー ｰ 〜 ～.
_RUN = re.compile(
    "(?:[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005\u3006\u301c\uff5e\uff70]"
    "|[\uff66-\uff6f\uff71-\uff9d]|(?<=[\uff73\uff76-\uff84\uff8a-\uff8e])\uff9e"
    "|(?<=[\uff8a-\uff8e])\uff9f"
    # A spacing voicing mark right after a kana it voices is part of the word: テ゛シッ is デシッ (_voiced).
    f"|(?<=[{''.join(sorted(_VOICEABLE['゛']))}])゛|(?<=[{''.join(sorted(_VOICEABLE['゜']))}])゜)+"
)

# Characters drawn for their shape, not read: arms and hands (ノ ヽ ヾ ゞ っ つ ヘ), mouths
# (ェ エ ロ 口 皿 益 ー), eyes (一 ー), motion lines (彡 ミ 三 巛), props (旦 a cup of tea,
# 凸 the finger, 卍 a shuriken, 鹵 a spray, 〆, 日 目 a mug, a can or a block), mahjong tiles drawn as boxes (囗 圀 團...),
# and kanji standing for look-alike kana on drawn signs (才 = オ, 力 = カ, 了 = マ). A run made
# only of these is part of the face and belongs to the parts glossary, not to the text.
# A single kanji with its own meaning (壁 a wall to hide behind, 東 a mahjong wind) is text.
FACE_PART_CHARS = frozenset(
    "ノﾉヽヾゞゝヘﾍへェｪエｴロﾛツｼシミﾐメﾒっつづーｰ〜～"
    "口皿旦凸凹人川州三彡卍乂鹵囗圀固圈囚圄回團圉圖〆益艸冂勹廾爻尸二十一工亠冫灬罒个从日目"
    "丶丿乀乁巛冖匚凵卜亅乙几儿丨廿爪彳才力了八"
    "仝曲々占圃"  # mouths (´･仝･｀) (￣曲￣), a hand or spoon 々, a spray can 占~~~, a tile 圃
    "中"  # alone, a hammer (_中☆ ピコンッ, ~中_ ダルマオトシ) or a sign, not the red dragon tile; 考え中 is a word
)
# Kana that are part of a face alone (エ a mouth, ヘ an arm, ツ in ¯\_(ツ)_/¯) but words
# when they lead a run of kana: エヘヘ, エッ, ヘー, シーッ, ツー, メッ.
_READ_WHEN_LEADING = frozenset("エｴヘへﾍシｼツメﾒロﾛ")
# Arms and hands that stick to a face's bracket: ヽ(・ω・)ノｵﾔｽﾐ reads ｵﾔｽﾐ.
ARMS = _ARMS = frozenset("ノﾉヽヾゞゝっつヘﾍへ")
# Small kana and the full-size kana they are written for when a word starts with one (ﾉｮｯ: an arm and "yo!").
# っ is left out: a word may start with it (ッス).
_BIG = str.maketrans("ぁぃぅぇぉゃゅょゎァィゥェォャュョヮｧｨｩｪｫｬｭｮ", "あいうえおやゆよわアイウエオヤユヨワｱｲｳｴｵﾔﾕﾖ")
# Part characters that make a run drawn wherever they are: arms other than ヘ, motion
# lines and the kanji.
_NEVER_READ = FACE_PART_CHARS - _READ_WHEN_LEADING - frozenset("ヘﾍへェｪーｰ〜～っ")
# A rabbit's ears are its face's edges, ／(≡・x・≡)＼: an arm glued to them is drawn too (＼ノおーい reads おーい,
# ビールはうみゃ～ヽ／( reads ビールはうみゃ～). So are a bear's paws and a bird's wings, ⊂((〃´⊥`〃))⊃ and ∈(・●・)∋:
# ⊃ノみ♪ reads み, the last letter of お・や・す・み, not のみ. And a dog's ears and a boxed face's sides, ∪・ェ・∪ and
# |・_・|: ∪ノはうー reads はうー.
_CLOSE = frozenset(")）」｣]］】〕>＞｝}＼⊃∋∪|｜")
_EDGES = "川州巛卍"  # long hair framing a face (川・_・川), a spray's mist (鹵~巛), a thrown shuriken (卍ｼｭｯ): drawn where a run starts or ends
_EDGE_ARMS = "ノﾉヽヾゞゝっつ"  # the arms glued to them (川ヾ川ゞ川分身避け); not ヘ, which may be a laugh
_OPEN = frozenset("(（「｢[［【〔<＜｛{／⊂∈∪|｜")

_ELONGATION = re.compile("[ー〜~]+")
_VOICING_MARKS = frozenset("ﾞﾟ゛゜\u3099\u309a")
_SMALL_VOWEL = dict(zip("ぁぃぅぇぉゎ", "aiueoa", strict=True))
_REPEATED_SMALL = re.compile("([ぁぃぅぇぉゃゅょゎっ])\\1+")


@functools.cache
def _vowel(kana: str) -> str:
    """The vowel a hiragana ends with ("か" → "a"), or "" for ん, っ and non-kana."""
    if kana in _SMALL_VOWEL:
        return _SMALL_VOWEL[kana]
    name = unicodedata.name(kana, "")
    if not name.startswith("HIRAGANA LETTER") or kana in "んっ":
        return ""
    syllable = name.rsplit(" ", 1)[-1].lower()
    return syllable[-1] if syllable[-1] in "aiueo" else ""


def _trim(run: str, before: str, after: str) -> str:
    """Drop arms glued to a face: a leading one after a closing bracket, a trailing one
    before an opening bracket. エヘヘ( keeps its last ヘ: it repeats the one before it.
    Hair and spray lines that start or end a run are the face's edge, and an arm beside them is glued to it:
    川*｀皿´川ノ殺せ reads 殺せ, 鹵~巛殺殺殺 reads 殺殺殺, ｵﾗ州゜_゜州 reads ｵﾗ; and so is a wave beside them, the hair
    swaying: ～川ふら川～ reads ふら."""
    if run.lstrip(WAVES)[:1] in _EDGES and run.lstrip(WAVES + _EDGES + _EDGE_ARMS):
        run = run.lstrip(WAVES + _EDGES + _EDGE_ARMS)
    if run.rstrip(WAVES)[-1:] in _EDGES and run.rstrip(WAVES + _EDGES + _EDGE_ARMS):
        run = run.rstrip(WAVES + _EDGES + _EDGE_ARMS)
    if before in _CLOSE:
        # Not a kana a voicing mark makes a letter of: ]ﾍﾟﾀｯ is ﾍﾟﾀｯ (peta), not an arm and ﾟﾀｯ.
        while run and run[0] in _ARMS and run[1:2] not in _VOICING_MARKS:
            run = run[1:]
    if after in _OPEN:
        while run and run[-1] in _ARMS and not (len(run) > 1 and run[-2] == run[-1] and run[-1] in "ヘﾍへ"):
            run = run[:-1]
    return run


WAVES = "～〜"  # a wave drawn before a word or beside a face's hair: motion, not text
# A つ drawn out with a wave is no arm but the last letter of a word spelled across faces: お(…)は(…)つ～♪ (ohatsu).
_DRAWN_OUT_TSU = re.compile("[つツ][～〜]+")


def japanese_runs(text: str) -> list[str]:
    """The Japanese runs written in a face, as written, in order, face parts left out.

    ヾ(・ω・)ノｵﾔｽﾐ~ → ["ｵﾔｽﾐ"]; (╬ಠ益ಠ) → [] (益 is a mouth); |壁|･ω･) → ["壁"];
    ヽ(`Д´)ﾉ → [] (arms only); ｷﾀ━━━(ﾟ∀ﾟ)━━━!! → ["ｷﾀ"].
    """
    runs = []
    for match in _RUN.finditer(text):
        before = text[match.start() - 1] if match.start() else ""
        after = text[match.end()] if match.end() < len(text) else ""
        if _DRAWN_OUT_TSU.fullmatch(drawn_out := match.group().lstrip(_EDGES)):
            runs.append(drawn_out)
            continue
        run = _trim(match.group(), before, after)
        if run and not is_face_part(run):
            runs.append(run)
    return runs


def big_first(run: str) -> str:
    """A run whose first kana is written small for a full-size one: ｮｯ → ﾖｯ, ぉはょぅ → おはょぅ.

    No word starts with a small kana but っ, so one there is a full-size kana written small, as after an
    arm (｡･ω･)ﾉｮｯ: "yo!"). Callers decide when a run starts a word; a lone ｮ on a wall (|ｮдﾟ) is a hand.
    """
    return run[:1].translate(_BIG) + run[1:]


def is_face_part(run: str) -> bool:
    """Whether a run is drawn, not written: ノ彡, 川ノ, ーー, 圀圀圀 are; エヘヘ, ツー are not."""
    if not all(ch in FACE_PART_CHARS for ch in run):
        return False
    return not (len(run) > 1 and run[0] in _READ_WHEN_LEADING
                and not any(ch in _NEVER_READ for ch in run))


def _lengthen(text: str) -> str:
    """Folded text with its long vowels written one way: rules 2 and 3 of normalise()."""
    text = _REPEATED_SMALL.sub(r"\1", text)
    chars: list[str] = []
    for ch in text:
        if ch in _SMALL_VOWEL and chars and _vowel(chars[-1]) == _SMALL_VOWEL[ch]:
            ch = "ー"
        chars.append(ch)
    return _ELONGATION.sub("ー", "".join(chars))


@functools.cache
def normalise(run: str) -> str:
    """The key a run is looked up by. Rules, in order:

    1. NFKC, katakana as hiragana (textnorm.fold): ｵﾔｽﾐ and オヤスミ → おやすみ; ～ becomes ~.
    2. A small vowel that repeats the vowel before it lengthens it: わぁい → わーい,
       ヒイィィ → ひいー; repeated small kana count once: ぃぃぃ → ぃ, ッッ → っ.
    3. Elongation marks ー 〜 ~ are one mark, however many: あ～～ん → あーん.
    4. Trailing っ and elongation are dropped, repeatedly:
       おやすみ〜 → おやすみ, わーいっ → わーい, ひえーっ → ひえ, ｷｬｰｯ → きゃ, じー → じ.
    Words are not shortened: おやすみなさい stays its own key; a glossary row joins it
    to おやすみ by listing it among its variants.
    """
    key = _lengthen(fold(_voiced(run)))
    return key.rstrip("ーっ") or key


def reading(run: str) -> str:
    """A run as it is said, for romaji: a trailing long vowel stays (ジィィ → じー, "jii"),
    a trailing wave or っ goes (ｵﾔｽﾐ～ → おやすみ, ハッ → は)."""
    text = fold(_voiced(run)).rstrip("~〜っ")
    return _lengthen(text) or normalise(run)


@functools.lru_cache(maxsize=1)
def _tagger():
    import fugashi  # unidic-lite is found by fugashi itself

    return fugashi.Tagger()


# Parts of speech that need no glossary row of their own when a split leaves them over:
# particles (ね, よ, の), auxiliaries (ます, た) and symbols.
_FUNCTION_POS = frozenset({"助詞", "助動詞", "補助記号", "空白"})


def kana_reading(run: str) -> str:
    """A run as the tokenizer reads it, in katakana: 大好き → ダイスキ, 呪ってやる → ノロッテヤル (a word it does not
    know stays as written)."""
    return "".join(word.feature.kana or word.surface for word in _tagger()(unicodedata.normalize("NFKC", run)))


def tokens(run: str) -> list[tuple[str, str]]:
    """The tokenizer's words of a run as (surface, part of speech): さようならまたね →
    [("さようなら", "感動詞"), ("また", "副詞"), ("ね", "助詞")]."""
    return [(word.surface, word.feature.pos1) for word in _tagger()(unicodedata.normalize("NFKC", run))]


def particles(run: str) -> frozenset[str]:
    """The one-kana particles and auxiliaries the tokenizer finds in a run, normalised: そんなのは → {の, は}."""
    return frozenset(normalise(surface) for surface, pos in tokens(run) if pos in _FUNCTION_POS and len(surface) == 1)


def split(run: str, keys=frozenset()) -> list[str] | None:
    """Keys that a run not itself a key is made of, or None when it cannot be explained.

    The tokenizer's word boundaries are the only cut points; between two of them the text
    must be a known key (normalised), or a particle or auxiliary (ね, ます) needing none. Of
    the ways to cut, the one with the fewest pieces wins: さようならまたね → ["さようなら",
    "また", "ね"] when さようなら and また are keys. Without keys, every word is a piece.
    """
    words = tokens(run)
    if not keys:
        return [normalise(surface) for surface, _ in words]
    n = len(words)
    best: list[list[str] | None] = [None] * (n + 1)
    best[0] = []
    for end in range(1, n + 1):
        for start in range(end):
            if best[start] is None:
                continue
            piece = normalise("".join(surface for surface, _ in words[start:end]))
            function_word = end - start == 1 and words[start][1] in _FUNCTION_POS
            if piece in keys or function_word:
                candidate = best[start] + [piece]
                if best[end] is None or len(candidate) < len(best[end]):
                    best[end] = candidate
    return best[n]


@functools.lru_cache(maxsize=1)
def _katsu():
    import cutlet

    katsu = cutlet.Cutlet()  # Hepburn
    katsu.use_foreign_spelling = False  # ドンマイ is "donmai", not "Don't mind"
    return katsu


_KANA_ONLY = re.compile("[\u3041-\u309f\u30fc]+")


@functools.cache
def romanise(text: str) -> str:
    """Hepburn romaji by cutlet, lower case: おやすみ → "oyasumi", りーち → "riichi",
    ばいばーい → "baibaai", 電柱 → "denchuu".

    Kana are mapped as one word (cutlet's map_kana: no spaces cut by the tokenizer, a
    long mark doubles the vowel); text with kanji goes through the tokenizer for readings.

    A text with a character cutlet cannot read (Chinese 欢迎, a stroke drawn as an arm 丿, a tile 圀) has no romaji:
    "" rather than cutlet's "?" for it (翻桌 would be "koboshi ?"), so that notes and meanings show no reading at all
    rather than half of one.
    """
    text = text.rstrip("っ")
    if _KANA_ONLY.fullmatch(text):
        return _katsu().map_kana(text)
    romaji = _katsu().romaji(text, capitalize=False).strip()
    return "" if "?" in romaji else romaji


# ---------------------------------------------------------------- glossary candidates

GLOSSARY_DIR = Path(__file__).parent / "glossary"
CUTOFFS = (500, 1000, 1500, 2000, 2500, 3000)


def served_entries() -> list[dict]:
    """The dataset entries the catalog serves: those with at least one label."""
    import kaomoji_dataset

    return [e for e in kaomoji_dataset.all() if e["emotion"] or e["intent"] or e["subject"]]


def read_faces(entries) -> list[tuple[dict, list[tuple[str, str]]]]:
    """Each entry with its runs as (surface, key) pairs."""
    return [(e, [(run, normalise(run)) for run in japanese_runs(e["text"])]) for e in entries]


def coverage(read, keys, splitting=False) -> tuple[float, float, int]:
    """Shares of entries with Japanese text that have every run / at least one run explained
    by keys (with splitting, an unknown run is explained when split() can cut it into keys),
    and how many entries have Japanese text."""
    every = some = with_text = 0
    for _, runs in read:
        if not runs:
            continue
        with_text += 1
        known = [key in keys or (splitting and split(run, keys) is not None) for run, key in runs]
        every += all(known)
        some += any(known)
    return every / with_text, some / with_text, with_text


def candidates(read) -> list[dict]:
    """Every key with its count of entries, top surfaces, romaji and example faces."""
    count: Counter[str] = Counter()
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = defaultdict(list)
    for entry, runs in read:
        for run, key in runs:
            surfaces[key][run] += 1
        for key in dict.fromkeys(key for _, key in runs):
            count[key] += 1
            if len(examples[key]) < 3 and entry["text"] not in examples[key]:
                examples[key].append(entry["text"])
    return [
        {"key": key, "entries": n, "variants": [s for s, _ in surfaces[key].most_common(5)],
         "romaji": romanise(reading(surfaces[key].most_common(1)[0][0])), "examples": examples[key]}
        for key, n in sorted(count.items(), key=lambda item: (-item[1], item[0]))
    ]


def write_json(path: Path, data) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main_candidates() -> None:
    entries = served_entries()
    started = time.perf_counter()
    read = read_faces(entries)
    read_seconds = time.perf_counter() - started
    rows = candidates(read)
    write_json(GLOSSARY_DIR / "candidates.json", rows)
    with_text = sum(1 for _, runs in read if runs)
    print(f"{len(read)} served entries, {with_text} with Japanese text, {len(rows)} keys; "
          f"all faces read in {read_seconds:.2f} s")
    print("top N  every run explained, of entries with text (of all served, text-less counted)"
          "  | with splitting")
    for n in CUTOFFS:
        keys = frozenset(row["key"] for row in rows[:n])
        plain, _, _ = coverage(read, keys)
        cut, _, _ = coverage(read, keys, splitting=True)
        textless = len(read) - with_text
        print(f"{n:5}  {plain:6.1%} ({(plain * with_text + textless) / len(read):6.1%})"
              f"  | {cut:6.1%} ({(cut * with_text + textless) / len(read):6.1%})")
    print(f"total {time.perf_counter() - started:.1f} s")


# Drawn patterns longer than one character that a writer should see whole; the counts
# of single symbols and of frequent symbol pairs and triples are added to them.
KNOWN_PART_PATTERNS = (
    "┻━┻", "┻┻", "┳━┳", "┬─┬", "(╯°□°)╯", "︵", "ノ彡", "m(_ _)m", "m(__)m", "orz", "OTL",
    "＿|￣|○", "_|￣|○", "ε=", "=3", "ε-", "(ェ)", "(エ)", "ᴥ", "ʖ", "¯\\_", "_/¯", "(ツ)",
    "┐", "┌", "σ", "ψ", "φ", "_φ", "ρ", "o〇", "oO", "Σ", "ヾ", "ゞ", "ノシ", "ﾉｼ",
    "凸", "旦", "卍", "益", "皿", "(●●)", "(∞)", "⊂", "⊃", "∩", "∪", "＼", "／", "b", "d",
    "(*", "*)", "〃", "///", "☆", "★", "♪", "♡", "♥", "💢", "#", "╬", "💦", ";", "汗", "💧",
    "ω", "∀", "Д", "▽", "◇", "ε", "3", "＞＜", ">_<", "T_T", "ToT", ";_;", "。・゜", "・゜・",
    "━━", "≡", "三", "=○", "○=", "☆)", "Ψ", "⌒", "ﾟ+.", "*:.｡", "✧", "٩", "۶", "و", "ง",
    "ლ", "щ", "ಠ", "◕", "‿", "ᵕ", "˘", "³", "з", "∠", "」∠", "_(:3", "(:3", "〆", "✿", "❀",
)


def part_candidates(entries) -> list[dict]:
    """Symbols, symbol pairs and triples, and known patterns, by count of entries."""
    count: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for entry in entries:
        text = entry["text"]
        found = {pattern for pattern in KNOWN_PART_PATTERNS if pattern in text}
        symbols = [ch if not ch.isspace() and (unicodedata.category(ch)[0] not in "LN"
                                               or ch in FACE_PART_CHARS or ord(ch) > 0x3ff
                                               and not _RUN.fullmatch(ch)) else " " for ch in text]
        found.update(ch for ch in symbols if ch != " ")
        line = "".join(symbols)
        for size in (2, 3):
            found.update(line[i:i + size] for i in range(len(line) - size + 1)
                         if " " not in line[i:i + size] and len(set(line[i:i + size])) > 1)
        for pattern in found:
            count[pattern] += 1
            if len(examples[pattern]) < 3 and len(text) <= 40:
                examples[pattern].append(text)
    # A pair or triple is kept when it is not just its commonest symbol again.
    rows = []
    for pattern, n in count.most_common():
        if len(pattern) > 1 and pattern not in KNOWN_PART_PATTERNS and (
                n < 150 or any(ch in "()（）" for ch in pattern)):
            continue  # rare, or a symbol with the bracket it sits against
        rows.append({"pattern": pattern, "entries": n, "examples": examples[pattern]})
        if len(rows) == 300:
            break
    return rows


def main_parts() -> None:
    entries = served_entries()
    started = time.perf_counter()
    rows = part_candidates(entries)
    write_json(GLOSSARY_DIR / "parts-candidates.json", rows)
    print(f"{len(rows)} part candidates in {time.perf_counter() - started:.1f} s")
    print(" ".join(f"{r['pattern']}:{r['entries']}" for r in rows[:120]))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.faces", description=__doc__)
    parser.add_argument("command", choices=["candidates", "parts"])
    args = parser.parse_args()
    {"candidates": main_candidates, "parts": main_parts}[args.command]()


if __name__ == "__main__":
    main()
