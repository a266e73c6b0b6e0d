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
    stemmer      TEXT,                   -- Snowball algorithm used for search, or NULL
    -- Words that say little alone (articles, prepositions, conjunctions), folded, one space between: a query's
    -- faces that have only them of its words are no match of it ("de" of "llorando de risa"). Empty for none.
    function_words TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE categories (
    id          INTEGER PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    type        TEXT NOT NULL,
    emoji       TEXT NOT NULL,           -- one emoji that stands for the category
    entry_count INTEGER NOT NULL         -- entries a default list of the category shows: any of their categories, not sensitive
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

-- What faces say and show (tools/readings.py, tools/glossary/). An intent is what a face's text does
-- (good-night, laughing...) or a drawn part stands for (a deep bow); entries.intent_id points here, 0 for none.
CREATE TABLE intents (
    id     INTEGER PRIMARY KEY,
    slug   TEXT NOT NULL UNIQUE
);

-- Per intent and locale: the entry name a greeting-type intent gives (NULL for the others) and the
-- sentence that ends a note: when to send it.
CREATE TABLE intent_texts (
    intent_id INTEGER NOT NULL REFERENCES intents (id),
    locale    TEXT NOT NULL REFERENCES locales (code),
    name      TEXT,
    send_when TEXT NOT NULL,
    PRIMARY KEY (intent_id, locale)
) WITHOUT ROWID;

-- Example sentences of an intent, as usage_templates are of a category.
CREATE TABLE intent_usage (
    intent_id INTEGER NOT NULL REFERENCES intents (id),
    locale    TEXT NOT NULL REFERENCES locales (code),
    position  INTEGER NOT NULL,
    template  TEXT NOT NULL,
    PRIMARY KEY (intent_id, locale, position)
) WITHOUT ROWID;

-- The drawn parts faces are made of (┻━┻ a table, 旦 a cup of tea), named per locale.
CREATE TABLE parts (
    id   INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE
);

-- A part's name holds {drawing} in brackets where a note shows how the face draws it: "smiling eyes ({drawing})".
CREATE TABLE part_texts (
    part_id INTEGER NOT NULL REFERENCES parts (id),
    locale  TEXT NOT NULL REFERENCES locales (code),
    name    TEXT NOT NULL,
    PRIMARY KEY (part_id, locale)
) WITHOUT ROWID;

-- A part as faces draw it: ⌒ or ^_^ for smiling eyes, ⊂ ⊃ for a hug. Ids 1 to the number of parts are the parts
-- themselves, drawn as no note shows (an empty drawing: the name without its brackets); the drawings of many faces
-- follow, the commonest first, up to MAX_DRAWINGS in all (kaomoji_api/catalog.py).
CREATE TABLE drawings (
    id      INTEGER PRIMARY KEY,
    part_id INTEGER NOT NULL REFERENCES parts (id),
    drawing TEXT NOT NULL
);

-- The frames a note's sentence about the drawing and an item's meaning are written in: {face} the drawn
-- face, {parts} a list; {text}, {romaji}, {gloss} a run of Japanese text, its reading and what it says.
CREATE TABLE note_frames (
    locale         TEXT PRIMARY KEY REFERENCES locales (code),
    meaning        TEXT NOT NULL,
    meaning_separator TEXT NOT NULL,
    text_means     TEXT NOT NULL,
    text_is        TEXT NOT NULL,
    text_unknown   TEXT NOT NULL,  -- a text the glossary does not explain, after a sentence on another ("also")
    text_unknown_first TEXT NOT NULL,  -- the same as the note's first sentence
    drawn          TEXT NOT NULL,
    drawn_face     TEXT NOT NULL,
    drawn_parts    TEXT NOT NULL,
    list_separator TEXT NOT NULL,
    list_last      TEXT NOT NULL,
    -- How the locale's glosses quote the text they explain, when they do ({text}; ja: 「{text}」：), else empty.
    gloss_quote    TEXT NOT NULL
) WITHOUT ROWID;

-- The glossary of what faces say (tools/glossary/source.json), and its glosses per locale.
CREATE TABLE fragments (
    id     INTEGER PRIMARY KEY,
    key    TEXT NOT NULL UNIQUE,       -- the normalised fragment: おやすみ
    romaji TEXT NOT NULL
);

CREATE TABLE fragment_texts (
    fragment_id INTEGER NOT NULL REFERENCES fragments (id),
    locale      TEXT NOT NULL REFERENCES locales (code),
    gloss       TEXT NOT NULL,
    PRIMARY KEY (locale, fragment_id)
) WITHOUT ROWID;

-- What the Japanese text of faces says, per distinct set of runs as written (ｵﾔｽﾐ~ and オヤスミ differ).
-- `pieces` is what an item's `meaning` is written from in any locale: up to two explained runs, each
-- "text<US>romaji<US>fragment id", separated by <RS> (U+001F, U+001E); empty when none is explained.
-- `said` is what the note's sentences about the text are written from: every piece, each
-- "text<US>romaji<US>fragment id<US>frame", fragment 0 for text the glossary has no row for, frame m, i or u
-- for the locale's text_means, text_is or text_unknown (tools/readings.py said_pieces).
CREATE TABLE text_readings (
    id     INTEGER PRIMARY KEY,
    pieces TEXT NOT NULL,
    said   TEXT NOT NULL
);

-- Ids of faces that were also in the catalog under a lower id: the API answers them with a redirect.
CREATE TABLE redirects (
    id    INTEGER PRIMARY KEY,
    to_id INTEGER NOT NULL REFERENCES entries (id)
);

-- A profile is what entries share: categories, English labels and name. About 1,500 profiles
-- cover the ~70,000 entries.
CREATE TABLE profiles (
    id          INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL REFERENCES categories (id),
    labels      TEXT NOT NULL,           -- JSON array of the dataset's English labels
    entry_count INTEGER NOT NULL
);

-- The categories of a profile's entries, its main one (profiles.category_id) at position 0, then the
-- others (a mahjong face that is also happy; a greeting said by a sleepy face). Entries take their
-- categories from their profile, so a set of categories costs a row per profile, not per entry.
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
    sensitive      INTEGER NOT NULL,     -- 1: matched by tools/glossary/sensitive.json; never random, listed only on request
    text_reading   INTEGER NOT NULL,     -- text_readings.id, 0 when the face has no Japanese text
    intent_id      INTEGER NOT NULL,     -- intents.id of what decides its usage: the text's leading intent or a part's (a deep bow), 0 for none
    lead_part      INTEGER NOT NULL,     -- drawings.id of its most telling drawn part as it draws it, 0 for none
    parts          TEXT NOT NULL,        -- drawings.id of its drawn parts in drawing order, space-separated
    quality        INTEGER NOT NULL UNIQUE, -- 0 is the cleanest face of the catalog; sensitive faces come last
    shape          INTEGER NOT NULL         -- a number per distinct textnorm.face_shape(text), from 0: near-copies share it
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

-- What faces say, searchable (issue 15; tools/search_index.py): for each normalised key, what it finds as
-- little-endian 16-bit ids, and the text reported as the match. kind: says (the phrase a gloss gives a
-- fragment, folded), says_stem (stemmed, where it differs), says_token (a word of such a phrase), intent
-- (an intent's label or name; targets are intent ids), and, under locale '', written (a fragment as faces
-- write it: key and variants, folded) and romaji; the others target fragment ids.
CREATE TABLE says_keys (
    key     TEXT NOT NULL,
    locale  TEXT NOT NULL,
    kind    TEXT NOT NULL,
    targets BLOB NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (key, locale, kind)
) WITHOUT ROWID;

-- The faces of each fragment, as little-endian 32-bit (bucket << 20 | position), ascending: bucket 0 for
-- faces whose text it explains whole, 1 where it leads their text, 2 for the rest; so a face comes higher
-- the more of it the fragment explains, then cleanest first.
-- census: little-endian 32-bit, the number of those faces that are not sensitive, then (profile id, count) pairs
-- of them, which a search's total is counted from without walking the faces.
CREATE TABLE fragment_faces (
    fragment_id INTEGER PRIMARY KEY REFERENCES fragments (id),
    positions   BLOB NOT NULL,
    census      BLOB NOT NULL
);

-- The words of the search index that a misspelled query word is corrected into (issue 15; SymSpell's symmetric
-- deletion): each word of an alphabet in any locale's keywords, names and phrases, with a weight (the most
-- profiles it finds in one locale) and its locales (bit n: locales.position n), and each form of it with one
-- letter deleted, or two for long words.
CREATE TABLE spellings (
    id      INTEGER PRIMARY KEY,
    word    TEXT NOT NULL UNIQUE,
    weight  INTEGER NOT NULL,
    locales INTEGER NOT NULL
);

CREATE TABLE spelling_deletes (
    form    TEXT NOT NULL,
    word_id INTEGER NOT NULL REFERENCES spellings (id),
    PRIMARY KEY (form, word_id)
) WITHOUT ROWID;

-- What an emoji means in our labels (issue 15; tools/search_index.py emoji_labels, from the CLDR names and
-- keywords of tools/emoji/annotations.json): a JSON array of English labels, the most named first. Keys are
-- folded without variation selectors and skin tones (textnorm.fold_emoji), as queries are.
CREATE TABLE emoji_labels (
    emoji  TEXT PRIMARY KEY,
    labels TEXT NOT NULL
) WITHOUT ROWID;

-- The faces of fragments that one key finds together (good night: おやすみ, おやすみなさい), merged as fragment_faces
-- holds one fragment's, each face once; `fragments` are their ids, ascending, space-separated.
CREATE TABLE fragment_sets (
    fragments TEXT PRIMARY KEY,
    positions BLOB NOT NULL,
    census    BLOB NOT NULL
) WITHOUT ROWID;

-- The words of those CLDR names and keywords, per locale, each with the label most of its emoji mean (birthday:
-- celebrate, 手を振る: greeting): a query word that names nothing is read through them.
CREATE TABLE emoji_words (
    word   TEXT NOT NULL,
    locale TEXT NOT NULL,
    label  TEXT NOT NULL,
    PRIMARY KEY (word, locale)
) WITHOUT ROWID;

-- Pasted faces and fragments of three or more characters. Contentless: a match gives the rowid,
-- which is the entry's quality (its position in quality order); the texts are in entries.
CREATE VIRTUAL TABLE entry_text_search USING fts5(
    text, content = '', tokenize = 'trigram'
);
