// 429 from the real service: the entry-point limit set to 1 request a second with no burst
// (KAOMOJI_GATE_RATE, KAOMOJI_GATE_BURST), so a second request within the second gets 429 with
// Retry-After: 1. One worker, so one bucket.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { KaomojiClient, RateLimitError } from "@kaomoji-catalog/client";
import { recordingFetch, sampleCatalog, sleep, startServer } from "./support.mjs";

let server;
before(async () => {
  server = await startServer({
    catalog: sampleCatalog(),
    env: { KAOMOJI_RATELIMIT_ENABLED: "true", KAOMOJI_GATE_RATE: "1", KAOMOJI_GATE_BURST: "0" },
  });
});
after(async () => { await server?.stop(); });

/** A client on that server, after a second without requests: the bucket is full again. */
async function rested(options = {}) {
  await sleep(1100);
  const record = recordingFetch();
  return { client: new KaomojiClient({ baseUrl: server.baseUrl, fetch: record.fetch, ...options }), record };
}

test("a 429 is waited out as its Retry-After says, then the request is sent again", async () => {
  const { client, record } = await rested();
  await client.categories();
  const one = await client.random({ count: 1, seed: "a" });
  assert.equal(one.length, 1);
  assert.deepEqual(record.exchanges.map((e) => e.status), [200, 429, 200]);
  const [, limited, retried] = record.exchanges;
  assert.ok(retried.started - limited.ended >= 990, `waited ${retried.started - limited.ended} ms, not Retry-After: 1`);
});

test("a 429 past maxRetries is a RateLimitError with retryAfter in seconds", async () => {
  const { client, record } = await rested({ maxRetries: 0 });
  await client.categories();
  const error = await client.random({ count: 1, seed: "b" }).then(() => assert.fail("no error"), (e) => e);
  assert.ok(error instanceof RateLimitError, String(error));
  assert.equal(error.status, 429);
  assert.equal(error.retryAfter, 1);
  assert.match(error.limit, /1 requests per second/);
  assert.deepEqual(record.exchanges.map((e) => e.status), [200, 429]);
});

test("calls queued behind a 429 wait too: the client never runs ahead of the limit", async () => {
  const { client, record } = await rested({ maxRetries: 5 });
  const started = performance.now();
  const results = await Promise.all([1, 2, 3].map((n) => client.random({ count: 1, seed: String(n) })));
  assert.equal(results.length, 3);
  assert.equal(record.mostInFlight, 1);
  assert.deepEqual(record.exchanges.map((e) => e.status), [200, 429, 200, 429, 200]);
  assert.ok(performance.now() - started >= 1900);
});

test("an abort during the Retry-After wait rejects at once, and the calls behind go on", async () => {
  const { client, record } = await rested();
  await client.categories();
  const controller = new AbortController();
  const waiting = client.random({ count: 1, seed: "c", signal: controller.signal });
  const behind = client.random({ count: 1, seed: "d" });
  await sleep(300);
  const aborted = performance.now();
  controller.abort();
  await assert.rejects(waiting, { name: "AbortError" });
  assert.ok(performance.now() - aborted < 200);
  assert.equal((await behind).length, 1);
  assert.equal(record.exchanges.at(-1).status, 200);
});
