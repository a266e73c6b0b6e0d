// A consumer of the package as published, compiled with tsc --noEmit --strict by types.test.mjs:
// it fails to compile when a method's types stop matching the API's shapes.

import {
  KaomojiApiError, KaomojiClient, RateLimitError,
  type Category, type Kaomoji, type KaomojiDetail, type Locale, type Pagination, type Problem, type SearchHit,
} from "@kaomoji-catalog/client";

export async function consumer(): Promise<void> {
  const client = new KaomojiClient({ baseUrl: "http://127.0.0.1:8000", locale: "ja", timeoutMs: 5000, maxRetries: 2 });

  const page = await client.search("cat", { limit: 10, signal: AbortSignal.timeout(1000) });
  const hits: SearchHit[] = page.data;
  const pagination: Pagination = page.pagination;
  const why: "keyword" | "name" | "category" | "text" | "says" = hits[0]!.match.field;
  const pages: number = pagination.total_pages;

  const one: KaomojiDetail = await client.get(1);
  const note: string = one.note;
  const usage: string[] = one.usage;

  const picks: Kaomoji[] = await client.random({ count: 3, seed: "2026-11-22" });
  // @ts-expect-error list and random items carry no note
  picks[0]!.note;

  const cats: Category[] = await client.categories({ type: "emotion" });
  const kind: "action" | "animal" | "emotion" | "object" | "other" = cats[0]!.type;

  const list = await client.list({ category: ["cat", "dog"], page: 2, limit: 50, ascii_safe: true });
  const text: string = list.data[0]!.text;

  for await (const k of client.listAll({ category: "cat" })) { const id: number = k.id; void id; }
  for await (const hit of client.searchAll("happy")) { const n: string = hit.note; void n; }

  const locale: Locale = "zh-Hant";
  // @ts-expect-error not a locale the API has
  const wrong: Locale = "klingon";
  // @ts-expect-error count is a number
  await client.random({ count: "3" });
  // @ts-expect-error search needs its words
  await client.search();

  try {
    await client.get(0);
  } catch (error) {
    if (error instanceof RateLimitError) { const seconds: number | undefined = error.retryAfter; void seconds; }
    if (error instanceof KaomojiApiError) {
      const status: number = error.status;
      const params: ReadonlyArray<{ name: string; reason: string }> = error.invalidParams;
      const body: Problem | string = error.body;
      void status; void params; void body;
    }
  }
  void [why, pages, note, usage, kind, text, locale, wrong];
}
