// npm run bench:cluster - POST /v1/payment/initialize on PostgreSQL with one instance and with two, in the
// same run, and the ratio: what a second instance of the service buys on this machine.
//
//  1. Builds the app into .next-bench when needed (scripts/prepare.mjs).
//  2. Creates a fresh database on BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres;
//     TEST_DATABASE_URL when that is set) and starts two instances of `node server.mjs` on it, one process each
//     (WEB_CONCURRENCY=1), as two machines behind a balancer would run.
//  3. autocannon: initialize against instance A alone, then against A and B together (its connections spread
//     over both), BENCH_ROUNDS times; each reports its median round.
//  4. Prints the table with the CPU the instances, PostgreSQL, autocannon and the rest used, and writes
//     bench/results/cluster-<timestamp>.json; stops the instances and drops the database.
//
// On a machine with fewer cores than instances + PostgreSQL + the load generator, the ratio says where the
// bottleneck is rather than what more machines would give: read it with the CPU columns.
//
// Environment: BENCH_SECONDS=10, BENCH_WARMUP_SECONDS=2, BENCH_CONNECTIONS=50, BENCH_ROUNDS=1,
// BENCH_DATABASE_URL, BENCH_DIST_DIR=.next-bench, BENCH_REBUILD=1, BENCH_VERBOSE=1, BENCH_QUIET_WAIT_SECONDS=60.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { ensureBuilt } from "../scripts/prepare.mjs";
import { initializeLoad, signupMerchant } from "./lib/fixtures";
import { type Measurement, measure, medianRun, numberFromEnv, skewed, type Target, table } from "./lib/load";

const root = resolve(import.meta.dirname, "..");
const DIST_DIR = process.env.BENCH_DIST_DIR ?? ".next-bench";
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const SETTINGS = {
  seconds: numberFromEnv("BENCH_SECONDS", 10),
  warmupSeconds: numberFromEnv("BENCH_WARMUP_SECONDS", 2),
  connections: Math.round(numberFromEnv("BENCH_CONNECTIONS", 50)),
  quietWaitSeconds: numberFromEnv("BENCH_QUIET_WAIT_SECONDS", 60),
};
const ROUNDS = Math.round(numberFromEnv("BENCH_ROUNDS", 1));
const VERBOSE = process.env.BENCH_VERBOSE === "1";
const P99_LIMIT_MS = 150;

const servers: ServerProcess[] = [];
let database: { name: string; url: string } | undefined;

async function createDatabase(): Promise<{ name: string; url: string; postmasterPid?: number }> {
  const name = `paygate_bench_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  let postmasterPid: number | undefined;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    // The server's CPU is part of the picture when it runs on this machine: its postmaster is the parent of
    // this connection's backend process.
    const backend = (await admin.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]?.pid;
    try {
      const stat = readFileSync(`/proc/${backend}/stat`, "utf8");
      postmasterPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      postmasterPid = undefined;
    }
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), postmasterPid };
}

async function dropDatabase() {
  if (!database) return;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function instance(name: string, databaseUrl: string) {
  return startServer({
    name,
    timeoutMs: 90_000,
    env: {
      NEXT_DIST_DIR: DIST_DIR,
      DATABASE_URL: databaseUrl,
      APP_SECRET: "bench-cluster-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      WEB_CONCURRENCY: "1",
      RATE_LIMIT_KEY_BURST: "100000000",
      RATE_LIMIT_KEY_PER_SECOND: "100000000",
    },
    onOutput: (text) => VERBOSE && process.stderr.write(`[${name}] ${text}`),
  });
}

async function main(): Promise<number> {
  const startedAt = new Date();
  const cores = availableParallelism();
  console.log(
    `Bench: initialize on PostgreSQL, one instance against two; ${SETTINGS.connections} connections, ` +
      `${SETTINGS.warmupSeconds} s warm-up + ${SETTINGS.seconds} s measured; ${cores} CPUs ` +
      `(${cpus()[0]?.model ?? "?"}), Node ${process.version}.`,
  );
  const build = ensureBuilt({ distDir: DIST_DIR, force: process.env.BENCH_REBUILD === "1" });
  if (build.rebuilt) console.log(`Build: ${build.seconds} s (${build.reason}).`);
  const db = await createDatabase();
  database = db;
  // A starts alone so the database is migrated once; B joins it.
  const a = await instance("a", db.url);
  servers.push(a);
  const b = await instance("b", db.url);
  servers.push(b);
  const key = await signupMerchant(a.url, "bench-cluster@example.com");
  console.log(`Instances: ${a.url} and ${b.url} on database ${db.name}.`);

  const targets: Target[] = [
    {
      name: "one-instance",
      label: "1 instance  POST initialize",
      kind: "one",
      server: "a",
      options: initializeLoad(a.url, key),
    },
    {
      name: "two-instances",
      label: "2 instances POST initialize",
      kind: "two",
      server: "a",
      options: initializeLoad([a.url, b.url], key),
    },
  ];
  const pids = () => ({ bench: process.pid, a: a.pid, b: b.pid, postgres: db.postmasterPid });
  const runs: Measurement[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(ROUNDS > 1 ? `Load, round ${round} of ${ROUNDS}:` : "Load:");
    for (const target of targets) {
      runs.push({ ...(await measure(target, SETTINGS, pids)), round });
      const dead = servers.find((s) => s.child.exitCode !== null || s.child.signalCode !== null);
      if (dead)
        throw new Error(`instance ${dead.name} exited during the run:\n${dead.output().slice(-4_000)}`);
    }
  }
  const [one, two] = targets.map((t) => medianRun(runs.filter((r) => r.name === t.name))) as [
    Measurement,
    Measurement,
  ];
  const ratio = two.requestsPerSecond / one.requestsPerSecond;
  const cpu = (m: Measurement, name: string) => (m.cpu ? (m.cpu.cores[name] ?? 0).toFixed(2) : "n/a");
  const rows = [
    [
      "target",
      "req/s",
      "p50 ms",
      "p99 ms",
      "x one",
      "non-2xx",
      "A CPU",
      "B CPU",
      "PostgreSQL CPU",
      "bench CPU",
      "other CPU",
      "p99 target",
      "result",
    ],
    ...[one, two].map((m) => [
      skewed(m) ? `${m.label} *` : m.label,
      Math.round(m.requestsPerSecond).toString(),
      m.latencyMs.p50.toFixed(0),
      m.latencyMs.p99.toFixed(0),
      (m.requestsPerSecond / one.requestsPerSecond).toFixed(2),
      String(m.non2xx),
      cpu(m, "a"),
      cpu(m, "b"),
      cpu(m, "postgres"),
      cpu(m, "bench"),
      m.cpu ? (m.cpu.otherCores + m.cpu.stealCores).toFixed(2) : "n/a",
      `<= ${P99_LIMIT_MS} ms`,
      m.latencyMs.p99 <= P99_LIMIT_MS ? "PASS" : "MISS",
    ]),
  ];
  console.log(`\n${table(rows)}\n`);
  console.log(
    `Two instances = ${ratio.toFixed(2)} x one. CPU columns are cores' worth over the measured run (machine: ` +
      `${cores}); when A, B, PostgreSQL and autocannon together use every core, the machine is the bottleneck, ` +
      "not the service.",
  );
  if (ROUNDS > 1) {
    for (const t of targets) {
      const values = runs.filter((r) => r.name === t.name).map((r) => Math.round(r.requestsPerSecond));
      console.log(`  ${t.label.padEnd(28)} ${values.join(", ")}`);
    }
  }
  const resultsDir = join(root, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `cluster-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { cpus: cores, cpuModel: cpus()[0]?.model, node: process.version },
        config: { ...SETTINGS, rounds: ROUNDS, database: "postgresql (fresh database)", distDir: DIST_DIR },
        results: { one, two, ratio },
        rounds: ROUNDS > 1 ? runs : undefined,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Results: ${file}`);
  return one.errors + two.errors > 0 ? 1 : 0;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (err) {
  console.error(`\nBench failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await dropDatabase().catch((err) => console.error(`could not drop the bench database: ${String(err)}`));
}
process.exit(exitCode);
