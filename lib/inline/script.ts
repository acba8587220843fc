import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The embedded checkout's script (docs/guides/embed-the-checkout.md), from its one source,
 * sdk/inline/paygate-inline.mjs (an ES module with no dependencies):
 *  - `classic`, served at /v1/inline.js for a <script> tag: the module's code inside a function, its exports
 *    made `window.Paygate = {open, version}`, the service's address read from the script's own `src`;
 *  - `module`, served at /v1/inline.mjs: the module itself, the service's address read from `import.meta.url`.
 * Both without comments and indentation. Each carries its version in its first line; `etag` is a hash of both.
 */
export type InlineScript = { version: string; classic: string; module: string; etag: string };

export const INLINE_SOURCE = join(process.cwd(), "sdk", "inline", "paygate-inline.mjs");

/** The budget of the classic script, gzip-compressed (bench/page.ts checks it too). */
export const INLINE_GZIP_BUDGET_BYTES = 5 * 1024;

/** Full-line comments, doc comments, indentation and blank lines out; nothing inside a line is touched. */
function compact(source: string): string {
  return source
    .replace(/^\s*\/\*\*[\s\S]*?\*\/\s*$/gm, "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("//"))
    .join("\n");
}

export function buildInlineScript(source: string): InlineScript {
  const version = /export const VERSION = "([0-9A-Za-z.+-]+)";/.exec(source)?.[1];
  if (!version) throw new Error("sdk/inline/paygate-inline.mjs: no VERSION");
  const base = /^const defaultBase = .*;$/m;
  if (!base.test(source)) throw new Error("sdk/inline/paygate-inline.mjs: no defaultBase");
  const body = compact(source);
  const banner = `/*! Paygate inline checkout ${version} */`;
  const classic = [
    banner,
    "(function(){",
    '"use strict";',
    body.replace(/^export /gm, ""),
    "window.Paygate = Object.freeze({ open: open, version: VERSION });",
    "})();",
    "",
  ].join("\n");
  const module = [banner, body.replace(base, "const defaultBase = import.meta.url;"), ""].join("\n");
  const etag = `"${createHash("sha256").update(classic).update(module).digest("base64url").slice(0, 27)}"`;
  return { version, classic, module, etag };
}

let cached: InlineScript | undefined;

/** The scripts of this build, read once per process. */
export function inlineScript(): InlineScript {
  cached ??= buildInlineScript(readFileSync(INLINE_SOURCE, "utf8"));
  return cached;
}

/** Sizes in bytes of the classic script, raw and gzip-compressed (zlib level 6, as bench/page.ts and servers). */
export function inlineScriptSizes(script: InlineScript = inlineScript()): { raw: number; gzip: number } {
  return {
    raw: Buffer.byteLength(script.classic),
    gzip: gzipSync(script.classic, { level: 6 }).length,
  };
}
