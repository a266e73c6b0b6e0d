// Responses kept in memory per URL (the URL carries the locale), least recently used first out.

export interface CachedResponse {
  /** The body as received: parsed for each caller, so no caller can change another's result. */
  text: string;
  etag: string | null;
  /** Until when (ms since the epoch, by the client's clock) it may be reused without asking. */
  freshUntil: number;
}

export class ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(url: string): CachedResponse | undefined {
    const entry = this.#entries.get(url);
    if (entry) {
      // A Map iterates in insertion order: taking an entry out and putting it back makes it the newest.
      this.#entries.delete(url);
      this.#entries.set(url, entry);
    }
    return entry;
  }

  set(url: string, entry: CachedResponse): void {
    if (this.maxEntries <= 0) return;
    this.#entries.delete(url);
    this.#entries.set(url, entry);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  delete(url: string): void {
    this.#entries.delete(url);
  }

  clear(): void {
    this.#entries.clear();
  }
}
