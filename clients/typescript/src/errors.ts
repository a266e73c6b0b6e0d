// What a call can throw besides RangeError (arguments out of bounds, before any request) and the
// caller's own abort reason: an answer of the API that is not a success, or no answer at all.

import type { Problem } from "./types.js";

/** The API answered with a status that is not a success; the fields come from its problem+json body. */
export class KaomojiApiError extends Error {
  override readonly name: string = "KaomojiApiError";
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  /** For a 400: each bad query parameter and why. Empty otherwise. */
  readonly invalidParams: ReadonlyArray<{ name: string; reason: string }>;
  /** The URL that was asked for. */
  readonly url: string;
  /** The whole body as the API sent it: a Problem, or the text of a body that was not one. */
  readonly body: Problem | string;

  constructor(status: number, url: string, body: Problem | string) {
    const problem = typeof body === "object" ? body : undefined;
    const title = problem?.title ?? `HTTP ${status}`;
    super(`${status} ${title}${problem?.detail ? `: ${problem.detail}` : ""} (${url})`);
    this.status = status;
    this.type = problem?.type ?? "about:blank";
    this.title = title;
    this.detail = problem?.detail;
    this.invalidParams = problem?.invalid_params ?? [];
    this.url = url;
    this.body = body;
  }
}

/** A 429 that was still a 429 after `maxRetries` waits. */
export class RateLimitError extends KaomojiApiError {
  override readonly name: string = "RateLimitError";
  /** Seconds the API asked to wait (Retry-After), or undefined when it did not say. */
  readonly retryAfter: number | undefined;
  /** Which limit it was, as the API names it. */
  readonly limit: string | undefined;

  constructor(url: string, body: Problem | string, retryAfter: number | undefined) {
    super(429, url, body);
    this.retryAfter = retryAfter;
    this.limit = typeof body === "object" ? body.limit : undefined;
  }
}

/** No answer: the address could not be reached, the connection broke, or the body was not JSON. */
export class KaomojiNetworkError extends Error {
  override readonly name: string = "KaomojiNetworkError";
  constructor(readonly url: string, options: { cause: unknown }) {
    super(`no usable answer from ${url}: ${String((options.cause as Error)?.message ?? options.cause)}`, options);
  }
}

/** No complete answer within `timeoutMs`. */
export class KaomojiTimeoutError extends Error {
  override readonly name: string = "KaomojiTimeoutError";
  constructor(readonly url: string, readonly timeoutMs: number) {
    super(`no answer from ${url} within ${timeoutMs} ms`);
  }
}
