// The package as npm would publish it: its types compile for a strict consumer, and the tarball of
// `npm pack` holds the built module and nothing else, with no dependencies, and works once unpacked.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = join(PACKAGE, "node_modules", "typescript", "bin", "tsc");

test("an example consumer compiles under tsc --noEmit --strict against the package's types", () => {
  try {
    execFileSync(process.execPath, [tsc, "-p", join(PACKAGE, "test", "tsconfig.consumer.json")], { encoding: "utf8" });
  } catch (error) {
    assert.fail(`tsc found errors:\n${error.stdout}${error.stderr}`);
  }
});

test("npm pack makes a tarball of dist, LICENSE, README and package.json, with no dependencies, that imports", () => {
  const folder = mkdtempSync(join(tmpdir(), "kaomoji-client-pack-"));
  try {
    // --ignore-scripts: the tests have just built dist; prepack would build it again.
    const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", folder], { cwd: PACKAGE, encoding: "utf8" }));
    const paths = packed.files.map((f) => f.path);
    assert.deepEqual(paths.filter((p) => !p.startsWith("dist/")).sort(), ["LICENSE", "README.md", "package.json"]);
    assert.ok(paths.includes("dist/index.js") && paths.includes("dist/index.d.ts") && paths.includes("dist/schema.d.ts"));
    const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
    assert.equal(manifest.dependencies, undefined);
    assert.equal(manifest.license, "MIT");

    const installed = join(folder, "app", "node_modules", "@kaomoji-catalog", "client");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", join(folder, packed.filename), "-C", installed, "--strip-components=1"]);
    const script = 'import { KaomojiClient, VERSION } from "@kaomoji-catalog/client"; console.log(typeof KaomojiClient, VERSION);';
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: join(folder, "app"), encoding: "utf8" });
    assert.equal(output.trim(), `function ${manifest.version}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
