-- catalog.sqlite: the read-only catalog the API serves, built by tools/build_catalog.py.
-- Text shared by many entries (names, keywords, usage and note templates) is stored once per
-- profile, category or locale; an entry row holds only what is its own.

PRAGMA page_size = 4096;

-- Catalog facts: version (content hash), built_at, source, source_version, attribution,
-- licence, counts (JSON).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE locales (
    code         TEXT PRIMARY KEY,
    position     INTEGER NOT NULL UNIQUE,
    name         TEXT NOT NULL,          -- the language's own name
    english_name TEXT NOT NULL,
    stemmer      TEXT                    -- Snowball algorithm used for search, or NULL
) WITHOUT ROWID;

CREATE TABLE categories (
    id          INTEGER PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    type        TEXT NOT NULL,
    emoji       TEXT NOT NULL,           -- one emoji that stands for the category
    entry_count INTEGER NOT NULL         -- entries whose main category it is
);

CREATE TABLE category_texts (
    category_id INTEGER NOT NULL REFERENCES categories (id),
    locale      TEXT NOT NULL REFERENCES locales (code),
    name        TEXT NOT NULL,
    about       TEXT NOT NULL,           -- first part of every note in this category
    description TEXT NOT NULL,           -- one sentence about the category, for its record and page
    PRIMARY KEY (category_id, locale)
) WITHOUT ROWID;

-- Example sentences; `{kaomoji}` stands where the face goes.
CREATE TABLE usage_templates (
    category_id INTEGER NOT NULL REFERENCES categories (id),
    locale      TEXT NOT NULL REFERENCES locales (code),
    position    INTEGER NOT NULL,
    template    TEXT NOT NULL,
    PRIMARY KEY (category_id, locale, position)
) WITHOUT ROWID;

-- The facts that end every note; `{width}` stands for the display width.
CREATE TABLE note_templates (
    locale      TEXT PRIMARY KEY REFERENCES locales (code),
    width       TEXT NOT NULL,
    cjk_font    TEXT NOT NULL,
    any_font    TEXT NOT NULL,
    ja_context  TEXT NOT NULL,
    any_context TEXT NOT NULL
) WITHOUT ROWID;

-- A profile is what entries share: category, English labels and name. About 900 profiles
-- cover the ~70,000 entries.
CREATE TABLE profiles (
    id          INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL REFERENCES categories (id),
    labels      TEXT NOT NULL,           -- JSON array of the dataset's English labels
    entry_count INTEGER NOT NULL
);

-- The categories of a profile's entries, its main one (profiles.category_id) at position 0. The
-- builder writes only the main one today; secondary categories are further rows. Entries take
-- their categories from their profile, so a set of categories costs a row per profile, not per entry.
CREATE TABLE profile_categories (
    profile_id  INTEGER NOT NULL REFERENCES profiles (id),
    position    INTEGER NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories (id),
    PRIMARY KEY (profile_id, position),
    UNIQUE (profile_id, category_id)
) WITHOUT ROWID;

CREATE TABLE profile_texts (
    profile_id INTEGER NOT NULL REFERENCES profiles (id),
    locale     TEXT NOT NULL REFERENCES locales (code),
    name       TEXT NOT NULL,
    keywords   TEXT NOT NULL,            -- JSON array of strings
    PRIMARY KEY (profile_id, locale)
) WITHOUT ROWID;

-- The sets of Unicode scripts faces need beyond Latin and common characters (tools/rendering.py):
-- names as a JSON array, sorted; id 0 is the empty set.
CREATE TABLE script_sets (
    id    INTEGER PRIMARY KEY,
    names TEXT NOT NULL UNIQUE
);

CREATE TABLE entries (
    id             INTEGER PRIMARY KEY,  -- the number of the dataset id: kao_000123 is 123
    text           TEXT NOT NULL,
    profile_id     INTEGER NOT NULL REFERENCES profiles (id),
    category_id    INTEGER NOT NULL REFERENCES categories (id),
    ascii_safe     INTEGER NOT NULL,
    needs_cjk_font INTEGER NOT NULL,     -- computed from the characters (tools/rendering.py)
    script_set     INTEGER NOT NULL REFERENCES script_sets (id),
    display_width  INTEGER NOT NULL,
    ja_context     INTEGER NOT NULL,     -- 1 when the dataset scopes it to Japanese
    quality        INTEGER NOT NULL UNIQUE, -- 0 is the cleanest face of the catalog
    shape          INTEGER NOT NULL         -- CRC-32 of textnorm.face_shape(text): near-copies share it
);
CREATE INDEX entries_by_category ON entries (category_id, quality);
CREATE INDEX entries_by_profile ON entries (profile_id, quality);
CREATE INDEX entries_by_text ON entries (text);

-- Pasted fragments of one or two characters, which the trigram index below cannot look up: for each,
-- the positions (qualities) of the entries containing it, ascending, as little-endian 32-bit integers.
CREATE TABLE face_fragments (
    fragment  TEXT PRIMARY KEY,
    positions BLOB NOT NULL
) WITHOUT ROWID;

-- The service's search index, precomputed by tools/search_index.py from each locale's keywords,
-- names and category names: for each normalised key, the profiles it matches as a little-endian
-- bitmask (bit n = profile n) and the term reported as the match. kind: label (a profile's own
-- word), exact (folded term), stemmed (where it differs), token (a word stem or CJK n-gram of a
-- keyword or name), category (one word of a category name), category_name (a whole one).
CREATE TABLE search_keys (
    locale   TEXT NOT NULL REFERENCES locales (code),
    kind     TEXT NOT NULL,
    key      TEXT NOT NULL,
    profiles BLOB NOT NULL,
    field    TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (locale, kind, key)
) WITHOUT ROWID;

-- Pasted faces and fragments of three or more characters. Contentless: a match gives the rowid,
-- which is the entry's quality (its position in quality order); the texts are in entries.
CREATE VIRTUAL TABLE entry_text_search USING fts5(
    text, content = '', tokenize = 'trigram'
);
