// npm test: the whole suite. Installs and builds when needed, runs vitest (unit tests, then the HTTP
// integration suites against the built app on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set), then
// Playwright in Debian's Chromium against the built app, and prints one closing line: `N passed, N failed`.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { ensureBuilt, ensureInstalled, root } from "./prepare.mjs";

ensureInstalled();
ensureBuilt();

const chrome = process.env.CHROME_PATH || "/usr/bin/chromium";
if (!existsSync(chrome)) {
  console.error(
    `Chromium is missing at ${chrome}: install Debian's (apt-get install -y chromium) or set CHROME_PATH.`,
  );
  process.exit(1);
}

// PAYGATE_TEST_RESULTS: where the runners' reports go (a run started by a test keeps out of the outer run's).
const results = process.env.PAYGATE_TEST_RESULTS || join(root, "test-results");
mkdirSync(results, { recursive: true });
const vitestJson = join(results, "vitest.json");
const playwrightJson = join(results, "playwright.json");
rmSync(vitestJson, { force: true });
rmSync(playwrightJson, { force: true });

// PAYGATE_TEST_PARENT_PID: Playwright's runner ends itself, stopping its web servers, when this process is gone
// (e2e/servers.ts endWithParent), even if it was killed outright.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PAYGATE_TEST_PARENT_PID: String(process.pid) };
const passthrough = process.argv.slice(2);

/**
 * Stopped part-way (Ctrl-C, SIGTERM from a CI runner or `timeout`, a closed terminal), the run ends with what
 * it started: the runner under way is asked to stop as Ctrl-C asks it (SIGINT: vitest and Playwright then
 * stop their servers, Playwright its web servers), nothing after it starts, and this exits once it has.
 * Each runner has a process group of its own, so a Ctrl-C reaches it once, from here, not twice (a second
 * SIGINT makes Playwright quit without stopping its servers).
 */
let current = null;
let stoppedBy = null;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (stoppedBy) return;
    stoppedBy = signal;
    console.error(
      `\nnpm test: ${signal}; stopping ${current ? "the run under way" : "before the next runner"}...`,
    );
    if (current?.exitCode === null) current.kill("SIGINT");
  });
}

function run(args, runEnv) {
  if (stoppedBy) return Promise.resolve({ status: null, signal: stoppedBy });
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: "inherit", env: runEnv, detached: true });
    current = child;
    child.once("exit", (status, signal) => {
      current = null;
      done({ status, signal });
    });
  });
}

const vitest = await run(
  [
    join(root, "node_modules/vitest/vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${vitestJson}`,
    ...passthrough,
  ],
  env,
);

const playwright = await run([join(root, "node_modules/@playwright/test/cli.js"), "test"], {
  ...env,
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
  CI: env.CI || "1",
});

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

const v = readJson(vitestJson);
const p = readJson(playwrightJson);
const counts = {
  vitest: v
    ? {
        passed: v.numPassedTests,
        failed: v.numFailedTests,
        skipped: v.numPendingTests + (v.numTodoTests ?? 0),
      }
    : { passed: 0, failed: 0, skipped: 0 },
  playwright: p
    ? { passed: p.stats.expected + p.stats.flaky, failed: p.stats.unexpected, skipped: p.stats.skipped }
    : { passed: 0, failed: 0, skipped: 0 },
};
const total = {
  passed: counts.vitest.passed + counts.playwright.passed,
  failed: counts.vitest.failed + counts.playwright.failed,
  skipped: counts.vitest.skipped + counts.playwright.skipped,
};
// A runner that exits non-zero without a failed test (a crashed setup, a server that would not start) counts as
// one failure, so the closing line can never read "0 failed" for a broken run.
const crashed = [
  ["vitest", vitest.status !== 0 && counts.vitest.failed === 0],
  ["playwright", playwright.status !== 0 && counts.playwright.failed === 0],
].filter(([, c]) => c);
const failed = total.failed + crashed.length;
const ok = failed === 0 && total.passed > 0;
console.log("");
console.log(
  `vitest (unit + integration) -> ${counts.vitest.passed} passed, ${counts.vitest.failed} failed (exit ${vitest.status})`,
);
console.log(
  `playwright (e2e) -> ${counts.playwright.passed} passed, ${counts.playwright.failed} failed (exit ${playwright.status})`,
);
for (const [name] of crashed)
  console.log(`${name} exited non-zero with no failed test recorded: counted as one failure`);
// The failed tests are named again here, next to the closing line, so the tail of a long log says what failed.
for (const name of failedNames(v, p)) console.log(`failed: ${name}`);
if (stoppedBy) console.log(`stopped by ${stoppedBy} before the end: not a complete run`);
console.log(`tests: ${total.passed} passed, ${failed} failed, ${total.skipped} skipped`);
process.exit(stoppedBy ? 128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[stoppedBy] ?? 0) : ok ? 0 : 1);

function failedNames(vitestReport, playwrightReport) {
  const names = [];
  for (const file of vitestReport?.testResults ?? []) {
    const rel = file.name ? relative(root, file.name) : file.name;
    for (const t of file.assertionResults ?? []) {
      if (t.status === "failed")
        names.push(`vitest ${rel} > ${t.fullName ?? t.title}${why(t.failureMessages?.[0])}`);
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === "failed")
      names.push(`vitest ${rel} (file)`);
  }
  const walk = (suite, outer) => {
    // A file's suite is named by its path; describe() blocks inside it add their titles.
    const trail = suite.title && !suite.title.endsWith(".ts") ? [...outer, suite.title] : outer;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected") {
          const error = t.results?.find((r) => r.error)?.error;
          names.push(
            `playwright ${spec.file}:${spec.line} > ${[...trail, spec.title].join(" > ")}${why(error?.message)}`,
          );
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, trail);
  };
  for (const suite of playwrightReport?.suites ?? []) walk(suite, []);
  return names;
}

/** The first lines of a failure's message, without colour codes: what a log's tail needs to say why. */
function why(message) {
  if (!message) return "";
  const lines = String(message)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("at "))
    .slice(0, 4)
    .join(" | ");
  return `\n    why: ${lines.length > 600 ? `${lines.slice(0, 600)}…` : lines}`;
}
