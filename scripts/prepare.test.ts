import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordSources, whyRebuild } from "./prepare.mjs";

/**
 * The rule that decides "rebuild?" (whyRebuild), on a project of its own in a temp folder: a build is stale when
 * a source file is newer than its BUILD_ID, or when a source file was added or removed since it was made; what
 * happens to a source folder itself (a scratch file written and removed in it) is no reason.
 */
describe("whyRebuild", () => {
  let dir: string;
  const distDir = "out";
  const sources = ["src", "config.json", "missing.ts"];
  const hourAgo = (Date.now() - 3_600_000) / 1000;
  const why = () => whyRebuild({ dir, distDir, sources });
  /** Write a file with a modified time of `at` (seconds since the epoch). */
  const write = (path: string, at: number, text = "x") => {
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), at, at);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "paygate-prepare-"));
    mkdirSync(join(dir, "src/nested"), { recursive: true });
    mkdirSync(join(dir, distDir));
    write("src/a.ts", hourAgo);
    write("src/nested/b.ts", hourAgo);
    write("config.json", hourAgo);
    // Not sources: node_modules and dot entries.
    mkdirSync(join(dir, "src/node_modules"));
    write("src/node_modules/dep.js", hourAgo);
    write("src/.cache", hourAgo);
    // The folders as old as the files in them.
    for (const folder of ["src/node_modules", "src/nested", "src", distDir, "."])
      utimesSync(join(dir, folder), hourAgo, hourAgo);
    // Built after every source file, from those files.
    write(`${distDir}/BUILD_ID`, hourAgo + 60);
    recordSources({ dir, distDir, sources });
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is up to date when every source file is older than the build, whatever the folders' own times", () => {
    expect(why()).toBe("");
    // A scratch file written and removed in a source folder (as a generator's check might) changes the
    // folder's time, not the sources.
    writeFileSync(join(dir, "src/nested/scratch.json"), "{}");
    rmSync(join(dir, "src/nested/scratch.json"));
    expect(why()).toBe("");
    // Nor do files it skips.
    write("src/node_modules/dep.js", Date.now() / 1000);
    write("src/.cache", Date.now() / 1000);
    expect(why()).toBe("");
  });

  it("a source file changed after the build: rebuild", () => {
    write("src/nested/b.ts", Date.now() / 1000, "changed");
    expect(why()).toBe("sources are newer than the build");
  });

  it("a source file given by name, changed after the build: rebuild", () => {
    write("config.json", Date.now() / 1000, "{}");
    expect(why()).toBe("sources are newer than the build");
  });

  it("a source file removed since the build: rebuild, naming it; back as it was: up to date", () => {
    rmSync(join(dir, "src/a.ts"));
    expect(why()).toBe(`a source file was removed since the build (${join("src", "a.ts")})`);
    write("src/a.ts", hourAgo);
    expect(why()).toBe("");
  });

  it("a source file added since the build with an older time (copied, times kept): rebuild, naming it", () => {
    write("src/c.ts", hourAgo);
    expect(why()).toBe(`a source file was added since the build (${join("src", "c.ts")})`);
  });

  it("no build, or a build without its list of source files: rebuild", () => {
    rmSync(join(dir, distDir, "source-files.json"));
    expect(why()).toBe(`no ${distDir}/source-files.json`);
    rmSync(join(dir, distDir, "BUILD_ID"));
    expect(why()).toBe(`no ${distDir}/BUILD_ID`);
  });
});
