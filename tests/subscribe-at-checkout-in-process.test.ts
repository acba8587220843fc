import { afterAll, describe, expect, it } from "vitest";
import { inProcessEnv, inProcessTargets, merchantWithCheckouts, useDatabase } from "./helpers/in-process";

/**
 * A subscription started by a checkout's payment (initialize with `plan`), in-process on SQLite and PostgreSQL:
 * the payment's end applied again, once after the other and several at once, starts one subscription with one
 * paid invoice for the first period.
 */
const env = inProcessEnv("subscribe-at-checkout");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");
const { transition } = await import("@/lib/payments/state-machine");
const { createPlan } = await import("@/lib/subscriptions/create-plan");
const { CreatePlanBody } = await import("@/lib/subscriptions/schemas");
const { startSubscriptionFromCheckout } = await import("@/lib/billing/start-from-checkout");

const { targets, dropAll } = inProcessTargets("subscribe_at_checkout");

afterAll(async () => {
  await dropAll();
  env.restore();
});

describe.each(targets)("subscribing on the checkout in-process on $name", (target) => {
  it("the payment's end applied twice, or at once from several places, starts one subscription", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { merchant } = await merchantWithCheckouts(db, `sac-${target.name}-${Date.now()}@example.com`);
    const scope = { merchantId: merchant.id, mode: "test" as const };
    const plan = await createPlan({
      ...scope,
      plan: CreatePlanBody.parse({ name: "Gold", amount: "5000", interval: "monthly" }),
    });
    const payment = InitializeBody.parse({ plan: plan.code, email: "payer@example.com" });
    const session = await initializePayment({ ...scope, payment });
    const tx = await db
      .selectFrom("transactions")
      .select("id")
      .where("reference", "=", session.reference)
      .executeTakeFirstOrThrow();
    const principal = {
      kind: "access_code" as const,
      ...scope,
      transactionId: tx.id,
      reference: session.reference,
    };
    const card = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };
    expect((await chargeCard({ principal, card, clientAddress: "10.0.0.9" })).status).toBe("success");

    const row = await db
      .selectFrom("transactions")
      .selectAll()
      .where("id", "=", tx.id)
      .executeTakeFirstOrThrow();
    expect(row.subscription_id).toMatch(/^SUB_/);
    // Applied again: success to success is no change; the start itself, called again and concurrently.
    await db.transaction().execute((trx) => transition(trx, row, "success"));
    const stale = { ...row, subscription_id: null, invoice_id: null };
    await db.transaction().execute((trx) => startSubscriptionFromCheckout(trx, stale));
    await Promise.all(
      [1, 2, 3].map(() => db.transaction().execute((trx) => startSubscriptionFromCheckout(trx, stale))),
    );

    const subs = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("merchant_id", "=", merchant.id)
      .execute();
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      id: row.subscription_id,
      status: "active",
      invoices_paid: 1,
      authorization_id: row.authorization_id,
      customer_id: row.customer_id,
    });
    expect(row.authorization_id).toMatch(/^AUTH_/);
    const invoices = await db
      .selectFrom("invoices")
      .select(["period_index", "status", "reference"])
      .where("subscription_id", "=", subs[0]?.id ?? "")
      .orderBy("period_index")
      .execute();
    expect(invoices).toEqual([
      { period_index: 0, status: "paid", reference: session.reference },
      { period_index: 1, status: "pending", reference: null },
    ]);
    const created = await db
      .selectFrom("events")
      .select("type")
      .where("merchant_id", "=", merchant.id)
      .where("type", "in", ["subscription.created", "subscription.renewed"])
      .execute();
    expect(created.map((e) => e.type).sort()).toEqual(["subscription.created", "subscription.renewed"]);
  });
});
