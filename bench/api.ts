// npm run bench - throughput and latency of the payment API against the Next ceiling and a bare node:http
// server doing the same database work.
//
//  1. Builds the app into .next-bench when that build is missing or older than any source (BENCH_REBUILD=1
//     forces it). `next build` rewrites tsconfig.json and next-env.d.ts for a non-default dist dir; both are
//     put back byte for byte, with their old mtimes, when the build ends.
//  2. Starts `node server.mjs` on a fresh SQLite file in a temp folder, signs up a merchant, creates
//     transactions to verify.
//  3. Starts bench/bare-server.ts (node:http + the same lib/ domain code, no Next) on its own SQLite file.
//  4. autocannon, one target after the other: a warm-up, then a measured run.
//  5. Prints a table with the issue's targets and writes bench/results/api-<timestamp>.json.
//  6. Stops both servers and removes the temp folder.
//
// Environment:
//   BENCH_SECONDS=10          measured seconds per target
//   BENCH_WARMUP_SECONDS=2    warm-up seconds per target (not recorded)
//   BENCH_CONNECTIONS=50      concurrent connections
//   BENCH_REBUILD=1           build even when .next-bench is up to date
//   BENCH_DIST_DIR=.next-bench  the build directory (another one lets two builds be compared)
//   BENCH_ONLY=a,b            run only these targets (names as in the table, e.g. next-initialize)
//   BENCH_CPU_PROF=1          run both servers with --cpu-prof; profiles land in bench/results/profiles-<ts>/
//   BENCH_ROUNDS=1            repeat the whole sequence; each target reports its median-req/s round (the
//                             machine's speed drifts by 10-20 % between minutes, enough to flip a verdict)
//   BENCH_VERBOSE=1           echo the servers' output
//   BENCH_QUIET_WAIT_SECONDS=60  before each target, wait up to this long for other jobs on the machine to
//                             go quiet (the table's "other CPU" column shows what they used during the run)
//
// A MISS is a measurement, not a failure: the exit code is 0. It is non-zero when the build fails, a server
// does not start or exits during the run, a setup request fails, or autocannon reports socket errors.
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon, { type Result } from "autocannon";
import { CpuMeter, type CpuUsage } from "./cpu";

const root = resolve(import.meta.dirname, "..");
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const APP_SECRET = "bench-app-secret-0123456789abcdefghijklmnopqrstuvwxyz";

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got ${raw})`);
  return value;
}

const SECONDS = numberFromEnv("BENCH_SECONDS", 10);
const WARMUP_SECONDS = numberFromEnv("BENCH_WARMUP_SECONDS", 2);
const CONNECTIONS = Math.round(numberFromEnv("BENCH_CONNECTIONS", 50));
const ONLY = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const P99_LIMIT_MS = 150;
const VERIFY_REFERENCES = 20;
/** Cores' worth of CPU used outside the bench during a run above which the run is flagged as skewed. */
const OTHER_CPU_WARNING = 0.15;
const ROUNDS = Math.round(numberFromEnv("BENCH_ROUNDS", 1));
const QUIET_WAIT_SECONDS = numberFromEnv("BENCH_QUIET_WAIT_SECONDS", 60);

// ---------------------------------------------------------------------------------------------------------
// Child processes and clean-up

type Server = { name: string; child: ChildProcess; output: string[]; exited: boolean; expectedExit: boolean };

const servers: Server[] = [];
let tempDir: string | undefined;
let restoreBuildFiles: (() => void) | undefined;
let cleanedUp = false;

function startProcess(name: string, args: string[], env: Record<string, string>): Server {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const server: Server = { name, child, output: [], exited: false, expectedExit: false };
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    server.output.push(text);
    if (server.output.length > 200) server.output.shift();
    if (VERBOSE) process.stderr.write(`[${name}] ${text}`);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.on("exit", (code, signal) => {
    server.exited = true;
    if (!server.expectedExit) {
      console.error(
        `\n${name} exited unexpectedly (${signal ?? `exit ${code}`}). Its last output:\n${tail(server)}`,
      );
    }
  });
  servers.push(server);
  return server;
}

function tail(server: Server, chars = 4_000): string {
  return server.output.join("").slice(-chars);
}

function stopProcess(server: Server): Promise<void> {
  server.expectedExit = true;
  return new Promise((done) => {
    if (server.exited || server.child.exitCode !== null || server.child.signalCode !== null) return done();
    const force = setTimeout(() => server.child.kill("SIGKILL"), 8_000);
    server.child.once("exit", () => {
      clearTimeout(force);
      done();
    });
    server.child.kill("SIGTERM");
  });
}

let profileDirForCleanup: string | undefined;

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  restoreBuildFiles?.();
  await Promise.all(servers.map(stopProcess));
  if (profileDirForCleanup) nameProfiles(profileDirForCleanup);
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers...`);
    void cleanup().finally(() => process.exit(130));
  });
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === "object" && address ? ok(address.port) : fail(new Error("no port")),
      );
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// 1. Build

const SOURCES = [
  "app",
  "lib",
  "components",
  "public",
  "instrumentation.ts",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestIn(path: string): number {
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

/** Snapshot files `next build` may rewrite; the returned function puts back content and mtimes if changed. */
function snapshot(paths: string[]): () => void {
  const saved = paths.map((path) => {
    if (!existsSync(path)) return { path, content: undefined, atime: new Date(), mtime: new Date() };
    const stat = statSync(path);
    return { path, content: readFileSync(path), atime: stat.atime, mtime: stat.mtime };
  });
  return () => {
    for (const file of saved) {
      if (file.content === undefined) continue;
      const now = existsSync(file.path) ? readFileSync(file.path) : undefined;
      if (now?.equals(file.content)) continue;
      writeFileSync(file.path, file.content);
      utimesSync(file.path, file.atime, file.mtime);
    }
  };
}

async function ensureBuilt(): Promise<{ rebuilt: boolean; reason: string; seconds: number }> {
  const buildId = join(root, DIST_DIR, "BUILD_ID");
  const built = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const newest = Math.max(...SOURCES.map((s) => newestIn(join(root, s))));
  const reason =
    process.env.BENCH_REBUILD === "1"
      ? "BENCH_REBUILD=1"
      : built === 0
        ? `no ${DIST_DIR}/BUILD_ID`
        : newest > built
          ? "sources are newer than the build"
          : "";
  if (!reason) {
    console.log(`Build: ${DIST_DIR} is up to date (BENCH_REBUILD=1 forces a build).`);
    return { rebuilt: false, reason: "up to date", seconds: 0 };
  }
  console.log(`Build: next build into ${DIST_DIR} (${reason})...`);
  const started = performance.now();
  restoreBuildFiles = snapshot([join(root, "tsconfig.json"), join(root, "next-env.d.ts")]);
  try {
    const child = spawn(process.execPath, [join(root, "node_modules/next/dist/bin/next"), "build"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d: Buffer) => {
      output += d;
    });
    child.stderr?.on("data", (d: Buffer) => {
      output += d;
    });
    const code = await new Promise<number | null>((ok) => child.on("exit", (c) => ok(c)));
    if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${output.slice(-6_000)}`);
  } finally {
    restoreBuildFiles();
    restoreBuildFiles = undefined;
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(`Build: done in ${seconds} s.`);
  return { rebuilt: true, reason, seconds };
}

// ---------------------------------------------------------------------------------------------------------
// 2-3. Servers and fixtures

type Json = Record<string, unknown>;

async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: { ...(init.body !== undefined && { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { raw: text.slice(0, 500) };
  }
  return { status: res.status, body };
}

function expectStatus(what: string, got: { status: number; body: Json }, status: number) {
  if (got.status !== status) {
    throw new Error(
      `${what}: expected ${status}, got ${got.status}: ${JSON.stringify(got.body).slice(0, 500)}`,
    );
  }
}

/**
 * `--cpu-prof` writes one profile per thread (the server's main thread, SQLite's checkpoint thread, tsx's
 * loader thread). Under one fixed `--cpu-prof-name` the thread that exits last overwrote the others, so the
 * main thread's profile was lost. Each server profiles into a folder of its own with Node's default names
 * (`CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`), and `nameProfiles` renames them once the servers stop.
 */
function profileArgs(dir: string | undefined, name: string): string[] {
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${join(dir, name)}`] : [];
}

/** `<name>.cpuprofile` for each server's main thread (tid 0), `<name>-thread<tid>.cpuprofile` for the rest. */
function nameProfiles(dir: string) {
  for (const name of ["next", "bare"]) {
    const folder = join(dir, name);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) {
      const tid = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1];
      if (tid === undefined) continue;
      const target = tid === "0" ? `${name}.cpuprofile` : `${name}-thread${tid}.cpuprofile`;
      renameSync(join(folder, file), join(dir, target));
    }
    rmSync(folder, { recursive: true, force: true });
  }
}

async function startNext(dbFile: string, profileDir: string | undefined) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = startProcess("next", [...profileArgs(profileDir, "next"), "server.mjs"], {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST_DIR,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    DATABASE_URL: `file:${dbFile}`,
    PUBLIC_BASE_URL: url,
    APP_SECRET,
    SEED_DEMO: "0",
    LOG_LEVEL: "error",
    RATE_LIMIT_KEY_BURST: "100000000",
    RATE_LIMIT_KEY_PER_SECOND: "100000000",
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exited) throw new Error(`the Next server exited during start-up:\n${tail(server)}`);
    try {
      const res = await fetch(`${url}/v1/ping`);
      if (res.ok) return { server, url };
    } catch {
      // not listening yet
    }
    await sleep(150);
  }
  throw new Error(`the Next server did not answer /v1/ping within 90 s:\n${tail(server)}`);
}

async function startBare(dbFile: string, profileDir: string | undefined) {
  const server = startProcess(
    "bare",
    [...profileArgs(profileDir, "bare"), "--import", "tsx", "bench/bare-server.ts"],
    {
      NODE_ENV: "production",
      DATABASE_URL: `file:${dbFile}`,
      PUBLIC_BASE_URL: "http://127.0.0.1",
      APP_SECRET,
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      RATE_LIMIT_KEY_BURST: "100000000",
      RATE_LIMIT_KEY_PER_SECOND: "100000000",
    },
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exited) throw new Error(`the bare server exited during start-up:\n${tail(server)}`);
    for (const line of server.output.join("").split("\n")) {
      if (!line.startsWith('{"benchReady"')) continue;
      const ready = JSON.parse(line) as { port: number; secretKey: string };
      return { server, url: `http://127.0.0.1:${ready.port}`, secretKey: ready.secretKey };
    }
    await sleep(100);
  }
  throw new Error(`the bare server did not report ready within 60 s:\n${tail(server)}`);
}

const INITIALIZE_BODY = { amount: "5000.00", email: "c@example.com" };

/** Transactions to verify against (autocannon cycles through them), after checking both routes answer. */
async function createReferences(name: string, url: string, secretKey: string): Promise<string[]> {
  const headers = { "x-api-key": secretKey };
  const references: string[] = [];
  for (let i = 0; i < VERIFY_REFERENCES; i++) {
    const res = await request(`${url}/v1/payment/initialize`, {
      method: "POST",
      headers,
      body: INITIALIZE_BODY,
    });
    expectStatus(`${name} initialize`, res, 201);
    const reference = (res.body.data as { reference?: unknown } | undefined)?.reference;
    if (typeof reference !== "string") throw new Error(`${name} initialize: no data.reference`);
    references.push(reference);
  }
  const check = await request(`${url}/v1/payment/verify/${references[0]}`, { headers });
  expectStatus(`${name} verify`, check, 200);
  return references;
}

// ---------------------------------------------------------------------------------------------------------
// 4. Load

type Target = {
  name: string;
  label: string;
  kind: "ceiling" | "initialize" | "verify";
  framework: "next" | "bare";
  server: Server;
  options: Parameters<typeof autocannon>[0];
};

type Measurement = {
  name: string;
  /** 1-based round (BENCH_ROUNDS); in `results`, the round whose req/s was the median. */
  round?: number;
  label: string;
  kind: Target["kind"];
  framework: Target["framework"];
  requestsPerSecond: number;
  requestsTotal: number;
  durationSeconds: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  warmupRequestsPerSecond: number;
  /** CPU over the measured run (Linux): per process, and what the rest of the machine used. */
  cpu: CpuUsage | undefined;
};

function skewed(m: Measurement): boolean {
  return m.cpu !== undefined && m.cpu.otherCores + m.cpu.stealCores > OTHER_CPU_WARNING;
}

/**
 * Of a target's rounds, the one with the median req/s (the lower middle for an even count) among the rounds
 * other jobs did not skew (all rounds when every one was skewed), with the non-2xx, error and timeout counts
 * of all rounds added up so no failure is hidden.
 */
function medianRun(rounds: Measurement[]): Measurement {
  const clean = rounds.filter((m) => !skewed(m));
  const sorted = [...(clean.length ? clean : rounds)].sort(
    (a, b) => a.requestsPerSecond - b.requestsPerSecond,
  );
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error("no measurement");
  const sum = (f: (m: Measurement) => number) => rounds.reduce((n, m) => n + f(m), 0);
  return {
    ...median,
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
  };
}

async function load(options: Target["options"], seconds: number): Promise<Result> {
  return await autocannon({ ...options, connections: CONNECTIONS, duration: seconds });
}

function benchPids(): Record<string, number | undefined> {
  return Object.fromEntries([["bench", process.pid], ...servers.map((s) => [s.name, s.child.pid])]);
}

/**
 * Wait (up to BENCH_QUIET_WAIT_SECONDS) until processes outside the bench use under OTHER_CPU_WARNING cores
 * over one second: on a shared 2-core machine another job's build or test run would skew the next target.
 */
async function waitForQuiet(): Promise<number> {
  const deadline = Date.now() + QUIET_WAIT_SECONDS * 1000;
  let waited = 0;
  for (;;) {
    const meter = new CpuMeter(benchPids(), availableParallelism());
    meter.start();
    await sleep(1_000);
    const usage = meter.stop();
    const other = usage ? usage.otherCores + usage.stealCores : 0;
    if (other <= OTHER_CPU_WARNING) return waited;
    if (Date.now() >= deadline) {
      process.stdout.write(`(machine still busy: ${other.toFixed(2)} cores elsewhere) `);
      return waited;
    }
    waited += 1;
  }
}

async function measure(target: Target): Promise<Measurement> {
  process.stdout.write(`  ${target.label.padEnd(22)} `);
  const waited = await waitForQuiet();
  if (waited > 0) process.stdout.write(`(waited ${waited} s for other jobs) `);
  process.stdout.write(`warm-up ${WARMUP_SECONDS} s, `);
  const warmup = await load(target.options, WARMUP_SECONDS);
  process.stdout.write(`measure ${SECONDS} s... `);
  const before = target.server.output.length;
  const meter = new CpuMeter(benchPids(), availableParallelism());
  meter.start();
  const r = await load(target.options, SECONDS);
  const cpu = meter.stop();
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]),
  );
  const m: Measurement = {
    name: target.name,
    label: target.label,
    kind: target.kind,
    framework: target.framework,
    requestsPerSecond: r.requests.total / r.duration,
    requestsTotal: r.requests.total,
    durationSeconds: r.duration,
    latencyMs: {
      p50: r.latency.p50,
      p90: r.latency.p90,
      p99: r.latency.p99,
      average: r.latency.average,
      max: r.latency.max,
    },
    non2xx: r.non2xx,
    statusCodes,
    errors: r.errors,
    timeouts: r.timeouts,
    warmupRequestsPerSecond: warmup.requests.total / warmup.duration,
    cpu,
  };
  console.log(`${Math.round(m.requestsPerSecond)} req/s, p99 ${m.latencyMs.p99} ms`);
  if (m.non2xx > 0 || warmup.non2xx > 0) {
    console.warn(
      `  WARNING: ${target.name}: ${m.non2xx} non-2xx responses (warm-up ${warmup.non2xx}); status codes ${JSON.stringify(statusCodes)}`,
    );
  }
  if (m.errors > 0 || m.timeouts > 0) {
    console.warn(`  WARNING: ${target.name}: ${m.errors} socket errors, ${m.timeouts} timeouts`);
  }
  if (cpu && cpu.otherCores + cpu.stealCores > OTHER_CPU_WARNING) {
    console.warn(
      `  WARNING: ${target.name}: other processes used ${cpu.otherCores} cores (steal ${cpu.stealCores}) during the run; the figures are skewed.`,
    );
  }
  const printed = target.server.output.slice(before).join("");
  if (printed.trim() && !VERBOSE) {
    console.warn(
      `  WARNING: the ${target.server.name} server printed during the run:\n${printed.slice(-2_000)}`,
    );
  }
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// 5. Report

type Check = { target: string; rule: string; value: number; limit: number; pass: boolean };

function checksFor(m: Measurement, ceiling: number | undefined): Check[] {
  if (m.framework !== "next" || m.kind === "ceiling") return [];
  const checks: Check[] = [];
  const minRatio = m.kind === "initialize" ? 0.5 : 0.7;
  if (ceiling) {
    const ratio = m.requestsPerSecond / ceiling;
    checks.push({
      target: m.name,
      rule: `>= ${minRatio} x ceiling`,
      value: ratio,
      limit: minRatio,
      pass: ratio >= minRatio,
    });
  }
  checks.push({
    target: m.name,
    rule: `p99 <= ${P99_LIMIT_MS} ms`,
    value: m.latencyMs.p99,
    limit: P99_LIMIT_MS,
    pass: m.latencyMs.p99 <= P99_LIMIT_MS,
  });
  return checks;
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (r: string[]) =>
    `| ${r.map((cell, i) => (i === 0 || i === r.length - 1 || i === r.length - 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 || i >= widths.length - 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  const [header, ...body] = rows;
  return [line(header ?? []), rule, ...body.map(line)].join("\n");
}

function report(measurements: Measurement[]): { text: string; checks: Check[] } {
  const ceiling = measurements.find((m) => m.kind === "ceiling")?.requestsPerSecond;
  const bare = (kind: Measurement["kind"]) =>
    measurements.find((m) => m.framework === "bare" && m.kind === kind)?.requestsPerSecond;
  const allChecks: Check[] = [];
  const rows = [
    [
      "target",
      "req/s",
      "p50 ms",
      "p99 ms",
      "x ceiling",
      "non-2xx",
      "server CPU",
      "bench CPU",
      "other CPU",
      "target (issue)",
      "result",
    ],
  ];
  for (const m of measurements) {
    const checks = checksFor(m, ceiling);
    allChecks.push(...checks);
    const rule =
      m.kind === "ceiling"
        ? "(reference)"
        : m.framework === "bare"
          ? "(no target: without Next)"
          : `>= ${m.kind === "initialize" ? "0.5" : "0.7"} x, p99 <= ${P99_LIMIT_MS}`;
    const result =
      checks.length === 0
        ? "-"
        : checks.every((c) => c.pass)
          ? "PASS"
          : `MISS (${checks
              .filter((c) => !c.pass)
              .map((c) => (c.rule.startsWith("p99") ? "p99" : "req/s"))
              .join(", ")})`;
    rows.push([
      skewed(m) ? `${m.label} *` : m.label,
      Math.round(m.requestsPerSecond).toString(),
      m.latencyMs.p50.toFixed(0),
      m.latencyMs.p99.toFixed(0),
      ceiling ? (m.requestsPerSecond / ceiling).toFixed(3) : "n/a",
      String(m.non2xx),
      m.cpu ? (m.cpu.cores[m.framework] ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.cores.bench ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.otherCores + m.cpu.stealCores).toFixed(2) : "n/a",
      rule,
      result,
    ]);
  }
  const notes: string[] = [];
  for (const kind of ["initialize", "verify"] as const) {
    const next = measurements.find((m) => m.framework === "next" && m.kind === kind)?.requestsPerSecond;
    const b = bare(kind);
    if (next && b) notes.push(`Next ${kind} = ${(next / b).toFixed(2)} x bare ${kind}`);
  }
  if (measurements.some(skewed)) {
    notes.push(
      `* other jobs on the machine used over ${OTHER_CPU_WARNING} cores during this row's run: its figures are skewed`,
    );
  }
  notes.push(
    `CPU columns: cores' worth over the measured run (machine: ${availableParallelism()}) used by the server, ` +
      "by this process (autocannon) and by anything else; a server near 1.0 is bound by its one JS thread " +
      "(the part above 1.0 is V8's GC and compiler threads)",
  );
  return { text: `${table(rows)}\n\n${notes.join(".\n")}.`, checks: allChecks };
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-");
  const resultsDir = join(root, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  const profileDir = CPU_PROF ? join(resultsDir, `profiles-${stamp}`) : undefined;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  profileDirForCleanup = profileDir;

  console.log(
    `Bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s measured per target; ` +
      `${availableParallelism()} CPUs (${cpus()[0]?.model ?? "?"}), Node ${process.version}.`,
  );
  const build = await ensureBuilt();

  tempDir = mkdtempSync(join(tmpdir(), "paygate-bench-"));
  console.log("Servers: starting Next (server.mjs) and the bare node:http server...");
  const [next, bare] = await Promise.all([
    startNext(join(tempDir, "next.db"), profileDir),
    startBare(join(tempDir, "bare.db"), profileDir),
  ]);

  const signup = await request(`${next.url}/v1/merchants/auth/signup`, {
    method: "POST",
    body: { businessName: "Bench Store", email: "bench@example.com", password: "bench-password-123" },
  });
  expectStatus("Next signup", signup, 201);
  const nextKey = (signup.body.data as { keys?: { test?: { secretKey?: unknown } } } | undefined)?.keys?.test
    ?.secretKey;
  if (typeof nextKey !== "string") throw new Error("Next signup: no data.keys.test.secretKey");
  const [nextRefs, bareRefs] = await Promise.all([
    createReferences("Next", next.url, nextKey),
    createReferences("bare", bare.url, bare.secretKey),
  ]);
  console.log(`Fixtures: one merchant and ${VERIFY_REFERENCES} transactions on each server.`);

  const initialize = (url: string, key: string): Target["options"] => ({
    url: `${url}/v1/payment/initialize`,
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(INITIALIZE_BODY),
  });
  const verify = (url: string, key: string, refs: string[]): Target["options"] => ({
    url,
    requests: refs.map((ref) => ({
      method: "GET",
      path: `/v1/payment/verify/${ref}`,
      headers: { "x-api-key": key },
    })),
  });
  const targets: Target[] = [
    {
      name: "next-ping",
      label: "Next GET /v1/ping",
      kind: "ceiling",
      framework: "next",
      server: next.server,
      options: { url: `${next.url}/v1/ping` },
    },
    {
      name: "next-initialize",
      label: "Next POST initialize",
      kind: "initialize",
      framework: "next",
      server: next.server,
      options: initialize(next.url, nextKey),
    },
    {
      name: "next-verify",
      label: "Next GET verify",
      kind: "verify",
      framework: "next",
      server: next.server,
      options: verify(next.url, nextKey, nextRefs),
    },
    {
      name: "bare-initialize",
      label: "bare POST initialize",
      kind: "initialize",
      framework: "bare",
      server: bare.server,
      options: initialize(bare.url, bare.secretKey),
    },
    {
      name: "bare-verify",
      label: "bare GET verify",
      kind: "verify",
      framework: "bare",
      server: bare.server,
      options: verify(bare.url, bare.secretKey, bareRefs),
    },
  ].filter((t) => ONLY.length === 0 || ONLY.includes(t.name)) as Target[];
  if (targets.length === 0) throw new Error(`BENCH_ONLY=${ONLY.join(",")} matches no target`);

  const runs: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(ROUNDS > 1 ? `Load, round ${round} of ${ROUNDS}:` : "Load:");
    for (const target of targets) {
      runs.push({ ...(await measure(target)), round });
      const dead = servers.find((s) => s.exited);
      if (dead) throw new Error(`the ${dead.name} server exited during the run`);
    }
  }
  const measurements = targets.map((t) => medianRun(runs.filter((r) => r.name === t.name)));

  const { text, checks } = report(measurements);
  console.log(`\n${text}\n`);
  if (ROUNDS > 1) {
    console.log(
      `Each row is the median-req/s round of ${ROUNDS} (of the rounds not skewed by other jobs, when there are` +
        " any); req/s over the rounds (* = skewed):",
    );
    for (const t of targets) {
      const values = runs
        .filter((r) => r.name === t.name)
        .map((r) => `${Math.round(r.requestsPerSecond)}${skewed(r) ? "*" : ""}`);
      console.log(`  ${t.label.padEnd(22)} ${values.join(", ")}`);
    }
    console.log("");
  }
  const file = join(resultsDir, `api-${stamp}.json`);
  const socketErrors = measurements.reduce((n, m) => n + m.errors, 0);
  const non2xx = measurements.reduce((n, m) => n + m.non2xx, 0);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { cpus: availableParallelism(), cpuModel: cpus()[0]?.model, node: process.version },
        config: {
          seconds: SECONDS,
          warmupSeconds: WARMUP_SECONDS,
          connections: CONNECTIONS,
          rounds: ROUNDS,
          database: "sqlite (fresh temp file per server)",
          distDir: DIST_DIR,
          cpuProfile: Boolean(profileDir),
        },
        build,
        targets: { initializeMinRatio: 0.5, verifyMinRatio: 0.7, p99MaxMs: P99_LIMIT_MS },
        results: measurements,
        rounds: ROUNDS > 1 ? runs : undefined,
        checks,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Results: ${file}`);
  if (non2xx > 0)
    console.warn(`WARNING: ${non2xx} non-2xx responses in total; the figures above include them.`);
  const misses = checks.filter((c) => !c.pass);
  if (misses.length)
    console.log(`Targets missed: ${misses.map((c) => `${c.target} (${c.rule})`).join(", ")}.`);
  if (profileDir) console.log(`CPU profiles (written when the servers stop): ${profileDir}`);
  if (socketErrors > 0) {
    console.error(`FAILED: autocannon reported ${socketErrors} socket errors.`);
    return 1;
  }
  return 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  console.error(`\nBench failed: ${err instanceof Error ? err.message : String(err)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
