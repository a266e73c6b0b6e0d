// The service under a real gunicorn on a free loopback port, for the tests and for `npm run generate`.
// The Python side is found as the project's README sets it up: the repository's .venv, unless
// KAOMOJI_PYTHON names another interpreter.

import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export function python() {
  if (process.env.KAOMOJI_PYTHON) return process.env.KAOMOJI_PYTHON;
  const venv = join(REPO, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** A small catalog built by tools/build_catalog.py, once: KAOMOJI_TEST_CATALOG when set, else a cached build. */
export function sampleCatalog() {
  if (process.env.KAOMOJI_TEST_CATALOG) return process.env.KAOMOJI_TEST_CATALOG;
  const path = resolve(dirname(fileURLToPath(import.meta.url)), "..", ".cache", "sample.sqlite");
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    // Built aside and renamed: a run stopped half-way leaves no broken catalog, and test files that
    // node runs at once may each build one without harm.
    const part = `${path}.${process.pid}.part`;
    execFileSync(python(), ["-m", "tools.build_catalog", "--out", part, "--sample", "400"], { cwd: REPO, stdio: "ignore" });
    renameSync(part, path);
  }
  return path;
}

/**
 * Start gunicorn serving `catalog` with the given KAOMOJI_* settings; resolves to
 * { baseUrl, stop() } once /healthz answers 200. Rate limits are off unless `env` turns them on.
 */
export async function startServer({ catalog, env = {}, workers = 1 }) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(python(), ["-m", "gunicorn", "--bind", `127.0.0.1:${port}`, "--workers", String(workers), "wsgi:app"], {
    cwd: REPO,
    env: { ...process.env, KAOMOJI_CATALOG: catalog, KAOMOJI_RATELIMIT_ENABLED: "false", ...env },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group, so that stop() ends gunicorn's workers with it
  });
  let output = "";
  child.stderr.on("data", (chunk) => { output += chunk; });
  const exited = new Promise((done) => child.once("exit", done));
  const stop = async () => {
    try { process.kill(-child.pid, "SIGTERM"); } catch { /* already gone */ }
    await exited;
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gunicorn exited with ${child.exitCode}: ${output}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) return { baseUrl, stop };
    } catch { /* not listening yet */ }
    await new Promise((done) => setTimeout(done, 200));
  }
  await stop();
  throw new Error(`gunicorn did not answer on ${baseUrl} within 60 s: ${output}`);
}
