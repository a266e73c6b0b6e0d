// The header rules the client acts on, for the forms the service does not send itself
// (an HTTP-date Retry-After, Age, no-cache).

import assert from "node:assert/strict";
import { test } from "node:test";
import { freshSeconds, retryAfterSeconds } from "../dist/http.js";

test("Retry-After in seconds or as an HTTP-date", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  assert.equal(retryAfterSeconds("7", now), 7);
  assert.equal(retryAfterSeconds("Sun, 22 Nov 2026 10:00:30 GMT", now), 30);
  assert.equal(retryAfterSeconds("Sun, 22 Nov 2026 09:00:00 GMT", now), 0);
  assert.equal(retryAfterSeconds(null, now), undefined);
  assert.equal(retryAfterSeconds("soon", now), undefined);
});

test("freshness from Cache-Control and Age", () => {
  assert.equal(freshSeconds("public, max-age=300", null), 300);
  assert.equal(freshSeconds("public, max-age=300", "100"), 200);
  assert.equal(freshSeconds("max-age=300", "400"), 0);
  assert.equal(freshSeconds("no-store", null), null);
  assert.equal(freshSeconds("no-cache, max-age=300", null), 0);
  assert.equal(freshSeconds(null, null), 0);
});
