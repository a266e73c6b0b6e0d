"""The judged query set of issue 15 (bench/data/relevance-search.json) and the judgements of bench/relevance.py.

Only the set and its judgements are checked here, never search results: the set must stay independent of
how the search ranks it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from bench import relevance

ROOT = Path(__file__).resolve().parent.parent
SEARCH_SET = ROOT / "bench" / "data" / "relevance-search.json"
KINDS = {"says", "emoji", "typo", "contains", "phrase"}


def queries() -> list[dict]:
    return json.loads(SEARCH_SET.read_text(encoding="utf-8"))["queries"]


def test_the_set_spreads_over_the_five_kinds_and_nine_locales():
    qs = queries()
    assert len(qs) >= 72
    kinds = Counter(q["kind"] for q in qs)
    assert set(kinds) == KINDS and min(kinds.values()) >= 12, kinds
    assert len({q["locale"] for q in qs}) >= 9
    assert len({q["locale"] for q in qs if q["kind"] == "says"}) >= 9
    assert len({(q["q"], q["locale"]) for q in qs}) == len(qs)
    for q in qs:
        assert sum(key in q for key in relevance.JUDGEMENTS) == 1, q


def test_says_reads_the_japanese_runs_normalised():
    night = {"q": "good night", "says": ["おやすみ"], "says_text": ["good night"]}
    assert relevance.is_relevant(night, set(), "ヾ(・ω・)ノｵﾔｽﾐ~")
    assert relevance.is_relevant(night, set(), "(-_-)zzz オヤスミナサイ～")
    assert relevance.is_relevant(night, set(), "(人-ω-)｡o.ﾟ｡*･★GOOD NIGHT★")
    assert not relevance.is_relevant(night, {"sleepy"}, "(-_-)zzz")
    assert relevance.is_relevant({"says": ["どんまい"]}, set(), "( ´･･)ﾉ(._.`)ﾄﾞﾝﾏｲ")
    assert not relevance.is_relevant({"says": ["どんまい"]}, set(), "ドン(・ω・)")
    # Read as the glossary reads faces: a word spelled across the face, and a spelling a row joins to the word.
    assert relevance.is_relevant({"says": ["どんまい"]}, set(), "ドン(・ω・)マイ")
    assert relevance.is_relevant({"says": ["いただきます"]}, set(), "~~旦_(∩_∩ ) ｲﾀﾀﾞｷﾏｰｽ")


def test_relevant_all_needs_every_item_and_any_label_of_an_item():
    cat_waving = {"relevant_all": [["cat"], ["wave", "goodbye"]]}
    assert relevance.is_relevant(cat_waving, {"cat", "goodbye"}, "")
    assert relevance.is_relevant(cat_waving, {"cat", "wave", "hello"}, "")
    assert not relevance.is_relevant(cat_waving, {"cat", "happy"}, "")
    assert not relevance.is_relevant(cat_waving, {"dog", "wave"}, "")
    assert relevance.is_relevant({"relevant_all": ["cat", "cute"]}, {"cat", "cute"}, "")


def test_every_query_has_ten_relevant_faces_search_can_serve(full_catalog):
    rows = relevance.check_set(queries(), str(full_catalog))
    assert [(r["q"], r["locale"], r["relevant_faces"]) for r in rows if r["relevant_faces"] < relevance.DEPTH] == []
