// Shared by `npm run build`, `npm start`, `npm test`, the benches and the test suites: make a fresh clone runnable
// with nothing but Node and npm. Installs dependencies when node_modules is missing or older than the lockfile,
// and builds the app when the build is missing, or a source file changed, was added or was removed since it began.
// The one list of what the build is made from.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

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
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (!stat.isDirectory()) {
      // A test beside its source (lib/**/*.test.ts) is no part of the build.
      if (!/\.test\.tsx?$/.test(path)) files.set(relative(dir, path), stat.mtimeMs);
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
 * generated from, or when the SDK's own sources are newer than its build. The demo store imports the SDK,
 * so `next build` needs it first. Answers whether it built.
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

/** What `next build` reads: a change to any of these makes the build stale. */
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
  "sdk/node/dist",
];

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
 * Build `dir` (the app by default; bench/reference-app too) into `distDir` (NEXT_DIST_DIR, default .next)
 * when `whyRebuild` gives a reason, or when `force`d. `next build` rewrites tsconfig.json and next-env.d.ts
 * (more so for a dist dir of its own, as the benches use): both are put back byte for byte with their old
 * times, so a build never makes the next one stale. Records the build's source files (recordSources). Exits the
 * process when the build fails.
 */
export function ensureBuilt({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
  force = false,
} = {}) {
  return withBuildLock(() => {
    if (dir === root) ensureSdk();
    // Asked again holding the lock: a build another process just finished may be this one's.
    const reason = force ? "asked to" : whyRebuild({ dir, distDir, sources });
    if (!reason) return { rebuilt: false, reason: "up to date", seconds: 0 };
    const where = dir === root ? distDir : join(relative(root, dir), distDir);
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
    let status = 0;
    try {
      const env = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" };
      // The app builds with webpack (docs/decisions/018-webpack-build.md); the reference page with Next's default.
      const bundler = dir === root ? ["--webpack"] : [];
      const next = join(root, "node_modules/next/dist/bin/next");
      status = tryRun(process.execPath, [next, "build", ...bundler], { cwd: dir, env });
      if (status === 0 && dir === root) {
        status = tryRun(process.execPath, [join(root, "scripts/build-css.mjs")], { cwd: dir, env });
      }
      if (status === 0) recordSources({ dir, distDir, sources, files });
    } finally {
      for (const { path, bytes, stat } of kept) {
        if (existsSync(path) && readFileSync(path).equals(bytes)) continue;
        writeFileSync(path, bytes);
        utimesSync(path, stat.atime, stat.mtime);
      }
    }
    if (status !== 0) {
      rmSync(join(root, ".build.lock"), { force: true });
      process.exit(status);
    }
    return { rebuilt: true, reason, seconds: Math.round((performance.now() - started) / 100) / 10 };
  });
}
