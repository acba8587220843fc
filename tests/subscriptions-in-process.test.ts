import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/schema";
import { inProcessEnv, inProcessTargets, merchantWithCheckouts, useDatabase } from "./helpers/in-process";

/**
 * Subscriptions in-process against the real domain code, on SQLite and PostgreSQL: the first charge, a year of
 * renewals on the test clock (each invoice paid once, one payment per invoice), a declining card that goes past
 * due, is retried on the retry days and cancelled, recovery with a new card, cancelling at the period's end,
 * invoiceLimit, and a renewal whose process died mid-charge, finished by card reconciliation.
 */
const env = inProcessEnv("subscriptions");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { createPlan } = await import("@/lib/subscriptions/create-plan");
const { CreatePlanBody } = await import("@/lib/subscriptions/schemas");
const { createSubscription } = await import("@/lib/subscriptions/create-subscription");
const { advanceSubscriptionClock } = await import("@/lib/subscriptions/advance-subscription-clock");
const { listInvoices } = await import("@/lib/subscriptions/list-invoices");
const { cancelSubscription } = await import("@/lib/subscriptions/cancel-subscription");
const { updateSubscription } = await import("@/lib/subscriptions/update-subscription");
const { getSubscription } = await import("@/lib/subscriptions/get-subscription");
const { runDueInvoices } = await import("@/lib/subscriptions/run-due-invoices");
const { reconcileCards } = await import("@/lib/channels/reconcile-cards");
const { sandboxRails } = await import("@/lib/rails/sandbox");

const { targets, dropAll } = inProcessTargets("subscriptions");

afterAll(async () => {
  await dropAll();
  env.restore();
});

const DAY = 86_400;
const CARD = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2099, cvv: "123" });
const SAVED = { success: "4242424242424242", second: "5555555555554444", declinesLater: "4000000000000341" };

describe.each(targets)("subscriptions in-process on $name", (target) => {
  async function freshMerchant(tag: string, db: Kysely<Database>) {
    const { merchant } = await merchantWithCheckouts(
      db,
      `subs-${tag}-${target.name}-${Date.now()}@example.com`,
    );
    const scope = { merchantId: merchant.id, mode: "test" as const };
    const email = `payer-${tag}@example.com`;
    /** A card saved by the payer on a checkout; its authorization code. */
    async function save(number: string) {
      const payment = InitializeBody.parse({ amount: "100.00", email, saveCard: "required" });
      const s = await initializePayment({ ...scope, payment });
      const tx = await db
        .selectFrom("transactions")
        .select("id")
        .where("reference", "=", s.reference)
        .executeTakeFirstOrThrow();
      const principal = {
        kind: "access_code" as const,
        ...scope,
        transactionId: tx.id,
        reference: s.reference,
      };
      expect((await chargeCard({ principal, card: CARD(number), clientAddress: "10.0.0.9" })).status).toBe(
        "success",
      );
      const paid = await db
        .selectFrom("transactions")
        .select(["authorization_id", "customer_id"])
        .where("id", "=", tx.id)
        .executeTakeFirstOrThrow();
      return { code: paid.authorization_id as string, customer: paid.customer_id as string };
    }
    const plan = async (body: Record<string, unknown> = {}) =>
      createPlan({
        ...scope,
        plan: CreatePlanBody.parse({ name: "Gold", amount: "5000", interval: "monthly", ...body }),
      });
    return { db, scope, save, plan };
  }

  async function payments(db: Kysely<Database>, subscription: string) {
    return db
      .selectFrom("transactions")
      .select(["reference", "status", "invoice_id", "amount_minor"])
      .where("subscription_id", "=", subscription)
      .orderBy("created_at")
      .execute();
  }

  async function events(db: Kysely<Database>, merchantId: string) {
    const rows = await db
      .selectFrom("events")
      .select(["type"])
      .where("merchant_id", "=", merchantId)
      .orderBy("created_at")
      .execute();
    return rows.map((r) => r.type).filter((t) => t.startsWith("subscription.") || t.startsWith("invoice."));
  }

  it("charges the first period at once, then a year of the clock renews twelve times, each invoice paid once", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { scope, save, plan } = await freshMerchant("year", db);
    const card = await save(SAVED.success);
    const p = await plan();
    const sub = await createSubscription({
      ...scope,
      body: { customer: card.customer, plan: p.code, authorizationCode: card.code },
    });
    expect(sub).toMatchObject({ status: "active", invoicesPaid: 1, cancelAtPeriodEnd: false });
    expect(Date.parse(sub.nextChargeAt as string)).toBe(Date.parse(sub.currentPeriodEnd));
    const started = Date.now();
    const after = await advanceSubscriptionClock({ ...scope, code: sub.code, seconds: 365 * DAY });
    const took = Date.now() - started;
    expect(after.invoicesPaid).toBe(13);
    expect(after.status).toBe("active");
    expect(took).toBeLessThan(2_000);
    const { invoices } = await listInvoices({ ...scope, code: sub.code });
    // 13 paid (the first and twelve renewals) and the next one open.
    expect(invoices.map((i) => i.status)).toEqual(["open", ...Array(13).fill("paid")]);
    expect(invoices.slice(1).map((i) => i.attempts)).toEqual(Array(13).fill(1));
    const paid = await payments(db, sub.code);
    expect(paid).toHaveLength(13);
    expect(paid.map((t) => t.status)).toEqual(Array(13).fill("success"));
    expect(new Set(paid.map((t) => t.invoice_id)).size).toBe(13);
    // Calendar months from the start.
    const starts = invoices.map((i) => new Date(i.periodStart)).reverse();
    for (let k = 1; k < starts.length; k++) {
      const a = starts[k - 1] as Date;
      const b = starts[k] as Date;
      expect(b.getUTCFullYear() * 12 + b.getUTCMonth() - (a.getUTCFullYear() * 12 + a.getUTCMonth())).toBe(1);
    }
    const types = await events(db, scope.merchantId);
    expect(types.filter((t) => t === "subscription.created")).toHaveLength(1);
    expect(types.filter((t) => t === "subscription.renewed")).toHaveLength(13);
  });

  it("a declining card goes past due, is retried after 1, 3 and 5 days, then cancelled (payment_failed)", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { scope, save, plan } = await freshMerchant("dunning", db);
    const card = await save(SAVED.declinesLater);
    const p = await plan();
    const sub = await createSubscription({
      ...scope,
      body: { customer: card.customer, plan: p.code, authorizationCode: card.code },
    });
    expect(sub.status).toBe("past_due");
    const inv0 = (await listInvoices({ ...scope, code: sub.code })).invoices[0];
    expect(inv0).toMatchObject({ status: "open", attempts: 1 });
    const due = Date.parse(inv0?.periodStart as string);
    expect(Date.parse(inv0?.nextAttemptAt as string) - due).toBe(DAY * 1000);
    // Half a day: nothing more.
    let now = await advanceSubscriptionClock({ ...scope, code: sub.code, seconds: DAY / 2 });
    expect((await listInvoices({ ...scope, code: sub.code })).invoices[0]?.attempts).toBe(1);
    now = await advanceSubscriptionClock({ ...scope, code: sub.code, seconds: DAY });
    let inv = (await listInvoices({ ...scope, code: sub.code })).invoices[0];
    expect(inv).toMatchObject({ attempts: 2 });
    expect(Date.parse(inv?.nextAttemptAt as string) - due).toBe(3 * DAY * 1000);
    now = await advanceSubscriptionClock({ ...scope, code: sub.code, seconds: 10 * DAY });
    inv = (await listInvoices({ ...scope, code: sub.code })).invoices[0];
    expect(inv).toMatchObject({ attempts: 4, status: "void", nextAttemptAt: null });
    expect(now).toMatchObject({ status: "cancelled", cancelReason: "payment_failed", nextChargeAt: null });
    const paid = await payments(db, sub.code);
    expect(paid.map((t) => t.status)).toEqual(["failed", "failed", "failed", "failed"]);
    expect(new Set(paid.map((t) => t.reference)).size).toBe(4);
    const types = await events(db, scope.merchantId);
    expect(types.filter((t) => t === "invoice.payment_failed")).toHaveLength(4);
    expect(types.filter((t) => t === "subscription.past_due")).toHaveLength(1);
    expect(types.filter((t) => t === "subscription.cancelled")).toHaveLength(1);
    // Cancelling again changes nothing and says so.
    await expect(cancelSubscription({ ...scope, code: sub.code, atPeriodEnd: false })).rejects.toMatchObject({
      code: "subscription_ended",
    });
  });

  it("a past-due subscription given a new card is charged at once and is active again", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { scope, save, plan } = await freshMerchant("recover", db);
    const bad = await save(SAVED.declinesLater);
    const good = await save(SAVED.second);
    const p = await plan();
    const sub = await createSubscription({
      ...scope,
      body: { customer: bad.customer, plan: p.code, authorizationCode: bad.code },
    });
    expect(sub.status).toBe("past_due");
    const fixed = await updateSubscription({
      ...scope,
      code: sub.code,
      patch: { authorizationCode: good.code },
    });
    expect(fixed).toMatchObject({ status: "active", invoicesPaid: 1 });
    expect(fixed.authorization?.authorizationCode).toBe(good.code);
    const paid = await payments(db, sub.code);
    expect(paid.map((t) => t.status)).toEqual(["failed", "success"]);
  });

  it("cancel at period end: the period runs out, nothing more is charged; invoiceLimit completes", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { scope, save, plan } = await freshMerchant("ends", db);
    const card = await save(SAVED.success);
    const p = await plan({ interval: "weekly" });
    const sub = await createSubscription({
      ...scope,
      body: { customer: card.customer, plan: p.code, authorizationCode: card.code },
    });
    const asked = await cancelSubscription({ ...scope, code: sub.code, atPeriodEnd: true });
    expect(asked).toMatchObject({ status: "active", cancelAtPeriodEnd: true, nextChargeAt: null });
    const later = await advanceSubscriptionClock({ ...scope, code: sub.code, seconds: 30 * DAY });
    expect(later).toMatchObject({ status: "cancelled", cancelReason: "requested", invoicesPaid: 1 });
    expect(await payments(db, sub.code)).toHaveLength(1);

    const limited = await plan({ interval: "daily", invoiceLimit: 3 });
    const sub2 = await createSubscription({
      ...scope,
      body: { customer: card.customer, plan: limited.code, authorizationCode: card.code },
    });
    const done = await advanceSubscriptionClock({ ...scope, code: sub2.code, seconds: 10 * DAY });
    expect(done).toMatchObject({ status: "completed", invoicesPaid: 3, nextChargeAt: null });
    expect(await payments(db, sub2.code)).toHaveLength(3);
    expect((await getSubscription({ ...scope, code: sub2.code })).status).toBe("completed");
  });

  it("a renewal whose process died while the card's network held it is charged once: found again by its reference, settled by card reconciliation", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { scope, save, plan } = await freshMerchant("died", db);
    const card = await save(SAVED.success);
    const p = await plan();
    const sub = await createSubscription({
      ...scope,
      body: { customer: card.customer, plan: p.code, authorizationCode: card.code },
    });
    expect(sub.invoicesPaid).toBe(1);
    // The renewal falls due; the network decides, but its answer never comes back (the process died).
    const real = sandboxRails.card.chargeAuthorization;
    const died = vi.spyOn(sandboxRails.card, "chargeAuthorization").mockImplementation(async (input) => {
      await real(input);
      return new Promise(() => {});
    });
    try {
      await db
        .updateTable("invoices")
        .set({ due_at: Date.now() - 1 })
        .where("subscription_id", "=", sub.code)
        .where("status", "=", "pending")
        .execute();
      void runDueInvoices({ subscriptionId: sub.code, waitMs: 0 });
      await vi.waitFor(async () => {
        const held = await db
          .selectFrom("charge_attempts")
          .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
          .select("charge_attempts.status")
          .where("transactions.subscription_id", "=", sub.code)
          .where("charge_attempts.status", "=", "authorizing")
          .execute();
        expect(held).toHaveLength(1);
      });
    } finally {
      died.mockRestore();
    }
    // Its claim's lease runs out; another run claims the invoice again and finds the charge by its reference.
    await db
      .updateTable("invoices")
      .set({ locked_until: Date.now() - 1 })
      .where("subscription_id", "=", sub.code)
      .where("status", "=", "charging")
      .execute();
    expect(await runDueInvoices({ subscriptionId: sub.code, waitMs: 0 })).toBe(1);
    let invoices = (await listInvoices({ ...scope, code: sub.code })).invoices;
    expect(invoices[0]).toMatchObject({ status: "open", attempts: 1 });
    expect(
      (
        await db
          .selectFrom("invoices")
          .select("status")
          .where("id", "=", invoices[0]?.id as string)
          .executeTakeFirstOrThrow()
      ).status,
    ).toBe("waiting");
    // Card reconciliation asks the network: it was captured; the invoice is paid by that one payment.
    await db
      .updateTable("charge_attempts")
      .set({ updated_at: Date.now() - 10 * 60_000 })
      .where("status", "=", "authorizing")
      .execute();
    expect(await reconcileCards()).toBe(1);
    invoices = (await listInvoices({ ...scope, code: sub.code })).invoices;
    expect(invoices.map((i) => i.status)).toEqual(["open", "paid", "paid"]);
    const paid = await payments(db, sub.code);
    expect(paid.map((t) => t.status)).toEqual(["success", "success"]);
    expect((await getSubscription({ ...scope, code: sub.code })).invoicesPaid).toBe(2);
  });

  it("renewals due at once on one database are each charged exactly once by two processes running the job", async () => {
    const url = await target.url();
    const db = await useDatabase(openDatabase, migrateToLatest, url);
    const { scope, save, plan } = await freshMerchant("processes", db);
    const card = await save(SAVED.success);
    const p = await plan({ interval: "daily" });
    const startAt = new Date(Date.now() + 86_400_000).toISOString();
    const codes: string[] = [];
    for (let i = 0; i < 80; i++) {
      const sub = await createSubscription({
        ...scope,
        body: { customer: card.customer, plan: p.code, authorizationCode: card.code, startAt },
      });
      codes.push(sub.code);
    }
    // All of them fall due now.
    await db
      .updateTable("invoices")
      .set({ due_at: Date.now() - 1 })
      .where("subscription_id", "in", codes)
      .execute();
    const go = join(mkdtempSync(join(tmpdir(), "paygate-renewals-")), "go");
    const runners = [0, 1].map(() => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/renewal-runner.ts"], {
        env: { ...process.env, DATABASE_URL: url, GO_FILE: go, LOG_LEVEL: "error" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => {
        out += String(d);
      });
      child.stderr.on("data", (d) => {
        err += String(d);
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      return { exited, out: () => out, err: () => err };
    });
    await vi.waitFor(() => expect(runners.every((r) => r.out().includes("ready"))).toBe(true), {
      timeout: 30_000,
    });
    writeFileSync(go, "go");
    for (const r of runners) {
      const code = await Promise.race([
        r.exited,
        new Promise((resolve) => setTimeout(() => resolve("timeout"), 40_000)),
      ]);
      expect(code, `${r.out()} ${r.err()}`).toBe(0);
    }
    expect(existsSync(go)).toBe(true);
    const counters = runners.map(
      (r) => JSON.parse(r.out().trim().split("\n").at(-1) as string) as { claimed: number; failed: number },
    );
    // Both took part (their claims overlapped), neither failed a run, and together they ran each invoice once.
    expect(
      counters.map((c) => c.claimed > 0 && c.failed === 0),
      JSON.stringify(counters),
    ).toEqual([true, true]);
    expect(counters.reduce((n, c) => n + c.claimed, 0)).toBe(codes.length);
    const charged = await db
      .selectFrom("transactions")
      .select(["invoice_id", "status"])
      .where("subscription_id", "in", codes)
      .execute();
    expect(charged).toHaveLength(codes.length);
    expect(charged.filter((t) => t.status !== "success")).toEqual([]);
    expect(new Set(charged.map((t) => t.invoice_id)).size).toBe(codes.length);
    const invoices = await db
      .selectFrom("invoices")
      .select(["status", "period_index"])
      .where("subscription_id", "in", codes)
      .execute();
    expect(invoices.filter((i) => i.period_index === 0 && i.status !== "paid")).toEqual([]);
    expect(invoices.filter((i) => i.period_index === 1 && i.status === "pending")).toHaveLength(codes.length);
  });
});
