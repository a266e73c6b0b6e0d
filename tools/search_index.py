"""The search index the builder precomputes: for each normalised key of a locale, the profiles it matches.

kaomoji_api/search.py loads what this writes (table search_keys) and ranks with it; the kinds of key are
described there and in schema.sql.
"""

from __future__ import annotations


def index_keys(terms) -> dict[tuple[str, str], list]:
    """The search keys of one locale from its terms, as the builder stores them in search_keys.

    `terms` are (profile_id, field, value, folded, stemmed, tokens, is_label) rows, is_label telling
    a keyword that is one of the profile's own words (see LABEL); the result maps (kind, key) to
    [profiles bitmask, field, value], the first term seen being the one reported.
    """
    keys: dict[tuple[str, str], list] = {}
    for profile_id, field, value, folded, stemmed, tokens, is_label in terms:
        if field == "category":
            kinds = [("category", t) for t in tokens.split()] + [("category_name", folded), ("category_name", stemmed)]
        else:
            kinds = [("exact", folded)] + ([("stemmed", stemmed)] if stemmed != folded else [])
            kinds += [("token", t) for t in tokens.split()]
            kinds += [("label", folded)] if is_label else []
        for kind in kinds:
            entry = keys.get(kind)
            if entry is None:
                keys[kind] = [1 << profile_id, field, value]
            else:
                entry[0] |= 1 << profile_id
    return keys
