// Every method against the real service (gunicorn over a sample catalog, limits off): shapes,
// paging, the queue, the cache, errors, abort and timeout.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  KaomojiApiError, KaomojiClient, KaomojiNetworkError, KaomojiTimeoutError, DEFAULT_BASE_URL, VERSION,
} from "@kaomoji-catalog/client";
import { freePort, recordingFetch, sampleCatalog, silentServer, startServer } from "./support.mjs";

let server;
before(async () => { server = await startServer({ catalog: sampleCatalog() }); });
after(async () => { await server?.stop(); });

/** The biggest category of the catalog and a page size that splits it into three or more pages. */
async function categoryOfThreePages() {
  const [biggest] = (await new KaomojiClient({ baseUrl: server.baseUrl }).categories()).sort((a, b) => b.count - a.count);
  assert.ok(biggest.count >= 3, "the sample catalog should have a category of 3 entries or more");
  return { category: biggest.slug, limit: Math.floor(biggest.count / 3) };
}

function client(options = {}) {
  const record = recordingFetch();
  return { client: new KaomojiClient({ baseUrl: server.baseUrl, fetch: record.fetch, ...options }), record };
}

describe("methods", () => {
  test("search gives a page of hits with note, usage and match, in the client's locale", async () => {
    const { client: c, record } = client({ locale: "ja" });
    const page = await c.search("cat", { limit: 3 });
    assert.equal(page.data.length, 3);
    assert.deepEqual(Object.keys(page.pagination).sort(), ["limit", "page", "total", "total_pages"]);
    for (const hit of page.data) {
      assert.equal(typeof hit.note, "string");
      assert.ok(hit.usage.length >= 1);
      assert.ok(["keyword", "name", "category", "text"].includes(hit.match.field));
    }
    assert.match(record.exchanges[0].url, /\/api\/v1\/search\?q=cat&limit=3&locale=ja$/);
  });

  test("get gives one entry with note and usage; a call's locale overrides the client's", async () => {
    const { client: c, record } = client({ locale: "ja" });
    const [first] = (await c.list({ limit: 1 })).data;
    const one = await c.get(first.id, { locale: "de" });
    assert.equal(one.id, first.id);
    assert.equal(one.text, first.text);
    assert.equal(typeof one.note, "string");
    assert.ok(Array.isArray(one.usage));
    assert.match(record.exchanges[1].url, /locale=de$/);
  });

  test("random gives count entries without note or usage; a seed gives the same pick", async () => {
    const { client: c } = client();
    const picks = await c.random({ count: 3, seed: "2026-11-22" });
    assert.equal(picks.length, 3);
    for (const k of picks) assert.ok(!("note" in k) && !("usage" in k));
    const again = await new KaomojiClient({ baseUrl: server.baseUrl }).random({ count: 3, seed: "2026-11-22" });
    assert.deepEqual(again, picks);
  });

  test("categories of a type, with counts", async () => {
    const { client: c, record } = client();
    const cats = await c.categories({ type: ["emotion", "animal"] });
    assert.ok(cats.length > 0);
    for (const cat of cats) {
      assert.ok(["emotion", "animal"].includes(cat.type));
      assert.equal(typeof cat.count, "number");
    }
    assert.match(record.exchanges[0].url, /type=emotion%2Canimal/);
  });

  test("list filters by category and pages", async () => {
    const { client: c } = client();
    const { category, limit } = await categoryOfThreePages();
    const page = await c.list({ category, page: 2, limit });
    assert.equal(page.pagination.page, 2);
    assert.equal(page.pagination.limit, limit);
    assert.equal(page.data.length, limit);
    for (const k of page.data) assert.ok(k.categories.includes(category));
  });

  test("the default address is the documented one, and a User-Agent names the client on Node", async () => {
    assert.equal(new KaomojiClient().baseUrl, DEFAULT_BASE_URL);
    const { client: c, record } = client();
    await c.categories();
    assert.equal(record.exchanges[0].userAgent, `kaomoji-catalog-client/${VERSION}`);
    const named = client({ userAgent: "emoji-picker/2.0" });
    await named.client.categories();
    assert.equal(named.record.exchanges[0].userAgent, "emoji-picker/2.0");
  });
});

describe("paging iterators", () => {
  test("listAll yields every entry of the filter once, in as many requests as pages", async () => {
    const { client: c, record } = client();
    const filter = await categoryOfThreePages();
    const { pagination } = await new KaomojiClient({ baseUrl: server.baseUrl }).list(filter);
    assert.ok(pagination.total_pages >= 3);
    const ids = [];
    for await (const k of c.listAll(filter)) ids.push(k.id);
    assert.equal(ids.length, pagination.total);
    assert.equal(new Set(ids).size, ids.length);
    const pages = Array.from({ length: pagination.total_pages }, (_, i) => `page=${i + 1}`);
    assert.deepEqual(record.exchanges.map((e) => e.url.match(/page=\d+/)[0]), pages);
  });

  test("searchAll yields every result of a search", async () => {
    const { client: c } = client();
    const { pagination } = await c.search("happy", { limit: 25 });
    let count = 0;
    for await (const hit of c.searchAll("happy")) { assert.equal(typeof hit.match.field, "string"); count++; }
    assert.equal(count, pagination.total);
  });

  test("an iterator asks for a page only when the one before is used up", async () => {
    const { client: c, record } = client();
    const iterator = c.listAll({ limit: 3 });
    for (let i = 0; i < 3; i++) await iterator.next();
    assert.equal(record.exchanges.length, 1);
    await iterator.next();
    assert.equal(record.exchanges.length, 2);
    await iterator.return();
    assert.equal(record.exchanges.length, 2);
  });
});

describe("one request at a time", () => {
  test("concurrent calls of one client go out one after another", async () => {
    const { client: c, record } = client();
    const results = await Promise.all([c.get(1).catch(() => null), c.search("dog"), c.list({ page: 3 }), c.random({ count: 2 }), c.categories()]);
    assert.equal(results.length, 5);
    assert.equal(record.exchanges.length, 5);
    assert.equal(record.mostInFlight, 1);
  });

  test("a call queued behind the same request takes its kept answer", async () => {
    const { client: c, record } = client();
    const [a, b] = await Promise.all([c.categories(), c.categories()]);
    assert.deepEqual(a, b);
    assert.equal(record.exchanges.length, 1);
  });
});

describe("caching as HTTP says", () => {
  test("a response is reused while max-age allows, then revalidated with If-None-Match; a 304 reuses the body", async () => {
    let now = Date.now();
    const { client: c, record } = client({ now: () => now });
    const first = await c.categories();
    assert.deepEqual(await c.categories(), first);
    assert.equal(record.exchanges.length, 1, "fresh: no request");
    now += 86_400_000 + 1; // categories are public, max-age=86400
    assert.deepEqual(await c.categories(), first);
    assert.equal(record.exchanges.length, 2);
    assert.match(record.exchanges[1].ifNoneMatch, /^"[0-9a-f]+"$/);
    assert.equal(record.exchanges[1].status, 304);
    assert.deepEqual(await c.categories(), first);
    assert.equal(record.exchanges.length, 2, "the 304 made it fresh again");
  });

  test("each caller gets its own copy of a kept body", async () => {
    const { client: c } = client();
    const first = await c.categories();
    first[0].count = -1;
    assert.notEqual((await c.categories())[0].count, -1);
  });

  test("a no-store response (random without a seed) is never kept nor revalidated", async () => {
    const { client: c, record } = client();
    await c.random({ count: 2 });
    await c.random({ count: 2 });
    assert.equal(record.exchanges.length, 2);
    assert.equal(record.exchanges[1].ifNoneMatch, null);
    await c.random({ count: 2, seed: "kept" });
    await c.random({ count: 2, seed: "kept" });
    assert.equal(record.exchanges.length, 3, "a seeded pick may be kept, and is");
  });

  test("the cache keeps at most cacheEntries responses, least recently used out first", async () => {
    const { client: c, record } = client({ cacheEntries: 2 });
    await c.get(1).catch(() => {});
    await c.search("cat");
    await c.search("dog");
    await c.search("cat"); // kept: no request, and now the most recent
    assert.equal(record.exchanges.length, 3);
    await c.get(1).catch(() => {}); // pushed out by the third
    assert.equal(record.exchanges.length, 4);
    await c.search("cat");
    assert.equal(record.exchanges.length, 4);
  });

  test("responses are kept per locale", async () => {
    const { client: c, record } = client();
    const en = await c.categories({ locale: "en" });
    const ja = await c.categories({ locale: "ja" });
    assert.equal(record.exchanges.length, 2);
    assert.notDeepEqual(en.map((x) => x.name), ja.map((x) => x.name));
  });
});

describe("errors", () => {
  test("an unknown id is a KaomojiApiError from the problem body", async () => {
    const { client: c } = client();
    const error = await c.get(2_000_000_000).then(() => assert.fail("no error"), (e) => e);
    assert.ok(error instanceof KaomojiApiError);
    assert.equal(error.status, 404);
    assert.equal(error.type, "about:blank");
    assert.equal(error.title, "Not Found");
    assert.match(error.detail, /2000000000/);
    assert.deepEqual(error.invalidParams, []);
  });

  test("a bad parameter is a KaomojiApiError naming it in invalidParams", async () => {
    const { client: c } = client();
    const error = await c.categories({ type: "colour" }).then(() => assert.fail("no error"), (e) => e);
    assert.ok(error instanceof KaomojiApiError);
    assert.equal(error.status, 400);
    assert.equal(error.invalidParams[0].name, "type");
    assert.match(error.invalidParams[0].reason, /emotion/);
  });

  test("arguments out of bounds are a RangeError with the bound, before any request", async () => {
    const { client: c, record } = client();
    await assert.rejects(() => c.random({ count: 11 }), { name: "RangeError", message: /count .* from 1 to 10/ });
    await assert.rejects(() => c.random({ count: 0 }), { name: "RangeError", message: /from 1 to 10/ });
    await assert.rejects(() => c.search("cat", { limit: 26 }), { name: "RangeError", message: /limit .* from 1 to 25/ });
    await assert.rejects(() => c.list({ limit: 101 }), { name: "RangeError", message: /limit .* from 1 to 100/ });
    await assert.rejects(() => c.list({ page: 0 }), { name: "RangeError", message: /page/ });
    await assert.rejects(() => c.search("   "), { name: "RangeError", message: /q must be from 1 to 100/ });
    await assert.rejects(() => c.search("x".repeat(101)), { name: "RangeError", message: /1 to 100/ });
    await assert.rejects(() => c.get(1.5), { name: "RangeError" });
    assert.equal(record.exchanges.length, 0);
  });

  test("a refused connection is a KaomojiNetworkError with its cause", async () => {
    const c = new KaomojiClient({ baseUrl: `http://127.0.0.1:${await freePort()}` });
    const error = await c.categories().then(() => assert.fail("no error"), (e) => e);
    assert.ok(error instanceof KaomojiNetworkError && !(error instanceof KaomojiApiError));
    assert.ok(error.cause);
  });

  test("no answer within timeoutMs is a KaomojiTimeoutError", async () => {
    const silent = await silentServer();
    try {
      const c = new KaomojiClient({ baseUrl: silent.baseUrl, timeoutMs: 300 });
      const started = performance.now();
      const error = await c.categories().then(() => assert.fail("no error"), (e) => e);
      assert.ok(error instanceof KaomojiTimeoutError);
      assert.equal(error.timeoutMs, 300);
      assert.ok(performance.now() - started < 2000);
    } finally {
      await silent.close();
    }
  });

  test("the caller's abort rejects with its reason, and a hung call does not hold up the next forever", async () => {
    const silent = await silentServer();
    try {
      const c = new KaomojiClient({ baseUrl: silent.baseUrl, timeoutMs: 0 });
      const controller = new AbortController();
      const hung = c.categories({ signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      await assert.rejects(hung, { name: "AbortError" });
    } finally {
      await silent.close();
    }
    const { client: c, record } = client();
    await assert.rejects(() => c.categories({ signal: AbortSignal.abort() }), { name: "AbortError" });
    assert.equal(record.exchanges.length, 0, "an aborted signal sends nothing");
  });
});
