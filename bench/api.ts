// npm run bench:api - throughput and latency of the payment API against the Next ceiling, a bare node:http
// server doing the same database work, and the same app on every core.
//
//  1. Builds the app into .next-bench when that build is missing or older than any source (BENCH_REBUILD=1
//     forces it; scripts/prepare.mjs decides, as it does for npm start and npm test).
//  2. Starts, each on a fresh SQLite file in a temp folder: `node server.mjs` as one process
//     (WEB_CONCURRENCY=1), `node server.mjs` on every core (WEB_CONCURRENCY = the machine's cores), and
//     bench/bare-server.ts (node:http + the same lib/ domain code, no Next). Signs up a merchant on each and
//     creates transactions to verify.
//  3. autocannon, one target after the other: a warm-up, then a measured run.
//  4. Prints a table with the targets and writes bench/results/api-<timestamp>.json.
//  5. Stops the servers and removes the temp folder.
//
// Targets: one process, initialize >= 0.5 x and verify >= 0.7 x the ceiling (GET /v1/ping on the same
// process); every core, initialize and verify >= 0.8 x cores x one process's (1.6 x on two cores); p99 <= 150 ms.
//
// Environment:
//   BENCH_SECONDS=10          measured seconds per target
//   BENCH_WARMUP_SECONDS=2    warm-up seconds per target (not recorded)
//   BENCH_CONNECTIONS=50      concurrent connections
//   BENCH_REBUILD=1           build even when .next-bench is up to date
//   BENCH_DIST_DIR=.next-bench  the build directory (another one lets two builds be compared)
//   BENCH_ONLY=a,b            run only these targets (names as in the table, e.g. next-initialize)
//   BENCH_CPU_PROF=1          run the one-process and bare servers with --cpu-prof; profiles land in
//                             bench/results/profiles-<ts>/
//   BENCH_ROUNDS=1            repeat the whole sequence; each target reports its median-req/s round (the
//                             machine's speed drifts by 10-20 % between minutes, enough to flip a verdict)
//   BENCH_VERBOSE=1           echo the servers' output
//   BENCH_QUIET_WAIT_SECONDS=60  before each target, wait up to this long for other jobs on the machine to
//                             go quiet (the table's "other CPU" column shows what they used during the run)
//
// A MISS is a measurement, not a failure: the exit code is 0. It is non-zero when the build fails, a server
// does not start or exits during the run, a setup request fails, or autocannon reports socket errors.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { ensureBuilt } from "../scripts/prepare.mjs";
import { createReferences, initializeLoad, signupMerchant, verifyLoad } from "./lib/fixtures";
import {
  type Measurement,
  measure,
  medianRun,
  numberFromEnv,
  OTHER_CPU_WARNING,
  skewed,
  type Target,
  table,
} from "./lib/load";

const root = resolve(import.meta.dirname, "..");
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const APP_SECRET = "bench-app-secret-0123456789abcdefghijklmnopqrstuvwxyz";

const SETTINGS = {
  seconds: numberFromEnv("BENCH_SECONDS", 10),
  warmupSeconds: numberFromEnv("BENCH_WARMUP_SECONDS", 2),
  connections: Math.round(numberFromEnv("BENCH_CONNECTIONS", 50)),
  quietWaitSeconds: numberFromEnv("BENCH_QUIET_WAIT_SECONDS", 60),
};
const ONLY = (process.env.BENCH_ONLY ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const ROUNDS = Math.round(numberFromEnv("BENCH_ROUNDS", 1));
const CORES = availableParallelism();
const P99_LIMIT_MS = 150;
const VERIFY_REFERENCES = 20;
/** All cores against one process: at least this share of a perfect scale-up (1.6 x on two cores). */
const SCALE_SHARE = 0.8;

// ---------------------------------------------------------------------------------------------------------
// Processes and clean-up

/** A process the bench started: a server of scripts/lib/server-process.ts, or the bare server. */
type Running = {
  name: string;
  pid: number;
  output: () => string;
  alive: () => boolean;
  stop: () => Promise<void>;
};

const running: Running[] = [];
let tempDir: string | undefined;
let profileDirForCleanup: string | undefined;
let cleanedUp = false;

function tracked(server: ServerProcess): Running {
  const r: Running = {
    name: server.name,
    pid: server.pid,
    output: server.output,
    alive: () => server.child.exitCode === null && server.child.signalCode === null,
    stop: server.stop,
  };
  running.push(r);
  return r;
}

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  await Promise.all(running.map((r) => r.stop()));
  if (profileDirForCleanup) nameProfiles(profileDirForCleanup);
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers...`);
    void cleanup().finally(() => process.exit(130));
  });
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

/** The built app on a fresh SQLite file, with `workers` processes; the secret key cap is lifted. */
async function startNext(name: string, dbFile: string, workers: number, nodeArgs: string[]) {
  const server = await startServer({
    name,
    nodeArgs,
    timeoutMs: 90_000,
    env: {
      NEXT_DIST_DIR: DIST_DIR,
      DATABASE_URL: `file:${dbFile}`,
      APP_SECRET,
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      WEB_CONCURRENCY: String(workers),
      RATE_LIMIT_KEY_BURST: "100000000",
      RATE_LIMIT_KEY_PER_SECOND: "100000000",
    },
    onOutput: (text) => VERBOSE && process.stderr.write(`[${name}] ${text}`),
  });
  const r = tracked(server);
  if (workers > 1) await waitForWorkers(r, workers);
  return { running: r, url: server.url };
}

/** A cluster answers as soon as its first worker listens; measure it only once every worker does. */
async function waitForWorkers(r: Running, workers: number) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const listening = r.output().match(/"msg":"listening"/g)?.length ?? 0;
    if (listening >= workers) return;
    if (!r.alive()) throw new Error(`${r.name} exited during start-up:\n${r.output().slice(-4_000)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${r.name}: not every worker listened within 90 s:\n${r.output().slice(-4_000)}`);
}

async function startBare(dbFile: string, profileDir: string | undefined) {
  const child: ChildProcess = spawn(
    process.execPath,
    [...profileArgs(profileDir, "bare"), "--import", "tsx", "bench/bare-server.ts"],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: `file:${dbFile}`,
        PUBLIC_BASE_URL: "http://127.0.0.1",
        APP_SECRET,
        SEED_DEMO: "0",
        LOG_LEVEL: "error",
        RATE_LIMIT_KEY_BURST: "100000000",
        RATE_LIMIT_KEY_PER_SECOND: "100000000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
    if (VERBOSE) process.stderr.write(`[bare] ${d}`);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const r: Running = {
    name: "bare",
    pid: child.pid as number,
    output: () => output,
    alive,
    stop: async () => {
      if (!alive()) return;
      child.kill("SIGTERM");
      await new Promise((res) => child.once("exit", res));
    },
  };
  running.push(r);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`the bare server exited during start-up:\n${output.slice(-4_000)}`);
    for (const line of output.split("\n")) {
      if (!line.startsWith('{"benchReady"')) continue;
      const ready = JSON.parse(line) as { port: number; secretKey: string };
      return { running: r, url: `http://127.0.0.1:${ready.port}`, secretKey: ready.secretKey };
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`the bare server did not report ready within 60 s:\n${output.slice(-4_000)}`);
}

// ---------------------------------------------------------------------------------------------------------
// Report

type Check = { target: string; rule: string; value: number; limit: number; pass: boolean };

/** Which server a target loads, and what it is held to. */
type Role = "ceiling" | "one" | "all" | "bare";
const roleOf = (m: Measurement): Role => (m.kind === "ceiling" ? "ceiling" : (m.server as Role));
const operation = (m: Measurement) => (m.name.endsWith("verify") ? "verify" : "initialize");

function checksFor(m: Measurement, all: Measurement[]): Check[] {
  const role = roleOf(m);
  if (role === "ceiling" || role === "bare") return [];
  const checks: Check[] = [];
  if (role === "one") {
    const ceiling = all.find((x) => x.kind === "ceiling")?.requestsPerSecond;
    const min = operation(m) === "initialize" ? 0.5 : 0.7;
    if (ceiling) {
      const ratio = m.requestsPerSecond / ceiling;
      checks.push({
        target: m.name,
        rule: `>= ${min} x ceiling`,
        value: ratio,
        limit: min,
        pass: ratio >= min,
      });
    }
  } else {
    const one = all.find((x) => roleOf(x) === "one" && operation(x) === operation(m))?.requestsPerSecond;
    const min = Math.round(SCALE_SHARE * CORES * 100) / 100;
    if (one) {
      const ratio = m.requestsPerSecond / one;
      checks.push({
        target: m.name,
        rule: `>= ${min} x one process`,
        value: ratio,
        limit: min,
        pass: ratio >= min,
      });
    }
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

function report(measurements: Measurement[]): { text: string; checks: Check[] } {
  const ceiling = measurements.find((m) => m.kind === "ceiling")?.requestsPerSecond;
  const oneOf = (op: string) =>
    measurements.find((m) => roleOf(m) === "one" && operation(m) === op)?.requestsPerSecond;
  const allChecks: Check[] = [];
  const rows = [
    [
      "target",
      "req/s",
      "p50 ms",
      "p99 ms",
      "x ceiling",
      "x one process",
      "non-2xx",
      "server CPU",
      "bench CPU",
      "other CPU",
      "target",
      "result",
    ],
  ];
  for (const m of measurements) {
    const checks = checksFor(m, measurements);
    allChecks.push(...checks);
    const role = roleOf(m);
    const rule =
      role === "ceiling"
        ? "(reference)"
        : role === "bare"
          ? "(no target: without Next)"
          : role === "one"
            ? `>= ${operation(m) === "initialize" ? "0.5" : "0.7"} x ceiling, p99 <= ${P99_LIMIT_MS}`
            : `>= ${Math.round(SCALE_SHARE * CORES * 100) / 100} x one, p99 <= ${P99_LIMIT_MS}`;
    const result =
      checks.length === 0
        ? "-"
        : checks.every((c) => c.pass)
          ? "PASS"
          : `MISS (${checks
              .filter((c) => !c.pass)
              .map((c) => (c.rule.startsWith("p99") ? "p99" : "req/s"))
              .join(", ")})`;
    const one = role === "all" ? oneOf(operation(m)) : undefined;
    rows.push([
      skewed(m) ? `${m.label} *` : m.label,
      Math.round(m.requestsPerSecond).toString(),
      m.latencyMs.p50.toFixed(0),
      m.latencyMs.p99.toFixed(0),
      ceiling && role !== "all" && role !== "bare" ? (m.requestsPerSecond / ceiling).toFixed(3) : "",
      one ? (m.requestsPerSecond / one).toFixed(2) : "",
      String(m.non2xx),
      m.cpu ? (m.cpu.cores[m.server] ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.cores.bench ?? 0).toFixed(2) : "n/a",
      m.cpu ? (m.cpu.otherCores + m.cpu.stealCores).toFixed(2) : "n/a",
      rule,
      result,
    ]);
  }
  const notes: string[] = [];
  for (const op of ["initialize", "verify"]) {
    const next = oneOf(op);
    const bare = measurements.find((m) => roleOf(m) === "bare" && operation(m) === op)?.requestsPerSecond;
    if (next && bare) notes.push(`Next ${op} = ${(next / bare).toFixed(2)} x bare ${op}`);
  }
  if (measurements.some(skewed)) {
    notes.push(
      `* other jobs on the machine used over ${OTHER_CPU_WARNING} cores during this row's run: its figures are skewed`,
    );
  }
  notes.push(
    `CPU columns: cores' worth over the measured run (machine: ${CORES}) used by the server (with its cluster ` +
      "workers), by this process (autocannon) and by anything else; a one-process server near 1.0 is bound " +
      "by its one JS thread (the part above 1.0 is V8's GC and compiler threads). On all cores the load " +
      "generator shares the machine with the workers, so the ratio is below what the workers alone could do",
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
    `Bench: ${SETTINGS.connections} connections, ${SETTINGS.warmupSeconds} s warm-up + ${SETTINGS.seconds} s ` +
      `measured per target; ${CORES} CPUs (${cpus()[0]?.model ?? "?"}), Node ${process.version}.`,
  );
  const build = ensureBuilt({ distDir: DIST_DIR, force: process.env.BENCH_REBUILD === "1" });
  console.log(
    `Build: ${build.rebuilt ? `built in ${build.seconds} s (${build.reason})` : `${DIST_DIR} is up to date`}.`,
  );

  tempDir = mkdtempSync(join(tmpdir(), "paygate-bench-"));
  console.log(`Servers: Next on one process, Next on ${CORES} workers, and the bare node:http server...`);
  const [one, all, bare] = await Promise.all([
    startNext("one", join(tempDir, "one.db"), 1, profileArgs(profileDir, "next")),
    startNext("all", join(tempDir, "all.db"), CORES, []),
    startBare(join(tempDir, "bare.db"), profileDir),
  ]);
  const [oneKey, allKey] = await Promise.all([
    signupMerchant(one.url, "bench-one@example.com"),
    signupMerchant(all.url, "bench-all@example.com"),
  ]);
  const [oneRefs, allRefs, bareRefs] = await Promise.all([
    createReferences("one process", one.url, oneKey, VERIFY_REFERENCES),
    createReferences("all cores", all.url, allKey, VERIFY_REFERENCES),
    createReferences("bare", bare.url, bare.secretKey, VERIFY_REFERENCES),
  ]);
  console.log(`Fixtures: one merchant and ${VERIFY_REFERENCES} transactions on each server.`);

  const targets = (
    [
      {
        name: "next-ping",
        label: "Next GET /v1/ping",
        kind: "ceiling",
        server: "one",
        options: { url: `${one.url}/v1/ping` },
      },
      {
        name: "next-initialize",
        label: "Next POST initialize",
        kind: "api",
        server: "one",
        options: initializeLoad(one.url, oneKey),
      },
      {
        name: "next-verify",
        label: "Next GET verify",
        kind: "api",
        server: "one",
        options: verifyLoad(one.url, oneKey, oneRefs),
      },
      {
        name: "all-cores-initialize",
        label: `Next x${CORES} POST initialize`,
        kind: "api",
        server: "all",
        options: initializeLoad(all.url, allKey),
      },
      {
        name: "all-cores-verify",
        label: `Next x${CORES} GET verify`,
        kind: "api",
        server: "all",
        options: verifyLoad(all.url, allKey, allRefs),
      },
      {
        name: "bare-initialize",
        label: "bare POST initialize",
        kind: "api",
        server: "bare",
        options: initializeLoad(bare.url, bare.secretKey),
      },
      {
        name: "bare-verify",
        label: "bare GET verify",
        kind: "api",
        server: "bare",
        options: verifyLoad(bare.url, bare.secretKey, bareRefs),
      },
    ] satisfies Target[]
  ).filter((t) => ONLY.length === 0 || ONLY.includes(t.name));
  if (targets.length === 0) throw new Error(`BENCH_ONLY=${ONLY.join(",")} matches no target`);

  const pids = () => Object.fromEntries([["bench", process.pid], ...running.map((r) => [r.name, r.pid])]);
  const runs: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(ROUNDS > 1 ? `Load, round ${round} of ${ROUNDS}:` : "Load:");
    for (const target of targets) {
      const server = running.find((r) => r.name === target.server);
      const before = server?.output().length ?? 0;
      runs.push({ ...(await measure(target, SETTINGS, pids)), round });
      const printed = server?.output().slice(before) ?? "";
      if (printed.trim() && !VERBOSE)
        console.warn(
          `  WARNING: the ${target.server} server printed during the run:\n${printed.slice(-2_000)}`,
        );
      const dead = running.find((r) => !r.alive());
      if (dead)
        throw new Error(`the ${dead.name} server exited during the run:\n${dead.output().slice(-4_000)}`);
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
      console.log(`  ${t.label.padEnd(26)} ${values.join(", ")}`);
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
        machine: { cpus: CORES, cpuModel: cpus()[0]?.model, node: process.version },
        config: {
          ...SETTINGS,
          rounds: ROUNDS,
          database: "sqlite (fresh temp file per server)",
          distDir: DIST_DIR,
          cpuProfile: Boolean(profileDir),
        },
        build,
        targets: {
          initializeMinRatio: 0.5,
          verifyMinRatio: 0.7,
          allCoresMinRatio: SCALE_SHARE * CORES,
          p99MaxMs: P99_LIMIT_MS,
        },
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
