import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "./errors";

/**
 * Every failure code of the one table (errors.ts) is in the two tables merchants read: the API reference's
 * (docs/api.md "Errors") and the errors guide's (docs/guides/errors-and-retries.md), each with its status.
 */
const ROOT = join(import.meta.dirname, "../..");
const rows = (file: string) =>
  readFileSync(join(ROOT, file), "utf8")
    .split("\n")
    .filter((line) => /^\| [0-9]/.test(line));

describe.each(["docs/api.md", "docs/guides/errors-and-retries.md"])("%s", (file) => {
  it("lists every failure code with its HTTP status", () => {
    const missing = Object.entries(ERROR_STATUS).filter(
      ([code, status]) =>
        !rows(file).some((row) => row.includes(`\`${code}\``) && row.split("|")[1]?.includes(String(status))),
    );
    expect(missing.map(([code, status]) => `${status} ${code}`)).toEqual([]);
  });
});
