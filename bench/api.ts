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
//   BENCH_VARIANTS="a; b: X=1" instead of the targets above: the one-process app once per named variant, each
//                             with the environment after its colon (space-separated NAME=value), every
//                             variant loaded in every round, and a table of each operation per variant
//   BENCH_VARIANT_OPERATIONS=initialize,verify,checkout,guess  the operations loaded on each variant
//
// A MISS is a measurement, not a failure: the exit code is 0. It is non-zero when the build fails, a server
// does not start or exits during the run, a setup request fails, or autocannon reports socket errors.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ensureBuilt } from "../scripts/prepare.mjs";
import { CORES, P99_LIMIT_MS, report, SCALE_SHARE } from "./lib/api-report";
import { running, startBare, startNext } from "./lib/api-servers";
import { createReferences, initializeLoad, signupMerchant, verifyLoad } from "./lib/fixtures";
import { type Measurement, measure, medianRun, numberFromEnv, skewed, type Target } from "./lib/load";
import { nameProfiles, profileArgs } from "./lib/profiles";
import { OPERATIONS, parseOperations, parseVariants, runVariants } from "./lib/variants";

const root = resolve(import.meta.dirname, "..");
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";

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
const VERIFY_REFERENCES = 20;
const VARIANTS = parseVariants(process.env.BENCH_VARIANTS ?? "");
const VARIANT_OPERATIONS = parseOperations(process.env.BENCH_VARIANT_OPERATIONS ?? OPERATIONS.join(","));
const servers = { distDir: DIST_DIR, verbose: VERBOSE };

// ---------------------------------------------------------------------------------------------------------
// Clean-up (the servers are in bench/lib/api-servers.ts, the report in bench/lib/api-report.ts)

let tempDir: string | undefined;
let profileDirForCleanup: string | undefined;
let cleanedUp = false;

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
  if (VARIANTS.length > 0) return await variants(startedAt, stamp, resultsDir, build, tempDir);
  console.log(`Servers: Next on one process, Next on ${CORES} workers, and the bare node:http server...`);
  const [one, all, bare] = await Promise.all([
    startNext("one", join(tempDir, "one.db"), 1, profileArgs(profileDir, "next"), servers),
    startNext("all", join(tempDir, "all.db"), CORES, [], servers),
    startBare(join(tempDir, "bare.db"), profileArgs(profileDir, "bare"), servers),
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
        // How far the framework's own constant answer scales over the workers on this machine, beside the
        // same load generator: the all-cores rows are read against it.
        name: "all-cores-ping",
        label: `Next x${CORES} GET /v1/ping`,
        kind: "ceiling",
        server: "all",
        options: { url: `${all.url}/v1/ping` },
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

async function variants(
  startedAt: Date,
  stamp: string,
  resultsDir: string,
  build: unknown,
  dir: string,
): Promise<number> {
  const pids = () => Object.fromEntries([["bench", process.pid], ...running.map((r) => [r.name, r.pid])]);
  const { text, runs, medians } = await runVariants({
    variants: VARIANTS,
    operations: VARIANT_OPERATIONS,
    dir,
    rounds: ROUNDS,
    settings: SETTINGS,
    servers,
    pids,
    alive: () => {
      const dead = running.find((r) => !r.alive());
      if (dead)
        throw new Error(`the ${dead.name} server exited during the run:\n${dead.output().slice(-4_000)}`);
    },
  });
  console.log(`\n${text}\n`);
  const file = join(resultsDir, `api-variants-${stamp}.json`);
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
          variants: VARIANTS,
          operations: VARIANT_OPERATIONS,
          distDir: DIST_DIR,
        },
        build,
        results: medians,
        rounds: runs,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Results: ${file}`);
  const socketErrors = medians.reduce((n, m) => n + m.errors, 0);
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
