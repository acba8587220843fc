import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import {
  buildInlineScript,
  INLINE_GZIP_BUDGET_BYTES,
  INLINE_SOURCE,
  inlineScript,
  inlineScriptSizes,
} from "./script";

describe("the embedded checkout's script (/v1/inline.js)", () => {
  const script = inlineScript();

  it("fits its budget: at most 5 kB gzip-compressed", () => {
    const { raw, gzip } = inlineScriptSizes(script);
    expect(gzip).toBeLessThanOrEqual(INLINE_GZIP_BUDGET_BYTES);
    expect(gzip).toBeLessThan(raw);
    // Comments and indentation are left out of what is served.
    expect(raw).toBeLessThan(Buffer.byteLength(readFileSync(INLINE_SOURCE, "utf8")));
  });

  it("says its version in its first line, and defines window.Paygate from its own address", () => {
    const source = readFileSync(INLINE_SOURCE, "utf8");
    const version = /export const VERSION = "([^"]+)"/.exec(source)?.[1];
    expect(script.version).toBe(version);
    expect(script.classic.split("\n")[0]).toBe(`/*! Paygate inline checkout ${version} */`);
    expect(script.module.split("\n")[0]).toBe(`/*! Paygate inline checkout ${version} */`);
    const window: Record<string, unknown> = {};
    const document = { currentScript: { src: "https://pay.example.com/v1/inline.js" } };
    runInNewContext(script.classic, { window, document });
    const paygate = window.Paygate as { open: unknown; version: string };
    expect(typeof paygate.open).toBe("function");
    expect(paygate.version).toBe(version);
    expect(Object.isFrozen(paygate)).toBe(true);
  });

  it("refuses to open without a service address or with something that is not an access code", () => {
    const window: Record<string, unknown> = {};
    runInNewContext(script.classic, {
      window,
      document: { currentScript: null, baseURI: "https://shop.example/" },
      URL,
    });
    const { open } = window.Paygate as { open: (code: unknown, options?: object) => unknown };
    expect(() => open("0123456789abcdefghijklmn")).toThrow(/no baseUrl/);
    expect(() => open("not a code!", { baseUrl: "https://pay.example.com" })).toThrow(/accessCode/);
    expect(() => open("x", { baseUrl: "javascript:alert(1)" })).toThrow(/no baseUrl/);
  });

  it("the module is the same code, its exports kept, the service read from its own address", () => {
    expect(script.module).toMatch(/^export function open\(accessCode, options = \{\}\) \{$/m);
    expect(script.module).toContain("const defaultBase = import.meta.url;");
    expect(script.classic).not.toMatch(/^export /m);
    expect(script.classic).not.toContain("import.meta");
    // Nothing loaded from anywhere: no import, no require, no fetch of another script.
    expect(script.module).not.toMatch(/^import /m);
    expect(script.classic).not.toMatch(/\brequire\(|\bimport\(/);
  });

  it("posts only to the exact origin, and reads only the frame's messages from the service's origin", () => {
    expect(script.classic).not.toMatch(/postMessage\([^)]*["']\*["']/);
    expect(script.classic).toContain("event.origin !== service || event.source !== frame.contentWindow");
  });

  it("changes its ETag with its code, and refuses a source without a version", () => {
    const source = readFileSync(INLINE_SOURCE, "utf8");
    expect(buildInlineScript(source).etag).toBe(script.etag);
    expect(buildInlineScript(`${source}\n// changed\nconst x = 1;\n`).etag).not.toBe(script.etag);
    expect(() => buildInlineScript(source.replace(/export const VERSION = .*\n/, ""))).toThrow(/VERSION/);
  });
});
