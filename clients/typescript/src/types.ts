// Readable names for the generated schema (src/schema.ts). Each is derived from it, so a field the
// served document gains reaches callers on the next `npm run generate`, with no edit here.

import type { components, operations } from "./schema.js";

type Schemas = components["schemas"];
type Json<Op extends keyof operations> = operations[Op]["responses"][200]["content"]["application/json"];
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

/** An entry as lists and random picks give it: no `note`, no `usage`. */
export type Kaomoji = Schemas["Entry"];
/** One entry by id: with `note` and `usage`. */
export type KaomojiDetail = Schemas["EntryDetail"];
/** A search result: a detailed entry and why it matched. */
export type SearchHit = Schemas["SearchResult"];
export type Category = Schemas["Category"];
export type CategorySlug = Schemas["CategorySlug"];
export type CategoryType = Category["type"];
export type Pagination = Schemas["Pagination"];
/** An RFC 9457 problem: the body of every error response. */
export type Problem = Schemas["Problem"];
/** A locale code of the catalog. The API also reads language tags naming one (`pt-BR`, `zh-TW`, `JA`);
 * the client sends the codes, so a typo is caught when compiling. */
export type Locale = Schemas["Locale"];

export type KaomojiPage = Json<"listKaomojis">;
export type SearchPage = Json<"search">;

/** Per call: a signal that aborts it, and a locale other than the client's. */
export interface CallOptions {
  signal?: AbortSignal;
  locale?: Locale;
}

/** Filters and paging of the list; `category` and `type` may be arrays. */
export type ListOptions = Omit<Query<"listKaomojis">, "category" | "type" | "locale"> & CallOptions & {
  category?: string | readonly string[];
  type?: string | readonly string[];
};
export type SearchOptions = Omit<Query<"search">, "q" | "locale"> & CallOptions;
export type RandomOptions = Omit<Query<"random">, "category" | "locale"> & CallOptions & {
  category?: string | readonly string[];
};
export type CategoriesOptions = Omit<Query<"listCategories">, "type" | "locale"> & CallOptions & {
  type?: string | readonly string[];
};
