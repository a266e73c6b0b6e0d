// KaomojiClient: every endpoint of the API as a method, polite by default. Calls of one client go out
// one at a time, as the contract asks (part 8: sequential, not concurrent); a 429 is waited out as its
// Retry-After says, inside the caller's turn, so the calls queued behind it wait too.

import { BOUNDS } from "./bounds.js";
import { ResponseCache } from "./cache.js";
import { KaomojiApiError, KaomojiNetworkError, KaomojiTimeoutError, RateLimitError } from "./errors.js";
import { freshSeconds, retryAfterSeconds } from "./http.js";
import type {
  CallOptions, CategoriesOptions, Category, Kaomoji, KaomojiDetail, KaomojiPage, ListOptions, Locale,
  Problem, RandomOptions, SearchHit, SearchOptions, SearchPage,
} from "./types.js";

/** The documented public address of the service; a placeholder until it is published, so pass `baseUrl`. */
export const DEFAULT_BASE_URL = "https://kaomoji-catalog.example/";
export const VERSION = "0.1.0";

export interface KaomojiClientOptions {
  /** Where the API is: the address that /api/v1/... is under. Default DEFAULT_BASE_URL. */
  baseUrl?: string | URL;
  /** Language of localized fields for every call that does not name one; without it the API decides (Accept-Language, else en). */
  locale?: Locale;
  /** The fetch to use (a proxying or instrumented one); default the platform's. */
  fetch?: typeof fetch;
  /** Milliseconds one HTTP exchange may take, body included (waits for Retry-After not counted); 0: no limit. Default 10,000. */
  timeoutMs?: number;
  /** How many times a 429 is waited out and the request sent again before RateLimitError. Default 2. */
  maxRetries?: number;
  /** Sent as User-Agent on Node, Deno and Bun; browsers send their own (setting it there would cost a preflight). */
  userAgent?: string;
  /** How many responses the in-memory cache keeps, least recently used out first; 0 turns it off. Default 100. */
  cacheEntries?: number;
  /** The clock (ms since the epoch) that cache freshness and a dated Retry-After are read with. Default Date.now. */
  now?: () => number;
}

type QueryValue = string | number | boolean | readonly string[] | undefined;

export class KaomojiClient {
  readonly baseUrl: string;
  readonly locale: Locale | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly #fetch: typeof fetch;
  readonly #userAgent: string | undefined;
  readonly #cache: ResponseCache;
  readonly #now: () => number;
  /** Settles when the call before the newest has finished: each call waits for it, then takes its place. */
  #queue: Promise<void> = Promise.resolve();

  constructor(options: KaomojiClientOptions = {}) {
    const base = String(options.baseUrl ?? DEFAULT_BASE_URL);
    // Paths are joined relative to the base, so a base with a path of its own keeps it.
    this.baseUrl = base.endsWith("/") ? base : `${base}/`;
    this.locale = options.locale;
    this.timeoutMs = checkedInteger("timeoutMs", options.timeoutMs ?? 10_000, 0, Number.MAX_SAFE_INTEGER);
    this.maxRetries = checkedInteger("maxRetries", options.maxRetries ?? 2, 0, Number.MAX_SAFE_INTEGER);
    const platformFetch = options.fetch ?? globalThis.fetch;
    if (typeof platformFetch !== "function") throw new TypeError("no fetch on this platform: pass one as options.fetch");
    // Called as a plain function: a browser's fetch refuses to run with a `this` other than the global one.
    this.#fetch = (input, init) => platformFetch(input, init);
    this.#userAgent = sendsUserAgent() ? options.userAgent ?? `kaomoji-catalog-client/${VERSION}` : undefined;
    this.#cache = new ResponseCache(checkedInteger("cacheEntries", options.cacheEntries ?? 100, 0, Number.MAX_SAFE_INTEGER));
    this.#now = options.now ?? Date.now;
  }

  /** Keyword search in any of the 12 languages, or by a pasted face: one page of ranked hits. */
  async search(q: string, options: SearchOptions = {}): Promise<SearchPage> {
    checkQuery(q);
    const { signal, locale, page, limit, ...rest } = options;
    checkPaging(page, limit, BOUNDS.searchLimit);
    return this.#getJson("api/v1/search", { ...rest, q, page, limit, locale }, signal);
  }

  /** One entry by id, with `note` and `usage`; KaomojiApiError with status 404 for an unknown id. */
  async get(id: number, options: CallOptions = {}): Promise<KaomojiDetail> {
    checkedInteger("id", id, BOUNDS.id.min, BOUNDS.id.max);
    const body = await this.#getJson<{ data: KaomojiDetail }>(`api/v1/kaomojis/${id}`, { locale: options.locale }, options.signal);
    return body.data;
  }

  /** `count` random entries (default 1); with a `seed`, the same pick for the same catalog (a kaomoji of the day). */
  async random(options: RandomOptions = {}): Promise<Kaomoji[]> {
    const { signal, locale, count, ...rest } = options;
    if (count !== undefined) checkedInteger("count", count, BOUNDS.count.min, BOUNDS.count.max);
    const body = await this.#getJson<{ data: Kaomoji[] }>("api/v1/random", { ...rest, count, locale }, signal);
    return body.data;
  }

  /** The categories with localized names and entry counts, optionally of some types only. */
  async categories(options: CategoriesOptions = {}): Promise<Category[]> {
    const { signal, locale, ...rest } = options;
    const body = await this.#getJson<{ data: Category[] }>("api/v1/categories", { ...rest, locale }, signal);
    return body.data;
  }

  /** One page of the catalog, cleanest faces first, with filters. */
  async list(options: ListOptions = {}): Promise<KaomojiPage> {
    const { signal, locale, page, limit, ...rest } = options;
    checkPaging(page, limit, BOUNDS.listLimit);
    return this.#getJson("api/v1/kaomojis", { ...rest, page, limit, locale }, signal);
  }

  /**
   * Every entry of the list, page by page from `page` (default 1). A page is asked for only when the
   * one before is used up, through the same queue and limits as any call. Pages are as large as the
   * API allows unless `limit` says otherwise: fewer requests for the same entries.
   */
  async *listAll(options: ListOptions = {}): AsyncGenerator<Kaomoji, void, undefined> {
    yield* this.#pages((page) => this.list({ ...options, page, limit: options.limit ?? BOUNDS.listLimit.max }), options.page);
  }

  /** Every result of a search, page by page, as listAll does. */
  async *searchAll(q: string, options: SearchOptions = {}): AsyncGenerator<SearchHit, void, undefined> {
    yield* this.#pages((page) => this.search(q, { ...options, page }), options.page);
  }

  /** Forget every kept response. */
  clearCache(): void {
    this.#cache.clear();
  }

  async *#pages<T>(fetchPage: (page: number) => Promise<{ data: T[]; pagination: { page: number; total_pages: number } }>, first = 1) {
    for (let page = first; ; page++) {
      const { data, pagination } = await fetchPage(page);
      yield* data;
      if (data.length === 0 || pagination.page >= pagination.total_pages) return;
    }
  }

  async #getJson<T>(path: string, query: Record<string, QueryValue>, signal: AbortSignal | undefined): Promise<T> {
    const url = new URL(path, this.baseUrl);
    for (const [name, value] of Object.entries({ ...query, locale: query.locale ?? this.locale })) {
      if (value !== undefined) url.searchParams.set(name, Array.isArray(value) ? value.join(",") : String(value));
    }
    const key = url.href;
    signal?.throwIfAborted();
    const fresh = this.#freshText(key);
    if (fresh !== undefined) return JSON.parse(fresh) as T;
    // Read the cache again in turn: a call queued behind the same request finds its answer kept.
    return this.#inTurn(async () => {
      const keptText = this.#freshText(key);
      return (keptText !== undefined ? JSON.parse(keptText) : await this.#exchange(key, signal)) as T;
    }, signal);
  }

  #freshText(key: string): string | undefined {
    const kept = this.#cache.get(key);
    return kept && kept.freshUntil > this.#now() ? kept.text : undefined;
  }

  /** The parsed body of a successful answer for `url`, from the network or revalidated; every other outcome throws. */
  async #exchange(url: string, signal: AbortSignal | undefined): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const kept = this.#cache.get(url);
      const headers: Record<string, string> = { accept: "application/json" };
      if (kept?.etag) headers["if-none-match"] = kept.etag;
      if (this.#userAgent) headers["user-agent"] = this.#userAgent;
      const { response, text } = await this.#send(url, headers, signal);

      if (response.status === 304 && kept) {
        this.#keep(url, response, kept.text, kept.etag);
        return JSON.parse(kept.text);
      }
      if (response.ok) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (error) {
          throw new KaomojiNetworkError(url, { cause: error }); // a portal's or a proxy's page, not the API's answer
        }
        this.#keep(url, response, text, response.headers.get("etag"));
        return body;
      }
      const body = problemOf(text);
      if (response.status !== 429) throw new KaomojiApiError(response.status, url, body);
      const retryAfter = retryAfterSeconds(response.headers.get("retry-after"), this.#now());
      if (attempt >= this.maxRetries) throw new RateLimitError(url, body, retryAfter);
      // Without a Retry-After (a proxy's 429), a second is the entry-point limit's own smallest wait.
      await sleep((retryAfter ?? 1) * 1000, signal);
    }
  }

  /** Keep a response as its Cache-Control allows: no-store never; otherwise while fresh, or to revalidate by ETag. */
  #keep(url: string, response: Response, text: string, etag: string | null): void {
    const seconds = freshSeconds(response.headers.get("cache-control"), response.headers.get("age"));
    if (seconds === null || (seconds === 0 && !etag)) {
      this.#cache.delete(url);
      return;
    }
    this.#cache.set(url, { text, etag, freshUntil: this.#now() + seconds * 1000 });
  }

  /** One HTTP exchange, body included, under the timeout and the caller's signal. */
  async #send(url: string, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<{ response: Response; text: string }> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = this.timeoutMs > 0 ? setTimeout(() => { timedOut = true; controller.abort(); }, this.timeoutMs) : undefined;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.#fetch(url, { headers, signal: controller.signal });
      return { response, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new KaomojiTimeoutError(url, this.timeoutMs);
      throw new KaomojiNetworkError(url, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Run `task` when every call before it has finished; an abort while waiting rejects at once. */
  async #inTurn<T>(task: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    const before = this.#queue;
    let finished!: () => void;
    this.#queue = new Promise<void>((resolve) => { finished = resolve; });
    try {
      await untilSettledOrAborted(before, signal);
      return await task();
    } finally {
      // A call that gave up waiting hands its turn on only once the call before it is done,
      // so that the next one never runs alongside it.
      void before.then(finished);
    }
  }
}

function problemOf(text: string): Problem | string {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && "status" in body && "title" in body) return body as Problem;
  } catch { /* not JSON: kept as text */ }
  return text;
}

function checkedInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, not ${String(value)}`);
  }
  return value;
}

function checkPaging(page: number | undefined, limit: number | undefined, limits: { min: number; max: number }): void {
  if (page !== undefined) checkedInteger("page", page, BOUNDS.page.min, BOUNDS.page.max);
  if (limit !== undefined) checkedInteger("limit", limit, limits.min, limits.max);
}

function checkQuery(q: string): void {
  const length = typeof q === "string" ? [...q.trim()].length : -1;
  if (length < BOUNDS.query.min || length > BOUNDS.query.max) {
    throw new RangeError(`q must be from ${BOUNDS.query.min} to ${BOUNDS.query.max} characters after trimming, not ${length}`);
  }
}

/** Node, Deno and Bun let a caller name itself; browsers do not, and would ask a preflight for trying. */
function sendsUserAgent(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; Deno?: unknown };
  return Boolean(g.process?.versions?.node || g.Deno);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function untilSettledOrAborted(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}
