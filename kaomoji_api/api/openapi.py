"""The OpenAPI 3.0.3 document of the service, built with apispec.

Enumerations (locales, categories, types) come from the catalog being served, bounds from
api/bounds.py and the limits from the app's settings, so the document describes the running service.
"""

from __future__ import annotations

from apispec import APISpec

from kaomoji_api import limits
from kaomoji_api.api.bounds import (
    LIST_LIMIT,
    LIST_MAX,
    MAX_ID,
    MAX_LINK_HEADER,
    MAX_PAGE,
    MAX_WIDTH,
    QUERY_MAX_LENGTH,
    RANDOM_COUNT,
    RANDOM_MAX,
    SEARCH_DEPTH,
    SEARCH_LIMIT,
    SEED_MAX_LENGTH,
)
from kaomoji_api.api.params import WHITESPACE_CLASS
from kaomoji_api.catalog import Catalog
from kaomoji_api.errors import PROBLEM_JSON
from kaomoji_api.locales import ALIASES, DEFAULT_LOCALE, tag_pattern

API_VERSION = "1.0.0"

# Text parameters are refused (400) when they hold NUL, and q when it is only white space (as Params
# counts it: WHITESPACE_CLASS, not \s).
NO_NUL = "^[^\\u0000]*$"
SOME_TEXT_NO_NUL = f"^[^\\u0000]*[^{WHITESPACE_CLASS}\\u0000][^\\u0000]*$"

# How Params reads every query parameter; the document says it once here and at each kind of parameter.
PARAMETERS = """\
**Parameters.** An empty value (`page=`) is the same as leaving the parameter out (`allowEmptyValue`). \
A parameter given twice is refused (400); parameters an operation does not take are ignored. Whole numbers \
are written in the ASCII digits 0-9 (leading zeros allowed; no sign, spaces, `_` or other scripts' digits); \
booleans are `true` or `false` in any case (`1`, `yes` and `on` are refused). A refused value is a 400 whose \
`invalid_params` names each parameter and why."""
EMPTY_IS_ABSENT = " An empty value is the same as none."

USAGE_TERMS = """\
**Usage terms.** The kaomoji strings themselves are offered under CC0 1.0 to the extent the operator \
holds rights; no guarantee is given that no third party holds rights in a given string. The explanatory \
text (`note`), the example sentences (`usage`) and the keywords are the operator's authored works: a link \
crediting the service is required when using them, and bulk copying or redistribution as a dataset is not \
allowed. These terms apply to content obtained from 2026-08-25 onward and are not retroactive. Commercial \
use is allowed. The client library code is under the MIT licence."""


def _limits(app) -> str:
    rate_limits = limits.limits_of(app)
    gate_rate, gate_burst = float(app.config["GATE_RATE"]), int(app.config["GATE_BURST"])
    pages = f"Search returns at most {SEARCH_LIMIT} entries per request, random at most {RANDOM_MAX}, a list page at most {LIST_MAX}."
    if rate_limits is None:
        return f"**Limits.** This server runs without rate limits. {pages}"
    requests, entries = rate_limits.requests, rate_limits.entries
    gate = f"Before the application, {gate_rate:g} requests per second sustained with a burst of {gate_burst}. " if gate_rate > 0 else ""
    if rate_limits.storage == "per process":
        counting = (
            "Counters are kept per process, so the exact moment 429 starts, and the `Retry-After` each "
            "process gives, can vary; call sequentially, not concurrently."
        )
    else:
        counting = "Counters are shared by every process of the service; call sequentially, not concurrently."
    return (
        f"**Limits.** Per client IP: {requests.description} and {entries.description} (a request costs the number "
        f"of entries it returns); over either limit the answer is 429 with `Retry-After`. {gate}{counting} {pages} "
        f"`X-RateLimit-Limit`, `-Remaining` and `-Reset` (a Unix time) describe the tighter of the two limits; "
        f"this document, `/healthz` and preflight requests spend nothing. Blocked addresses get 403."
    )


def _too_many_requests(app) -> str:
    rate_limits = limits.limits_of(app)
    if rate_limits is None:
        return "Over a rate limit; this server runs without them."
    reasons = [f"the per-IP request rate ({rate_limits.requests.description})", f"the item budget ({rate_limits.entries.description})"]
    if float(app.config["GATE_RATE"]) > 0:
        reasons.append(f"the entry-point rate ({float(app.config['GATE_RATE']):g} a second, burst {int(app.config['GATE_BURST'])})")
    return f"Over {', '.join(reasons[:-1])} or {reasons[-1]}; `limit` says which."


def _description(catalog: Catalog, app) -> str:
    return "\n\n".join(
        [
            "A read-only, public JSON API over a catalog of Japanese kaomoji (text emoticons), with keywords, "
            f"example sentences and notes in {len(catalog.locales)} locales. No authentication; every endpoint allows "
            "any origin (CORS `*`).",
            "Localized fields follow the `locale` parameter, else the `Accept-Language` header, else `en`; "
            "responses say which in `Content-Language`. Errors are `application/problem+json` (RFC 9457).",
            "Clients should honour `Cache-Control` and may revalidate with `If-None-Match` "
            "(every 200 that may be stored has an `ETag`; `no-store` responses have none).",
            PARAMETERS,
            _limits(app),
            USAGE_TERMS,
            f"**Data.** {catalog.meta['attribution']}. Catalog version `{catalog.version}`.",
        ]
    )


ENTRY = {
    "type": "object",
    "required": [
        "id", "text", "category", "categories", "name", "meaning", "keywords", "display_width", "ascii_safe", "needs_cjk_font",
        "scripts", "sensitive",
    ],
    "properties": {
        "id": {"type": "integer", "minimum": 1, "description": "Stable id: the number of the dataset id."},
        "text": {"type": "string", "description": "The kaomoji itself."},
        "category": {"allOf": [{"$ref": "#/components/schemas/CategorySlug"}], "description": "The main category's slug."},
        "categories": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"$ref": "#/components/schemas/CategorySlug"},
            "description": "The slugs of every category the entry belongs to, its main one (`category`) first; each "
            "works as a `category` filter (a mahjong face that is also happy; a sleepy face that says good night is "
            "in greeting too).",
        },
        "name": {"type": "string", "description": "Localized name. A face whose text is a set phrase is named by it (Good night)."},
        "meaning": {
            "type": "string",
            "minLength": 1,
            "description": "Localized, one line: what the Japanese text written in the face says (「ｵﾔｽﾐ」 oyasumi: “good night”...), "
            "read from a glossary of what faces say; for a face without known text, its most telling drawn part as "
            "the face draws it (smiling eyes (⌒)); failing both, its name.",
        },
        "keywords": {"type": "array", "items": {"type": "string"}, "description": "Localized keywords."},
        "display_width": {"type": "integer", "minimum": 0, "description": "Width in terminal columns."},
        "ascii_safe": {"type": "boolean", "description": "Only ASCII characters."},
        "needs_cjk_font": {
            "type": "boolean",
            "description": "Shows correctly only with a font that has CJK characters: it holds Han, kana (half-width too), "
            "Hangul, Bopomofo, CJK symbols or full-width forms. Computed from the characters.",
        },
        "scripts": {
            "type": "array",
            "uniqueItems": True,
            "items": {"type": "string"},
            "description": "The Unicode scripts the face uses beyond Latin and common punctuation and symbols, by their "
            "Unicode names, sorted (`Kannada` for ಠ_ಠ, `Thai` for ฅ): the fonts a client needs. Empty for `(◕‿◕)`.",
        },
        "sensitive": {
            "type": "boolean",
            "description": "Marked by a reviewed list of terms (ethnic caricature, drugs, sexual content, slurs). Random never "
            "returns these faces; list and search show them only with `include_sensitive=true`; a lookup by id returns them with "
            "this flag set.",
        },
    },
    "example": {
        "id": 1,
        "text": "(◕‿◕)",
        "category": "happy",
        "categories": ["happy"],
        "name": "Happy face",
        "meaning": "big round eyes (◕)",
        "keywords": ["happy", "smile", "glad", "cheerful", "joy"],
        "display_width": 5,
        "ascii_safe": False,
        "needs_cjk_font": False,
        "scripts": [],
        "sensitive": False,
    },
}

DETAIL = {
    "allOf": [
        {"$ref": "#/components/schemas/Entry"},
        {
            "type": "object",
            "required": ["note", "usage"],
            "properties": {
                "note": {
                    "type": "string",
                    "description": "Written for this face from what was read in it: what its Japanese text means, what it "
                    "draws, and when to send it.",
                },
                "usage": {
                    "type": "array",
                    "minItems": 1,
                    "items": {"type": "string"},
                    "description": "Example messages containing the kaomoji: of what its text says (a good-night face gets "
                    "good-night messages), else of its category.",
                },
            },
        },
    ]
}

MATCH = {
    "type": "object",
    "required": ["field", "value", "locale"],
    "description": "Why the entry matched: the keyword, name, category name, face text or what the face says, and its locale.",
    "properties": {
        "field": {
            "type": "string", "enum": ["keyword", "name", "category", "text", "says"],
            "description": "`says`: the Japanese text of the face says the query, or the face writes that phrase in Latin "
                           "letters (Merry Christmas): `value` is the phrase of the glossary in `locale` (good night, bonne "
                           "nuit), or its romaji or spelling (oyasumi, ドゴーン; `locale` null).",
        },
        "value": {"type": "string"},
        "locale": {"type": "string", "nullable": True},
        "corrected_from": {
            "type": "string",
            "description": "Present when the query matched only once a misspelled word was corrected: the query as typed "
                           "(hapy); `value` is what the corrected query matched (happy).",
        },
    },
}

PAGINATION = {
    "type": "object",
    "required": ["page", "limit", "total", "total_pages"],
    "properties": {
        "page": {"type": "integer", "minimum": 1},
        "limit": {"type": "integer", "minimum": 1},
        "total": {"type": "integer", "minimum": 0},
        "total_pages": {"type": "integer", "minimum": 1},
    },
}

PROBLEM = {
    "type": "object",
    "required": ["type", "title", "status"],
    "description": "RFC 9457 problem details.",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "limit": {"type": "string", "description": "For 429: the limit that was exceeded, e.g. 60 requests per minute."},
        "invalid_params": {
            "type": "array",
            "description": "For 400: each bad query parameter and why.",
            "items": {"type": "object", "required": ["name", "reason"], "properties": {"name": {"type": "string"}, "reason": {"type": "string"}}},
        },
    },
    "example": {
        "type": "about:blank",
        "title": "Bad Request",
        "status": 400,
        "detail": "count: must be from 1 to 10",
        "invalid_params": [{"name": "count", "reason": "must be from 1 to 10"}],
    },
}


RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": {"schema": {"type": "integer"}, "description": "The tighter per-client limit: of requests or of entries."},
    "X-RateLimit-Remaining": {"schema": {"type": "integer", "minimum": 0}, "description": "What is left of it this minute."},
    "X-RateLimit-Reset": {"schema": {"type": "integer"}, "description": "Unix time at which it starts again."},
}


def _problem(description: str, headers: dict | None = None) -> dict:
    response = {"description": description, "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    if headers:
        response["headers"] = headers
    return response


def _ok(description: str, schema: dict, extra_headers: dict | None = None) -> dict:
    headers = {
        "ETag": {"schema": {"type": "string"}, "description": "Entity tag; send it back in If-None-Match."},
        "Cache-Control": {"schema": {"type": "string"}},
        "Content-Language": {"schema": {"type": "string"}, "description": "The locale of localized fields."},
    }
    headers.update(RATE_LIMIT_HEADERS)
    headers.update(extra_headers or {})
    return {"description": description, "headers": headers, "content": {"application/json": {"schema": schema}}}


def _page_of(item_ref: str) -> dict:
    return {
        "type": "object",
        "required": ["data", "pagination"],
        "properties": {
            "data": {"type": "array", "items": {"$ref": item_ref}},
            "pagination": {"$ref": "#/components/schemas/Pagination"},
        },
    }


LINK = {
    "Link": {
        "schema": {"type": "string"},
        "description": f"RFC 8288 links: first, prev, next, last. Left out when longer than {MAX_LINK_HEADER} bytes (a long query); "
        "`pagination` in the body says the same.",
    }
}
ERRORS = {
    "400": {"$ref": "#/components/responses/BadRequest"},
    "403": {"$ref": "#/components/responses/Forbidden"},
    "429": {"$ref": "#/components/responses/TooManyRequests"},
}
NOT_MODIFIED = {"304": {"description": "Not modified since the ETag sent in If-None-Match."}}


def _int_param(name, description, default, minimum, maximum):
    schema = {"type": "integer", "minimum": minimum, "maximum": maximum}
    if default is not None:
        schema["default"] = default
    description += " Digits 0-9 only." + EMPTY_IS_ABSENT
    return {"name": name, "in": "query", "required": False, "allowEmptyValue": True, "description": description, "schema": schema}


def _bool_param(name, description):
    return {
        "name": name,
        "in": "query",
        "required": False,
        "allowEmptyValue": True,
        "description": description + " `true` or `false`, in any case." + EMPTY_IS_ABSENT,
        "schema": {"type": "boolean"},
    }


def _aliases_of(code: str) -> str:
    """The region tags that stand for `code`, as people write them: `zh-TW`, `zh-HK`."""
    return ", ".join(f"`{alias.split('-')[0]}-{alias.split('-')[1].upper()}`" for alias, to in ALIASES.items() if to == code and "-" in alias)


def _comma_list(values: list[str]) -> str:
    """A pattern for `values` separated by commas; blank items are ignored, and none at all means no filter."""
    one = f"[{WHITESPACE_CLASS}]*(" + "|".join(values) + f")?[{WHITESPACE_CLASS}]*"
    return f"^{one}(,{one})*$"


def build_document(catalog: Catalog, app) -> dict:
    locales = list(catalog.locales)
    slugs = [c.slug for c in catalog.categories]
    types_param = {
        "name": "type",
        "in": "query",
        "required": False,
        "description": "Category types, comma-separated; white space around them and empty items are ignored, and "
        "nothing at all filters nothing. Given twice, refused.",
        "schema": {"type": "string", "pattern": _comma_list(catalog.category_types), "example": "emotion"},
    }
    spec = APISpec(
        title="Kaomoji Catalog API",
        version=API_VERSION,
        openapi_version="3.0.3",
        info={
            "description": _description(catalog, app),
            "license": {"name": "Data: CC BY 4.0 (FontVibe); terms above", "url": "https://creativecommons.org/licenses/by/4.0/"},
        },
        servers=[{"url": "/"}],
        tags=[{"name": "kaomojis"}, {"name": "categories"}, {"name": "service"}],
    )
    c = spec.components
    c.schema("Entry", ENTRY)
    c.schema("EntryDetail", DETAIL)
    c.schema(
        "SearchResult", {"allOf": [{"$ref": "#/components/schemas/EntryDetail"}, {"type": "object", "required": ["match"], "properties": {"match": MATCH}}]}
    )
    c.schema("Pagination", PAGINATION)
    c.schema("Problem", PROBLEM)
    c.schema("Locale", {"type": "string", "enum": locales, "description": "A locale of the catalog, as responses name it."})
    c.schema("CategorySlug", {"type": "string", "enum": slugs, "description": "A category's slug."})
    c.schema(
        "Category",
        {
            "type": "object",
            "required": ["id", "slug", "name", "type", "count", "emoji", "description", "url"],
            "properties": {
                "id": {
                    "allOf": [{"$ref": "#/components/schemas/CategorySlug"}],
                    "description": "The slug: what `category` filters and an entry's `categories` hold.",
                },
                "slug": {"allOf": [{"$ref": "#/components/schemas/CategorySlug"}], "description": "The same as `id`."},
                "name": {"type": "string", "description": "Localized name."},
                "type": {"type": "string", "enum": catalog.category_types},
                "count": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "How many entries a default list of the category shows: those with it among their "
                    "`categories`, sensitive ones left out.",
                },
                "emoji": {"type": "string", "minLength": 1, "description": "One emoji that stands for the category."},
                "description": {
                    "type": "string",
                    "minLength": 1,
                    "description": "One localized sentence: what the category's faces show and when people send them.",
                },
                "url": {
                    "type": "string",
                    "format": "uri",
                    "description": f"The absolute address of the category's web page in this locale: `/category/<slug>` for `{DEFAULT_LOCALE}`, "
                    "`/<locale>/category/<slug>` for the others, on the service's public address. The pages are not published yet.",
                },
            },
            "example": {
                "id": "cat", "slug": "cat", "name": "Cat", "type": "animal", "count": 410, "emoji": "🐱",
                "description": "Cat faces with ears and whiskers, sent by cat lovers and to say meow.",
                "url": "https://kaomoji.example/category/cat",
            },
        },
    )
    c.parameter(
        "locale",
        "query",
        {
            "required": False,
            "allowEmptyValue": True,
            "description": f"Language of localized fields: one of {', '.join(locales)} (see `Locale`), or a language tag "
            "naming one, in any case, with - or _ between subtags of 1 to 8 ASCII letters or digits: a region or other "
            "subtags after a language are ignored (`pt-BR`, `en_US`, `JA`), Chinese needs a script or region that "
            f"decides (`zh`, {_aliases_of('zh-Hans')} are zh-Hans; {_aliases_of('zh-Hant')} are zh-Hant; `zh-Hant-TW` "
            "too), and `in` is `id`. Anything else (blanks, an empty subtag, another language) is refused. Without it, "
            f"or empty, Accept-Language decides; the default is {DEFAULT_LOCALE}.",
            "schema": {"type": "string", "pattern": tag_pattern(locales), "default": DEFAULT_LOCALE, "example": "ja"},
        },
    )
    c.parameter(
        "page",
        "query",
        {
            "required": False,
            "allowEmptyValue": True,
            "description": "Page number, from 1. A page past the end is empty. Digits 0-9 only." + EMPTY_IS_ABSENT,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1},
        },
    )
    c.parameter(
        "category",
        "query",
        {
            "required": False,
            "description": "Category slugs, comma-separated; white space around them and empty items are ignored, and "
            "nothing at all filters nothing. Given twice, refused.",
            "schema": {"type": "string", "pattern": _comma_list(slugs), "example": "cute"},
        },
    )
    c.response("BadRequest", _problem("A query parameter is invalid; `invalid_params` says which and why."))
    c.response("NotFound", _problem("No such entry or path."))
    c.response("Forbidden", _problem("Requests from this address are blocked."))
    c.response(
        "TooManyRequests",
        _problem(
            _too_many_requests(app),
            {"Retry-After": {"schema": {"type": "integer", "minimum": 0}, "description": "Seconds to wait before the next request."}, **RATE_LIMIT_HEADERS},
        ),
    )

    # apispec turns the name of a registered parameter into a $ref.
    locale, page, category = "locale", "page", "category"
    include_sensitive = _bool_param("include_sensitive", "Also show sensitive faces (see `sensitive`); they come after all others.")
    include_sensitive["schema"]["default"] = False

    spec.path(
        path="/api/v1/kaomojis",
        operations={
            "get": {
                "tags": ["kaomojis"],
                "operationId": "listKaomojis",
                "summary": "A page of kaomoji, cleanest faces first, with filters",
                "parameters": [
                    category,
                    types_param,
                    _bool_param("ascii_safe", "Only entries that are (true) or are not (false) pure ASCII."),
                    _int_param("max_width", "Only entries at most this many columns wide.", None, 1, MAX_WIDTH),
                    include_sensitive,
                    page,
                    _int_param("limit", "Page size.", LIST_LIMIT, 1, LIST_MAX),
                    locale,
                ],
                "responses": {"200": _ok("A page of entries (no note or usage).", _page_of("#/components/schemas/Entry"), LINK), **NOT_MODIFIED, **ERRORS},
            }
        },
    )
    spec.path(
        path="/api/v1/kaomojis/{id}",
        operations={
            "get": {
                "tags": ["kaomojis"],
                "operationId": "getKaomoji",
                "summary": "One kaomoji by id, with note and usage",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID}}, locale],
                "responses": {
                    "200": _ok("The entry.", {"type": "object", "required": ["data"], "properties": {"data": {"$ref": "#/components/schemas/EntryDetail"}}}),
                    "301": {
                        "description": "The same face is in the catalog under a lower id, where `Location` points: one id "
                        "per face, and links to this one keep working.",
                        "headers": {"Location": {"schema": {"type": "string"}, "description": "The address of the kept id."}},
                    },
                    **NOT_MODIFIED,
                    **ERRORS,
                    "404": {"$ref": "#/components/responses/NotFound"},
                },
            }
        },
    )
    random_op = {
        "tags": ["kaomojis"],
        "summary": f"One to {RANDOM_MAX} random kaomoji",
        "parameters": [
            _int_param("count", "How many entries.", RANDOM_COUNT, 1, RANDOM_MAX),
            category,
            {
                "name": "seed",
                "in": "query",
                "required": False,
                "description": "Makes the pick reproducible for the same catalog, e.g. a date for a kaomoji of the day. "
                f"At most {SEED_MAX_LENGTH} characters as sent, no NUL; white space at either end is ignored, and a blank "
                "seed is none.",
                "schema": {"type": "string", "maxLength": SEED_MAX_LENGTH, "pattern": NO_NUL},
            },
            locale,
        ],
        "responses": {
            "200": _ok(
                "Random entries (no note or usage). Not stored by caches unless seeded.",
                {
                    "type": "object",
                    "required": ["data"],
                    "properties": {"data": {"type": "array", "maxItems": RANDOM_MAX, "items": {"$ref": "#/components/schemas/Entry"}}},
                },
            ),
            **NOT_MODIFIED,
            **ERRORS,
        },
    }
    spec.path(path="/api/v1/kaomojis/random", operations={"get": {**random_op, "operationId": "randomKaomojis"}})
    spec.path(path="/api/v1/random", operations={"get": {**random_op, "operationId": "random", "description": "Alias of /api/v1/kaomojis/random."}})
    search_op = {
        "tags": ["kaomojis"],
        "summary": f"Search by keyword in any of the {len(locales)} languages, by what a face says, by emoji, or by pasting a face",
        "description": "Ranked by relevance: exact keyword or name matches, then prefix, then partial; the requested locale "
        "before others; cleaner faces first among equals. What the Japanese text of a face says is searchable in every locale "
        "(good night, bonne nuit, oyasumi find おやすみ; match field `says`), faces that say more of it first. A query of emoji "
        "searches as the labels they mean (😂 laugh). A word that names nothing is corrected within one edit, two from eight "
        "letters (hapy: match `corrected_from`). A query with symbols (a pasted face or fragment) finds entries containing it; "
        "a letter standing alone is no word (the t of T_T), so T_T finds the faces that write it. When no face has every "
        "word of a query, those with most of them come first, and a function word of the locale (de, the) is not counted: "
        "llorando de risa finds no face by its de alone. "
        f"Results go {SEARCH_DEPTH:,} deep: `total` counts every match, `total_pages` and the links only the pages that start "
        f"within the first {SEARCH_DEPTH:,}; a page past them is empty, as a page past the end is.",
        "parameters": [
            {
                "name": "q",
                "in": "query",
                "required": True,
                "description": f"Search words or a kaomoji fragment: 1 to {QUERY_MAX_LENGTH} characters as sent, not only "
                "white space, no NUL. White space at either end is ignored.",
                "schema": {"type": "string", "minLength": 1, "maxLength": QUERY_MAX_LENGTH, "pattern": SOME_TEXT_NO_NUL, "example": "cat"},
            },
            include_sensitive,
            page,
            _int_param("limit", "Page size.", SEARCH_LIMIT, 1, SEARCH_LIMIT),
            locale,
        ],
        "responses": {
            "200": _ok("Ranked results with note, usage and why each matched.", _page_of("#/components/schemas/SearchResult"), LINK),
            **NOT_MODIFIED,
            **ERRORS,
        },
    }
    spec.path(path="/api/v1/kaomojis/search", operations={"get": {**search_op, "operationId": "searchKaomojis"}})
    spec.path(
        path="/api/v1/search",
        operations={"get": {**search_op, "operationId": "search", "description": "Alias of /api/v1/kaomojis/search. " + search_op["description"]}},
    )
    spec.path(
        path="/api/v1/categories",
        operations={
            "get": {
                "tags": ["categories"],
                "operationId": "listCategories",
                "summary": "Categories with localized names and kaomoji counts",
                "parameters": [types_param, locale],
                "responses": {
                    "200": _ok(
                        "Every category (of the given types).",
                        {"type": "object", "required": ["data"], "properties": {"data": {"type": "array", "items": {"$ref": "#/components/schemas/Category"}}}},
                    ),
                    **NOT_MODIFIED,
                    **ERRORS,
                },
            }
        },
    )
    spec.path(
        path="/api/v1/openapi.json",
        operations={
            "get": {
                "tags": ["service"],
                "operationId": "openapi",
                "summary": "This document",
                "responses": {
                    "200": {"description": "The OpenAPI 3.0 document.", "content": {"application/json": {"schema": {"type": "object"}}}},
                    **NOT_MODIFIED,
                },
            }
        },
    )
    spec.path(
        path="/healthz",
        operations={
            "get": {
                "tags": ["service"],
                "operationId": "health",
                "summary": "Liveness and the catalog this worker serves",
                "responses": {
                    "200": {
                        "description": "Healthy.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["status", "catalog"],
                                    "properties": {
                                        "status": {"type": "string", "enum": ["ok"]},
                                        "catalog": {
                                            "type": "object",
                                            "required": ["version", "built_at", "counts", "locales"],
                                            "properties": {
                                                "version": {"type": "string"},
                                                "built_at": {"type": "string"},
                                                "counts": {"type": "object"},
                                                "locales": {"type": "array", "items": {"$ref": "#/components/schemas/Locale"}},
                                            },
                                        },
                                    },
                                }
                            }
                        },
                    }
                },
            }
        },
    )
    return spec.to_dict()
