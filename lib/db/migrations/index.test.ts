import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migrations } from "./index";

/**
 * The list in index.ts is what runs (the built server bundles it; nothing reads this folder at run time), so
 * it must hold every migration file of the folder, each under its own file name, and nothing else.
 */
const MIGRATION_FILE = /^(\d{4}_[a-z0-9]+(?:_[a-z0-9]+)*)\.ts$/;
/** The folder's other files: the list, its tests and the record of released statements. */
const OTHERS = ["index.ts", "index.test.ts", "released.json", "released.test.ts"];

const files = readdirSync(new URL(".", import.meta.url)).sort();

describe("the migrations folder", () => {
  it("holds only migrations named NNNN_purpose.ts and the list's own files", () => {
    expect(files.filter((f) => !MIGRATION_FILE.test(f) && !OTHERS.includes(f))).toEqual([]);
  });

  it("lists every migration file under its file name, in order, and nothing more", async () => {
    const named = files.flatMap((f) => MIGRATION_FILE.exec(f)?.[1] ?? []);
    expect(named.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(migrations)).toEqual(named);
    for (const name of named) {
      const file = (await import(`./${name}.ts`)) as { migration: unknown };
      expect(migrations[name], name).toBe(file.migration);
    }
  });

  it("numbers each migration once", () => {
    const numbers = Object.keys(migrations).map((name) => name.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
