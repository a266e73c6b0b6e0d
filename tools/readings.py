"""What each face says and shows, read at build time from the glossary under tools/glossary/ (issue 14).

`Glossary.read(text)` gives a face's Reading: its Japanese runs with the glossary rows that explain
them, the drawn parts it is made of, the drawn face itself, the intent that leads its text, the
category its text or parts name, and whether it is sensitive. The catalog builder turns readings
into names, categories, meanings, notes and usage; nothing here is localized text.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from tools import faces

GLOSSARY_DIR = faces.GLOSSARY_DIR

# Intents, strongest first, for the one that leads a face with several texts. Greeting-type intents are
# set phrases that decide a face's usage alone; the middle ones say how it feels; the last are words
# whose feeling comes from the face (a letter, a plain word, a sound), which leave usage to the category.
STRONG_INTENTS = (
    "good-night", "good-morning", "welcome-back", "im-home", "meal", "goodbye", "hello", "regards",
    "thanks", "apology", "congratulations",
    # A bow that says おねがい (m(_ _)m ｵﾈｶﾞｲ) begs: the bow's own sentences mix sorry, please and thanks.
    "plea",
    "bow",  # drawn, not said (parts.json `intent`): after the set phrases a bowing face may say, before what else it says
    # What the face does to someone, before the feeling beside it: 来いってば…ううう drags off a friend who whimpers (it
    # is no crying face), and ヒソヒソ…ヤダァ whispers gossip (it scolds nobody).
    "drag-along", "secret",
    # A threat (殺す, 呪ってやる) outranks a laugh beside it: ｱﾊﾊﾊ (殺す) is a menace with a sinister laugh, not a joke.
    # A no (ダメ) says more than the gasp beside it: そんなのは…ダーメ！ refuses, it is not a surprise.
    "consolation", "encouragement", "crying", "threat", "laughing", "anger", "love", "refusal", "surprise", "joy", "tasty",
    # What a face gives or answers: giving up, an offer, praise, a correction, waving off praise, stepping away for
    # a moment.
    "give-up", "offer", "praise", "correction", "modesty", "brb",
    "games", "seasons", "food", "call", "reply", "thinking", "sound", "action",
    # A sigh (ふぅ) comes after whatever else the face says: おつかれさん…ﾌｩ thanks, チートイツ…ﾌｩ plays mahjong, a smoker's
    # ﾌｩｰ…ｹﾞﾎｹﾞﾎ coughs.
    "sigh",
)
SMALL_KANA = frozenset("ぁぃぅぇぉゃゅょゎっ")  # a syllable's second letter (じゃ), in the hiragana keys of rows
HIRAGANA = re.compile("[\u3041-\u309f]+")  # a key of kana alone: a kanji (祝, congratulations) is a word, not a syllable
KANJI = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")  # a kanji, written for its meaning
KANA = re.compile("[\u3041-\u309f\u30a1-\u30ff\uff66-\uff9d]")  # a kana, full- or half-width
DRAWN_OUT_LINE = re.compile("[━─]")  # a word's long mark drawn as a line across a face: ｶﾞ━━(ﾟДﾟ;)━━━ﾝ
STAMMER = re.compile("[・･、､,，] ?")  # between a stammered first kana and its word: ﾈ､ﾈﾑｲ
SMALL_VOWELS = re.compile("[ぁぃぅぇぉ]")  # one left in a reading (おはよぅ) is a sound cutlet drops: ohayu
# A run of kana alone, full- or half-width, with its long marks and waves: what cutlet reads whole (Glossary._romaji).
KANA_WORD = re.compile("[\u3041-\u309f\u30a0-\u30ff\uff66-\uff9f～〜]+")
WEAK_INTENTS = ("exclamation", "statement", "name", "object", "letter", "none")
INTENT_RANK = {intent: rank for rank, intent in enumerate(STRONG_INTENTS + WEAK_INTENTS)}

# Parts that say which animal a face is: an animal category whose faces have none of them and whose
# text has an intent was filed by a noisy label (マイリマシタ in bunny, ブーン in pig) and is re-homed.
ANIMAL_PARTS = frozenset({
    "rabbit-face", "pig-snout", "fish", "bird-beak", "cat-ears", "cat-mouth", "cat-eyes", "cat-paws", "whiskers",
    "bear-snout", "bear-ears", "dog-ears", "puppy-ears", "animal-muzzle", "monkey-face",
})
ANIMAL_CATEGORIES = frozenset({"bunny", "pig", "fish", "bird"})
# Where a face goes when its text's intent re-homes it.
INTENT_CATEGORY = {
    "hello": "greeting", "goodbye": "greeting", "good-night": "greeting", "good-morning": "greeting",
    "welcome-back": "greeting", "im-home": "greeting", "meal": "greeting", "regards": "greeting",
    "thanks": "greeting", "congratulations": "greeting", "apology": "sorry",
    "consolation": "sympathy", "encouragement": "sympathy", "crying": "sad", "laughing": "happy", "joy": "happy",
    "anger": "angry", "threat": "angry", "love": "love", "surprise": "surprised", "tasty": "food", "food": "food",
    "seasons": "greeting",  # season's greetings: Merry Christmas, a happy New Year
}
# The games that have categories of their own: a face whose text or parts name one is named by it.
GAMES = frozenset({"mahjong", "pachinko", "sports"})
# How an intent of intents.json weighs its text against the dataset's labels (`naming`): "text" names every
# face that says it by the text; "contradicted" only a face whose labels' name contradicts it (a crying face
# named "Happy face"); without the field the labels name it.
TEXT_NAMES, CONTRADICTED_NAMES = "text", "contradicted"
# Categories that a category named by a face's text or parts replaces rather than joins.
LEFT_FOR_NAMED = frozenset({"gaming", "other"})

# A ☆ or ★ next to one of these is the flash of a hit, not a sparkle.
IMPACT_PARTS = frozenset({"punch", "boxing-fists", "raised-fists", "fist-raised", "kick", "impact-spatter", "gun", "knife", "spear", "bomb",
                          "bomb-blast", "mallet", "hammer"})
# Z's of sleep and rising bubbles: beside them a word may be said asleep (source.json `asleep`: ｸﾞｰ snores).
SLEEP_PARTS = frozenset({"sleep-z", "bubbles"})
# The name of the rows of an explosion's boom (ドカーン): beside one a word may be cried by a face it blows away
# (source.json `blown`: アレー).
BLAST = "explosion"
# Where a face goes when the name its text gives re-homes it: an explosion its labels filed as a bunny is a fight, as
# most of the faces that go kaboom are.
NAME_CATEGORY = {BLAST: "fight"}
# Parts drawn with the star their blow lands with (θ☆, 中☆).
LANDING_PARTS = frozenset({"kick", "hammer"})
FLUNG_PARTS = frozenset({"table", "thrown", "fling"})
SPARKLE_PARTS = frozenset({"star", "black-star"})
# The end of an arm, a weapon or a flying fist, or a block flung or swung (日 目: a drum can, a big sole, a hammer's
# head: １６もーん＼|・・|／＿＿＿目☆（＃’３’）).
SWUNG = frozenset("〇○=＝θ~～_＿ー－―-/／日目")
HIT_FACE = frozenset("(（")                     # the face it lands on
HIT_FACE_FISTED = ("o(", "ｏ(", "o（", "ｏ（")  # the same with a fist at its edge: _〇☆o(T_T)
# An arm, a fist or a held weapon landing on a face turned away: ○☆)ロ゜), ／☆)゜Q゜), 」☆)~ロ~), _凹☆)*_*), o)っ★(
# (never the -_ of a face whose eye is the star: (-_☆) winks).
FIST_ENDS, FACING_BACK = frozenset("〇○／」っ凹⊃ノﾉ"), frozenset(")）>＞")
MOTION_MARKS = frozenset('"゛〃')  # the swish of an arm between it and the star: ノ"☆)°O°)
# An arm reaching back from the next face onto this one: (゜O゜)☆＼(^^;), (☆_@;)☆ ＼(｀-´メ), ☆╰╮o(￣皿￣).
ARM_BACK = ("＼(", "＼（", "\\(", " ＼(", " ＼（", "ヾ(", "╰╮")
# What may lie between a fist, a kick or a thrown or fired thing and the star it lands with: the face it hits
# (☆(゜o゜(○=), or the path it flies along (●~*≡≡☆, ▄︻┻┳═一…… ☆, -○))～～～Ю☆).
BRACKETS = frozenset("()（）")
CHEEKS = frozenset({"○)", "○）"})
FLIGHT = frozenset(" ≡=＝三ｰー－-─━―…‥・･~～)）")
TWINKLES = ("kira", "pika", "kirari", "kyupi")  # a glint (ｷﾗｯ, ｷｭﾋﾟｰﾝ): the face sparkles
IMPACT_PART = "impact-star"
BLAST_STAR = "blast-star"  # the star of a hit in a face that says an explosion's boom: the blast's flash
ARM_CHARS = "".join(faces.ARMS)
# A hand slamming the table in fits of laughter: a star right after a swung arm, ﾉ彡☆ (or ノ＿彡☆, ノ☆彡), that lands on
# no face, in a face that laughs or says ﾊﾞﾝﾊﾞﾝ. It is the bang of the table, not a blow and not a sparkle.
TABLE_BANG = "table-bang"
# The same slam in a huff: a face whose text scolds (ﾌﾟﾝﾌﾟﾝ, ﾌﾞｰﾌﾞｰ) or whose brows frown ((*｀ε´*)ノ＿彡☆ﾊﾞﾝﾊﾞﾝ) and
# that does not laugh: the desk banged in anger, no blow, no sparkle, no laughter.
TABLE_SLAM, ANGRY_BROWS = "table-slam", "angry-brows"
# A star that is neither a sparkle nor a blow landing, in a fight: the glint of a blade or a gun (in a face that holds a
# weapon, says one, or says a blow with a glint: ｷﾗｯ☆ ... ｽﾊﾟｯ), and the spark where rivals' glares meet ((ﾒ-_-)・・・☆・・・(-_-ﾒ)).
GLINT, RIVAL_SPARKS = "glint", "rival-sparks"
# A party cracker's ∠※ in a face that says 花 (flowers) and makes no bang with it is a bouquet held out: ・・・(((・ω・)_∠※
# お花をどうぞ, おめでと花束(・ω・)∠※.。・:*:・; 撒花！(￣▽￣)o∠※PAN! still pops.
PARTY_POPPER, BOUQUET, FLOWERS = "party-popper", "bouquet", "花"
BANG = re.compile(r"\s*(?:[PpＰｐ][AaOoＡａＯｏ][NnＮｎ]|ﾊﾟﾝ|ﾎﾟﾝ|パン|ポン|パーン|ﾊﾟｰﾝ)")
# 凸 in a face that says it presses a button (ﾎﾟﾁ, ぽちっとな) is the button, not a raised middle finger: ﾎﾟﾁ…(｀･ω･´)ﾉ凸.
MIDDLE_FINGER, BUTTON, PRESSING = "middle-finger", "button", "pressing-a-button"
# ε is pursed lips inside a face, and a trail of dust beside more dust or speed lines (εεεεεヾ(*´ー`)ノ, ε≡≡≡へ): a dash.
POUT, DASH, DUST = "pout", "dash", "ε≡＝=三"
WEAPON_PARTS = frozenset({"gun", "knife", "spear", "shuriken"})
# Two faces glaring at each other along dotted lines of sight, the star where they meet: ) ・・・☆・・・( , whatever
# closes the face or its arms (⊃ ・・・☆・・・⊂, ∪ ・・・☆・・・∪, ∋, >, |, 州).
GLARE = re.compile("[)）川州】＼⊃∪∋>＞|｜] ?[・･.…‥]{2,}$")
GLARE_AFTER = re.compile("[・･.…‥]{2,} ?[(（川州【／⊂∪∈<＜|｜]")
# Stardust trailing a star flung by an arm (ノ彡☆゜・。・゜★): the star is tossed sparkle, not a blow on someone unseen.
STARDUST = frozenset("゜・。°･｡ﾟ*:.+★☆")
BANG_BEFORE = re.compile("[ノﾉ][_＿]?彡[_＿ 　]*$")
BANGS = ("banban",)
# A laugh or a sound said over again (ｱﾊﾊﾊﾊﾊ, ﾍﾞｼﾍﾞｼ, ｳｷｬｷｬｷｬ) is that laugh or sound: Glossary.read_run.
REPEATABLE_INTENTS = frozenset({"laughing", "sound"})
NUMBER_BEFORE = re.compile("[0-9０-９]+$")  # the number a run may begin with: １６もーん (Glossary._numbered)
# A box corner alone (┐ ┌, patterns of the part `shrug`) is an arm of many drawings: a dance (└|・_・|┐♪┌|・_・|┘), arms
# raised in laughter (┌(＿ｗ＿)┐ あはは), a kick (┌┛, ┌θ), a cable (───┐●┌───). It is a shrug's hand only as the shrug
# draws it (shrug_spans): ┐ before a face and ┌ after it (┐(´ー｀)┌, ┐⊂(´(ェ)｀)⊃┌, ヤレヤレ┐川´皿｀川┌, ┐(o|o)┌), or one
# hand held out after a face that nothing else holds (ε-(￣ヘ￣)┌ ダミダコリャ, ƪ(˘⌣˘)┐, not ┌(＿ｗ＿)┐).
SHRUG_HANDS = frozenset("┐┌")
SHRUG_BOTH = re.compile(r"┐\s?[／/]?[(（⊂∈川州【\[［{｛<＜|｜∪][^┐┌└┘╮╭┛┗]{0,30}?[)）⊃∋川州】\]］}｝>＞|｜∪][＼\\]?\s?┌")
SHRUG_ONE = re.compile(r"[)）⊃∋川州】\]］}｝>＞][┌┐](?![θ┛┘┐┌|｜→])")
FACE_PAIRS = {")": "(", "）": "（", "⊃": "⊂", "∋": "∈", "】": "【", "]": "[", "］": "［", "}": "{", "｝": "｛", ">": "<", "＞": "＜"}
NOT_BEFORE_A_SHRUG = frozenset("└┌┐┘┗┏╰╭╮(（⊂∈【[［{｛<＜")

# ∩ is both hands raised beside a face (∩(´∀｀)∩, ばんざーい), and ⌒ an arc (a throw: ノ⌒●), but a pair of either inside
# a face is its eyes, curved shut as ^ ^ are (ヽ(∩▽∩)ノ, (∩_∩ ), (⌒▽⌒), ( ⌒ ▽⌒ )ノ): the part `smiling-eyes`; shut
# tight over a shout or a gasp (ヒイィィ(∩ロ∩;), (∩Д∩)), or in a face whose text cries, fumes or sighs ((∩へ∩)ナカナイモン,
# (∩ヘ∩)ムッスー), `squeezed-eyes`. No eyes between them: ∩･д･∩ raises its hands.
RAISED_HANDS, ARC, SMILING_EYES, SQUEEZED_EYES = "raised-hands", "arc", "smiling-eyes", "squeezed-eyes"
CURVED_EYES = re.compile(r"([∩⌒])[ 　]?([・･]|[^∩⌒()（）⊂⊃\\\s･・゜ﾟ°´`｀'’‘^＾;；☆★✧✩／＼┏┓┗┛]{1,3})[ 　]?\1")  # (*⌒・⌒*): a nose
SHOUTING_MOUTHS, UNSMILING_INTENTS = frozenset("ロДд□皿口益"), frozenset({"crying", "anger", "threat", "sigh", "refusal", "surprise"})
# Drops trailing from a face (。・゜゜・(>_<)・゜゜・。, 。゜(´ω｀)゜。) are its tears; the same marks elsewhere are sparkles, snow
# or stardust (。.:*:・'゜。ﾐﾝﾅ, ／。・。・゜★ ラリホー, ゜。°。°。 ヽ(￣▽￣)) or eyes ((。゜)(゜。)?). The patterns of `tears` made only of
# them are tears where the marks run up to the outside of a face's bracket, with no stardust among them (tearful).
TEAR_MARKS, TEAR_TRAILS = frozenset("。・゜°･｡ﾟ"), frozenset({"。・゜", "・゜・", "゜。"})
DROP_SPACED = {mark + space for mark in TEAR_MARKS for space in " 　"}
SPACED_DROP = {space + mark for mark in TEAR_MARKS for space in " 　"}
# A face's bracket, with a fist or an arm at its edge: 。・゜゜・o(ｉДｉ)o・゜゜・。, 。・゜゜ヽ| ；∀；|ノ
# (a space or a streaming arc between them and the bracket, but then no arm: not the snow of ゜。°。°。 ヽ(￣▽￣)).
FACE_AHEAD, FACE_BEHIND = re.compile("[ 　⌒]?[(（|｜]|[oｏヽヾ][(（|｜]"), re.compile("[)）|｜][ 　⌒]?$|[)）|｜][oｏノ]$")
STARDUST_MARKS = frozenset("*＊:：+＋.．★☆♪○◯'’`")
# Arms held out (⊂ ⊃, つ: the part `hug`) drawn inside a face's brackets on both sides of its mouth are hands over its
# eyes: crying into them ((つд⊂), （；つд⊂）ｺﾞｼｺﾞｼ) or hiding before a peekaboo ((⊃∀⊂)イナイナイ⊂(・∀・)⊃バァ); so is one
# beside a wailing mouth, wiping the tears from one eye (・ﾟ・(つД｀)・ﾟ・, (｡´Д⊂) ｳﾜｧｧｧﾝ).
HUG, HANDS_OVER_FACE = "hug", "hands-over-face"
HANDS_OVER_EYES = re.compile(
    r"[(（][^()（）つ⊃⊂]{0,2}[つ⊃][^()（）⊂⊃]{1,3}[⊂つ][^()（）]{0,2}[)）]"
    r"|[(（][^()（）つ⊃⊂]{0,2}つ[Дд][^()（）⊂⊃]{0,3}[)）]|[(（][^()（）つ⊃⊂]{0,3}[Дд]⊂[^()（）]{0,2}[)）]"
)



def curved_eyes(text: str) -> list[re.Match]:
    """The pairs of ∩ or ⌒ in `text` that are a face's eyes (CURVED_EYES): not links of a chain that repeats what lies
    between them, as a wave does (Y⌒Y⌒Y⌒, v⌒v⌒v, ⌒✧⌒✧)."""
    return [m for m in CURVED_EYES.finditer(text)
            if text[m.start() - len(m.group(2)):m.start()] != m.group(2) and text[m.end():m.end() + len(m.group(2))] != m.group(2)]

def shrug_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` draws a shrug with box corners: both hands (SHRUG_BOTH), or one after a face whose opening bracket
    has no arm or other face before it (the face found back from its closing bracket, 川 and 州 matching themselves)."""
    spans = [m.span() for m in SHRUG_BOTH.finditer(text)]
    for m in SHRUG_ONE.finditer(text):
        close = text[m.start()]
        opening, depth, i = FACE_PAIRS.get(close, close), 0, m.start() - 1
        while i >= max(0, m.start() - 30):
            if text[i] == close and close not in "川州":
                depth += 1
            elif text[i] == opening:
                if depth == 0:
                    break
                depth -= 1
            i -= 1
        else:
            continue
        before = text[max(0, i - 2):i].rstrip("ヽ\\ƪ")[-1:]  # an arm raised on the other side leaves it a shrug: ヽ(´ー｀)┌
        if before not in NOT_BEFORE_A_SHRUG and not SHRUG_HANDS.intersection(text[i:m.start()]):
            spans.append((i, m.end()))
    return spans


def tearful(text: str, start: int, end: int) -> bool:
    """Whether the drops text[start:end] are tears (TEAR_TRAILS): the marks around them run, with at most a space or a
    streaming arc (。・゜゜⌒(ＴＯＴ)), up to a face's opening bracket after them or from its closing one before them
    (FACE_AHEAD, FACE_BEHIND), and no stardust touches them."""
    while start > 0 and (text[start - 1] in TEAR_MARKS or text[start - 2:start] in DROP_SPACED):  # ゜ ゜。
        start -= 1
    while end < len(text) and (text[end] in TEAR_MARKS or text[end:end + 2] in SPACED_DROP):
        end += 1
    behind, ahead = text[max(0, start - 3):start], text[end:end + 3]
    if not (FACE_AHEAD.match(ahead) or FACE_BEHIND.search(behind)):
        return False
    return behind.rstrip(" 　")[-1:] not in STARDUST_MARKS and ahead.lstrip(" 　")[:1] not in STARDUST_MARKS


DRAWINGS_SHOWN = 3  # the most spans of one part a note shows: mahjong tiles [一][二][三]…


OPENING, CLOSING = "(（", ")）"
DRAWN_BRACKETS = re.compile(r"[(（]{2}|[)）]{2}")  # lines or a tail drawn with brackets


def part_drawing(text: str, spans: list[tuple[int, int]], only: str | None = None) -> str:
    """How a face draws a part: the text of its spans, each shown once, apart by a space (the arms of a hug, ⊂ ⊃, or
    of fists around a face, o( )o). A note shows it in brackets of its own, so brackets it would leave open or closed
    before they open are left out: one arm holding the face's bracket shows without it (ヽ(ˇ∀ˇ )ゞ raises ヽ, not "ヽ("),
    friends arm in arm between two faces )人( show 人, a snout in brackets of its own (エ) shows エ, and lines drawn with
    brackets alone ((((( ・.・) trembling) or brackets left unmatched inside (／(≡ ≡)＼'s ≡)＼) none. A part whose
    patterns take in what is beside it to tell it apart shows `only` its own characters (parts.json `drawn`): the long
    hair of 川ノ°皿°川ノ is 川 川, not 川ノ with the arm."""
    pieces = (text[start:end] for start, end in sorted(spans))
    if only:
        pieces = ("".join(ch for ch in piece if ch in only) for piece in pieces)
    shown = list(dict.fromkeys(piece.strip(" ") for piece in pieces))[:DRAWINGS_SHOWN]
    if not nested(" ".join(shown)):
        shown = [_unbracketed(piece) for piece in shown]
    drawing = " ".join(piece for piece in shown if piece.strip(OPENING + CLOSING + " "))
    if len(drawing) > 2 and drawing[0] in OPENING and drawing[-1] in CLOSING and nested(drawing[1:-1]):
        drawing = drawing[1:-1].strip(" ")  # in brackets of its own: a bear's snout (エ), not ((エ))
    return drawing if nested(drawing) else ""


def nested(drawing: str) -> bool:
    """Whether every bracket `drawing` opens it closes, after it opens it."""
    depth = 0
    for ch in drawing:
        depth += (ch in OPENING) - (ch in CLOSING)
        if depth < 0:
            return False
    return depth == 0


def _unbracketed(piece: str) -> str:
    """A piece of a drawing without the brackets at its ends that it leaves unmatched; nothing of one that draws with
    brackets it leaves unmatched (((((; is trembling lines, not a drop of sweat; ＜゜)))彡 a fish's tail)."""
    if DRAWN_BRACKETS.search(piece):
        return ""
    while piece and not nested(piece):
        if piece[0] in CLOSING or piece[0] in OPENING and piece[-1] not in OPENING:
            piece = piece[1:]
        elif piece[-1] in OPENING or piece[-1] in CLOSING:
            piece = piece[:-1]
        else:
            break
    return piece


@dataclass(frozen=True)
class Run:
    text: str                      # as the face writes it: ｵﾔｽﾐ~
    romaji: str                    # oyasumi
    rows: tuple[int, ...] | None   # the glossary rows that explain it; None when nothing does


@dataclass(frozen=True)
class Reading:
    runs: tuple[Run, ...]
    parts: tuple[str, ...]         # part ids, in the order the face draws them
    intent: str | None             # of the text that leads: the strongest of its rows
    category: str | None           # named by its text or parts (mahjong, sports...)
    name: str | None               # the name a row of its text gives (glossary `names`: merry-christmas)
    sensitive: bool
    animal: bool                   # it draws an animal's ears, snout, beak...
    label_name: str | None = None  # the dataset's name a row of its text gives (source.json `label_name`: にやり, Smug face)
    drawings: tuple[str, ...] = ()  # how the face draws each of `parts`, from its own text: ⌒, ⊂ ⊃, ﾉ彡☆ (part_drawing)

    @property
    def explained(self) -> bool:
        return all(run.rows is not None for run in self.runs)


def struck(reading: Reading) -> bool:
    """Whether a face's star is the flash of a hit (an impact, a blast's flash, or the star a kick or a hammer lands with,
    θ☆, 中☆): its sparkle labels are noise."""
    return IMPACT_PART in reading.parts or BLAST_STAR in reading.parts or not LANDING_PARTS.isdisjoint(reading.parts)


def banged(reading: Reading) -> bool:
    """Whether a face's star is the bang of a hand slamming the table in laughter (ﾉ彡☆ ｷﾞｬﾊﾊ): not a blow, and not
    a sparkle either."""
    return TABLE_BANG in reading.parts


def slammed(reading: Reading) -> bool:
    """Whether a face's star is a fist slamming the table in anger (ﾌﾟﾝﾌﾟﾝ ノ彡☆): not a blow, not a sparkle, not a laugh."""
    return TABLE_SLAM in reading.parts


def armed(reading: Reading) -> bool:
    """Whether a face's star is the glint of a blade or a gun, or the spark of rivals' glares: a fight, not a sparkle."""
    return GLINT in reading.parts or RIVAL_SPARKS in reading.parts


def drawn_out(text: str) -> bool:
    """Whether a run is a word drawn out at its end: with a long mark or a small vowel (ふぅ, ヘェー: faces.reading writes
    them ふー, へー) or a wave (へ～)."""
    return faces.reading(text).endswith("ー") or text.endswith(("～", "〜"))


def same_romaji(written: str, romaji: str) -> bool:
    """Whether a romanisation in a gloss says no more than its row's romaji: the same letters but for spaces, marks, long
    vowels and doubled letters (shiku shiku, jiii, gasshō, baki! for shikushiku, jii, gasshou, baki). A gloss that repeats
    it repeats what the meaning and the note give beside the text. Not _unlengthened, which also reads は as the particle:
    (konbanwa) explains the pun of こんばん波, romanised konbanha."""
    def letters(text: str) -> str:
        text = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))
        text = re.sub("[^a-z]", "", text).replace("ou", "o")
        return re.sub(r"(.)\1+", r"\1", text)
    return bool(letters(romaji)) and letters(written) == letters(romaji)


def not_a_sparkle(reading: Reading) -> bool:
    """Whether a face's star is anything but a sparkle (a hit, a table banged or slammed, a weapon's glint, rivals' sparks):
    its sparkle labels are noise."""
    return struck(reading) or banged(reading) or slammed(reading) or armed(reading)


# What draws a hand raised or waving: these parts (ヾ, ゞ, ノ, ヽ( )ノ, ノシ, ﾉﾞ, /~~), or a stroke no part names because
# it is a hand only at a face's edge: ( ﾟ▽ﾟ)/, ＼(^o^), (/^o^)/, ヽ(･ω･), o(^-^)o.
HAND_PARTS = frozenset({"waving-hand", "hand-to-head", "raised-arm", "arms-up", "waving-bye", "waving-marks", "waving-hankie"})
RAISED_HAND = re.compile(r"[)）][ 　]?[/／丿〃]|[\\＼/／ヽ][ 　]?[(（]|[(（][ 　]?[\\＼/／]|[/／][ 　]?[)）]|[oｏ][(（]|[)）][oｏ]")
# What a face may say with its wave: a greeting (intents.json `greeting`), or a call to someone (おーい).
WAVED_WITH = frozenset({"call"})
# The concepts a name of the dataset may claim a face shows beside the greeting (build_catalog.CLAIMS), and the
# parts that show them: a heart, a musical note or a microphone.
CLAIMED_PARTS = {"heart": frozenset({"heart"}), "music": frozenset({"music", "microphone"})}
GREETING = "greeting"


def _load(name: str):
    return json.loads((GLOSSARY_DIR / name).read_text(encoding="utf-8"))


def _unlengthened(romaji: str) -> str:
    """Romaji with its long vowels short and は read as the particle (arigatoo, arigatou → arigato; konbanha →
    konbanwa): two spellings of one word differ only so."""
    return re.sub(r"([aiueo])\1+", r"\1", romaji).replace("ou", "o").replace("ha", "wa")


class Glossary:
    """The glossary's source rows, parts, intents and sensitive terms, ready to read faces with."""

    def __init__(self):
        self.rows = _load("source.json")
        self.intents = {row["id"]: row for row in _load("intents.json")}
        # Set phrases (good night, thank you): a face that says one is named by it and gets only its usage.
        self.greetings = frozenset(intent for intent, row in self.intents.items() if row["greeting"])
        # Intents whose name can name a face (intent-texts `name`), and the concepts each is contradicted by.
        self.naming = {intent: row["naming"] for intent, row in self.intents.items() if row.get("naming")}
        self.contradicts = {intent: frozenset(row.get("contradicts", ())) for intent, row in self.intents.items()}
        # The concepts whose words come first in the keywords of faces that all say an intent, and those whose words
        # they never carry, whatever their labels say: a face that says おねがい is no "happy, hello" face.
        self.keyword_concepts = {intent: tuple(row.get("keywords", ())) for intent, row in self.intents.items()}
        self.not_keywords = {intent: self.contradicts[intent] | frozenset(row.get("not_keywords", ())) for intent, row in self.intents.items()}
        # Intents whose faces take a name the dataset already gives (Crying face), not one of their own: they
        # join the profiles of faces so named instead of making new ones.
        self.label_names = {intent: row["label_name"] for intent, row in self.intents.items() if row.get("label_name")}
        self.row_of: dict[str, int] = {}
        for number, row in enumerate(self.rows):
            for text in (row["key"], *row["variants"]):
                self.row_of.setdefault(faces.normalise(text), number)
        self.keys = frozenset(self.row_of)
        # The names of blows (ﾊﾟﾝﾁ, ｱﾀｯｸ, ｴﾙﾎﾞｰ, 頭突き), longest first: a run that ends in one names a blow (read_run).
        self._blows = sorted((key for key, number in self.row_of.items()
                              if self.rows[number].get("hit") and self.rows[number]["intent"] == "action" and len(key) >= 3),
                             key=len, reverse=True)
        # The words of congratulation that name a mock celebration after them (ｵﾒﾃﾞﾀ鉄球, オメデタミサイル, ｵﾒﾃﾞﾄ花束): a run
        # that begins with one and goes on is that congratulation (read_run). Only the words themselves (おめでと, おめでた),
        # not the celebrations the glossary names whole.
        self._congratulations = sorted((key for key, number in self.row_of.items()
                                        if self.rows[number]["intent"] == "congratulations" and 4 <= len(key) <= 5), key=len, reverse=True)
        self.parts = {row["id"]: row for row in _load("parts.json")}
        # The same of the names rows and parts give (source.json and parts.json `keywords`, `not_keywords`): 助けて, Help,
        # is no shy face; a face named Landing a blow by its impact star is a blow, not a sparkle.
        self.name_keywords: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {}
        for row in (*self.rows, *self.parts.values()):
            if row.get("name") and (row.get("keywords") or row.get("not_keywords")):
                first, dropped = self.name_keywords.get(row["name"], ((), frozenset()))
                self.name_keywords[row["name"]] = ((*first, *row.get("keywords", ())), dropped | frozenset(row.get("not_keywords", ())))
        # Parts that stand for an intent without a word (a deep bow: sorry, please, thank you): usage_intent.
        self.part_intents = {part_id: row["intent"] for part_id, row in self.parts.items() if row.get("intent")}
        self._part_rank = {part_id: rank for rank, part_id in enumerate(self.parts)}
        by_pattern = {pattern: part_id for part_id, row in reversed(self.parts.items()) for pattern in row["patterns"]}
        self._part_of = by_pattern
        # Longest pattern first, so ┻━┻ wins over ┻ and ))))彡 over )))彡.
        self._parts = re.compile("|".join(map(re.escape, sorted(by_pattern, key=len, reverse=True))))
        self._sensitive = re.compile("|".join(re.escape(term["pattern"]) for term in _load("sensitive.json")["terms"]))

    def texts(self, locale: str) -> dict:
        """A locale's glosses (`fragments`, by key) and part names (`parts`, by id)."""
        return _load(f"{locale}.json")

    def intent_texts(self, locale: str) -> dict:
        return _load(f"intent-texts/{locale}.json")["intents"]

    @functools.cache  # noqa: B019 -- one glossary per build; runs repeat across faces
    def read_run(self, run: str, big_first: bool = False) -> Run:
        """The reading of one run; with `big_first`, a small kana that starts it is read as the full-size kana."""
        said = faces.big_first(run) if big_first else run
        key = faces.normalise(said)
        if (word := said.lstrip(faces.WAVES)) != said and word and key not in self.row_of:
            # A wave drawn before a word leaves it that word (～～～～～ﾄﾞﾝﾄﾞﾝﾄﾞﾝ), unless a row reads the two together (～ふら).
            read = self.read_run(word)
            return Run(run, read.romaji, read.rows)
        if key in self.row_of and (longer := self.rows[self.row_of[key]].get("drawn_out")) and faces.reading(said).endswith("ー"):
            # A word drawn out into another (source.json `drawn_out`): ﾎﾟｶｯ is a bonk, ﾎﾟｶｰ the blank stare of ﾎﾟｶｰﾝ.
            return Run(run, faces.romanise(faces.reading(said)), (self.row_of[longer],))
        if key in self.row_of:
            return Run(run, self._romaji(said, key), (self.row_of[key],))
        romaji = faces.romanise(faces.reading(said))
        if (number := self._repeated(key)) is not None:
            return Run(run, romaji, (number,))
        pieces = faces.split(said, self.keys)
        if pieces is None and (number := self._kanji_word(said)) is not None:
            return Run(run, self.rows[number]["romaji"], (number,))
        if pieces is None and (number := self._stammered(key)) is not None:
            row = self.rows[number]
            if key == key[0] * len(key) and row["key"] == key[0] * len(row["key"]) and len(words := row["romaji"].split()) == len(row["key"]):
                # a kanji said over (愛愛愛愛): ai ai ai ai, where cutlet reads a name, Aiai Aiai
                romaji = " ".join(words[:1] * len(key))
            return Run(run, romaji, (number,))
        if pieces is None and (blow := next((b for b in self._blows if key.endswith(b) and key != b), None)):
            # A blow with a name of its own (ﾄﾞﾗﾑ缶ﾊﾟﾝﾁ, 右フック, ローリングエルボー): the blow, said as its row says it.
            number, named = self.row_of[blow], faces.romanise(key[:-len(blow)])
            return Run(run, f"{named} {self.rows[number]['romaji']}" if named else "", (number,))
        if pieces is None and (wish := next((w for w in self._congratulations if key.startswith(w) and key != w), None)):
            # A celebration with a name of its own, mock or not (オメデタ鉄球, おめでと花火): the congratulation it begins with.
            return Run(run, romaji, (self.row_of[wish],))
        # A particle cut off beside a word is no word of its own: the は of そんなのは ("that's…") is no gasp (ハッ).
        particles = faces.particles(said) if pieces and len(pieces) > 1 else frozenset()
        if not any(p in self.row_of and p not in particles and self.rows[self.row_of[p]]["intent"] not in ("letter", "none")
                   for p in pieces or ()):
            particles = frozenset()  # no word beside them: ﾓ･ﾓﾚﾙ, るるるんっ, ちゎ keep what they read
        rows = None if pieces is None else tuple(
            self.row_of[p] for i, p in enumerate(pieces)
            if p in self.row_of and not (i and self._syllable_greeting(p)) and p not in particles) or None
        if rows and any(self.rows[n]["intent"] != "letter" for n in rows):
            # Beside a word, a kana the tokenizer cut off is a particle or a syllable (the ね of ﾖﾛｼｸﾈ, the だ of
            # フンダ, the お of お風呂), not a letter of a word spelled across faces.
            rows = tuple(n for n in rows if self.rows[n]["intent"] != "letter")
        return Run(run, romaji, rows)

    def _kanji_word(self, said: str) -> int | None:
        """The row of a word written in kanji and kana whose reading a row has in kana, as the tokenizer reads it: 大好き
        is だいすき, お疲れ様 おつかれさま, 呪ってやる のろってやる, こんにち波 (a pun) こんにちは. A reading of three kana at
        least: 投げ in ＰＣ投げ! throws a computer, and is no なげ, the blown kiss of 投げキッス."""
        if not (KANJI.search(said) and KANA.search(said)):
            return None
        key = faces.normalise(faces.kana_reading(said))
        number = self.row_of.get(key)
        if number is None or len(key) < 3 or self.rows[number]["intent"] in ("letter", "none"):
            return None
        return number

    def _romaji(self, said: str, key: str) -> str:
        """The romaji of a run a row explains: the row's, which a writer checked (cutlet reads 高めリーチ as "takame ri-
        chi"); for a variant spelled otherwise than the row's key, what it writes, when cutlet reads it whole (kana
        alone, a word of letters that starts as the row's does): キョロキョロ is kyorokyoro, not the row's kyoro, ｶﾝﾊﾟ
        kanpa, not kanpai. Kanji (酔拳ヨロ), a small vowel (ォメデトォ, ｵﾊﾖｩ), a row written in two words and a
        spelling that only lengthens a vowel (ありがとう, the row's arigatoo) keep the row's."""
        romaji = self.rows[self.row_of[key]]["romaji"]
        if key == self.rows[self.row_of[key]]["key"] or " " in romaji or not KANA_WORD.fullmatch(said):
            return romaji
        spoken = faces.reading(said)
        written = faces.romanise(spoken)
        if not (written.isascii() and written.isalpha() and written[:1] == romaji[:1]) or SMALL_VOWELS.search(spoken) \
                or _unlengthened(written) == _unlengthened(romaji):
            return romaji  # the row's when the two differ only in a long vowel: ありがとう stays arigatoo, as the row has it
        return written

    def _doubled(self, runs: tuple[Run, ...]) -> tuple[Run, ...]:
        """A word said again in a run of its own is its doubled word, when the glossary has that: ﾄﾞｷ((・ェ・))ﾄﾞｷ is
        the heartbeat ドキドキ, not two jolts; in 酔拳 ﾖﾛ (…) ﾖﾛ the drunken fist totters (よろよろ), where ﾖﾛ alone is short
        for yoroshiku; ｵﾛ('.')('.')ｵﾛ dithers. Only words of two kana or more: ﾌｯ … ﾌｯ is no ふふ, a chuckle."""
        keys = [faces.normalise(run.text) for run in runs]
        doubled = {key: self.row_of[key * 2] for key, times in Counter(keys).items()
                   if times > 1 and len(key) > 1 and key * 2 in self.row_of}
        if not doubled:
            return runs
        return tuple(Run(run.text, run.romaji, (doubled[key],)) if key in doubled else run for run, key in zip(runs, keys, strict=True))

    @staticmethod
    def _shown(run: Run) -> Run:
        """A run as a note and a meaning quote it: without the waves drawn before it (～～～～～バサッバサッ flaps
        バサッバサッ). Its key keeps them, as ～ふら, a hula's sway, is another row than ふら, a stagger."""
        text = run.text.lstrip(faces.WAVES)
        return Run(text, run.romaji.lstrip("- "), run.rows) if text and text != run.text else run  # cutlet's wave: -ohisa

    def _said_as(self, run: Run, context: str) -> Run:
        """A run as a face in `context` says it (source.json `asleep`, `blown`, `drawn_out`): (-ω-).。o○ｸﾞｰ snores, where
        ｸﾞｰ alone is a thumbs-up; (((ドカーン)))☆(/_x)/アレー cries out as it flies, where アレ alone is a puzzled "huh?";
        ε- (^＠＠^; ふぅ sighs, where ﾌｯ alone may be a smirk."""
        other = run.rows and len(run.rows) == 1 and self.rows[run.rows[0]].get(context)
        return Run(run.text, run.romaji, (self.row_of[other],)) if other else run

    def _drawn_with(self, run: Run, parts: set[str]) -> Run:
        """A run as a face that draws `parts` says it (source.json `drawn_with`: {a part's id: the key of the row this word
        then is}): ￠(・ω・￠ΞΞ＝＝－－ スキー races downhill on skis, where スキー alone (好き, drawn out) says "I love you"."""
        row = self.rows[run.rows[0]] if run.rows and len(run.rows) == 1 else {}
        other = next((key for part, key in row.get("drawn_with", {}).items() if part in parts), None)
        return Run(run.text, run.romaji, (self.row_of[other],)) if other else run

    def _beside(self, runs: tuple[Run, ...]) -> tuple[Run, ...]:
        """Runs as the words beside them make them say (source.json `beside`: {that word's key: the key of the row this
        one then is}): in a hula dance (ﾌﾗﾀﾞﾝｽ), ふら sways to the music, where alone it staggers."""
        said = {number for run in runs for number in run.rows or ()}
        reread = []
        for run in runs:
            row = self.rows[run.rows[0]] if run.rows and len(run.rows) == 1 else {}
            other = next((key for beside, key in row.get("beside", {}).items() if self.row_of.get(beside) in said), None)
            reread.append(Run(run.text, run.romaji, (self.row_of[other],)) if other else run)
        return tuple(reread)

    def _syllable_greeting(self, key: str) -> bool:
        """Whether a row is a greeting of one syllable (や, "hey"; じゃ, "later"): inside a word the tokenizer cut, it is a
        syllable of that word unless it starts it. ヤッホ and じゃぁね greet; デヤー (a battle cry), すきやで ("I love
        you", Kansai), キックじゃ ("a kick!") and なんじゃと ("what did you say?") do not."""
        return self.rows[self.row_of[key]]["intent"] in self.greetings and bool(HIRAGANA.fullmatch(key)) \
            and sum(ch not in SMALL_KANA for ch in key) == 1

    def _numbered(self, text: str, start: int, run: str) -> Run | None:
        """A word whose number is written before it, when the glossary knows the whole: １６もーん is Giant Baba's 16-mon
        kick, not the letters も and ん. The number is no kana, so the run leaves it out."""
        number = NUMBER_BEFORE.search(text, 0, start)
        if number and faces.normalise(number.group() + run) in self.row_of:
            return self.read_run(number.group() + run)
        return None

    def _repeated(self, key: str) -> int | None:
        """The row of a laugh or a sound drawn out by saying its end again: ｱﾊﾊﾊﾊ is ｱﾊﾊ, ｳｷｬｷｬｷｬ is ｳｷｬｷｬ,
        ﾍﾞｼﾍﾞｼ is ﾍﾞｼ, ｷﾞｬﾊﾊﾊﾊﾊﾊﾊ is ｷﾞｬﾊﾊ. Only laughs, sounds and hit words: ぽかぽか (warm) is no ぽか (a bonk)
        unless the row says so. A key of its own always wins (ばしばし, げらげら)."""
        for unit in (1, 2):
            stem = key
            while len(stem) >= 2 * unit and stem[-unit:] == stem[-2 * unit:-unit]:
                stem = stem[:-unit]
                number = self.row_of.get(stem) if len(stem) > 1 else None
                if number is not None and (self.rows[number]["intent"] in REPEATABLE_INTENTS or self.rows[number].get("hit")):
                    return number
        return None

    def _stammered(self, key: str) -> int | None:
        """The row of a word whose beginning is said over before it, of any intent: ﾆﾔﾆﾔﾆﾔﾆﾔﾘ is ﾆﾔﾘ, ｶﾞｶﾞｶﾞｶﾞﾋﾞｰﾝ is
        ｶﾞﾋﾞｰﾝ, ｺﾞﾎｯｺﾞﾎｯｺﾞﾎｯｺﾞﾎ is ｺﾞﾎｯｺﾞﾎ, and of a doubled word said over again: ｶﾀｶﾀｶﾀ is ｶﾀｶﾀ. Not a word said twice
        whose doubled form has no row (ぽかぽか, warm, is no ぽか, a bonk), nor one kana said once before a word (ううん, no,
        is no うん, yes): a lone kana must come three times (ｵｵｵｰｲ is ｵｰｲ). Only for a run the tokenizer cannot cut into
        keys: ﾌﾌﾌﾝ♪ is a chuckle and a hum (ふふ, ふん), not a huff."""
        for unit in range(1, len(key) // 2 + 1):
            said, stem, times = key[:unit], key, 0
            while stem[unit:].startswith(said):
                stem, times = stem[unit:], times + 1
                number = self.row_of.get(stem)
                if number is None or self.rows[number]["intent"] in ("letter", "none"):
                    continue
                if stem == said and KANJI.fullmatch(said):  # a kanji said over and over: 愛愛愛愛 is 愛, love
                    return number
                if len(stem) < 2:
                    continue
                if (stem != said or said * 2 in self.row_of) and (unit > 1 or times > 1):
                    return number
        return None

    def read(self, text: str) -> Reading:
        written = faces.japanese_runs(text)
        spans, start = [], 0
        for run in written:
            start = text.index(run, start)
            spans.append((start, start + len(run)))
            start += len(run)
        # A word's first kana stammered before it is the word's (ﾈ､ﾈﾑｲ, ｽ･ｽｲﾏｾｰﾝ, モ、モダメ), not a letter of its own.
        kept = [i for i, run in enumerate(written) if not (
            len(run) == 1 and i + 1 < len(written) and STAMMER.fullmatch(text, spans[i][1], spans[i + 1][0])
            and faces.normalise(written[i + 1])[:1] == faces.normalise(run))]
        written, spans = [written[i] for i in kept], [spans[i] for i in kept]
        # A small kana that starts the face or follows an arm starts a word written small: ﾉｮｯ is an arm and
        # "yo!" (ﾖｯ), not a lone ｯ; ゃぁo(゜ー゜*o) says "yaa".
        runs = self._spelled(written, text) or self._doubled(tuple(
            self._numbered(text, s, run)
            or self.read_run(run, big_first=(s == 0 or text[s - 1] in faces.ARMS) and faces.big_first(run) != run)
            for run, (s, _) in zip(written, spans, strict=True)
        ))
        # A part is drawn, never a letter of the text: the ｪ of ｺﾞｾﾞｪﾏｽ is no snout, the ﾉｼ of ﾉｼﾞｬ no wave.
        shrugs = shrug_spans(text) if SHRUG_HANDS.intersection(text) else ()
        found = [
            (m.start(), m.end(), self._part_of[m.group()]) for m in self._parts.finditer(text)
            if not any(s < m.end() and m.start() < e for s, e in spans)
            and not (m.group() in SHRUG_HANDS and not any(s <= m.start() < e for s, e in shrugs))
            and not (m.group() in TEAR_TRAILS and not tearful(text, m.start(), m.end()))
        ]
        ids = {part_id for _, _, part_id in found}
        if ids & SLEEP_PARTS:
            runs = tuple(self._said_as(run, "asleep") for run in runs)
        blast = any(self.rows[n].get("name") == BLAST for run in runs for n in run.rows or ())
        if blast:
            runs = tuple(self._said_as(run, "blown") for run in runs)
        # A word may be another in a face that draws something (source.json `drawn_with`): スキー beside skis is skiing.
        runs = tuple(self._drawn_with(run, ids) for run in runs)
        # A word drawn out may be another word (source.json `drawn_out`): ﾌｩ is a sigh, where ﾌｯ is a puff or a snort.
        runs = tuple(self._said_as(run, "drawn_out") if drawn_out(run.text) else run for run in runs)
        runs = self._beside(runs)
        rows = [self.rows[number] for run in runs for number in run.rows or ()]
        laughs = any(row["intent"] == "laughing" for row in rows)
        bangs = laughs or any(row["romaji"].startswith(BANGS) for row in rows)
        huffs = not laughs and (any(row["intent"] == "anger" for row in rows) or ANGRY_BROWS in ids)
        said = [self.rows[n] for run in runs for n in run.rows or ()]
        twinkles = any(row["romaji"].startswith(TWINKLES) for row in said)
        # A face that holds a weapon or says one (source.json `weapon`), or whose glint goes with a blow (ｷﾗｯ☆ ... ｽﾊﾟｯ).
        wields = bool(ids & WEAPON_PARTS) or any(row.get("weapon") for row in said) \
            or twinkles and any(row.get("hit") for row in said)
        eyes_drawn = curved_eyes(text) if "∩" in text or "⌒" in text else ()
        covered = list(HANDS_OVER_EYES.finditer(text)) if HUG in ids else ()
        unsmiling = any(row["intent"] in UNSMILING_INTENTS for row in said)
        drawn: dict[str, list[tuple[int, int]]] = {}  # each part's spans: the arm that slams a table is part of the slam
        for start, end, part_id in found:
            arm = self._slamming_arm(text, start, end) if part_id in SPARKLE_PARTS else None
            if arm is not None and huffs:
                part_id, start = TABLE_SLAM, arm
            elif arm is not None and bangs:
                part_id, start = TABLE_BANG, arm
            elif arm is not None and text[end:end + 1] in STARDUST:
                pass  # stardust flung by a waving arm: ヾ(=^_^=)ノ彡☆゜・。・゜★
            elif part_id in SPARKLE_PARTS and self._beside_a_hit(text, start, end, found, runs):
                part_id = BLAST_STAR if blast else IMPACT_PART
            elif part_id in SPARKLE_PARTS and GLARE.search(text, 0, start) and GLARE_AFTER.match(text, end):
                part_id = RIVAL_SPARKS
            elif part_id in SPARKLE_PARTS and wields:
                part_id = GLINT
            elif part_id == POUT and text[start:end] == "ε" and any(ch and ch in DUST for ch in (text[start - 1:start], text[end:end + 1])):
                part_id = DASH
            elif part_id == MIDDLE_FINGER and any(row.get("name") == PRESSING for row in said):
                part_id = BUTTON
            elif part_id == PARTY_POPPER and FLOWERS in text and not BANG.match(text, end):
                part_id = BOUQUET
            elif part_id == HUG and any(m.start() <= start < m.end() for m in covered):
                part_id = HANDS_OVER_FACE
            elif part_id in (RAISED_HANDS, ARC) and (eyes := next((m for m in eyes_drawn if m.start() <= start < m.end()), None)):
                part_id = SQUEEZED_EYES if SHOUTING_MOUTHS.intersection(eyes.group(2)) or unsmiling else SMILING_EYES
            drawn.setdefault(part_id, []).append((start, end))
        # A part drawn only inside another part's drawing is named by it: ﾉ彡☆ is a hand slamming the table, not also a
        # flinging arm.
        parts = [part_id for part_id, spans in drawn.items() if not all(
            any(s <= start and end <= e and (s, e) != (start, end) for other, others in drawn.items() if other != part_id
                for s, e in others) for start, end in spans)]
        intents = [row["intent"] for row in rows]
        intent = min(intents, key=INTENT_RANK.__getitem__, default=None)
        category = next((row["category"] for run in runs for row in map(self.rows.__getitem__, run.rows or ())
                         if row.get("category") and (not row.get("category_drawn_out") or drawn_out(run.text))), None)
        category = category or next((self.parts[p]["category"] for p in parts if self.parts[p].get("category")), None)
        # A row names its face unless the face draws what makes it something else (source.json `unless_drawn`): ﾌﾑﾌﾑ is
        # nodding along, but beside a pen φ it is said while taking notes.
        named = next((row for row in rows if (row.get("name") or row.get("label_name"))
                      and not set(row.get("unless_drawn", ())) & set(parts)), {})
        return Reading(
            runs=tuple(self._shown(run) for run in runs), parts=tuple(parts), intent=intent, category=category,
            drawings=tuple(part_drawing(text, drawn[part], self.parts[part].get("drawn")) for part in parts),
            name=named.get("name"), label_name=named.get("label_name"),
            sensitive=bool(self._sensitive.search(unicodedata.normalize("NFKC", text))) or any(row.get("sensitive") for row in rows),
            animal=bool(ids & ANIMAL_PARTS),
        )

    def categories(self, slug: str, reading: Reading) -> tuple[str, ...]:
        """An entry's categories, its main one first, from the category its labels gave (`slug`) and its reading.

        A text or part that names a category (mahjong, pachinko, sports) makes it the main one, and the
        labels' category stays beside it unless it was the catch-all gaming or other. An animal category
        whose face draws no animal was a noisy label when the text says something: its category, the name it gives
        or its intent re-homes the face (マイリマシタ, "I give up", leaves bunny; so does ドカーン, an explosion, for
        fight). So is a category that the text's intent contradicts (intents.json `contradicts`): a face that says Merry
        Christmas leaves angry for greeting.
        A face that says a greeting is in greeting too. A face whose star is the flash of a hit (`struck`) was filed
        under sparkle by that star: it is a fight (┌┤´д｀├┘ﾁｮｯﾌﾟ☆/(x_x)); one whose star is a table banged in
        laughter (`banged`), filed under sparkle or fight by that star, is happy; one slammed in anger (`slammed`), angry.
        """
        if slug == "sparkle" and (struck(reading) or armed(reading)):  # a blow, a blade's glint, rivals' sparks
            slug = "fight"
        elif slug in ("sparkle", "fight") and banged(reading):  # a table banged in laughter: ﾉ彡☆ ｷﾞｬﾊﾊ
            slug = INTENT_CATEGORY["laughing"]
        elif slug in ("sparkle", "fight") and slammed(reading):  # slammed in a huff: ﾌﾟﾝﾌﾟﾝ ノ彡☆
            slug = INTENT_CATEGORY["anger"]
        contradicted = slug in self.contradicts.get(reading.intent, ()) and (
            self.naming.get(reading.intent) != CONTRADICTED_NAMES or self.says_only(reading, reading.intent))
        misfiled = slug in ANIMAL_CATEGORIES and not reading.animal or contradicted
        if reading.category:
            found = [reading.category] + ([slug] if slug not in LEFT_FOR_NAMED and not misfiled else [])
        elif misfiled and reading.name in NAME_CATEGORY:
            found = [NAME_CATEGORY[reading.name]]
        elif misfiled and reading.intent in INTENT_CATEGORY:
            found = [INTENT_CATEGORY[reading.intent]]
        else:
            found = [slug]
        if reading.intent in self.greetings and INTENT_CATEGORY.get(reading.intent) == "greeting":
            found.append("greeting")
        return tuple(dict.fromkeys(found))

    def name(self, reading: Reading, concepts: frozenset[str]) -> tuple[str, str, str] | None:
        """What names a face where its reading is clearer than its labels, as (kind, id, source); None leaves
        the name its labels give, whose concepts are `concepts` (Waving: greeting, happy).

        kind is "intent" (intent-texts `name`), "label" (a name of the dataset's, intents.json `label_name`),
        "category" (the category's name) or "name" (glossary `names`);
        source is "text" or "part". In order: a greeting the text says; a game its text or parts name; the
        name a row of its text gives (めりーくりすます: Merry Christmas; or a name of the dataset's, `label_name`:
        にやり, Smug face); the intent of its text, when the
        intent names faces (`naming`: always, or when the labels' name contradicts it). A face its text does
        not name is named by a telling part (parts.json `name`: a deep bow is Bowing) unless the labels' name
        agrees with the part (`agrees`), or only when it contradicts it (`contradicts`); with both, when it
        contradicts it or does not agree (an impact renames Sparkling and Waving, not Angry face).
        """
        intent = reading.intent
        if intent in self.greetings:
            return "intent", intent, "text"
        if reading.category in GAMES:  # a mahjong hand, not "With a phone"
            return "category", reading.category, "text"
        if reading.name:
            return "name", reading.name, "text"
        if reading.label_name:  # a smirk (ﾆﾔﾘ) is a Smug face, a cackle (ｹｹｹ) Teasing, whatever the labels said
            return "label", reading.label_name, "text"
        if named := self.naming_intent(reading):
            return self._named_by(named)  # ウマイウマイ names a face that also squeals キャー
        if self.naming.get(intent) == CONTRADICTED_NAMES and self.says_only(reading, intent) and concepts & self.contradicts[intent]:
            return self._named_by(intent)
        for part in reading.parts:
            row = self.parts[part]
            if (row.get("name") or row.get("label_name")) and self.telling(part, reading) and self._part_names(row, concepts):
                return ("name", row["name"], "part") if row.get("name") else ("label", row["label_name"], "part")
        return None

    def naming_intent(self, reading: Reading) -> str | None:
        """The intent by which a face's text names it (intents.json `naming`: "text"), the strongest it says, when no
        greeting, game or row's own name names it first."""
        if reading.intent in self.greetings or reading.category in GAMES or reading.name or reading.label_name:
            return None
        said = sorted({self.rows[n]["intent"] for run in reading.runs for n in run.rows or ()}, key=INTENT_RANK.__getitem__)
        return next((i for i in said if self.naming.get(i) == TEXT_NAMES), None)

    def telling(self, part: str, reading: Reading) -> bool:
        """Whether a part tells what the face does: not beside a part that makes it something else (parts.json
        `unless`: <(_ _)> beside zzZ is a head nodding off, not a bow), nor in a face whose text says a feeling that
        does (`unless_said`: a table banged beside ﾌﾟﾝﾌﾟﾝ is banged in a huff, not in laughter)."""
        row = self.parts[part]
        said = {self.rows[n]["intent"] for run in reading.runs for n in run.rows or ()}
        return not set(row.get("unless", ())) & set(reading.parts) and not set(row.get("unless_said", ())) & said

    @staticmethod
    def _part_names(row: dict, concepts: frozenset[str]) -> bool:
        """Whether a telling part outweighs the name its labels give, whose concepts are `concepts`."""
        agrees, contradicts = row.get("agrees"), row.get("contradicts")
        if agrees is not None and contradicts is not None:
            return bool(concepts & frozenset(contradicts)) or not concepts & frozenset(agrees)
        if contradicts is not None:
            return bool(concepts & frozenset(contradicts))
        return not concepts & frozenset(agrees or ())

    def usage_intent(self, reading: Reading) -> str | None:
        """The intent whose usage and "when to send it" a face gets: the strongest of its text's leading intent and
        the intents its parts stand for (parts.json `intent`). m(_ _)m alone is a deep bow, not the greeting its
        labels file it under; m(_ _)m ｱﾘｶﾞﾄｳ says thank you, a set phrase that outranks the bow. An intent that names the
        face by its text (naming_intent) is its text's leading one: キャァ♪…ウマイウマイ♪, named Yummy, is sent over good
        food, not for the fright a squeal (キャァ) may be."""
        said = self.naming_intent(reading) or (reading.intent if reading.intent in STRONG_INTENTS else None)
        drawn = [self.part_intents[part] for part in reading.parts if part in self.part_intents and self.telling(part, reading)]
        return min(filter(None, (said, *drawn)), key=INTENT_RANK.__getitem__, default=None)

    def waves(self, reading: Reading, text: str) -> bool:
        """Whether a face may be waving hello or bye: it draws a raised hand (HAND_PARTS, RAISED_HAND), or says a
        greeting or calls out to someone. The dataset labels thousands of faces that do neither greeting, hello, hi and
        wave: (●＿●) ｻﾝｸﾞﾗｽ, (;￢д￢) ｱﾔｼｲ, (=*´ ェ ｀*=)ﾌﾟｯ."""
        said = {self.rows[n]["intent"] for run in reading.runs for n in run.rows or ()}
        return not HAND_PARTS.isdisjoint(reading.parts) or RAISED_HAND.search(text) is not None \
            or not said.isdisjoint(self.greetings | WAVED_WITH)

    def shows(self, concept: str, reading: Reading, text: str) -> bool:
        """Whether a face shows what a name of the dataset standing for `concept` claims it does: a wave or a greeting
        (waves), a heart or a musical note (CLAIMED_PARTS)."""
        return self.waves(reading, text) if concept == GREETING else not CLAIMED_PARTS[concept].isdisjoint(reading.parts)

    def says_only(self, reading: Reading, intent: str) -> bool:
        """Whether a feeling is the only one a face's text says (not ナミダガ…アハハ), in a word of more than one
        kana or a kanji (殺, 呪): ブ alone is a boo, a raspberry, baby talk or a pig. Only then does it outweigh the labels. A feeling the
        intent outranks (intents.json `outranks`: a threat, a laugh) does not count against it."""
        rows = [self.rows[n] for run in reading.runs for n in run.rows or ()]
        # An intent may outrank another feeling beside it (intents.json `outranks`): ｱﾊﾊﾊ (殺す) says only a threat.
        outranked = set(self.intents[intent].get("outranks", ())) if intent in self.intents else set()
        return {row["intent"] for row in rows} & set(STRONG_INTENTS) - outranked == {intent} \
            and any(len(row["key"]) > 1 or "CJK" in unicodedata.name(row["key"], "") for row in rows if row["intent"] == intent)

    def _named_by(self, intent: str) -> tuple[str, str, str]:
        return ("label", self.label_names[intent], "text") if intent in self.label_names else ("intent", intent, "text")

    def contradicted(self, intent: str | None, concepts: frozenset[str]) -> bool:
        """Whether a name of these concepts contradicts what a text of this intent says."""
        return bool(concepts & self.contradicts.get(intent, frozenset()))

    def lead_part(self, reading: Reading) -> str | None:
        """The most telling part a face draws: one that names a category (a riichi stick), else the first of
        them in parts.json, which lists props and actions before eyes and mouths."""
        return min(reading.parts, key=lambda p: (not self.parts[p].get("category"), self._part_rank[p]), default=None)

    def _spelled(self, written: list[str], text: str) -> tuple[Run, ...] | None:
        """A word spelled across faces, a letter or two per face: (^o^)オ(^。^)メ(^-^)デ(^o^)ト, and ｱﾀ(ﾟﾟ )( ｡｡)ﾌﾀ
        (ata-futa, flustered), read as one run, not as letters or as two words (ｱﾀ alone is a battle cry). Two letters
        drawn apart by long lines are one word drawn out: ｶﾞ━━(ﾟДﾟ;)━━━ﾝ is がーん, aghast, not がん, a clang."""
        keys = [faces.normalise(run.strip(ARM_CHARS) or run) for run in written]  # ｱﾀヽ|；_；ゞ=ヾ；_；|ﾉﾌﾀ: arms at |
        if len(written) < 2 or any(len(key) > 2 for key in keys):
            return None
        joined = "".join(written)
        drawn_out = "ー".join(keys)
        if len(keys) == 2 and drawn_out in self.row_of and DRAWN_OUT_LINE.search(text):
            return (Run(joined, self.rows[self.row_of[drawn_out]]["romaji"], (self.row_of[drawn_out],)),)
        if faces.normalise(joined) in self.row_of:
            return (self.read_run(joined),)
        if all(len(key) == 1 for key in keys) or "".join(keys) not in self.row_of:
            return None
        number = self.row_of["".join(keys)]
        return (Run(joined, self.rows[number]["romaji"], (number,)),)

    @staticmethod
    def _slamming_arm(text: str, start: int, end: int) -> int | None:
        """Where the arm starts whose star at text[start:end] slams down (ﾉ彡☆, ノ＿彡☆, ノ彡_☆, ノ☆彡) with no face there
        to be hit, or None: (ﾟ▽ﾟ=)ﾉ彡☆ｷﾞｬﾊﾊ!! bangs the table, ﾉ彡☆(x_x) slaps a face."""
        if text[end:].lstrip(" 　彡")[:1] in HIT_FACE:
            return None
        if swung := BANG_BEFORE.search(text, 0, start):
            return swung.start()
        return start - 1 if start and text[start - 1] in "ノﾉ" and text[end:end + 1] == "彡" else None

    @staticmethod
    def _lands(between: str) -> bool:
        """Whether what lies between a blow and a star lets the blow land there: nothing but its flight, or one
        face a few letters wide (the one it hits)."""
        if all(ch in FLIGHT for ch in between):
            return True
        return len(between) <= 6 and bool(BRACKETS & set(between)) \
            and not any(ch in "☆★" or ch.isascii() and ch.isalnum() for ch in between)

    def _beside_a_hit(self, text: str, start: int, end: int, found, runs) -> bool:
        """Whether the star at text[start:end] is the flash of a hit: it touches a fist, a weapon or a thrown
        table, it sits where a swung arm meets a second face (`_〇☆(`, `θ☆(`, `／~~~☆(`, `○☆)ロ゜)`), or the face
        says a hit word (source.json `hit`: バキッ, ﾁｮｯﾌﾟ, ﾊﾟﾝﾁ) and no twinkle (キラッ)."""
        if any(part_id in IMPACT_PARTS | FLUNG_PARTS and s <= end and e >= start for s, e, part_id in found):
            return True
        if text[start - 1:start] in SWUNG and text[end:end + 1] in HIT_FACE and text[start - 2:start - 1] not in HIT_FACE:
            return True  # not (=☆(●●)☆=): a cheek right inside a face's bracket, and the star an eye
        arm = text[start - 2:start - 1] if text[start - 1:start] in MOTION_MARKS else text[start - 1:start]
        if arm and arm in FIST_ENDS and text[end:end + 1] in FACING_BACK:
            return True
        if text[start - 1:start] in SWUNG and text[end:end + 2] in HIT_FACE_FISTED:
            return True
        if text[start - 1:start] in FACING_BACK and text[end:].startswith(ARM_BACK):
            return True
        # A fist closing a face after the star is a cheek, not a blow: ★(●´ｗ｀○).
        if any(part_id in IMPACT_PARTS and self._lands(text[e:start] if e <= start else text[end:s])
               and not (e > start and text[s:e] in CHEEKS) for s, e, part_id in found):
            return True
        said = [self.rows[n] for run in runs for n in run.rows or ()]
        return any(row.get("hit") for row in said) and not any(row["romaji"].startswith(TWINKLES) for row in said)


# ---------------------------------------------------------------- writing what was read

# Intents whose glosses name a thing rather than say a phrase: "The text バキッ is the crack of a punch"
# where a phrase "means" its gloss.
THINGS = frozenset({"sound", "action", "name", "object", "letter", "none", "games", "food", "seasons"})
MAX_MEANING_RUNS = 2


# Separators of meaning_pieces (ASCII unit and record separators): they never occur in a face.
UNIT, RECORD = "\x1f", "\x1e"


def meaning_rank(intent: str) -> int:
    """How much a run of this intent says, for a meaning that cannot show every run: the rank of the strong intents;
    the weak ones (a letter, an exclamation, a plain word) alike, after them."""
    return min(INTENT_RANK[intent], len(STRONG_INTENTS))


def meaning_pieces(glossary: Glossary, runs: tuple[Run, ...]) -> str:
    """What an item's meaning is written from, in any locale: its explained runs, each as text, romaji and fragment id
    (glossary row number + 1). The service fills the locale's `meaning` frame with them. Of more than it shows, the
    runs of the strongest intents, in the face's order: ﾋｭｰｰ ｽﾄｯ…ﾀﾀﾞｲﾏｧ means "I'm home", not a whoosh and a thud. The
    weak intents rank alike, so a word spelled across faces (こ…ん…ば…ん…わ) shows its first letters. A row is shown once,
    as a note says it once: (汗) あせ writes one word twice, in kanji and in kana. A text is shown once too, as its first
    place read by a row reads it (ｫﾊ…ｫﾊ: おはよ, not then は; said_pieces)."""
    explained, shown, texts = [], set(), set()
    for run in dict.fromkeys(runs):
        if run.rows and run.rows not in shown and run.text not in texts:
            shown.add(run.rows)
            texts.add(run.text)
            explained.append(run)
    if len(explained) > MAX_MEANING_RUNS:
        strongest = sorted(range(len(explained)), key=lambda i: meaning_rank(glossary.rows[explained[i].rows[0]]["intent"]))
        explained = [explained[i] for i in sorted(strongest[:MAX_MEANING_RUNS])]
    return RECORD.join(UNIT.join((run.text, run.romaji, str(run.rows[0] + 1))) for run in explained)


# How a note's frame reads a piece of what a face says (said_pieces): the text "means" a phrase's gloss, "is" the gloss
# of a thing, or is written without a row of the glossary ("unknown"): the locale's frames text_means, text_is and
# text_unknown (table note_frames). text_unknown says the face "also" writes it, after a sentence on another text; the
# note's first sentence has text_unknown_first, which says no "also" (UNKNOWN_FIRST).
MEANS, IS, UNKNOWN, UNKNOWN_FIRST = "m", "i", "u", "w"


def said_pieces(glossary: Glossary, runs: tuple[Run, ...]) -> str:
    """What a note's sentences about a face's text are written from, in any locale: each piece as text, romaji,
    fragment id (0 for none) and frame (MEANS, IS, UNKNOWN, or UNKNOWN_FIRST as the note's first sentence), a glossary
    row once. The service fills the locale's frames with them; a lone character without a row and without a reading
    (the ｮ of a hand on a wall, a stroke 丿 drawn as an arm) reads as nothing and is left out, while a longer text that
    cutlet cannot read (Chinese 翻桌) is named without romaji."""
    # A text once, however it is read where it recurs (ｮﾁ…ｮﾁ: yochi, then chi; ｫﾊ…ｫﾊ: おはよ, then は), in the place
    # it is first written, as the first of its places that a row explains says it (ｨｪｨ…ｨｪｨ: unread, then いえい).
    said_as: dict[str, Run] = {}
    for run in runs:
        if run.rows is None and not (run.romaji or len(run.text) > 1):
            continue
        if run.text not in said_as or (said_as[run.text].rows is None and run.rows is not None):
            said_as[run.text] = run
    pieces, seen = [], set()
    for run in said_as.values():
        if run.rows is None:
            pieces.append((run.text, run.romaji, 0))
            continue
        if len(run.rows) == 1:
            said = [(run.text, run.romaji, run.rows[0])]
        else:
            said = [(glossary.rows[n]["variants"][0] if glossary.rows[n]["variants"] else glossary.rows[n]["key"],
                     glossary.rows[n]["romaji"], n) for n in run.rows]
        for text, romaji, number in said:
            if number not in seen:
                seen.add(number)
                pieces.append((text, romaji, number + 1))
    return RECORD.join(
        UNIT.join((text, romaji, str(fragment),
                   (UNKNOWN_FIRST if index == 0 else UNKNOWN) if not fragment
                   else IS if glossary.rows[fragment - 1]["intent"] in THINGS else MEANS))
        for index, (text, romaji, fragment) in enumerate(pieces)
    )


class TextWriter:
    """What the glossary says in one locale: the glosses of its rows."""

    def __init__(self, glossary: Glossary, locale: str):
        self.glossary = glossary
        self.glosses = glossary.texts(locale)["fragments"]

    def glosses_in_order(self) -> list[str]:
        """The gloss of every glossary row, in row order (fragment id = row number + 1)."""
        return [self.glosses[row["key"]] for row in self.glossary.rows]
