// npm run bench:webhooks - webhook delivery latency and throughput on a fresh SQLite server.
//
//  1. Builds the app into NEXT_DIST_DIR (default .next) when that build is missing or older than any source
//     (scripts/prepare.mjs decides, as for npm start and npm test). Starts `node server.mjs` (the relay runs
//     inside it, default settings) on a fresh SQLite file, and a receiver on 127.0.0.1 that answers 200 at once.
//  2. Latency: for each of BENCH_PAYMENTS payments (one at a time), initialize and issue the virtual account
//     (not timed), then time from sending POST /v1/sandbox/transfers of the exact amount to the receiver
//     getting that payment's `payment.completed`. Reports p50/p90/p99/max.
//  3. Throughput: BENCH_EVENTS events written to the outbox in-process through the domain code (`emitEvent`,
//     one database transaction, so they all become due at the same moment); the server's relay drains them.
//     Reports deliveries per second from the commit to the last arrival, once with a receiver answering at
//     once and once with one taking BENCH_RECEIVER_DELAY_MS per request.
//  4. Retry lateness: a second server with the retry schedule 1 s, 2 s (WEBHOOK_RETRY_SCHEDULE=1,2) and a
//     receiver that answers 500 to the first two attempts of each event; BENCH_RETRY_EVENTS events written to
//     its outbox at once. For every retry, how long after the time the server planned for it (its dueAt) it
//     arrived at the receiver: p50/p99/max. (tests/webhooks.test.ts checks the plan exactly and that no retry
//     comes early; how late one comes depends on the machine's load, so it is measured here.)
//  5. Prints a table and writes bench/results/webhooks-<timestamp>.json.
//
// Environment: BENCH_PAYMENTS=200, BENCH_EVENTS=1000, BENCH_RECEIVER_DELAY_MS=20, BENCH_RETRY_EVENTS=20,
// NEXT_DIST_DIR=.next, BENCH_VERBOSE=1 (echo the server's output).
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase } from "@/lib/db/client";
import { emitEvent } from "@/lib/webhooks/emit-event";
import type { EventType } from "@/lib/webhooks/event-types";
import { ensureBuilt } from "../scripts/prepare.mjs";
import {
  asMerchant,
  cleanupHarness,
  freshDatabase,
  initializePayment,
  merchantWithWebhook,
  type Received,
  requestBankTransfer,
  startApp,
  startReceiver,
  waitFor,
} from "../tests/helpers/webhook-harness";

const root = resolve(import.meta.dirname, "..");

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0 (got ${raw})`);
  return value;
}

const PAYMENTS = Math.round(numberFromEnv("BENCH_PAYMENTS", 200));
const EVENTS = Math.round(numberFromEnv("BENCH_EVENTS", 1000));
const RECEIVER_DELAY_MS = numberFromEnv("BENCH_RECEIVER_DELAY_MS", 20);
const RETRY_EVENTS = Math.max(1, Math.round(numberFromEnv("BENCH_RETRY_EVENTS", 20)));
const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";
if (process.env.BENCH_VERBOSE === "1") process.env.TEST_SERVER_LOGS = "1";
process.env.TEST_LOG_LEVEL ??= "warn";

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function main() {
  ensureBuilt({ distDir: DIST_DIR });
  const startedAt = new Date();
  const db = await freshDatabase("sqlite");
  const receiver = await startReceiver();
  const app = await startApp({ name: "bench-webhooks", databaseUrl: db.url });
  const m = await merchantWithWebhook(app.url, receiver.url);
  console.log(`server on ${app.url} (${DIST_DIR}), SQLite ${db.url}`);

  // 2. Latency, inbound transfer -> payment.completed at the receiver.
  const completedAt = new Map<string, Received>();
  const waiting = new Map<string, () => void>();
  receiver.respond((req) => {
    if (req.json?.event === "payment.completed") {
      const ref = req.json.data.reference as string;
      if (!completedAt.has(ref)) completedAt.set(ref, req);
      waiting.get(ref)?.();
    }
    return { status: 200, body: "ok" };
  });

  const latencies: number[] = [];
  const transferCallMs: number[] = [];
  const warmup = 5;
  for (let i = 0; i < PAYMENTS + warmup; i++) {
    const init = await initializePayment(m, { amount: "5000", email: "bench@example.com" });
    const va = await requestBankTransfer(m, init.accessCode);
    const arrived = new Promise<void>((done) => waiting.set(init.reference, done));
    const t0 = performance.now();
    const res = await m.api.call(
      "POST",
      "/v1/sandbox/transfers",
      { accountNumber: va.accountNumber, amount: va.amount },
      { "x-api-key": m.testKey },
    );
    const t1 = performance.now();
    if (res.status !== 200 || res.body.data.outcome !== "credited")
      throw new Error(`transfer failed: ${res.status} ${res.text}`);
    await Promise.race([
      arrived,
      new Promise((_, fail) =>
        setTimeout(() => fail(new Error(`no payment.completed for ${init.reference}`)), 30_000),
      ),
    ]);
    const r = completedAt.get(init.reference) as Received;
    if (i >= warmup) {
      latencies.push(r.hr - t0);
      transferCallMs.push(t1 - t0);
    }
  }
  latencies.sort((a, b) => a - b);
  transferCallMs.sort((a, b) => a - b);

  // 3. Throughput: events queued in one transaction, drained by the server's relay.
  const sql = openDatabase(db.url).db;
  const template = await sql
    .selectFrom("transactions")
    .selectAll()
    .where("merchant_id", "=", m.id)
    .where("status", "=", "success")
    .limit(1)
    .executeTakeFirstOrThrow();
  const types: EventType[] = ["payment.completed", "checkout.completed"];
  const throughput: Array<{
    label: string;
    receiverDelayMs: number;
    events: number;
    seconds: number;
    perSecond: number;
    maxInFlight: number;
  }> = [];
  for (const delayMs of [0, RECEIVER_DELAY_MS]) {
    const drain = await startReceiver(() => ({ status: 200, body: "ok", delayMs }));
    const put = await asMerchant(m).put("/v1/merchants/webhook", { mode: "test", url: drain.url });
    if (put.status !== 200) throw new Error(`PUT webhook: ${put.status} ${put.text}`);
    const tag = `bulk-${delayMs}-${Date.now()}`;
    await sql.transaction().execute(async (trx) => {
      for (let i = 0; i < EVENTS; i++)
        await emitEvent(trx, template, types[i % 2] as EventType, `${tag}-${i}`);
    });
    const t0 = performance.now();
    await waitFor(`${EVENTS} deliveries`, () => drain.requests.length >= EVENTS, 120_000, 5);
    const last = drain.requests.reduce((max, r) => Math.max(max, r.hr), 0);
    const seconds = (last - t0) / 1000;
    throughput.push({
      label: delayMs ? `receiver answering in ${delayMs} ms` : "receiver answering at once",
      receiverDelayMs: delayMs,
      events: EVENTS,
      seconds: round(seconds, 3),
      perSecond: round(EVENTS / seconds, 0),
      maxInFlight: drain.maxInFlight(),
    });
    const ids = new Set(drain.requests.map((r) => r.id));
    if (ids.size !== EVENTS || drain.requests.length !== EVENTS)
      throw new Error(
        `expected ${EVENTS} distinct deliveries, got ${drain.requests.length} (${ids.size} ids)`,
      );
    await drain.close();
  }
  await sql.destroy();

  // 4. Retry lateness: each retry's arrival against the server's own plan for it.
  const retries = await retryLateness();

  const latency = {
    payments: latencies.length,
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? Number.NaN),
    mean: round(latencies.reduce((a, b) => a + b, 0) / latencies.length),
    transferCallP50: round(percentile(transferCallMs, 50)),
    transferCallP99: round(percentile(transferCallMs, 99)),
  };

  const rows: Array<[string, string]> = [
    [`inbound transfer -> payment.completed, p50 (${latency.payments} payments)`, `${latency.p50} ms`],
    ["  p90", `${latency.p90} ms`],
    ["  p99", `${latency.p99} ms`],
    ["  max", `${latency.max} ms`],
    [
      "  the transfer API call itself, p50 / p99 (its answer may come after the webhook)",
      `${latency.transferCallP50} / ${latency.transferCallP99} ms`,
    ],
    ...throughput.map((t): [string, string] => [
      `drain ${t.events} queued events, ${t.label}`,
      `${t.perSecond} deliveries/s (${t.seconds} s, max ${t.maxInFlight} in flight)`,
    ]),
    [
      `retry lateness after its planned time, p50 (${retries.retries} retries of ${retries.events} events)`,
      `${retries.p50} ms`,
    ],
    ["  p99 / max", `${retries.p99} / ${retries.max} ms`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(
    `\nWebhooks on SQLite (${cpus().length} CPUs, ${availableParallelism()} available, node ${process.version})`,
  );
  console.log(`${"measure".padEnd(width)}  result`);
  console.log(`${"-".repeat(width)}  ${"-".repeat(40)}`);
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);

  const resultsDir = join(root, "bench/results");
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `webhooks-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown", node: process.version },
        config: {
          database: "sqlite (fresh temp file)",
          distDir: DIST_DIR,
          payments: PAYMENTS,
          events: EVENTS,
          receiverDelayMs: RECEIVER_DELAY_MS,
          relay: "inside the server process (WEBHOOK_RELAY=1), default settings",
          eventsQueuedVia: "emitEvent in-process, one database transaction",
        },
        latencyMs: latency,
        throughput,
        retryLatenessMs: retries,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${file}`);
}

/** Retries of RETRY_EVENTS events (two each), and how late each arrived after the server's dueAt for it. */
async function retryLateness() {
  const db = await freshDatabase("sqlite");
  const app = await startApp({
    name: "bench-webhook-retries",
    databaseUrl: db.url,
    env: { WEBHOOK_RETRY_SCHEDULE: "1,2" },
  });
  const receiver = await startReceiver((req, r) =>
    r.byId(req.id).length <= 2 ? { status: 500, body: "not yet" } : { status: 200, body: "ok" },
  );
  const m = await merchantWithWebhook(app.url, receiver.url);
  await initializePayment(m, { amount: "5000", email: "bench@example.com" });
  const sql = openDatabase(db.url).db;
  const template = await sql
    .selectFrom("transactions")
    .selectAll()
    .where("merchant_id", "=", m.id)
    .limit(1)
    .executeTakeFirstOrThrow();
  const tag = `retry-${Date.now()}`;
  await sql.transaction().execute(async (trx) => {
    for (let i = 0; i < RETRY_EVENTS; i++) await emitEvent(trx, template, "payment.completed", `${tag}-${i}`);
  });
  await sql.destroy();
  await waitFor(
    `${RETRY_EVENTS * 3} attempts`,
    () => receiver.requests.length >= RETRY_EVENTS * 3,
    120_000,
    20,
  );
  const listed = await waitFor("every event delivered", async () => {
    const res = await asMerchant(m).get("/v1/merchants/events?limit=100&type=payment.completed");
    const all = res.body.data.events as Array<{
      id: string;
      delivered: boolean;
      attempts: { dueAt: string }[];
    }>;
    return all.length === RETRY_EVENTS && all.every((e) => e.delivered && e.attempts.length === 3)
      ? all
      : undefined;
  });
  const lateness: number[] = [];
  for (const event of listed) {
    const arrivals = receiver.requests.filter((r) => r.id === event.id).sort((a, b) => a.at - b.at);
    for (const i of [1, 2]) {
      const arrived = arrivals[i]?.at;
      const due = Date.parse(event.attempts[i]?.dueAt ?? "");
      if (arrived === undefined || Number.isNaN(due)) throw new Error(`retry ${i} of ${event.id} not seen`);
      lateness.push(arrived - due);
    }
  }
  lateness.sort((a, b) => a - b);
  await receiver.close();
  await app.stop();
  return {
    events: RETRY_EVENTS,
    retries: lateness.length,
    schedule: "1,2 s",
    p50: round(percentile(lateness, 50)),
    p99: round(percentile(lateness, 99)),
    max: round(lateness.at(-1) ?? Number.NaN),
  };
}

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? err.stack : err);
  process.exitCode = 1;
} finally {
  await cleanupHarness();
}
