// @kaomoji-catalog/client: a typed client of the Kaomoji Catalog API, with no dependencies.

export { DEFAULT_BASE_URL, KaomojiClient, VERSION } from "./client.js";
export type { KaomojiClientOptions } from "./client.js";
export { KaomojiApiError, KaomojiNetworkError, KaomojiTimeoutError, RateLimitError } from "./errors.js";
export type * from "./types.js";
export type { components, operations, paths } from "./schema.js";
