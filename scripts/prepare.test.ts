import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  currentBuild,
  freeSlot,
  linkBuild,
  recordSources,
  SERVING,
  servingProcesses,
  whyRebuild,
  withBuildLock,
} from "./prepare.mjs";

/**
 * The rule that decides "rebuild?" (whyRebuild), on a project of its own in a temp folder: a build is stale when
 * a source file changed, was added or was removed since the build started (the files and times recordSources
 * wrote); what happens to a source folder itself (a scratch file written and removed in it) is no reason.
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

  it("a source file changed after the build: rebuild, naming it", () => {
    write("src/nested/b.ts", Date.now() / 1000, "changed");
    expect(why()).toBe(`a source file changed since the build (${join("src", "nested", "b.ts")})`);
  });

  it("a source file given by name, changed after the build: rebuild", () => {
    write("config.json", Date.now() / 1000, "{}");
    expect(why()).toBe("a source file changed since the build (config.json)");
  });

  it("a source file saved while the build ran (older than its BUILD_ID, newer than the build's start): rebuild", () => {
    write("src/a.ts", hourAgo + 30, "saved during the build");
    expect(why()).toBe(`a source file changed since the build (${join("src", "a.ts")})`);
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

  it("a test beside its source is no part of the build: adding or changing one is no reason", () => {
    write("src/a.test.ts", Date.now() / 1000);
    expect(why()).toBe("");
  });

  it("no build, or a build without its list of source files (or with a list of another form): rebuild", () => {
    writeFileSync(join(dir, distDir, "source-files.json"), JSON.stringify(["src/a.ts"]));
    expect(why()).toBe(`no ${distDir}/source-files.json`);
    rmSync(join(dir, distDir, "source-files.json"));
    expect(why()).toBe(`no ${distDir}/source-files.json`);
    rmSync(join(dir, distDir, "BUILD_ID"));
    expect(why()).toBe(`no ${distDir}/BUILD_ID`);
  });
});

describe("whyRebuild and what the SDK's build makes", () => {
  it("the SDK's sources are the app's; what its build makes from them and the document is not", () => {
    const dir = mkdtempSync(join(tmpdir(), "paygate-prepare-sdk-"));
    try {
      const hourAgo = (Date.now() - 3_600_000) / 1000;
      const write = (path: string, at: number) => {
        mkdirSync(join(dir, path, ".."), { recursive: true });
        writeFileSync(join(dir, path), "x");
        utimesSync(join(dir, path), at, at);
      };
      for (const file of [
        "sdk/node/src/index.ts",
        "sdk/node/src/generated/sdk.gen.ts",
        "sdk/node/dist/index.js",
        "sdk/node/openapi.json",
        "sdk/inline/checkout.js",
      ])
        write(file, hourAgo);
      mkdirSync(join(dir, "out"));
      write("out/BUILD_ID", hourAgo + 60);
      recordSources({ dir, distDir: "out", sources: ["sdk"] });
      const why = () => whyRebuild({ dir, distDir: "out", sources: ["sdk"] });
      expect(why()).toBe("");
      // The SDK built again (every build of the app makes it first): no reason to build the app again.
      for (const file of [
        "sdk/node/src/generated/sdk.gen.ts",
        "sdk/node/dist/index.js",
        "sdk/node/openapi.json",
      ])
        write(file, Date.now() / 1000);
      write("sdk/node/paygate-node-1.0.0.tgz", Date.now() / 1000);
      expect(why()).toBe("");
      write("sdk/node/src/index.ts", Date.now() / 1000);
      expect(why()).toBe(`a source file changed since the build (${join("sdk", "node", "src", "index.ts")})`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("withBuildLock", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "paygate-lock-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("runs one holder at a time across processes, and takes over the lock of a process that is gone", async () => {
    const lock = join(dir, ".build.lock");
    const log = join(dir, "log");
    // Each process holds the lock for 400 ms, writing when it starts and ends.
    const holder = (name: string) =>
      new Promise<number>((done) => {
        const script = `
          import { appendFileSync } from "node:fs";
          import { withBuildLock } from ${JSON.stringify(new URL("./prepare.mjs", import.meta.url).pathname)};
          withBuildLock(() => {
            appendFileSync(${JSON.stringify(log)}, "${name} start\\n");
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
            appendFileSync(${JSON.stringify(log)}, "${name} end\\n");
          }, ${JSON.stringify(lock)});`;
        spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" }).on(
          "exit",
          (code) => done(code ?? 1),
        );
      });
    // A lock left by a process that no longer runs (a pid far above any live one).
    writeFileSync(lock, "4194000\n");
    expect(await Promise.all([holder("a"), holder("b"), holder("c")])).toEqual([0, 0, 0]);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines).toHaveLength(6);
    for (let i = 0; i < 6; i += 2) {
      const name = lines[i]?.split(" ")[0];
      expect([lines[i], lines[i + 1]]).toEqual([`${name} start`, `${name} end`]);
    }
    expect(existsSync(lock)).toBe(false);
    // Held by this process already: runs at once.
    expect(withBuildLock(() => withBuildLock(() => "inner", lock), lock)).toBe("inner");
    expect(existsSync(lock)).toBe(false);
  });
});

describe("build folders", () => {
  let dir: string;
  const distDir = ".next";
  const folder = (name: string) => join(dir, `.next-${name}`);
  const folders = () =>
    readdirSync(dir)
      .filter((n) => /^\.next-[a-z]$/.test(n))
      .sort();
  const build = (name: string) => {
    mkdirSync(folder(name), { recursive: true });
    writeFileSync(join(folder(name), "BUILD_ID"), name);
  };
  const served = () => readFileSync(join(dir, distDir, "BUILD_ID"), "utf8");
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "paygate-builds-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("puts a whole build in service by a link, replacing the last one (a plain folder of old too) in one rename", () => {
    mkdirSync(join(dir, distDir));
    writeFileSync(join(dir, distDir, "BUILD_ID"), "old");
    expect(currentBuild({ dir, distDir })).toBe(join(dir, distDir));
    build("a");
    linkBuild({ dir, distDir, folder: folder("a") });
    expect(lstatSync(join(dir, distDir)).isSymbolicLink()).toBe(true);
    expect(currentBuild({ dir, distDir })).toBe(folder("a"));
    expect(served()).toBe("a");
    expect(folders()).toEqual([".next-a"]);
    expect(readdirSync(dir).sort()).toEqual([".next", ".next-a"]);
    // The next build goes into the other folder; the one in service stays whole until the link moves.
    expect(freeSlot(dir, distDir)).toBe(folder("b"));
    build("b");
    expect(served()).toBe("a");
    linkBuild({ dir, distDir, folder: folder("b") });
    expect(served()).toBe("b");
    expect(freeSlot(dir, distDir)).toBe(folder("a"));
  });

  it("never builds into a folder a live server serves, and keeps such folders until nothing serves them", async () => {
    build("a");
    linkBuild({ dir, distDir, folder: folder("a") });
    build("b");
    // A live process (a server started before the last build) serves b.
    const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const pid = server.pid ?? 0;
    mkdirSync(join(folder("b"), SERVING));
    writeFileSync(join(folder("b"), SERVING, String(pid)), "");
    expect(servingProcesses(folder("b"))).toEqual([pid]);
    // a is in service, b served: the next build goes into c.
    expect(freeSlot(dir, distDir)).toBe(folder("c"));
    build("c");
    linkBuild({ dir, distDir, folder: folder("c") });
    expect(served()).toBe("c");
    expect(folders()).toEqual([".next-a", ".next-b", ".next-c"]);
    build("d");
    linkBuild({ dir, distDir, folder: folder("d") });
    // c is neither one of the two that take turns nor served: gone; b still served: kept.
    expect(folders()).toEqual([".next-a", ".next-b", ".next-d"]);
    server.kill("SIGKILL");
    await new Promise((r) => server.on("exit", r));
    // Its record left behind by a process that died: nobody serves b now.
    expect(servingProcesses(folder("b"))).toEqual([]);
    expect(freeSlot(dir, distDir)).toBe(folder("a"));
  });
});
