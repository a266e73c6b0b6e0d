// What the tests share: the real service under gunicorn (scripts/server.mjs) and a fetch that records
// each exchange it passes on to it, unchanged.

import { createServer } from "node:net";

export { freePort, sampleCatalog, startServer } from "../scripts/server.mjs";

/**
 * The platform's fetch, recording each request (url, If-None-Match, status, start and end times) and
 * how many were in flight at once. It reads each body before handing the response on, so that an
 * exchange counts as in flight until its answer is complete.
 */
export function recordingFetch() {
  const record = { exchanges: [], inFlight: 0, mostInFlight: 0 };
  record.fetch = async (input, init = {}) => {
    const exchange = {
      url: String(input),
      ifNoneMatch: new Headers(init.headers).get("if-none-match"),
      userAgent: new Headers(init.headers).get("user-agent"),
      started: performance.now(),
    };
    record.exchanges.push(exchange);
    record.mostInFlight = Math.max(record.mostInFlight, ++record.inFlight);
    try {
      const response = await fetch(input, init);
      const body = await response.arrayBuffer();
      exchange.status = response.status;
      exchange.ended = performance.now();
      return new Response(response.status === 304 ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    } finally {
      record.inFlight--;
    }
  };
  return record;
}

/** A TCP server that accepts connections and never answers: what a hung upstream looks like. */
export async function silentServer() {
  const sockets = new Set();
  const server = createServer((socket) => { sockets.add(socket); socket.on("close", () => sockets.delete(socket)); });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((done) => { for (const socket of sockets) socket.destroy(); server.close(done); }),
  };
}

export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
