"""The HTML of the pages, made without a template engine per request: fast enough to serve like the API.

Each locale's chrome (head, header, chips, dialog, footer) is rendered by Jinja once per catalog version, locale and
address, with markers where a page's own parts go, then split at them (`Chrome`); a request joins those fixed strings
with parts built here from the in-memory catalog by plain string joins and html.escape.
"""

from __future__ import annotations

import functools
import hashlib
import json
import operator
import sys
import zlib
from collections.abc import Callable
from html import escape, unescape
from typing import NamedTuple
from urllib.parse import quote

import orjson
from flask import render_template, url_for
from markupsafe import Markup

from kaomoji_api.catalog import HTML_ESCAPED, NEEDS_CJK_FONT, SENSITIVE, Catalog
from kaomoji_api.current import Served
from kaomoji_api.http import RELEASE
from kaomoji_api.locales import ALIASES, DEFAULT_LOCALE
from kaomoji_api.lru import SizedLru
from kaomoji_api.web.assets import STATIC, asset_url

MARK = "\x00"  # never in a label, a name or a face: the catalog builder keeps control characters out
SLOTS = ("title", "description", "head", "view", "query", "chips", "article", "heading", "cards", "pager", "languages")
# What a page fills its chrome with, in this order (Chrome.fill): the chrome's slots but `head` and `languages`, which are
# written from the page's address after the locale's prefix (`suffix`), its bare title and description, its Open Graph
# type and whether robots may index it.
PARTS = ("title", "description", "view", "query", "chips", "article", "heading", "cards", "pager", "suffix", "og_title", "og_type", "robots")
NOINDEX = b'\n<meta name="robots" content="noindex">'
WIDE, VERY_WIDE = 9, 16  # display widths from which a face is set smaller (as catalog.js)
DESCRIPTION_LENGTH = 200  # characters of a meta description; search engines show about 160
DESCRIPTION_BYTES = 4 * DESCRIPTION_LENGTH + 4  # UTF-8 that holds more than DESCRIPTION_LENGTH characters
# og:locale takes language_TERRITORY; the locales whose language alone does not say it get the one they are written for.
OG_LOCALES = {"en": "en_US", "ja": "ja_JP", "ko": "ko_KR", "zh-Hans": "zh_CN", "zh-Hant": "zh_TW", "es": "es_419",
              "pt": "pt_BR", "fr": "fr_FR", "de": "de_DE", "it": "it_IT", "ru": "ru_RU", "id": "id_ID"}
# The cards of the faces like it that kaomoji pages asked for lately: ~100 sets of 8 (pages of one profile show the same).
SIMILAR_CACHE_BYTES = 384 * 1024
ADDRESSES_KEPT = 16  # public addresses whose page template and ETag a chrome keeps (Chrome._split)



@functools.cache
def labels() -> dict[str, dict[str, str]]:
    """The pages' labels (static/i18n.json), HTML-escaped, per locale; the same file catalog.js reads."""
    raw = json.loads((STATIC / "i18n.json").read_text(encoding="utf-8"))
    return {code: {key: escape(text) for key, text in texts.items()} for code, texts in raw.items()}


def page_locales() -> tuple[str, ...]:
    """The locales that have pages: those with labels."""
    return tuple(labels())


def prefix(locale: str) -> str:
    """The path prefix of a locale's pages: none for the default locale, /<locale> for the others."""
    return "" if locale == DEFAULT_LOCALE else f"/{locale}"


def home_path(locale: str) -> str:
    return prefix(locale) + "/"


def category_path(slug: str, locale: str) -> str:
    return f"{prefix(locale)}/category/{slug}"


def kaomoji_path(entry_id: int, locale: str) -> str:
    return f"{prefix(locale)}/kaomoji/{entry_id}"


def search_path(locale: str) -> str:
    return f"{prefix(locale)}/search"


BASE = "\x01"  # a marker of the public address in a chrome's patterns (Chrome.fill)


class Chrome:
    """A locale's fixed HTML of every page, with markers where a page's own parts go (PARTS); `fill` joins it with them.

    For each public address it is asked under (a server is asked under a few names), the HTML is split once at its
    markers into one %-template of the whole page, head tags and language links included: a page is then one format
    of its parts, its address after the prefix filling the 13 alternates, the 11 language links and the canonical and
    Open Graph URLs. Everything is held encoded: a page encodes only its own parts.
    """

    def __init__(self, html: str, site: str, chips: str, category_links: dict[str, bytes], version: str):
        encoded = html.encode()  # with MARK slots of PARTS, and BASE where the public address goes
        # Kept compressed (~3 KB): it is read once per address, and a worker serving twelve locales would otherwise hold
        # each one's ~12 KB beside the template made of it (bench/worst_memory.py).
        self._html = zlib.compress(encoded)
        self.site = site.encode()  # the site's name, which titles its home page and ends every other page's title
        self._after_title = f" · {site}".encode()
        # What every page in this chrome is made of beside its address: this release's code, the catalog and the chrome.
        self.digest = hashlib.sha1(b"\0".join([RELEASE, version.encode(), encoded])).digest()
        self._at: dict[str, tuple[bytes, Callable, str]] = {}
        self.chips = chips.encode()  # links to every category, for the lists' pages (a kaomoji page links its own)
        self.category_links = category_links  # a list item linking to each category's page, by slug

    def title(self, title: bytes) -> bytes:
        """A page's <title>: its own title and the site's name (the home page's is the site's name)."""
        return title if title == self.site else title + self._after_title

    def fill(self, base: str, parts: tuple[bytes, ...]) -> bytes:
        """The page at the public address `base`: the fixed HTML with the page's `parts` (one for each of PARTS, in its
        order, escaped and encoded already) in their slots."""
        template, in_order, _ = self._at.get(base) or self._split(base)
        return template % in_order(parts)

    def etag(self, base: str) -> str:
        """The ETag of this chrome's pages for the public address `base`: a page is made from its address, `base`, the
        chrome, the catalog and the code (`digest`). An ETag only tells apart what one address sent at two times, so it
        need not hash the address, nor the page's ~12 KB on every request: the hash of the others changes when any of
        them does."""
        return (self._at.get(base) or self._split(base))[2]

    def _split(self, base: str) -> tuple[bytes, Callable, str]:
        """The page at `base` as one %-template of PARTS, what picks the parts in the page's order, and its pages' ETag;
        kept for a few addresses."""
        pieces = zlib.decompress(self._html).replace(BASE.encode(), base.encode()).split(MARK.encode())
        slots = [slot.decode() for slot in pieces[1::2]]
        assert set(slots) == set(PARTS), slots
        template = b"%b".join(text.replace(b"%", b"%%") for text in pieces[0::2])
        made = (template, operator.itemgetter(*(PARTS.index(name) for name in slots)),
                f'"{hashlib.sha1(self.digest + base.encode()).hexdigest()}"')
        if len(self._at) < ADDRESSES_KEPT:
            self._at[base] = made
        return made


def chrome(state: Served, locale: str) -> Chrome:
    """The chrome of `locale`'s pages for this catalog (its links are relative: the same at every address).

    Kept with the catalog (Served.pages), so a new catalog gets new chrome with its category names and counts. Made
    inside a request: asset URLs come from url_for.
    """
    found = state.pages.get(locale)
    if found is None:
        found = state.pages[locale] = _make_chrome(state.catalog, locale)
    return found


def _make_chrome(catalog: Catalog, locale: str) -> Chrome:
    t = labels()[locale]
    settings = {
        "locales": [{"code": code, "name": loc.name} for code, loc in catalog.locales.items() if code in labels()],
        "default_locale": DEFAULT_LOCALE,
        "locale": locale,
        "aliases": ALIASES,
        "i18n": asset_url("i18n.json"),
        "api": {
            "kaomojis": url_for("v1.kaomojis.list_kaomojis"),
            "search": url_for("v1.kaomojis.search_kaomojis"),
            "random": url_for("v1.kaomojis.random_kaomojis"),
            "categories": url_for("v1.categories.list_categories"),
        },
    }
    html = render_template(
        "page.html", locale=locale, t={k: _markup(v) for k, v in t.items()}, settings=settings, asset_url=asset_url,
        slot={name: _markup(f"{MARK}{name}{MARK}") for name in SLOTS},
        home=home_path(locale), search=search_path(locale),
        attribution=[_markup(part) for part in t["attribution"].split("{link}", 1)],
    )
    slot = {name: f"{MARK}{name}{MARK}" for name in PARTS}
    url = f"{BASE}{prefix(locale)}{slot['suffix']}"
    head = "\n".join([
        f'<link rel="canonical" href="{url}">',
        *(f'<link rel="alternate" hreflang="{code}" href="{BASE}{prefix(code)}{slot["suffix"]}">' for code in page_locales()),
        f'<link rel="alternate" hreflang="x-default" href="{BASE}{slot["suffix"]}">',
        f'<meta property="og:site_name" content="{t["title"]}">',
        f'<meta property="og:locale" content="{OG_LOCALES.get(locale, locale)}">',
        '<meta name="twitter:card" content="summary">',
        f'<meta property="og:type" content="{slot["og_type"]}">',
        f'<meta property="og:title" content="{slot["og_title"]}">',
        f'<meta property="og:description" content="{slot["description"]}">',
        f'<meta property="og:url" content="{url}">{slot["robots"]}',
    ])
    links = "".join(
        f'<li><a href="{prefix(code)}{slot["suffix"]}" hreflang="{code}" lang="{code}">{escape(catalog.locales[code].name)}</a></li>'
        for code in page_locales() if code != locale
    )
    html = html.replace(f"{MARK}head{MARK}", head).replace(
        f"{MARK}languages{MARK}", f'<nav class="languages" aria-label="{t["languages"]}"><ul>{links}</ul></nav>')
    chips = "".join(
        f'<li><a href="{category_path(c.slug, locale)}">{escape(catalog.category_name(c.id, locale))} '
        f'<span>{format_count(c.count, locale)}</span></a></li>'
        for c in sorted(catalog.categories, key=lambda c: -c.count)
    )
    category_links = {
        c.slug: f'<li><a href="{category_path(c.slug, locale)}">{escape(catalog.category_name(c.id, locale))}</a></li>'.encode()
        for c in catalog.categories
    }
    return Chrome(html, t["title"], chips, category_links, catalog.version)


def _markup(text: str) -> Markup:
    """Text that is escaped already, or a marker: Jinja puts it in as it is."""
    return Markup(text)


def format_count(number: int, locale: str) -> str:
    """A count as the page's language writes it (1,234; 1.234; 1 234), as Intl.NumberFormat does in catalog.js."""
    text = f"{number:,}"
    if locale in ("es", "pt", "de", "it", "id"):
        return text.replace(",", ".")
    if locale in ("fr", "ru"):
        return text.replace(",", "\u202f" if locale == "fr" else "\u00a0")
    return text


def label(locale: str, key: str, **values: str) -> str:
    """A label with its {placeholders} filled by `values`, which must be escaped already."""
    text = labels()[locale][key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def view_json(view: dict | bytes) -> bytes:
    """What catalog.js needs to take over the page, in a JSON script tag (the CSP allows no inline script); `view` is a
    dict, or its JSON."""
    data = (view if isinstance(view, bytes) else orjson.dumps(view)).replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")
    return b'<script type="application/json" id="view">%b</script>' % data


def cards(state: Served, positions, locale: str) -> bytes:
    """The grid's cards, the same markup catalog.js makes, so that the script takes them over as they are; encoded.

    Written as bytes straight from the entries' records: a face is its UTF-8 as it stands unless it holds a character
    HTML escapes (HTML_ESCAPED), its name and category are its profile's, and a card is one %-format of its locale's
    template.
    """
    entries = state.catalog.entries
    names, slugs, template = escaped_names(state, locale), main_slugs(state), card_template(locale)
    ids, profiles, widths, flags, texts, ends = (
        entries.ids, entries.record_profiles, entries.widths, entries.flags, entries.texts, entries.ends)
    out = []
    for position in positions:
        profile, entry_id, flag, text = profiles[position], ids[position], flags[position], texts[ends[position]:ends[position + 1]]
        name = names[profile]
        if flag & HTML_ESCAPED:
            text = escape(text.decode()).encode()
        out.append(template % (entry_id, slugs[profile], name, face_class_bytes(widths[position], flag & NEEDS_CJK_FONT), text,
                               name, entry_id, name))
    return b"".join(out)


@functools.cache
def card_template(locale: str) -> bytes:
    """A card in `locale` as a %-template of its id, category, name, face classes, face, name, id and name."""
    t = labels()[locale]
    copy_before, copy_after = t["copy_face"].replace("%", "%%").split("{name}")
    details_before, details_after = t["details_for"].replace("%", "%%").split("{name}")
    return (
        f'<li class="card" data-id="%d" data-category="%b">'
        f'<button type="button" class="face" aria-label="{copy_before}%b{copy_after}">'
        f'<span class="%b">%b</span><span class="name">%b</span></button>'
        f'<a class="info" href="{prefix(locale)}/kaomoji/%d" aria-label="{details_before}%b{details_after}">i</a></li>'
    ).encode()


def similar_cards(state: Served, position: int, count: int, locale: str) -> bytes:
    """The cards of the faces like the one at `position` (up to `count`) that its page shows, encoded. The pages of a
    profile's faces show the same few (its cleanest, then its category's), and ten profiles hold 40% of the faces: the
    cards of the sets shown lately are kept, per catalog, within SIMILAR_CACHE_BYTES, instead of being made again for
    every page."""
    kept = state.pages.get("similar")
    if kept is None:
        kept = state.pages["similar"] = SizedLru(SIMILAR_CACHE_BYTES, sys.getsizeof)
    catalog = state.catalog
    key = (locale, count, catalog.similar_set(position, count))
    found = kept.get(key)
    if found is None:
        found = cards(state, catalog.similar_positions(position, count), locale)
        kept.put(key, found)
    return found


def escaped_names(state: Served, locale: str) -> list[bytes | None]:
    """Each profile's name in `locale`, HTML-escaped and encoded, by profile id: once per catalog and locale, not per card,
    and sharing the items' own pieces (ItemWriter.html_names)."""
    found = state.pages.get(("names", locale))
    if found is None:
        found = state.pages["names", locale] = state.items.html_names(locale)
    return found


def main_slugs(state: Served) -> list[bytes | None]:
    """Each profile's main category's slug, encoded, by profile id: an entry's category is its profile's first (slugs are
    ASCII letters and hyphens: nothing to escape)."""
    found = state.pages.get("slugs")
    if found is None:
        encoded = {c.slug: c.slug.encode() for c in state.catalog.categories}
        found = state.pages["slugs"] = [slugs and encoded[slugs[0]] for slugs in state.catalog.profile_categories]
    return found


@functools.cache
def face_class(width: int, needs_cjk_font: bool) -> str:
    """The classes of a face's text, as catalog.js sets them: smaller when wide, a CJK font first when it needs one."""
    return ("face-text" + (" wide" if WIDE <= width < VERY_WIDE else " very-wide" if width >= VERY_WIDE else "")
            + (" cjk" if needs_cjk_font else ""))


@functools.cache
def face_class_bytes(width: int, needs_cjk_font: int) -> bytes:
    """face_class, encoded."""
    return face_class(width, bool(needs_cjk_font)).encode()


def pager(path: str, page: int, total_pages: int, locale: str, query: str = "") -> str:
    """Previous and next links and "page 2 of 9", for readers without script (catalog.js shows "Show more")."""
    if total_pages <= 1:
        return ""
    t = labels()[locale]
    extra = f"q={escape(quote(query, safe=''))}&amp;" if query else ""
    links = []
    if page > 1:
        links.append(f'<a rel="prev" href="{path}?{extra}page={page - 1}">{t["previous"]}</a>')
    links.append(f'<span>{label(locale, "page_of", page=format_count(page, locale), pages=format_count(total_pages, locale))}</span>')
    if page < total_pages:
        links.append(f'<a rel="next" href="{path}?{extra}page={page + 1}">{t["next"]}</a>')
    return f'<nav class="pager" id="pager">{" ".join(links)}</nav>'


def shorten(text: str, length: int = DESCRIPTION_LENGTH) -> str:
    """At most `length` characters, cut at a space when there is one in the second half, with an ellipsis."""
    if len(text) <= length:
        return text
    space = text.rfind(" ", length // 2, length - 1)
    return text[:space if space >= 0 else length - 1] + "…"


def page_description(note: bytes) -> bytes:
    """A kaomoji page's meta description: its note (HTML text, encoded) as it reads, shortened, escaped for an attribute,
    encoded. The note says what the face's text means, what it draws and when to send it; the meaning beside it (as
    until session 32) said its first sentence twice. Most notes hold no & and so no character reference: they read as
    they are written, and are cut from no more of them than can show; one of no more bytes than a description shows
    characters is not cut at all."""
    text = note[:DESCRIPTION_BYTES]
    if text.find(b"&") >= 0:
        return escape(shorten(unescape(note.decode()))).encode()
    if len(text) > DESCRIPTION_LENGTH:
        text = shorten(text.decode(errors="ignore")).encode()  # the cut may have split the last character
    return text.replace(b'"', b"&quot;") if text.find(b'"') >= 0 else text


class KaomojiPage(NamedTuple):
    """What a kaomoji page shows of its entry, escaped and encoded already."""

    title: bytes
    description: bytes
    view: bytes
    article: bytes
    sensitive: bool


def kaomoji_page(state: Served, position: int, locale: str) -> KaomojiPage:
    """The face at `position`, large, with its copy button (shown by the script), meaning, note, usage, keywords and
    category links: its texts are written as HTML by the catalog's ItemWriter, from the pieces its JSON is written from."""
    texts = state.items.html(position, locale)
    entry_id, flags, slugs = texts.id, texts.flags, state.catalog.profile_categories[texts.profile]
    category = slugs[0].encode()
    view = b'{"kind":"kaomoji","id":%d,"text":"%b","name":"%b","category":"%b"}' % (entry_id, texts.text, texts.name, category)
    links = chrome(state, locale).category_links
    article = article_template(locale) % (
        entry_id, category, face_class_bytes(texts.width, flags & NEEDS_CJK_FONT), texts.face,
        texts.html_name, texts.meaning, texts.note, texts.usage, texts.keywords, b"".join(map(links.get, slugs)),
    )
    return KaomojiPage(b"%b %b" % (texts.face, texts.html_name), page_description(texts.note), view, article,
                       flags & SENSITIVE != 0)


@functools.cache
def article_template(locale: str) -> bytes:
    """A kaomoji page's article in `locale` as a %-template of its id, category, face classes, face, name, meaning, note,
    example sentences, keywords and category links."""
    t = {key: text.replace("%", "%%") for key, text in labels()[locale].items()}
    return (
        '<article class="entry" id="entry" data-id="%d" data-category="%b">'
        '<p class="entry-face"><span class="%b" id="entry-face">%b</span></p>'
        '<h2 class="entry-name" id="entry-name">%b</h2>'
        '<p class="entry-meaning">%b</p>'
        f'<button type="button" id="entry-copy" class="copy" hidden>{t["copy"]}</button>'
        '<p id="entry-status" class="detail-status" role="status" aria-live="polite"></p>'
        f'<h3>{t["note"]}</h3><p class="entry-note">%b</p>'
        f'<h3>{t["usage"]}</h3><ul class="usage">%b</ul>'
        f'<h3>{t["keywords"]}</h3><ul class="keywords">%b</ul>'
        f'<h3>{t["categories"]}</h3><ul class="entry-categories keywords">%b</ul>'
        '</article>'
    ).encode()


def message_article(title: str, text: str, locale: str) -> bytes:
    """The body of an error page: what went wrong, and the way back."""
    return (
        f'<article class="entry message" id="message"><h2 class="entry-name">{title}</h2><p>{text}</p>'
        f'<p><a href="{home_path(locale)}">{labels()[locale]["back_home"]}</a></p></article>'
    ).encode()
