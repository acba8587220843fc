// npm run bench:billing - 10,000 subscriptions due in the same minute on the sandbox rail, renewed by the renewal
// job (lib/subscriptions/renewal-job.ts): SQLite with one process, then PostgreSQL with two.
//
//  1. A fresh database (a SQLite file; a fresh database on BENCH_DATABASE_URL's server, default
//     postgres://postgres@127.0.0.1:5432/postgres), migrated; a merchant, a card saved on a checkout (4242), a
//     daily plan; BENCH_SUBSCRIPTIONS (10,000) subscriptions with their first invoice, written directly, all due now.
//  2. Reads of one subscription (the GET /v1/subscriptions/{code} verb, in this process) while idle: p50/p99.
//  3. The renewal runners (tests/helpers/renewal-runner.ts, one process each) start together and run until no
//     invoice is due; the same reads meanwhile. Then: every invoice paid by exactly one successful payment.
//  4. Prints renewals per second and the reads' p99 during vs idle; writes bench/results/billing-<time>.json.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";

const root = resolve(import.meta.dirname, "..");
const COUNT = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const dir = mkdtempSync(join(tmpdir(), "paygate-bench-billing-"));
process.env.DATABASE_URL = `file:${join(dir, "billing.db")}`;
process.env.APP_SECRET ??= "bench-billing-secret-0123456789abcdefghijklmnopqrstuvwxyz";
process.env.LOG_LEVEL = "error";

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { signupMerchant } = await import("@/lib/merchants/signup-merchant");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { createPlan } = await import("@/lib/subscriptions/create-plan");
const { CreatePlanBody } = await import("@/lib/subscriptions/schemas");
const { getSubscription } = await import("@/lib/subscriptions/get-subscription");
const { newInvoiceId, newSubscriptionCode } = await import("@/lib/billing/codes");

type Handle = ReturnType<typeof openDatabase>;
const globalDb = globalThis as unknown as { __paygateDb?: Handle };

async function use(url: string) {
  await globalDb.__paygateDb?.db.destroy();
  globalDb.__paygateDb = openDatabase(url);
  await migrateToLatest(globalDb.__paygateDb.db);
  return globalDb.__paygateDb.db;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

async function run(name: string, url: string, processes: number) {
  const db = await use(url);
  const { merchant } = await signupMerchant({
    businessName: "Bench",
    email: `bench-${name}@example.com`,
    password: "correct horse battery staple",
    clientAddress: null,
  });
  const scope = { merchantId: merchant.id, mode: "test" as const };
  const s = await initializePayment({
    ...scope,
    payment: InitializeBody.parse({ amount: "100", email: "payer@example.com", saveCard: "required" }),
  });
  const tx = await db
    .selectFrom("transactions")
    .select("id")
    .where("reference", "=", s.reference)
    .executeTakeFirstOrThrow();
  await chargeCard({
    principal: { kind: "access_code", ...scope, transactionId: tx.id, reference: s.reference },
    card: { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" },
    clientAddress: "10.0.0.1",
  });
  const paid = await db
    .selectFrom("transactions")
    .select(["authorization_id", "customer_id"])
    .where("id", "=", tx.id)
    .executeTakeFirstOrThrow();
  const plan = await createPlan({
    ...scope,
    plan: CreatePlanBody.parse({ name: "Daily", amount: "1000", interval: "daily" }),
  });
  const now = Date.now();
  const codes: string[] = [];
  for (let i = 0; i < COUNT; i += 500) {
    const subs = [];
    const invoices = [];
    for (let j = i; j < Math.min(COUNT, i + 500); j++) {
      const id = newSubscriptionCode();
      codes.push(id);
      subs.push({
        id,
        ...{ merchant_id: merchant.id, mode: "test" as const },
        customer_id: paid.customer_id as string,
        plan_id: plan.code,
        authorization_id: paid.authorization_id,
        status: "active",
        start_at: now,
        trial_end_at: null,
        current_period_start: now,
        current_period_end: now + 86_400_000,
        cancel_at_period_end: 0,
        invoices_paid: 0,
        clock_offset_ms: 0,
        created_at: now,
        updated_at: now,
        cancelled_at: null,
        cancel_reason: null,
      });
      invoices.push({
        id: newInvoiceId(),
        subscription_id: id,
        merchant_id: merchant.id,
        mode: "test" as const,
        period_index: 0,
        period_start: now,
        period_end: now + 86_400_000,
        amount_minor: 100_000n,
        currency: "NGN",
        status: "pending",
        due_at: now + Math.floor(Math.random() * 60_000) - 60_000,
        locked_until: null,
        attempts: 0,
        reference: null,
        created_at: now,
        updated_at: now,
        paid_at: null,
      });
    }
    await db.insertInto("subscriptions").values(subs).execute();
    await db.insertInto("invoices").values(invoices).execute();
  }
  const sample = codes[0] as string;
  const read = async (ms: number, stop?: () => boolean) => {
    const times: number[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until && !(stop?.() ?? false)) {
      const t = performance.now();
      await getSubscription({ ...scope, code: sample });
      times.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 5));
    }
    return times;
  };
  const idle = await read(3_000);
  const go = join(dir, `go-${name}`);
  const children = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/renewal-runner.ts"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, GO_FILE: go, LOG_LEVEL: "error" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
    });
    return { exited: new Promise<number | null>((r) => child.on("exit", r)), out: () => out };
  });
  while (!children.every((c) => c.out().includes("ready"))) await new Promise((r) => setTimeout(r, 20));
  const started = Date.now();
  writeFileSync(go, "go");
  let done = false;
  const during = read(600_000, () => done);
  const codesExit = await Promise.all(children.map((c) => c.exited));
  const seconds = (Date.now() - started) / 1000;
  done = true;
  const busy = await during;
  const charged = await db
    .selectFrom("transactions")
    .select(["invoice_id", "status"])
    .where("merchant_id", "=", merchant.id)
    .where("invoice_id", "is not", null)
    .execute();
  const ok = charged.filter((t) => t.status === "success");
  const once =
    new Set(ok.map((t) => t.invoice_id)).size === ok.length &&
    ok.length === COUNT &&
    charged.length === COUNT;
  const result = {
    database: name,
    processes,
    subscriptions: COUNT,
    exits: codesExit,
    seconds: Number(seconds.toFixed(1)),
    renewalsPerSecond: Math.round(COUNT / seconds),
    chargedExactlyOnce: once,
    payments: charged.length,
    readIdleMs: { p50: Number(pct(idle, 50).toFixed(2)), p99: Number(pct(idle, 99).toFixed(2)) },
    readDuringMs: { p50: Number(pct(busy, 50).toFixed(2)), p99: Number(pct(busy, 99).toFixed(2)) },
  };
  console.log(JSON.stringify(result));
  return result;
}

const results = [await run("sqlite", process.env.DATABASE_URL as string, 1)];
const name = `paygate_bench_billing_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const pgUrl = new URL(ADMIN_URL);
pgUrl.pathname = `/${name}`;
try {
  results.push(await run("postgres", pgUrl.toString(), 2));
} finally {
  await globalDb.__paygateDb?.db.destroy();
  await new Promise((r) => setTimeout(r, 250));
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
mkdirSync(join(root, "bench/results"), { recursive: true });
const file = join(root, `bench/results/billing-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, cpu: cpus()[0]?.model, results }, null, 2)}\n`,
);
console.log(`written ${file}`);
process.exit(results.every((r) => r.chargedExactlyOnce) ? 0 : 1);
