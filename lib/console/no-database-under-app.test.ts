import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, it } from "vitest";

/**
 * CONTRIBUTING's rule "no SQL under app/": pages and routes read and write through lib/ verbs, so no file under
 * app/ imports the database client, its schema or Kysely.
 */
const ROOT = join(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

it("no file under app/ imports lib/db or kysely", () => {
  const offenders = files(join(ROOT, "app")).filter((f) =>
    /from\s+["'](@\/lib\/db\/|kysely["'])/.test(readFileSync(f, "utf8")),
  );
  expect(offenders.map((f) => relative(ROOT, f))).toEqual([]);
});
