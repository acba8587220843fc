// autocannon runs and their bookkeeping for the API benches: one measured run of a target (after a warm-up
// and a wait for the machine to go quiet), the CPU each process used, the median of several rounds, and the
// table they print.
import { availableParallelism } from "node:os";
import autocannon, { type Result } from "autocannon";
import { CpuMeter, type CpuUsage } from "../cpu";

/** Cores' worth of CPU used outside the bench during a run above which the run is flagged as skewed. */
export const OTHER_CPU_WARNING = 0.15;

export type LoadSettings = {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  quietWaitSeconds: number;
};

export type Target = {
  name: string;
  label: string;
  /** What the row is compared with; the benches give it meaning. */
  kind: string;
  /** The server process the load goes to, by the name its CPU is reported under. */
  server: string;
  options: Parameters<typeof autocannon>[0];
};

export type Measurement = {
  name: string;
  /** 1-based round; in a result list, the round whose req/s was the median. */
  round?: number;
  label: string;
  kind: string;
  server: string;
  requestsPerSecond: number;
  requestsTotal: number;
  durationSeconds: number;
  latencyMs: { p50: number; p90: number; p99: number; average: number; max: number };
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  warmupRequestsPerSecond: number;
  /** CPU over the measured run (Linux): per process (with the processes under it), and the rest of the machine. */
  cpu: CpuUsage | undefined;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function skewed(m: Measurement): boolean {
  return m.cpu !== undefined && m.cpu.otherCores + m.cpu.stealCores > OTHER_CPU_WARNING;
}

/**
 * Of a target's rounds, the one with the median req/s (the lower middle for an even count) among the rounds
 * other jobs did not skew (all rounds when every one was skewed), with the non-2xx, error and timeout counts
 * of all rounds added up so no failure is hidden.
 */
export function medianRun(rounds: Measurement[]): Measurement {
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

/**
 * Wait (up to `seconds`) until processes outside the bench use under OTHER_CPU_WARNING cores over one
 * second: on a shared 2-core machine another job's build or test run would skew the next target.
 */
async function waitForQuiet(pids: Record<string, number | undefined>, seconds: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  let waited = 0;
  for (;;) {
    const meter = new CpuMeter(pids, availableParallelism());
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

/**
 * One target: wait for quiet, warm up, then measure, with the CPU of `pids` (name → pid; the bench itself as
 * `bench`). Prints one progress line, and warnings for non-2xx answers, socket errors and other jobs' CPU.
 */
export async function measure(
  target: Target,
  settings: LoadSettings,
  pids: () => Record<string, number | undefined>,
): Promise<Measurement> {
  process.stdout.write(`  ${target.label.padEnd(26)} `);
  const waited = await waitForQuiet(pids(), settings.quietWaitSeconds);
  if (waited > 0) process.stdout.write(`(waited ${waited} s for other jobs) `);
  process.stdout.write(`warm-up ${settings.warmupSeconds} s, `);
  const run = async (seconds: number): Promise<Result> =>
    await autocannon({ ...target.options, connections: settings.connections, duration: seconds });
  const warmup = await run(settings.warmupSeconds);
  process.stdout.write(`measure ${settings.seconds} s... `);
  const meter = new CpuMeter(pids(), availableParallelism());
  meter.start();
  const r = await run(settings.seconds);
  const cpu = meter.stop();
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]),
  );
  const m: Measurement = {
    name: target.name,
    label: target.label,
    kind: target.kind,
    server: target.server,
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
  return m;
}

/** A Markdown table: the first column and the last two left-aligned, the rest right-aligned. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (r: string[]) =>
    `| ${r.map((cell, i) => (i === 0 || i === r.length - 1 || i === r.length - 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 || i >= widths.length - 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  const [header, ...body] = rows;
  return [line(header ?? []), rule, ...body.map(line)].join("\n");
}

export function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got ${raw})`);
  return value;
}
