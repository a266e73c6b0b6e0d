"""Search relevance (issue 6): ranking rules, normalisation, faces, and the public relevance set."""

from __future__ import annotations

import dataclasses
import json
import statistics
from array import array
from pathlib import Path

import pytest

from bench import relevance

ROOT = Path(__file__).resolve().parent.parent


def search(client, q, locale="en", limit=25, page=1):
    response = client.get("/api/v1/search", query_string={"q": q, "locale": locale, "limit": limit, "page": page})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


CONCEPTS = set(json.loads((ROOT / "tools" / "locales" / "en.json").read_text(encoding="utf-8"))["concepts"])


def labels_of(catalog, item):
    """What a face means: its dataset labels, and the concepts its English keywords carry (a face whose text says ﾄﾞﾓ
    carries thanks, whatever it was labelled)."""
    profile = catalog.entry(item["id"]).profile_id
    (labels,) = catalog.db.execute("SELECT labels FROM profiles WHERE id = ?", (profile,)).fetchone()
    (keywords,) = catalog.db.execute("SELECT keywords FROM profile_texts WHERE profile_id = ? AND locale = 'en'", (profile,)).fetchone()
    return set(json.loads(labels)) | set(json.loads(keywords)) & CONCEPTS


def test_public_relevance_set_scores_at_least_095_with_no_empty_query(client):
    queries = json.loads((ROOT / "bench" / "data" / "relevance-queries.json").read_text())["queries"]
    rows = relevance.evaluate(lambda path, params: client.get(path, query_string=params).get_json(), queries, baseline=False)
    assert statistics.mean(r["service"] for r in rows) >= 0.95, [(r["q"], r["service"]) for r in rows if r["service"] < 1]
    assert all(r["service_results"] > 0 for r in rows)


def test_an_exact_keyword_beats_a_stemmed_or_prefix_match(client):
    love = search(client, "love", limit=10)["data"]
    assert all(i["match"]["value"] == "love" for i in love)  # not "lovely", which stems to love
    typed = search(client, "danc", limit=5)["data"]
    assert typed and all(i["match"]["value"].startswith("danc") for i in typed)


@pytest.mark.parametrize("q, locale", [("mort de rire", "fr"), ("llorando de risa", "es"), ("morrendo de rir", "pt"),
                                       ("morire dal ridere", "it")])
def test_dying_of_laughter_is_a_laugh_keyword_in_its_language(client, q, locale):
    first = search(client, q, locale=locale, limit=10)["data"]
    # A laugh keyword, a name (Mort de rire) or what a laughing face says (げらげら: “morrendo de rir”), in its language.
    assert len(first) == 10 and all((i["match"]["value"].lower(), i["match"]["locale"]) == (q, locale) for i in first), first


def test_keywords_and_names_rank_above_category_names(client, catalog):
    body = search(client, "sparkle", limit=25)
    assert {i["match"]["field"] for i in body["data"]} <= {"keyword", "name"}


def test_a_profiles_own_labels_rank_above_words_the_locale_files_add(client, catalog):
    # "victory" is a keyword of every proud face (the locale files add it to the concept) and a label of a few.
    ranked = [labels_of(catalog, i) for i in search(client, "victory", limit=25)["data"]]
    labelled = sum(1 for labels in ranked if "victory" in labels)
    assert 0 < labelled < len(ranked) and all("victory" in labels for labels in ranked[:labelled])


def test_the_first_word_a_locale_gives_for_a_label_ranks_first(client, catalog):
    # German "müde" is the first word for "tired" and one more word for "sleepy".
    first = search(client, "müde", locale="de", limit=5)["data"]
    assert all("tired" in labels_of(catalog, i) for i in first)


def test_a_whole_category_name_ranks_above_prefix_matches(client, catalog):
    first = search(client, "running", limit=10)["data"]
    assert [i["category"] for i in first] == ["running"] * 10
    assert all(i["match"] == {"field": "category", "value": "Running", "locale": "en"} for i in first)


def test_words_no_face_has_together_show_the_rarer_word_first(client, catalog):
    # No face is both sad and a dog: the dogs (a few profiles) come before the sad faces (many).
    pages = [search(client, "sad dog", limit=25, page=n)["data"] for n in range(1, 9)]
    labels = [labels_of(catalog, i) for page in pages for i in page]
    dogs = sum(1 for item in labels if "dog" in item)
    assert 25 < dogs < len(labels) and all("dog" in item for item in labels[:dogs])
    assert all("sad" in item for item in labels[dogs:])


@pytest.mark.parametrize("q, label", [("angrily", "angry"), ("happyness", "happy"), ("surpised", "surprised")])
def test_a_word_no_keyword_has_falls_back_to_its_longest_known_beginning(client, catalog, q, label):
    first = search(client, q, limit=10)["data"]
    assert len(first) == 10 and all(label in labels_of(catalog, i) for i in first)


def test_gibberish_finds_nothing_rather_than_anything(client):
    assert search(client, "xyzzyq")["data"] == []


def test_a_match_in_the_requested_locale_ranks_first(client):
    for locale in ("es", "pt"):
        first = search(client, "gato", locale=locale, limit=3)["data"]
        assert all(i["match"]["locale"] == locale for i in first)


@pytest.mark.parametrize("q, locale", [("cat", "ja"), ("кошка", "en"), ("猫", "fr"), ("kucing", "de"), ("고양이", "es")])
def test_any_language_finds_results_whatever_the_locale(client, catalog, q, locale):
    body = search(client, q, locale=locale, limit=10)
    assert len(body["data"]) == 10
    assert all("cat" in labels_of(catalog, i) for i in body["data"])
    assert body["data"][0]["name"] == client.get(f"/api/v1/kaomojis/{body['data'][0]['id']}?locale={locale}").get_json()["data"]["name"]


def test_clean_faces_come_first_among_equally_relevant_entries(client, catalog):
    first = search(client, "happy", limit=10)["data"]
    for item in first:
        entry = catalog.entry(item["id"])
        assert not entry.ja_context and entry.display_width <= 10
    assert first[0]["text"] == "(◕‿◕)"


def test_no_page_is_a_run_of_near_copies(client):
    from kaomoji_api import textnorm

    for q in ("thanks", "happy", "dance", "surprised"):
        shapes = [textnorm.face_shape(i["text"]) for i in search(client, q)["data"]]
        assert len(set(shapes)) == len(shapes), q


@pytest.mark.parametrize("variant, original, locale", [
    ("ｲﾇ", "イヌ", "ja"), ("ねこ", "ネコ", "ja"), ("CAT", "cat", "en"), ("Katze", "katze", "de"), ("colere", "colère", "fr"),
])
def test_width_kana_case_and_accents_are_folded(client, variant, original, locale):
    a, b = search(client, variant, locale=locale), search(client, original, locale=locale)
    assert a["data"] and [i["id"] for i in a["data"]] == [i["id"] for i in b["data"]]


@pytest.mark.parametrize("inflected, label", [("cats", "cat"), ("dancing", "dance"), ("dogs", "dog"), ("crying", "crying")])
def test_english_plurals_and_ing_forms_find_the_base_word(client, catalog, inflected, label):
    body = search(client, inflected, limit=10)
    assert len(body["data"]) == 10 and all(label in labels_of(catalog, i) for i in body["data"])


@pytest.mark.parametrize("fragment", ["(╯°□°)╯", "ʕ•ᴥ•ʔ", "ツ", "ᴥ", "┻━┻", "T_T"])
def test_pasted_faces_and_fragments_find_entries_containing_them(client, fragment):
    body = search(client, fragment, limit=10)
    assert body["data"] and all(fragment in i["text"] for i in body["data"])
    assert body["data"][0]["match"] == {"field": "text", "value": fragment, "locale": None}


def test_a_face_of_letters_finds_the_faces_that_write_it_and_no_word_holding_one_of_its_letters(client, catalog):
    """T_T names no word: its t would match every keyword and phrase holding one (je t'aime, “don't want it!”)."""
    written = [p for p in catalog.positions_with_text("T_T") if p < catalog.entries.visible]
    assert search(client, "T_T")["pagination"]["total"] == len(written) > 100
    for page in (1, 4, 9):  # page 9: results 201 to 225
        body = search(client, "T_T", page=page)
        assert body["data"] and all(i["match"] == {"field": "text", "value": "T_T", "locale": None} for i in body["data"])


def test_a_function_word_is_no_match_of_a_query_with_other_words(client, catalog):
    """A cat that sleeps, asked with a word between in every locale that has function words ("gato de dormido",
    "chat qui dort"): no face is found by the "de" or "qui" alone, as "de malas" was for "llorando de risa"."""
    from kaomoji_api import textnorm
    from tools.locales import load_locale

    asked = 0
    for code, locale in catalog.locales.items():
        concepts = load_locale(code)["concepts"]
        words = f"{concepts['cat'][0]} {concepts['sleepy'][0]}"
        for function_word in sorted(locale.function_words):
            first, second = words.split(" ", 1)
            body = search(client, f"{first} {function_word} {second}", locale=code, limit=10)
            asked += 1
            for item in body["data"]:
                match = item["match"]
                stemmer = textnorm.stemmer_for(catalog.locales[match["locale"]].stemmer)
                found = textnorm.Query(match["value"]).tokens(stemmer)
                wanted = textnorm.Query(words).tokens(stemmer)
                assert any(token.startswith(w) or w.startswith(token) for token in found for w in wanted), (code, function_word, match)
    assert asked > 100


def test_an_exact_face_comes_first(client):
    assert search(client, "ʕ•ᴥ•ʔ")["data"][0]["text"] == "ʕ•ᴥ•ʔ"
    assert search(client, "ツ")["data"][0]["text"] == "ツ"


def test_each_result_says_which_keyword_matched_and_its_locale(client):
    item = search(client, "悲しい", locale="en", limit=1)["data"][0]
    assert item["match"] == {"field": "keyword", "value": "悲しい", "locale": "ja"}


def test_a_query_with_extra_words_still_finds_the_words_it_has(client, catalog):
    body = search(client, "谢谢你", locale="zh-Hans", limit=10)
    # Thanks by its labels, or by what its face says (an entry named 谢谢: ありがと).
    assert len(body["data"]) == 10 and all("thanks" in labels_of(catalog, i) or i["name"] == "谢谢" for i in body["data"])


def test_pages_of_a_search_continue_without_repeats(client):
    seen = []
    for page in range(1, 5):
        seen += [i["id"] for i in search(client, "thanks", page=page)["data"]]
    assert len(seen) == len(set(seen)) == 100


def test_total_counts_every_result(client):
    body = search(client, "spider", limit=25)
    assert body["pagination"]["total"] == len(body["data"]) == 9


# ---------------------------------------------------------------- issue 15: what faces say, emoji, typos, phrases

def faces_saying(catalog, phrase, locale):
    """Ids of the faces that say a glossary row whose phrase in `locale` is `phrase` (as search folds it)."""
    from kaomoji_api import textnorm
    from kaomoji_api.search import FRAGMENT_POSITION
    from tools.search_index import gloss_phrase

    wanted, ids = textnorm.comparable(phrase), set()
    for fragment_id, gloss in catalog.db.execute("SELECT fragment_id, gloss FROM fragment_texts WHERE locale = ?", (locale,)):
        if textnorm.comparable(gloss_phrase(gloss)) == wanted:
            (blob,) = catalog.db.execute("SELECT positions FROM fragment_faces WHERE fragment_id = ?", (fragment_id,)).fetchone()
            ids |= {catalog.entries.ids[p & FRAGMENT_POSITION] for p in array("I", blob)}
    return ids


@pytest.mark.parametrize("q, locale, phrase, phrase_locale", [
    ("good night", "en", "good night", "en"), ("bonne nuit", "fr", "bonne nuit", "fr"), ("晚安", "zh-Hans", "晚安", "zh-Hans"),
    ("잘 자", "ko", "잘 자", "ko"), ("oyasumi", "en", "good night", "en"), ("never mind", "en", "never mind", "en"),
    ("gute Nacht", "ja", "gute Nacht", "de"), ("ドンマイ", "en", "never mind", "en"), ("ayuda", "es", "¡ayuda!", "es"),
])
def test_what_a_face_says_is_searchable_in_every_locale(client, catalog, q, locale, phrase, phrase_locale):
    saying = faces_saying(catalog, phrase, phrase_locale)
    first = search(client, q, locale=locale, limit=10)["data"]
    assert len(first) == 10 and all(i["id"] in saying for i in first), [i["text"] for i in first]


def test_a_face_ranks_higher_the_more_of_it_the_phrase_explains(client, catalog):
    from kaomoji_api.search import FRAGMENT_POSITION

    (fragment_id,) = catalog.db.execute("SELECT id FROM fragments WHERE key = 'どんまい'").fetchone()
    (blob,) = catalog.db.execute("SELECT positions FROM fragment_faces WHERE fragment_id = ?", (fragment_id,)).fetchone()
    bucket = {catalog.entries.ids[p & FRAGMENT_POSITION]: p >> 20 for p in array("I", blob)}
    ranked = [bucket[i["id"]] for page in (1, 2, 3) for i in search(client, "never mind", limit=25, page=page)["data"] if i["id"] in bucket]
    assert len(ranked) == 75 and ranked == sorted(ranked) and ranked[0] == 0


def test_every_glossary_phrase_in_every_locale_finds_the_faces_that_say_it_first(catalog):
    # The whole glossary (bench/says_sweep.py): a row's phrase can also be a profile's own word (“yay!”), which
    # ranks first; the others find the faces that say them first.
    from bench import says_sweep
    from kaomoji_api.search import Searcher

    rows = says_sweep.sweep(catalog, Searcher(catalog, depth=10, cache_bytes=0))
    assert len(rows) == len(catalog.locales)
    for code, found in rows.items():
        assert statistics.mean(first for first, _, _ in found) >= 0.9, code  # measured: 0.926 (ja) to 0.987 (ko)


@pytest.mark.parametrize("q, locale", [("merry christmas", "en"), ("feliz navidad", "es"), ("メリークリスマス", "ja")])
def test_a_face_that_writes_a_phrase_in_latin_letters_says_it_too(client, q, locale):
    # Four faces say メリークリスマス in Japanese, six more write Merry*Christmas: a query in any locale finds all ten,
    # those that say it in Japanese first.
    first = search(client, q, locale=locale, limit=10)["data"]
    latin = ["merry" in i["text"].casefold() and "christmas" in i["text"].casefold() for i in first]
    assert len(first) == 10 and all(i["match"]["field"] in ("says", "text") for i in first)  # text: written as queried
    assert 0 < latin.index(True) and latin == sorted(latin) and sum(latin) >= 6, [i["text"] for i in first]


def test_a_phrase_is_read_in_latin_letters_only_whole_words_of_three_letters_or_more():
    from tools.search_index import latin_phrase, latin_words

    assert latin_words("(*^-')ﾉ☆“Merry*Christmas”☆") == ("merry", "christmas")
    assert latin_phrase("Merry Christmas") == ("merry", "christmas") and latin_phrase("bon appétit") == ("bon", "appetit")
    assert latin_phrase("oh!") is None and latin_phrase("晚安") is None and latin_phrase("спасибо") is None


@pytest.mark.parametrize("q, locale, phrase, name", [("help me", "en", "help!", "Help"), ("tanti auguri", "it", "auguri!", None)])
def test_a_query_word_that_is_a_whole_phrase_ranks_before_keywords_holding_another_word_in_part(client, q, locale, phrase, name):
    # help is the whole of “help!” (助けて, whose faces are named Help); me is only a part of the keywords “me rendo”,
    # “that's me”: every face of the first page says the phrase (matched by it, or by its name and another keyword).
    first = search(client, q, locale=locale, limit=10)["data"]
    assert len(first) == 10, first
    for item in first:
        assert item["match"] == {"field": "says", "value": phrase, "locale": locale} or item["name"] == name, (item["text"], item["match"])


def test_a_phrase_that_is_also_a_keyword_shows_faces_that_are_both_first(client, catalog):
    # 晚安 is the Chinese "good night" and a word for sleepy: sleepy faces that say おやすみ come first.
    saying = faces_saying(catalog, "晚安", "zh-Hans")
    first = search(client, "晚安", locale="zh-Hans", limit=10)["data"]
    assert all(i["id"] in saying for i in first)


EMOJI = [("😂", "laugh"), ("😭", "crying"), ("🐶", "dog"), ("👋", "greeting"), ("🙏", "thanks"), ("🎉", "celebrate")]


@pytest.mark.parametrize("emoji, label", EMOJI)
def test_an_emoji_finds_the_faces_that_mean_it(client, catalog, emoji, label):
    first = search(client, emoji, locale="ja", limit=10)["data"]
    assert len(first) == 10 and all(label in labels_of(catalog, i) for i in first)


@pytest.mark.parametrize("variant, plain", [("❤️", "❤"), ("👋🏽", "👋"), ("🙏🏿", "🙏"), ("💃🏻", "💃")])
def test_variation_selectors_and_skin_tones_fold_away(client, variant, plain):
    assert [i["id"] for i in search(client, variant)["data"]] == [i["id"] for i in search(client, plain)["data"]] != []


def test_every_emoji_of_the_map_finds_faces_of_its_first_label(catalog):
    from kaomoji_api.search import Searcher

    searcher = Searcher(catalog, depth=10, cache_bytes=0)
    sizes = {}
    for (labels,) in catalog.db.execute("SELECT labels FROM profiles"):
        for label in json.loads(labels):
            sizes[label] = sizes.get(label, 0) + 1
    checked = missed = 0
    for emoji, labels in catalog.db.execute("SELECT emoji, labels FROM emoji_labels"):
        label = json.loads(labels)[0]
        if sizes.get(label, 0) < 3:
            continue
        hits, _ = searcher.search(emoji, "en", 0, 1)
        checked += 1
        profile = catalog.entries.profiles[hits[0][0]] if hits else None
        missed += profile is None or label not in json.loads(catalog.db.execute("SELECT labels FROM profiles WHERE id = ?", (profile,)).fetchone()[0])
    assert checked > 300 and missed / checked <= 0.08, (missed, checked)


@pytest.mark.parametrize("typo, word, locale", [
    ("hapy", "happy", "en"), ("slepy", "sleepy", "en"), ("celebrte", "celebrate", "en"), ("trsite", "triste", "es"),
    ("katze", "katze", "de"), ("surpirsed", "surprised", "en"), ("kuching", "kucing", "id"),
])
def test_a_misspelled_word_is_corrected_and_the_match_says_so(client, typo, word, locale):
    first = search(client, typo, locale=locale, limit=10)["data"]
    assert len(first) == 10
    if typo == word:  # a word of the index is never corrected
        assert all("corrected_from" not in i["match"] for i in first)
    else:
        assert all(i["match"]["corrected_from"] == typo and word in i["match"]["value"].casefold() for i in first)


@pytest.mark.parametrize("a, b, distance", [
    ("suprised", "surprised", 1), ("hapy", "happy", 1), ("teh", "the", 1), ("abc", "bca", 2), ("ca", "abc", 3),
    ("embarased", "embarrassed", 2), ("kitten", "sitting", 3), ("", "abc", 3), ("same", "same", 0), ("ab", "ba", 1),
])
def test_edit_distance_counts_insertions_deletions_substitutions_and_swaps_of_neighbours(a, b, distance):
    from kaomoji_api import textnorm

    assert textnorm.edit_distance(a, b) == textnorm.edit_distance(b, a) == distance


def osa_distance(a: str, b: str) -> int:
    """The textbook optimal string alignment distance, the whole table filled: what edit_distance must agree with."""
    table = [[i + j if not i or not j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


def test_an_edit_distance_is_exact_and_bounded_by_most_it_is_exact_up_to_it_and_one_more_past_it():
    import random

    from kaomoji_api import textnorm

    rng = random.Random(15)
    for _ in range(20_000):
        a, b = ("".join(rng.choices("abcd", k=rng.randrange(10))) for _ in range(2))
        distance = osa_distance(a, b)
        assert textnorm.edit_distance(a, b) == distance, (a, b)
        for most in range(4):
            assert textnorm.edit_distance(a, b, most) == min(distance, most + 1), (a, b, most)


def test_every_label_with_one_letter_dropped_is_found_again(catalog):
    # The whole English vocabulary of labels: each of 5+ letters, its middle letter dropped, finds one of the
    # label's words first (corrected, or through its beginning). A concept of ours that no label of the dataset has
    # (explosion) is found through what faces say as well, so its first match may be a gloss: it must find a face of
    # that concept first.
    import kaomoji_dataset

    from kaomoji_api.search import Searcher

    searcher = Searcher(catalog, depth=1, cache_bytes=0)
    english = json.loads((ROOT / "tools" / "locales" / "en.json").read_text(encoding="utf-8"))["concepts"]
    labels = {label for e in kaomoji_dataset.all() for label in (e["category"], *e["emotion"], *e["intent"], *e["subject"])}
    words = [c for c in english if c.isalpha() and len(c) >= 5]
    found, ours = 0, [word for word in words if word not in labels]
    for word in words:
        hits, _ = searcher.search(word[:len(word) // 2] + word[len(word) // 2 + 1:], "en", 0, 1)
        if word in ours:
            assert hits and word in catalog.profile_texts("en")[catalog.entries.profiles[hits[0][0]]][1], word
        else:
            found += bool(hits) and hits[0][1].value.casefold() in english[word] + [word]
    assert ours == ["explosion"] and len(words) - len(ours) > 40 and found / (len(words) - len(ours)) >= 0.9, (found, len(words))


@pytest.mark.parametrize("q", ["xyzzyq", "qwxzjkvb", "zzkqwvpx", "bvnmqx"])
def test_gibberish_is_not_corrected_into_anything(client, q):
    assert search(client, q)["data"] == []


@pytest.mark.parametrize("q", ["ドゴーン", "シュッ", "ヒロットコ"])
def test_a_word_that_only_faces_contain_finds_those_faces_first(client, q):
    first = search(client, q, locale="ja", limit=10)["data"]
    # Before: 8,440 results led by ¯\_(ツ)_/¯ through the keyword ガーン and one shared bigram (ーン).
    assert len(first) == 10 and all(i["match"]["field"] in ("says", "text") for i in first)


def test_every_spelling_of_the_glossary_finds_faces_that_hold_or_say_it(client, catalog):
    # Each glossary row's first written variant that faces hold as written: the faces holding or saying it come
    # before keywords that merely share a bigram with it.
    rows = json.loads((ROOT / "tools" / "glossary" / "source.json").read_text(encoding="utf-8"))
    checked = good = 0
    for row in rows[:300]:
        variant = next((v for v in row["variants"] if len(v) >= 3), None)
        if variant is None or not catalog.positions_with_text(variant):
            continue
        first = search(client, variant, locale="ja", limit=1)["data"]
        checked += 1
        good += bool(first) and (variant in first[0]["text"] or first[0]["match"]["field"] == "says")
    assert checked > 50 and good / checked >= 0.95, (good, checked)


@pytest.mark.parametrize("q", ["crying laughing", "cat waving", "happy cat", "happy dog"])
def test_faces_matching_a_whole_phrase_come_first(client, catalog, q):
    from kaomoji_api import textnorm

    stemmer = textnorm.stemmer_for("english")
    words = set(textnorm.index_tokens(q, stemmer))
    ranked, texts = [], catalog.profile_texts("en")
    for item in search(client, q, limit=25)["data"]:
        name, keywords = texts[catalog.entry(item["id"]).profile_id]
        ranked.append(words <= {t for text in (name, *keywords) for t in textnorm.index_tokens(text, stemmer)})
    assert ranked[0] and ranked == sorted(ranked, reverse=True), ranked  # the whole phrase, then its words


def test_thank_you_so_much_finds_thanks(client, catalog):
    first = search(client, "thank you so much", limit=10)["data"]
    assert len(first) == 10 and sum("thanks" in labels_of(catalog, i) for i in first) >= 8


def test_every_profile_name_of_several_words_finds_a_face_of_that_name_first(catalog):
    from kaomoji_api.search import Searcher

    searcher = Searcher(catalog, depth=1, cache_bytes=0)
    names = {name for (name,) in catalog.db.execute("SELECT DISTINCT name FROM profile_texts WHERE locale = 'en'") if len(name.split()) > 1}
    good, texts = 0, catalog.profile_texts("en")
    for name in names:
        hits, _ = searcher.search(name, "en", 0, 1)
        good += bool(hits) and texts[catalog.entries.profiles[hits[0][0]]][0].casefold() == name.casefold()
    assert len(names) > 100 and good / len(names) >= 0.95, (good, len(names))


@pytest.mark.parametrize("q, locale, label", [
    ("happy birthday", "en", "celebrate"), ("生日快乐", "zh-Hans", "celebrate"),
])
def test_a_word_that_names_nothing_is_read_through_the_emoji_it_names(client, catalog, q, locale, label):
    # birthday and 生日 are CLDR keywords of 🎂 🎉 🥳, which mean celebrate.
    first = search(client, q, locale=locale, limit=10)["data"]
    assert len(first) == 10 and all(label in labels_of(catalog, i) for i in first)


@pytest.mark.parametrize("q, locale", [("greeting 猫", "en"), ("手を振る猫", "ja"), ("chat greeting", "fr")])
def test_a_query_mixing_languages_finds_the_faces_having_each_of_its_words_first(client, catalog, q, locale):
    # 手を振る is a CLDR keyword of 👋 (greeting): the query reads as greeting 猫, an English and a Japanese word.
    first = search(client, q, locale=locale, limit=10)["data"]
    assert len(first) == 10 and all({"cat", "greeting"} <= labels_of(catalog, i) for i in first), [i["text"] for i in first]


def test_the_issue_15_relevance_set_finds_something_for_every_query(client):
    queries = json.loads((ROOT / "bench" / "data" / "relevance-search.json").read_text())["queries"]
    rows = relevance.evaluate(lambda path, params: client.get(path, query_string=params).get_json(), queries, baseline=False)
    assert all(r["service_results"] > 0 for r in rows)
    # Measured 0.917 in session 17 (README, Search); issue 15's target is 0.9.
    assert statistics.mean(r["service"] for r in rows) >= 0.9


# ---------------------------------------------------------------- issue 15: cold search, the structures behind it

def test_the_one_index_of_every_locale_holds_each_search_key_of_the_catalog(catalog):
    # KeyIndex merges the twelve locales' keys: every row of search_keys is a hit of its key, kind and locale.
    from kaomoji_api.search import KeyIndex

    index = KeyIndex(catalog)
    by_kind = {"label": index.labels, "exact": index.exact, "stemmed": index.stemmed, "token": index.tokens,
               "category": index.category_tokens, "category_name": index.category_names}
    rows = 0
    for locale, kind, key, profiles, field, value in catalog.db.execute("SELECT locale, kind, key, profiles, field, value FROM search_keys"):
        flat = by_kind[kind][key]
        hits = {code: (mask, match) for code, mask, match in zip(flat[::3], flat[1::3], flat[2::3], strict=True)}
        assert hits[locale][0] == int.from_bytes(profiles, "little")
        assert (hits[locale][1].field, hits[locale][1].value, hits[locale][1].locale) == (field, value, locale)
        rows += 1
    assert rows == sum(len(flat) // 3 for kind in by_kind.values() for flat in kind.values()) > 20_000


def test_a_query_word_is_looked_up_with_each_locales_stem(catalog):
    # "cats" stems to cat in English only: the English keyword matches by its stem, other locales' keys are untouched.
    from kaomoji_api import textnorm
    from kaomoji_api.search import STEM, KeyIndex

    index = KeyIndex(catalog)
    ways = index.match(textnorm.Query("cats"), list(catalog.locales))
    assert any(strength == STEM and match.value == "cat" for strength, _, _, match in ways["en"])
    assert not any(strength == STEM for code, found in ways.items() if code != "en" for strength, _, _, _ in found)


@pytest.mark.parametrize("count", [0, 1, 2, 48, 49, 300, 1210])
def test_the_profiles_of_a_mask_are_its_set_bits_in_order(count):
    import random

    from kaomoji_api.search import profiles_of

    wanted = sorted(random.Random(count).sample(range(1210), count))
    assert profiles_of(sum(1 << p for p in wanted), 1210) == wanted


@pytest.mark.parametrize("count", [1, 5, 48, 49, 300, 1210])
def test_a_dense_tiers_walk_finds_every_entry_of_its_profiles_in_order(catalog, count):
    import random

    from kaomoji_api.search import entries_of, flagged_positions, profile_flags

    profiles = catalog.entries.profiles
    ids = max(profiles) + 1
    mask = sum(1 << p for p in random.Random(count).sample(range(ids), min(count, ids)))
    flags = profile_flags(mask, ids)
    walked = list(flagged_positions(flags, profiles))
    assert walked == [position for position, profile in enumerate(profiles) if flags[profile]]
    assert len(walked) == entries_of(mask, tuple(map(len, (catalog.entries.of_profile(p) for p in range(ids)))))


def test_a_fragments_faces_are_its_positions_without_their_buckets(catalog):
    from kaomoji_api.search import FRAGMENT_POSITION, without_buckets

    checked = 0
    for (blob,) in catalog.db.execute("SELECT positions FROM fragment_faces"):
        numbers = array("I", blob)
        assert without_buckets(numbers) == array("I", (n & FRAGMENT_POSITION for n in numbers))
        checked += any(n >> 20 for n in numbers)
    assert checked > 100  # fragments whose faces fall in more than one bucket


def test_a_kept_search_counts_the_censuses_of_its_face_tiers_in_its_size(client):
    """The search cache is bounded by what its results hold (kaomoji_api/lru.py): a face tier's census (a profile id and
    a count per profile its faces belong to, ~270 for ー) is part of that."""
    from kaomoji_api.current import served
    from kaomoji_api.search import Results

    with client.application.app_context():
        searcher = served().searcher
    ranking = searcher.ranking("ー", "ja")
    censuses = [payload[2] for kind, payload in ranking.tiers if kind == "faces" and payload[2]]
    assert censuses and max(len(c.profiles) for c in censuses) > 100
    uncounted = dataclasses.replace(ranking, tiers=tuple(
        (kind, (payload[0], payload[1], None) if kind == "faces" else payload) for kind, payload in ranking.tiers))
    assert Results(ranking, 1000).size - Results(uncounted, 1000).size == sum(8 * len(c.profiles) for c in censuses)


def test_a_busy_beginning_is_ored_on_its_first_query_and_kept(catalog):
    # A query of one or two letters that start many keys ("t"): their profiles are ORed once, when first asked for,
    # not for all ~170 such beginnings when the index loads (~190 KB a worker), and give what the keys give.
    from kaomoji_api.search import Searcher

    keys = Searcher(catalog, depth=1, cache_bytes=0).keys
    busy = keys.short_prefixes[id(keys.tokens)]
    assert len(busy) > 50 and all(hits is None for hits in busy.values())
    prefix, wanted = next(iter(busy)), set(catalog.locales)
    found = keys._prefixed(keys.tokens, keys.sorted_tokens, prefix, wanted)
    assert busy[prefix] is not None and sum(hits is not None for hits in busy.values()) == 1
    assert found == keys._ored(keys.tokens, keys.sorted_tokens, prefix, wanted) and found
