import { CompiledQuery, type Kysely } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/schema";
import { inProcessEnv, inProcessTargets, merchantWithCheckouts, useDatabase } from "./helpers/in-process";

/**
 * Card reconciliation and the refund sweep (docs/refunds.md) in-process against the real domain code, on SQLite
 * and PostgreSQL: the outcomes tests/card-reconcile.test.ts does not reach with a killed server (an OTP that
 * never reached the network, an attempt the network never received, an answer that arrives after the
 * attempt was reconciled, a saved card's charge whose process died mid-charge, asked again by its reference), the
 * sweep settling sandbox refunds that are due, and the reconciliation query
 * reading the partial index rather than every attempt ever made.
 */
const env = inProcessEnv("reconcile");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { reconcileCards, staleCardAttemptsQuery } = await import("@/lib/channels/reconcile-cards");
const { createRefund } = await import("@/lib/refunds/create-refund");
const { advanceDueRefunds } = await import("@/lib/refunds/settle-refund");
const { sandboxRails } = await import("@/lib/rails/sandbox");
const { chargeAuthorization } = await import("@/lib/channels/charge-authorization");
const { ChargeAuthorizationBody } = await import("@/lib/channels/schemas");
const { initializePayment } = await import("@/lib/payments/initialize-payment");
const { InitializeBody } = await import("@/lib/payments/schemas");

const { targets, dropAll } = inProcessTargets("reconcile");

afterAll(async () => {
  await dropAll();
  env.restore();
});

const CARD = (number: string) => ({ number, expiryMonth: 12, expiryYear: 2099, cvv: "123" });
/** Older than CARD_RECONCILE_SECONDS (120 by default). */
const LONG_AGO = () => Date.now() - 10 * 60_000;

/**
 * The sandbox card network's answers held up on the way back until `answer()`: decided at the network before
 * the hold ("decide first"), or only once released ("decide after").
 */
function holdCardAnswers(order: "decide first" | "decide after") {
  const real = sandboxRails.card.authorize;
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const slow = vi.spyOn(sandboxRails.card, "authorize").mockImplementation(async (input) => {
    if (order === "decide after") await held;
    const outcome = await real(input);
    await held;
    return outcome;
  });
  return { answer: () => answer(), slow };
}

/** Reconcile the transaction's attempt as if it had been at the network for 10 minutes, then let its answer in. */
async function reconcileThenAnswer(db: Kysely<Database>, p: { transactionId: string }, answer: () => void) {
  await db
    .updateTable("charge_attempts")
    .set({ updated_at: LONG_AGO() })
    .where("transaction_id", "=", p.transactionId)
    .execute();
  expect(await reconcileCards()).toBe(1);
  answer();
}

/** The transaction's one card attempt captured the card total (5175.00) once, with one payment.completed. */
async function expectCapturedOnce(db: Kysely<Database>, p: { transactionId: string; reference: string }) {
  const attempts = await db
    .selectFrom("charge_attempts")
    .select(["status", "captured_minor"])
    .where("transaction_id", "=", p.transactionId)
    .execute();
  expect(attempts.map((a) => [a.status, String(a.captured_minor)])).toEqual([["success", "517500"]]);
  const events = await db
    .selectFrom("events")
    .select("type")
    .where("reference", "=", p.reference)
    .where("type", "=", "payment.completed")
    .execute();
  expect(events).toHaveLength(1);
}

describe.each(targets)("card reconciliation and refund sweep on $name", (target) => {
  it("an OTP lost on the way and an attempt the network never received fail, capturing nothing", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `reconcile-otp-${target.name}@example.com`);

    // The network asked for an OTP; the customer sent it, and the process died before the network heard it.
    const otp = await open();
    expect((await chargeCard({ principal: otp, card: CARD("4000000000003220") })).status).toBe(
      "awaiting_otp",
    );
    await db
      .updateTable("charge_attempts")
      .set({ status: "authorizing", updated_at: LONG_AGO() })
      .where("transaction_id", "=", otp.transactionId)
      .execute();

    // An attempt recorded as at the network that the network never received.
    const lost = await open();
    const tx = await db
      .selectFrom("transactions")
      .selectAll()
      .where("id", "=", lost.transactionId)
      .executeTakeFirstOrThrow();
    await db
      .insertInto("charge_attempts")
      .values({
        id: `att-${target.name}-lost`,
        transaction_id: tx.id,
        merchant_id: tx.merchant_id,
        mode: tx.mode,
        channel: "card",
        status: "authorizing",
        details: JSON.stringify({ brand: "visa", last4: "4242", expiryMonth: 12, expiryYear: 2099 }),
        failure_reason: null,
        captured_minor: null,
        created_at: LONG_AGO(),
        updated_at: LONG_AGO(),
      })
      .execute();

    expect(await reconcileCards()).toBe(2);
    expect(await reconcileCards()).toBe(0);
    const attempts = await db
      .selectFrom("charge_attempts")
      .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
      .select([
        "charge_attempts.transaction_id",
        "charge_attempts.status",
        "charge_attempts.failure_reason",
        "charge_attempts.captured_minor",
        "transactions.status as txStatus",
      ])
      .where("charge_attempts.transaction_id", "in", [otp.transactionId, lost.transactionId])
      .execute();
    const of = (id: string) => attempts.find((a) => a.transaction_id === id);
    expect(of(otp.transactionId)).toMatchObject({
      status: "failed",
      failure_reason: "authorization_incomplete",
      captured_minor: null,
      txStatus: "pending",
    });
    expect(of(lost.transactionId)).toMatchObject({
      status: "failed",
      failure_reason: "no_answer_from_network",
      captured_minor: null,
      txStatus: "pending",
    });
  });

  it("an answer that arrives after reconciliation settled the attempt changes nothing", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `reconcile-late-${target.name}@example.com`);
    const p = await open();
    // The network decides at once; its answer is held up on the way back.
    const { answer, slow } = holdCardAnswers("decide first");
    try {
      const charging = chargeCard({ principal: p, card: CARD("4242424242424242") });
      await vi.waitFor(async () => {
        const decided = await db.selectFrom("sandbox_card_charges").select("attempt_id").execute();
        const attempt = await db
          .selectFrom("charge_attempts")
          .select("id")
          .where("transaction_id", "=", p.transactionId)
          .executeTakeFirst();
        expect(decided.map((d) => d.attempt_id)).toContain(attempt?.id);
      });
      await reconcileThenAnswer(db, p, answer);
      expect((await charging).status).toBe("success");
    } finally {
      slow.mockRestore();
    }
    const tx = await db
      .selectFrom("transactions")
      .selectAll()
      .where("id", "=", p.transactionId)
      .executeTakeFirstOrThrow();
    expect(tx.status).toBe("success");
    await expectCapturedOnce(db, p);
    expect(await db.selectFrom("refunds").select("id").where("transaction_id", "=", tx.id).execute()).toEqual(
      [],
    );

    // The sweep settles the sandbox refunds that are due, once, with their event.
    const refund = await createRefund({
      merchantId: p.merchantId,
      mode: "test",
      reference: p.reference,
      amount: "100.00",
    });
    expect(refund.status).toBe("pending");
    expect(await advanceDueRefunds()).toBe(0); // not due yet (SANDBOX_REFUND_DELAY_MS, 2 s)
    await db
      .updateTable("refunds")
      .set({ created_at: Date.now() - 5_000, due_at: Date.now() - 1 })
      .where("id", "=", refund.id)
      .execute();
    expect(await advanceDueRefunds()).toBe(1);
    expect(await advanceDueRefunds()).toBe(0);
    const settled = await db
      .selectFrom("refunds")
      .selectAll()
      .where("id", "=", refund.id)
      .executeTakeFirstOrThrow();
    expect(settled).toMatchObject({
      status: "processed",
      rail: "sandbox",
      rail_reference: `sbx_${refund.id}`,
    });
    const refundEvents = await db
      .selectFrom("events")
      .select("type")
      .where("reference", "=", p.reference)
      .where("type", "like", "refund.%")
      .execute();
    expect(refundEvents.map((e) => e.type)).toEqual(["refund.processed"]);
  });

  it("a capture answered after reconciliation gave the attempt up pays the transaction, never lost", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `reconcile-lost-${target.name}@example.com`);
    const p = await open();
    // The network captures; its answer is held up on the way back, and when reconciliation asks, the network
    // says it has no outcome yet (as a live network may while it is still deciding).
    const { answer, slow } = holdCardAnswers("decide after");
    const unknown = vi.spyOn(sandboxRails.card, "cardStatus").mockResolvedValue({ kind: "unknown" });
    try {
      const charging = chargeCard({ principal: p, card: CARD("4242424242424242") });
      await vi.waitFor(async () => {
        const attempt = await db
          .selectFrom("charge_attempts")
          .select("status")
          .where("transaction_id", "=", p.transactionId)
          .executeTakeFirst();
        expect(attempt?.status).toBe("authorizing");
      });
      await reconcileThenAnswer(db, p, answer);
      expect((await charging).status).toBe("success");
    } finally {
      slow.mockRestore();
      unknown.mockRestore();
    }
    const tx = await db
      .selectFrom("transactions")
      .select(["status", "total_minor"])
      .where("id", "=", p.transactionId)
      .executeTakeFirstOrThrow();
    expect([tx.status, String(tx.total_minor)]).toEqual(["success", "517500"]);
    await expectCapturedOnce(db, p);
  });

  it("a saved card's charge whose process died while the rail held it is reconciled; its reference charges nothing more", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { merchant } = await merchantWithCheckouts(db, `reconcile-saved-${target.name}@example.com`);
    /** A card saved on a checkout whose terms save it; its authorization's code. */
    const save = async (number: string) => {
      const payment = InitializeBody.parse({
        amount: "100.00",
        email: "saver@example.com",
        saveCard: "required",
      });
      const s = await initializePayment({ merchantId: merchant.id, mode: "test", payment });
      const tx = await db
        .selectFrom("transactions")
        .select("id")
        .where("reference", "=", s.reference)
        .executeTakeFirstOrThrow();
      const principal = {
        kind: "access_code" as const,
        merchantId: merchant.id,
        mode: "test" as const,
        transactionId: tx.id,
        reference: s.reference,
      };
      expect((await chargeCard({ principal, card: CARD(number), clientAddress: "10.0.0.9" })).status).toBe(
        "success",
      );
      const paid = await db
        .selectFrom("transactions")
        .select("authorization_id")
        .where("id", "=", tx.id)
        .executeTakeFirstOrThrow();
      return paid.authorization_id as string;
    };
    const charge = (authorizationCode: string, reference: string) =>
      chargeAuthorization({
        merchantId: merchant.id,
        mode: "test",
        charge: ChargeAuthorizationBody.parse({ authorizationCode, amount: "5000.00", reference }),
      });

    for (const [number, want] of [
      ["4242424242424242", "success"],
      ["4000000000000341", "failed"],
    ] as const) {
      const code = await save(number);
      const reference = `PAY_TXN_DIED${target.name}${number.slice(-4)}`;
      // The network decides; its answer never comes back (the process died waiting for it).
      const real = sandboxRails.card.chargeAuthorization;
      const died = vi.spyOn(sandboxRails.card, "chargeAuthorization").mockImplementation(async (input) => {
        await real(input);
        return new Promise(() => {});
      });
      try {
        void charge(code, reference);
        await vi.waitFor(async () => {
          const decided = await db
            .selectFrom("sandbox_card_charges")
            .innerJoin("charge_attempts", "charge_attempts.id", "sandbox_card_charges.attempt_id")
            .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
            .select("charge_attempts.status")
            .where("transactions.reference", "=", reference)
            .execute();
          expect(decided.map((d) => d.status)).toEqual(["authorizing"]);
        });
      } finally {
        died.mockRestore();
      }
      const tx = await db
        .selectFrom("transactions")
        .selectAll()
        .where("reference", "=", reference)
        .executeTakeFirstOrThrow();
      // Asked again by the same reference meanwhile (a job run twice): the charge as it stands, no second one.
      expect((await charge(code, reference)).status).toBe("pending");
      await db
        .updateTable("charge_attempts")
        .set({ updated_at: LONG_AGO() })
        .where("transaction_id", "=", tx.id)
        .execute();
      expect(await reconcileCards()).toBe(1);
      const after = await charge(code, reference);
      expect(after.status).toBe(want);
      const attempts = await db
        .selectFrom("charge_attempts")
        .select(["status", "captured_minor"])
        .where("transaction_id", "=", tx.id)
        .execute();
      expect(attempts).toHaveLength(1);
      const events = await db
        .selectFrom("events")
        .select("type")
        .where("reference", "=", reference)
        .execute();
      expect(events.map((e) => e.type).sort()).toEqual(
        want === "success"
          ? ["checkout.completed", "payment.completed"]
          : ["checkout.completed", "payment.failed"],
      );
      if (want === "success") expect(String(attempts[0]?.captured_minor)).toBe("517500");
    }
  });

  it("finds stale card attempts through the partial index, not a table scan", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const compiled = staleCardAttemptsQuery(Date.now(), 100).compile();
    let plan: string;
    if (target.name === "sqlite") {
      plan = JSON.stringify(
        (
          await db.executeQuery(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          )
        ).rows,
      );
      expect(plan).not.toMatch(/SCAN charge_attempts(?! USING)/);
    } else {
      const literal = compiled.sql.replace(/\$(\d+)/g, (_, n) => {
        const v = compiled.parameters[Number(n) - 1];
        return typeof v === "string" ? `'${v}'` : String(v);
      });
      plan = await db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw("set local enable_seqscan = off"));
        return JSON.stringify((await trx.executeQuery(CompiledQuery.raw(`explain ${literal}`))).rows);
      });
    }
    expect(plan).toContain("charge_attempts_authorizing");
  });
});
