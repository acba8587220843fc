// Shared by `npm run build`, `npm start`, `npm test`, the benches and the test suites: make a fresh clone runnable
// with nothing but Node and npm. Installs dependencies when node_modules is missing or older than the lockfile,
// and builds the app when the build is missing, or a source file changed, was added or was removed since it began.
// Nothing else makes a build stale: a build is the same whatever the configuration (PUBLIC_BASE_URL, PORT,
// PAYMENTS_ENV, DATABASE_URL, keys) a start runs it with (docs/deploy.md "Build once"). Each build is made in a
// folder of its own and only then put in place, so a build cut short leaves the last one servable. The one list of
// what the build is made from.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";

export const root = new URL("..", import.meta.url).pathname;

export function run(command, args, options = {}) {
  const status = tryRun(command, args, options);
  if (status !== 0) process.exit(status);
}

/** `run` that answers the exit status (0: it worked) instead of ending the process, for a caller with cleanup. */
function tryRun(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status === 0) return 0;
  console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal}).`);
  return result.status || 1;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * The files under `sources` (files or folders, relative to `dir`), each with its modified time, by path relative
 * to `dir`. Files only (tests beside their sources left out): a folder's own time changes whenever anything is created or removed in it, a scratch file
 * too, so it says nothing about the build; a removed source file is caught by the build's list instead
 * (recordSources). node_modules and dot entries are skipped.
 */
function sourceFiles(dir, sources) {
  const files = new Map();
  const walk = (path) => {
    if (GENERATED.has(relative(dir, path))) return;
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (!stat.isDirectory()) {
      // A test beside its source (lib/**/*.test.ts) is no part of the build.
      if (!/\.test\.tsx?$|\.tgz$/.test(path)) files.set(relative(dir, path), stat.mtimeMs);
      return;
    }
    for (const entry of readdirSync(path)) {
      if (entry === "node_modules" || entry.startsWith(".")) continue;
      walk(join(path, entry));
    }
  };
  for (const source of sources) walk(join(dir, source));
  return files;
}

const newest = (files) => Math.max(0, ...files.values());

export function ensureInstalled() {
  const marker = join(root, "node_modules/.package-lock.json");
  if (!existsSync(marker) || mtime(marker) < mtime(join(root, "package-lock.json"))) {
    console.log(
      "Installing dependencies (npm install; better-sqlite3 compiles from source, about a minute)...",
    );
    // node-gyp must build better-sqlite3 against the local Node headers; there is no network for downloads.
    const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir || "/usr" };
    run("npm", ["install", "--no-audit", "--no-fund"], { env });
  }
}

/**
 * The server SDK (sdk/node, @paygate/node) and the QA kit's API types are generated from the OpenAPI
 * document (lib/openapi) and never committed: build them when the document differs from the one they were
 * generated from, or when the SDK's own sources are newer than its build. The document is written with its
 * fixed example hosts (scripts/openapi.ts), never the running configuration's, so the SDK is the same whatever
 * the environment. The demo store imports the SDK, so a build of the app makes it first (ensureBuilt); nothing
 * else does but `npm install` (prepare) and `npm run sdk:build`. Answers whether it built.
 */
export function ensureSdk({ force = false } = {}) {
  const sdk = join(root, "sdk/node");
  const env = { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir || "/usr" };
  if (mtime(join(sdk, "node_modules/.package-lock.json")) < mtime(join(sdk, "package-lock.json"))) {
    console.log("Installing the SDK's build tools (sdk/node: @hey-api/openapi-ts, typescript)...");
    run("npm", ["install", "--no-audit", "--no-fund"], { cwd: sdk, env });
  }
  // The document as the service would serve it now, written outside the repository: a scratch file in sdk/
  // would be a change to the app's sources, and the check alone must leave them as they were.
  const scratch = mkdtempSync(join(tmpdir(), "paygate-openapi-"));
  const fresh = join(scratch, "openapi.json");
  const document = join(sdk, "openapi.json");
  let same;
  try {
    run(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/openapi.ts", fresh], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    same = existsSync(document) && readFileSync(document).equals(readFileSync(fresh));
    if (!same) copyFileSync(fresh, document);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const built = mtime(join(sdk, ".built"));
  const sources = newest(
    sourceFiles(sdk, [
      "src/index.ts",
      "src/errors.ts",
      "src/transport.ts",
      "src/webhooks.ts",
      "scripts",
      "package.json",
    ]),
  );
  if (!force && same && built > 0 && built >= sources) return false;
  console.log("Building the SDK (sdk/node) from the OpenAPI document...");
  // Until it is written again, a build cut short is not taken for a finished one.
  rmSync(join(sdk, ".built"), { force: true });
  run("npm", ["run", "build"], { cwd: sdk, env });
  // The QA kit's types of the API's answers: the same generated types, beside the kit.
  copyFileSync(join(sdk, "dist/generated/types.gen.d.ts"), join(root, "qa-kit/api-types.d.ts"));
  writeFileSync(join(sdk, ".built"), `${new Date().toISOString()}\n`);
  return true;
}

/**
 * What `next build` reads: a change to any of these makes the build stale. The SDK's hand-written sources are
 * among them (the demo store imports the SDK); what the SDK's build makes from them and from the document
 * (GENERATED) is not: it is made again, first, by every build of the app.
 */
export const SOURCES = [
  "app",
  "lib",
  "components",
  "sdk",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "scripts/build-css.mjs",
  "package-lock.json",
  "tsconfig.json",
];

/** Outputs inside SOURCES' folders (git-ignored), never sources: the SDK's build and its document, its tests. */
const GENERATED = new Set([
  "sdk/node/src/generated",
  "sdk/node/dist",
  "sdk/node/openapi.json",
  "sdk/node/openapi.next.json",
  "sdk/node/test",
]);

/** The files a build was made from with their modified times, beside its BUILD_ID (recordSources). */
const RECORD = "source-files.json";

/**
 * Why the build in `dir`/`distDir` must be made again: "" when it is up to date, else the reason (no build, or a
 * source file changed, added or removed since the build started). Each file's modified time is compared with
 * the one recorded when the build started, not with the build's own time: a file saved while `next build` ran
 * is older than the build but not in it. The one place that decides "rebuild?" for npm start, npm test, the
 * benches and the test suites' set-up; `sources` defaults to the app's (SOURCES).
 */
export function whyRebuild({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
} = {}) {
  if (!existsSync(join(dir, distDir, "BUILD_ID"))) return `no ${distDir}/BUILD_ID`;
  // The app's stylesheet is compiled after next build (scripts/build-css.mjs); a build without it is unfinished.
  if (dir === root && !existsSync(join(dir, distDir, "app.css"))) return `no ${distDir}/app.css`;
  let recorded;
  try {
    recorded = JSON.parse(readFileSync(join(dir, distDir, RECORD), "utf8")).files;
  } catch {
    recorded = undefined;
  }
  if (!recorded || typeof recorded !== "object" || Array.isArray(recorded)) return `no ${distDir}/${RECORD}`;
  const files = sourceFiles(dir, sources);
  for (const [file, time] of files) {
    if (!Object.hasOwn(recorded, file)) return `a source file was added since the build (${file})`;
    if (recorded[file] !== time) return `a source file changed since the build (${file})`;
  }
  const removed = Object.keys(recorded).find((file) => !files.has(file));
  if (removed) return `a source file was removed since the build (${removed})`;
  return "";
}

/**
 * Write the source files the build in `dir`/`distDir` was made from, with their modified times (`files`, by
 * default those there now), for whyRebuild. ensureBuilt records them as they were when the build started.
 */
export function recordSources({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
  files = sourceFiles(dir, sources),
} = {}) {
  const sorted = Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(join(dir, distDir, RECORD), `${JSON.stringify({ files: sorted }, null, 1)}\n`);
}

/**
 * One build at a time from this folder, whichever process asks (two `npm start`s, `npm test` beside a bench):
 * `fn` runs holding `.build.lock` (its holder's pid); a lock whose process is gone is taken over, and a process
 * already holding it runs `fn` at once.
 */
export function withBuildLock(fn, lock = join(root, ".build.lock")) {
  let told = false;
  for (;;) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx" });
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let holder;
    try {
      holder = Number.parseInt(readFileSync(lock, "utf8"), 10);
    } catch {
      continue; // released meanwhile
    }
    if (holder === process.pid) return fn();
    if (!alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!told) console.log(`Waiting for the build that process ${holder} is making...`);
    told = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000);
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * The folders the builds of `distDir` are made in: `distDir` itself (.next) is a symbolic link to the build in
 * service, one of `.next-a`, `.next-b`, ... beside it (at its depth, so the relative imports of the route types a
 * build writes resolve the same through the link): a build is made in a folder no server is serving, and put in
 * place only once it is whole (linkBuild), so a build cut short, or failed, leaves the one before it servable, and a
 * server keeps serving the build it started with while a newer one is made (server.mjs serves the folder the link
 * named when it started). Two folders take turns, each keeping next build's cache of its own; a third is used only
 * while a server still serves both.
 */
const slotName = (i) => String.fromCharCode(97 + i);
const slotFolder = (dir, distDir, i) => join(dir, `${distDir}-${slotName(i)}`);
const SLOT = /^-[a-z]$/;

/**
 * The folder of the build `distDir` names now: the link's target, `distDir` itself when it is a plain folder (a
 * build made before builds had folders of their own), or null when there is none.
 */
export function currentBuild({ dir = root, distDir = process.env.NEXT_DIST_DIR || ".next" } = {}) {
  const link = join(dir, distDir);
  try {
    const stat = lstatSync(link);
    return stat.isSymbolicLink() ? join(dirname(link), readlinkSync(link)) : link;
  } catch {
    return null;
  }
}

/** Where a server records that it serves a build: `<build>/serving/<pid>`, while it runs (server.mjs). */
export const SERVING = "serving";

/** The live processes serving the build in `folder`. */
export function servingProcesses(folder) {
  let entries;
  try {
    entries = readdirSync(join(folder, SERVING));
  } catch {
    return [];
  }
  return entries.map((name) => Number.parseInt(name, 10)).filter((pid) => pid !== process.pid && alive(pid));
}

/** The folder the next build of `distDir` goes into: the first that is neither in service nor being served. */
export function freeSlot(dir, distDir) {
  const current = currentBuild({ dir, distDir });
  for (let i = 0; i < 26; i++) {
    const folder = slotFolder(dir, distDir, i);
    if (folder !== current && servingProcesses(folder).length === 0) return folder;
  }
  throw new Error(`every build folder of ${distDir} is being served: stop a server first`);
}

/**
 * Put the whole build in `folder` in service: `distDir` becomes a link to it, replaced in one rename (a reader
 * sees the old build or the new one, never neither). Then folders past the two that take turns, and a plain
 * `distDir` folder of old, are removed once nothing serves them.
 */
export function linkBuild({ dir = root, distDir = process.env.NEXT_DIST_DIR || ".next", folder }) {
  const link = join(dir, distDir);
  const temporary = `${link}.link-${process.pid}`;
  rmSync(temporary, { force: true });
  symlinkSync(relative(dirname(link), folder), temporary);
  let old = null;
  try {
    if (!lstatSync(link).isSymbolicLink()) {
      old = `${link}-old-${process.pid}`;
      renameSync(link, old);
    }
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  renameSync(temporary, link);
  if (old) rmSync(old, { recursive: true, force: true });
  const parent = dirname(link);
  const base = link.slice(parent.length + 1);
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(base) || !SLOT.test(name.slice(base.length))) continue;
    const path = join(parent, name);
    if (path === folder || path === slotFolder(dir, distDir, 0) || path === slotFolder(dir, distDir, 1))
      continue;
    if (servingProcesses(path).length === 0) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The TypeScript configuration next build checks a build in `built` with (next.config.mjs reads
 * NEXT_TSCONFIG_PATH): `dir`'s tsconfig.json with the build's own folder of route types in place of `distDir`'s,
 * written beside it (git-ignored, removed after the build). next build adds the folder it builds into to the
 * configuration it is given when it is missing there: given this one, it never rewrites tsconfig.json, and a build
 * cut short leaves the source tree as it was. Null when `dir` has no tsconfig.json.
 */
function buildTsconfig(dir, distDir, built) {
  const source = join(dir, "tsconfig.json");
  if (!existsSync(source)) return null;
  const config = JSON.parse(readFileSync(source, "utf8"));
  config.include = [
    ...(config.include ?? []).filter((pattern) => !pattern.startsWith(`${distDir}/`)),
    `${built}/types/**/*.ts`,
    `${built}/dev/types/**/*.ts`,
  ];
  const path = join(dir, `${distDir}-tsconfig.json`);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/**
 * Build `dir` (the app by default; bench/reference-app too) as `distDir` (NEXT_DIST_DIR, default .next) when
 * `whyRebuild` gives a reason, or when `force`d: the app's SDK first (ensureSdk), then next build into a free
 * folder (slotFolder), the stylesheet, the list of source files (recordSources), and only then the link.
 * next build is given a TypeScript configuration of its own (buildTsconfig); it still rewrites next-env.d.ts (and a
 * tsconfig.json it was not given one for): those are put back byte for byte with their old times, so a build never
 * makes the next one stale. Exits the process when the build fails, leaving the build in service as it was.
 */
export function ensureBuilt({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
  force = false,
} = {}) {
  return withBuildLock(() => {
    // Asked holding the lock: a build another process just finished may be this one's.
    const reason = force ? "asked to" : whyRebuild({ dir, distDir, sources });
    if (!reason) return { rebuilt: false, reason: "up to date", seconds: 0 };
    if (dir === root) ensureSdk();
    const folder = freeSlot(dir, distDir);
    const where = relative(root, folder);
    console.log(
      `Building ${dir === root ? "the app" : relative(root, dir)} into ${where} (next build: ${reason})...`,
    );
    const started = performance.now();
    // The files as they are when the build starts: one changed, added or removed while it runs makes it stale.
    const files = sourceFiles(dir, sources);
    const kept = ["tsconfig.json", "next-env.d.ts"]
      .map((name) => join(dir, name))
      .filter(existsSync)
      .map((path) => ({ path, bytes: readFileSync(path), stat: statSync(path) }));
    const built = relative(dir, folder);
    const tsconfig = buildTsconfig(dir, distDir, built);
    let status = 0;
    try {
      const env = { ...process.env, NEXT_DIST_DIR: built, NEXT_TELEMETRY_DISABLED: "1" };
      if (tsconfig) env.NEXT_TSCONFIG_PATH = relative(dir, tsconfig);
      // The app builds with webpack (docs/decisions/018-webpack-build.md); the reference page with Next's default.
      const bundler = dir === root ? ["--webpack"] : [];
      const next = join(root, "node_modules/next/dist/bin/next");
      // Whatever an earlier build cut short left here goes (next build keeps the folder's cache).
      rmSync(join(folder, "BUILD_ID"), { force: true });
      status = tryRun(process.execPath, [next, "build", ...bundler], { cwd: dir, env });
      if (status === 0 && dir === root) {
        status = tryRun(process.execPath, [join(root, "scripts/build-css.mjs")], { cwd: dir, env });
      }
    } finally {
      if (tsconfig) rmSync(tsconfig, { force: true });
      for (const { path, bytes, stat } of kept) {
        if (existsSync(path) && readFileSync(path).equals(bytes)) continue;
        writeFileSync(path, bytes);
        utimesSync(path, stat.atime, stat.mtime);
        // Put back as it was, to the millisecond its time can be set to: recorded as it is now.
        const file = relative(dir, path);
        if (files.has(file)) files.set(file, statSync(path).mtimeMs);
      }
    }
    if (status === 0) {
      recordSources({ dir, distDir: built, sources, files });
      linkBuild({ dir, distDir, folder });
    }
    if (status !== 0) {
      rmSync(join(root, ".build.lock"), { force: true });
      if (currentBuild({ dir, distDir }))
        console.error(`The build in service (${distDir}) is left as it was.`);
      process.exit(status);
    }
    return { rebuilt: true, reason, seconds: Math.round((performance.now() - started) / 100) / 10 };
  });
}
