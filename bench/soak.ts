// npm run bench:soak - steady load for a bounded time, watching what each process holds: does anything grow?
//
//  1. Builds when needed (scripts/prepare.mjs), starts `node server.mjs` as `npm start` does (one worker per
//     core, SQLite in a fresh file) with MEMORY_LOG_SECONDS, and signs up a merchant.
//  2. Sends BENCH_SOAK_RATE initialize + verify pairs a second (a new payment, then its verify) for
//     BENCH_SOAK_MINUTES, at a fixed pace from one keep-alive client (requests that fall behind are not
//     made up, so an overloaded server is seen as lost pairs, not as a queue).
//  3. Every window (BENCH_SOAK_WINDOW_SECONDS): pairs done and failed, p50 and p99 of each request, and each
//     worker's resident set and V8 heap from its `memory` log lines.
//  4. Growth: for each worker, the least-squares slope of its heap and resident set over the second half of
//     the run (after warm-up), in MB a minute. A slope of heap under BENCH_SOAK_MAX_HEAP_MB_PER_MIN (default 1)
//     passes: a heap that keeps growing under steady load is a leak, one that levels off is not.
//
// Writes bench/results/soak-<timestamp>.json. Exit code 0 when nothing grows and no pair failed.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startServer } from "../scripts/lib/server-process";
import { ensureBuilt } from "../scripts/prepare.mjs";

const root = resolve(import.meta.dirname, "..");
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 50);
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const WINDOW_S = Number(process.env.BENCH_SOAK_WINDOW_SECONDS ?? 30);
const MAX_HEAP_SLOPE = Number(process.env.BENCH_SOAK_MAX_HEAP_MB_PER_MIN ?? 1);
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";

type Sample = { at: number; rssMb: number; heapUsedMb: number };
type Window = {
  endMinute: number;
  pairs: number;
  failed: number;
  initializeP50: number;
  initializeP99: number;
  verifyP50: number;
  verifyP99: number;
  memory: Record<string, { rssMb: number; heapUsedMb: number }>;
};

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
};

/** Least-squares slope of y over x (x in minutes). */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main() {
  ensureBuilt({ distDir: DIST_DIR });
  const database = join(tmpdir(), `paygate-bench-soak-${process.pid}-${Date.now()}.db`);
  const server = await startServer({
    name: "soak",
    timeoutMs: 90_000,
    keepOutput: 50_000_000,
    env: {
      NEXT_DIST_DIR: DIST_DIR,
      DATABASE_URL: `file:${database}`,
      APP_SECRET: "bench-soak-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      SEED_DEMO: "0",
      WEBHOOK_RELAY: "0",
      LOG_LEVEL: "info",
      MEMORY_LOG_SECONDS: "5",
      RATE_LIMIT_KEY_BURST: "100000000",
      RATE_LIMIT_KEY_PER_SECOND: "100000000",
    },
  });
  // Node's fetch keeps its connections alive between requests.
  const call = async (method: "GET" | "POST", path: string, key: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data?: { reference?: string } };
    return { status: res.status, ms: performance.now() - started, json };
  };
  try {
    const signup = await fetch(`${server.url}/v1/merchants/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        businessName: "Soak Store",
        email: `soak-${Date.now()}@example.com`,
        password: "correct horse battery staple",
      }),
    });
    const key = ((await signup.json()) as { data: { keys: { test: { secretKey: string } } } }).data.keys.test
      .secretKey;
    console.log(
      `Soak: ${RATE} initialize + verify pairs a second for ${MINUTES} min on ${server.url} (npm start's workers, SQLite)\n`,
    );

    const samples: Record<string, Sample[]> = {};
    let logOffset = 0;
    const readMemory = () => {
      const out = server.output();
      for (const line of out.slice(logOffset).split("\n")) {
        if (!line.includes('"msg":"memory"')) continue;
        try {
          const entry = JSON.parse(line) as { pid: number; rssMb: number; heapUsedMb: number; time: string };
          const pid = String(entry.pid);
          samples[pid] = [
            ...(samples[pid] ?? []),
            { at: Date.parse(entry.time), rssMb: entry.rssMb, heapUsedMb: entry.heapUsedMb },
          ];
        } catch {
          // A line cut at the edge of what was read: read whole on the next pass.
        }
      }
      logOffset = out.lastIndexOf("\n") + 1;
    };

    const start = Date.now();
    const end = start + MINUTES * 60_000;
    const windows: Window[] = [];
    let current = { pairs: 0, failed: 0, init: [] as number[], verify: [] as number[] };
    let windowEnd = start + WINDOW_S * 1000;
    const inFlight = new Set<Promise<void>>();
    const pair = async () => {
      try {
        const init = await call("POST", "/v1/payment/initialize", key, {
          amount: "5000.00",
          email: "c@example.com",
        });
        current.init.push(init.ms);
        const reference = init.json.data?.reference;
        if (init.status !== 201 || !reference) throw new Error(`initialize ${init.status}`);
        const verify = await call("GET", `/v1/payment/verify/${reference}`, key);
        current.verify.push(verify.ms);
        if (verify.status !== 200) throw new Error(`verify ${verify.status}`);
        current.pairs++;
      } catch {
        current.failed++;
      }
    };
    let next = start;
    while (Date.now() < end) {
      const now = Date.now();
      if (now >= windowEnd) {
        readMemory();
        const memory: Window["memory"] = {};
        for (const [pid, list] of Object.entries(samples)) {
          const last = list.at(-1);
          if (last) memory[pid] = { rssMb: last.rssMb, heapUsedMb: last.heapUsedMb };
        }
        const w: Window = {
          endMinute: Math.round(((now - start) / 60_000) * 10) / 10,
          pairs: current.pairs,
          failed: current.failed,
          initializeP50: quantile(current.init, 0.5),
          initializeP99: quantile(current.init, 0.99),
          verifyP50: quantile(current.verify, 0.5),
          verifyP99: quantile(current.verify, 0.99),
          memory,
        };
        windows.push(w);
        console.log(
          `${w.endMinute.toFixed(1).padStart(5)} min: ${w.pairs} pairs (${w.failed} failed), initialize p50/p99 ${w.initializeP50}/${w.initializeP99} ms, verify ${w.verifyP50}/${w.verifyP99} ms; ${Object.entries(
            memory,
          )
            .map(([pid, m]) => `pid ${pid} rss ${m.rssMb} MB heap ${m.heapUsedMb} MB`)
            .join("; ")}`,
        );
        current = { pairs: 0, failed: 0, init: [], verify: [] };
        windowEnd += WINDOW_S * 1000;
      }
      // A pair every 1/RATE s; a pair that falls behind by more than a second is skipped, not made up.
      if (now >= next) {
        if (now - next > 1000) next = now;
        const p = pair();
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
        next += 1000 / RATE;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, Math.min(next, windowEnd) - Date.now())));
    }
    await Promise.all(inFlight);
    readMemory();

    // Growth over the second half (after warm-up), per worker.
    const half = start + (MINUTES * 60_000) / 2;
    const growth = Object.fromEntries(
      Object.entries(samples).map(([pid, list]) => {
        const late = list.filter((s) => s.at >= half);
        const points = (f: (s: Sample) => number) =>
          late.map((s) => [(s.at - start) / 60_000, f(s)] as [number, number]);
        return [
          pid,
          {
            heapMbPerMin: Math.round(slope(points((s) => s.heapUsedMb)) * 100) / 100,
            rssMbPerMin: Math.round(slope(points((s) => s.rssMb)) * 100) / 100,
            firstRssMb: list[0]?.rssMb ?? 0,
            peakRssMb: Math.max(...list.map((s) => s.rssMb)),
            lastRssMb: list.at(-1)?.rssMb ?? 0,
            peakHeapMb: Math.max(...list.map((s) => s.heapUsedMb)),
          },
        ];
      }),
    );
    console.log("\nSecond half, per worker (least-squares slope):");
    for (const [pid, g] of Object.entries(growth))
      console.log(
        `  pid ${pid}: heap ${g.heapMbPerMin} MB/min, rss ${g.rssMbPerMin} MB/min; rss first ${g.firstRssMb} MB, peak ${g.peakRssMb} MB, last ${g.lastRssMb} MB; heap peak ${g.peakHeapMb} MB`,
      );
    const failed = windows.reduce((s, w) => s + w.failed, 0);
    const pairs = windows.reduce((s, w) => s + w.pairs, 0);
    const grows = Object.values(growth).some((g) => g.heapMbPerMin > MAX_HEAP_SLOPE);
    console.log(
      `\n${pairs} pairs, ${failed} failed; heap slope budget ≤ ${MAX_HEAP_SLOPE} MB/min: ${grows ? "MISS" : "PASS"}`,
    );
    mkdirSync(join(root, "bench/results"), { recursive: true });
    const out = join(root, `bench/results/soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      out,
      `${JSON.stringify({ date: new Date().toISOString(), rate: RATE, minutes: MINUTES, windows, samples, growth }, null, 2)}\n`,
    );
    console.log(`Wrote ${out.slice(root.length + 1)}`);
    process.exitCode = grows || failed > 0 ? 1 : 0;
  } finally {
    await server.stop();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
  }
}

main().catch((err) => {
  console.error(`bench:soak: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
