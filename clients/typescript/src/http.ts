// The two response headers the client acts on, read as RFC 9110 and RFC 9111 define them.

/** Seconds to wait from a Retry-After value: delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * How long a response may be reused without asking, in seconds: max-age less Age. null when it must
 * not be kept at all (no-store), 0 when it may be kept but must be revalidated first (no-cache, no max-age).
 */
export function freshSeconds(cacheControl: string | null, age: string | null): number | null {
  const directives = (cacheControl ?? "").toLowerCase().split(",").map((d) => d.trim());
  if (directives.includes("no-store")) return null;
  if (directives.includes("no-cache")) return 0;
  const maxAge = directives.find((d) => d.startsWith("max-age="));
  const seconds = maxAge ? Number.parseInt(maxAge.slice("max-age=".length), 10) : 0;
  const aged = age && /^\d+$/.test(age.trim()) ? Number(age) : 0;
  return Number.isFinite(seconds) ? Math.max(0, seconds - aged) : 0;
}
