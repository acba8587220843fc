import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The vendored OpenAPI document is Paystack's file byte for byte: its README states the upstream sha256, and a
 * reformatting (a formatter's quotes, line endings) or a hand edit changes the bytes and fails here.
 */
const VENDOR = join(import.meta.dirname, "vendor");

describe("vendored Paystack OpenAPI document", () => {
  it("is byte-identical to the upstream file whose sha256 the README states", () => {
    const readme = readFileSync(join(VENDOR, "README.md"), "utf8");
    const stated = /sha256 `([0-9a-f]{64})`/.exec(readme)?.[1];
    expect(stated, "README.md states the document's sha256").toBeDefined();
    const actual = createHash("sha256")
      .update(readFileSync(join(VENDOR, "paystack.yaml")))
      .digest("hex");
    expect(actual).toBe(stated);
  });
});
