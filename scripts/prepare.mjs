// Shared by `npm start` and `npm test`: make a fresh clone runnable with nothing but Node and npm.
// Installs dependencies when node_modules is missing or older than the lockfile, and builds the app when
// the build is missing or older than any source file.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

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

const SOURCES = [
  "app",
  "lib",
  "components",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

export function ensureBuilt({ force = false } = {}) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const built = mtime(join(root, distDir, "BUILD_ID"));
  const newest = Math.max(...SOURCES.map((s) => newestIn(join(root, s))));
  if (force || built === 0 || newest > built) {
    console.log("Building the app (next build)...");
    run(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
  }
}
