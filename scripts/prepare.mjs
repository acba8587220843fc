// Shared by `npm start`, `npm test`, the benches and the test suites: make a fresh clone runnable with nothing
// but Node and npm. Installs dependencies when node_modules is missing or older than the lockfile, and builds
// the app when the build is missing or older than any source file. The one list of what the build is made from.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";

export const root = new URL("..", import.meta.url).pathname;

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestIn(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestIn(join(path, entry)));
  }
  return newest;
}

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
  const fresh = join(sdk, "openapi.next.json");
  run(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/openapi.ts", fresh], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const document = join(sdk, "openapi.json");
  const same = existsSync(document) && readFileSync(document).equals(readFileSync(fresh));
  const built = mtime(join(sdk, ".built"));
  const sources = Math.max(
    ...[
      "src/index.ts",
      "src/errors.ts",
      "src/transport.ts",
      "src/webhooks.ts",
      "scripts",
      "package.json",
    ].map((s) => newestIn(join(sdk, s))),
  );
  if (!force && same && built > 0 && built >= sources) {
    rmSync(fresh, { force: true });
    return false;
  }
  renameSync(fresh, document);
  console.log("Building the SDK (sdk/node) from the OpenAPI document...");
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

/**
 * Why the build in `dir`/`distDir` must be made again: "" when it is up to date, else the reason (no build,
 * or a source newer than it). The one place that decides "rebuild?" for npm start, npm test, the benches
 * and the test suites' set-up; `sources` defaults to the app's (SOURCES).
 */
export function whyRebuild({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
} = {}) {
  const built = mtime(join(dir, distDir, "BUILD_ID"));
  if (built === 0) return `no ${distDir}/BUILD_ID`;
  // The app's stylesheet is compiled after next build (scripts/build-css.mjs); a build without it is unfinished.
  if (dir === root && !existsSync(join(dir, distDir, "app.css"))) return `no ${distDir}/app.css`;
  const newest = Math.max(...sources.map((s) => newestIn(join(dir, s))));
  return newest > built ? "sources are newer than the build" : "";
}

/**
 * Build `dir` (the app by default; bench/reference-app too) into `distDir` (NEXT_DIST_DIR, default .next)
 * when `whyRebuild` gives a reason, or when `force`d. `next build` rewrites tsconfig.json and next-env.d.ts
 * (more so for a dist dir of its own, as the benches use): both are put back byte for byte with their old
 * times, so a build never makes the next one stale. Exits the process when the build fails.
 */
export function ensureBuilt({
  dir = root,
  distDir = process.env.NEXT_DIST_DIR || ".next",
  sources = SOURCES,
  force = false,
} = {}) {
  if (dir === root) ensureSdk();
  const reason = force ? "asked to" : whyRebuild({ dir, distDir, sources });
  if (!reason) return { rebuilt: false, reason: "up to date", seconds: 0 };
  const where = dir === root ? distDir : join(relative(root, dir), distDir);
  console.log(
    `Building ${dir === root ? "the app" : relative(root, dir)} into ${where} (next build: ${reason})...`,
  );
  const started = performance.now();
  const kept = ["tsconfig.json", "next-env.d.ts"]
    .map((name) => join(dir, name))
    .filter(existsSync)
    .map((path) => ({ path, bytes: readFileSync(path), stat: statSync(path) }));
  try {
    const env = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" };
    // The app builds with webpack (docs/decisions/018-webpack-build.md); the reference page with Next's default.
    const bundler = dir === root ? ["--webpack"] : [];
    run(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build", ...bundler], {
      cwd: dir,
      env,
    });
    if (dir === root) run(process.execPath, [join(root, "scripts/build-css.mjs")], { cwd: dir, env });
  } finally {
    for (const { path, bytes, stat } of kept) {
      if (existsSync(path) && readFileSync(path).equals(bytes)) continue;
      writeFileSync(path, bytes);
      utimesSync(path, stat.atime, stat.mtime);
    }
  }
  return { rebuilt: true, reason, seconds: Math.round((performance.now() - started) / 100) / 10 };
}
