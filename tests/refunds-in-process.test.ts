import { afterAll, describe, expect, it, vi } from "vitest";
import {
  inProcessEnv,
  inProcessTargets,
  merchantWithCheckouts,
  useDatabase as openFresh,
} from "./helpers/in-process";

/**
 * Refunds against the real domain code in-process, on SQLite and PostgreSQL, where an HTTP suite cannot
 * reach: several processes' sweeps racing to ask the rail for one refund, a process that died holding the
 * claim to ask, and an `Idempotency-Key` retried after the stored answer was lost (the refund committed, the
 * answer did not), which must answer the refund already made, never a second one (docs/refunds.md).
 */
const env = inProcessEnv("refunds");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { createRefund } = await import("@/lib/refunds/create-refund");
const { advanceRefund } = await import("@/lib/refunds/settle-refund");
const { sandboxRails } = await import("@/lib/rails/sandbox");
const { receiveInboundTransfer } = await import("@/lib/channels/receive-inbound-transfer");

const { targets, dropAll } = inProcessTargets("refunds");

afterAll(async () => {
  await dropAll();
  env.restore();
});

const CARD = { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" };

describe.each(targets)("refund settlement and idempotency on $name", (target) => {
  async function paidCheckout(email: string) {
    const db = await openFresh(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, email);
    const p = await open();
    expect((await chargeCard({ principal: p, card: CARD })).status).toBe("success");
    return { db, p };
  }

  it("ten sweeps advancing one due refund at once ask the rail once and settle it once", async () => {
    const { db, p } = await paidCheckout(`refund-race-${target.name}@example.com`);
    const refund = await createRefund({ merchantId: p.merchantId, mode: "test", reference: p.reference });
    await db
      .updateTable("refunds")
      .set({ created_at: Date.now() - 60_000, due_at: Date.now() - 1 })
      .where("id", "=", refund.id)
      .execute();
    const real = sandboxRails.refunds.refund;
    const asked = vi.spyOn(sandboxRails.refunds, "refund").mockImplementation(async (input) => {
      // The rail takes a moment to answer, so every sweep is in flight together.
      await new Promise((r) => setTimeout(r, 50));
      return real(input);
    });
    try {
      await Promise.all(Array.from({ length: 10 }, () => advanceRefund(refund.id)));
      expect(asked).toHaveBeenCalledTimes(1);
    } finally {
      asked.mockRestore();
    }
    // A sweep that lost the claim left the refund to the winner, which settled it; a later pass does nothing.
    await advanceRefund(refund.id);
    const row = await db
      .selectFrom("refunds")
      .selectAll()
      .where("id", "=", refund.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "processed", rail_reference: `sbx_${refund.id}` });
    const events = await db
      .selectFrom("events")
      .select("type")
      .where("reference", "=", p.reference)
      .where("type", "like", "refund.%")
      .execute();
    expect(events.map((e) => e.type)).toEqual(["refund.processed"]);
  });

  it("a claim to ask the rail is left alone while fresh and taken over when its process died", async () => {
    const { db, p } = await paidCheckout(`refund-claim-${target.name}@example.com`);
    const refund = await createRefund({ merchantId: p.merchantId, mode: "test", reference: p.reference });
    const claimedAt = Date.now();
    await db
      .updateTable("refunds")
      .set({ rail_reference: "requesting", updated_at: claimedAt, created_at: claimedAt - 60_000, due_at: 0 })
      .where("id", "=", refund.id)
      .execute();
    const asked = vi.spyOn(sandboxRails.refunds, "refund");
    try {
      // Another process is asking the rail right now: this one neither asks nor settles.
      await advanceRefund(refund.id);
      expect(asked).not.toHaveBeenCalled();
      expect(
        await db.selectFrom("refunds").select("status").where("id", "=", refund.id).executeTakeFirstOrThrow(),
      ).toEqual({ status: "pending" });

      // That process died 31 s ago without recording the rail's answer: the rail is asked again, by refund id.
      await db
        .updateTable("refunds")
        .set({ updated_at: claimedAt - 31_000 })
        .where("id", "=", refund.id)
        .execute();
      await advanceRefund(refund.id);
      expect(asked).toHaveBeenCalledTimes(1);
      expect(asked.mock.calls[0]?.[0]).toMatchObject({ refundId: refund.id });
    } finally {
      asked.mockRestore();
    }
    expect(
      await db
        .selectFrom("refunds")
        .select(["status", "rail_reference"])
        .where("id", "=", refund.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: "processed", rail_reference: `sbx_${refund.id}` });
  });

  it("an Idempotency-Key retried after its stored answer was lost answers the refund it made", async () => {
    const { db, p } = await paidCheckout(`refund-key-${target.name}@example.com`);
    const ask = (amount: string, idempotencyKey: string | null) =>
      createRefund({
        merchantId: p.merchantId,
        mode: "test",
        reference: p.reference,
        amount,
        idempotencyKey,
      });

    const first = await ask("1000.00", "order-77-refund");
    // The request layer's stored answer is gone (the process died after the refund committed): the verb is
    // run again with the same key.
    const again = await ask("1000.00", "order-77-refund");
    expect(again).toEqual(first);
    await expect(ask("2000.00", "order-77-refund")).rejects.toMatchObject({ code: "idempotency_key_reused" });
    // Without a key, or with another, a second refund is a second refund.
    const other = await ask("1000.00", "order-77-refund-2");
    expect(other.id).not.toBe(first.id);
    const rows = await db
      .selectFrom("refunds")
      .select(["id", "amount_minor"])
      .where("reference", "=", p.reference)
      .execute();
    expect(rows).toHaveLength(2);
    const tx = await db
      .selectFrom("transactions")
      .select("amount_refunded_minor")
      .where("reference", "=", p.reference)
      .executeTakeFirstOrThrow();
    expect(String(tx.amount_refunded_minor)).toBe("200000");
  });
  it("a transfer to an account no transaction owns becomes an automatic refund of all of it, once", async () => {
    // The bank rail reports it (the sandbox door answers 404 for an account the merchant does not own).
    const db = await openFresh(openDatabase, migrateToLatest, await target.url());
    const unknown = `99${String(Date.now()).slice(-8)}`;
    const report = () =>
      receiveInboundTransfer({
        rail: "sandbox",
        sessionId: `unknown-${target.name}`,
        accountNumber: unknown,
        amountMinor: 123_450n,
      });
    expect(await report()).toMatchObject({ outcome: "unknown_account" });
    await report(); // the same transfer reported again
    const rows = await db
      .selectFrom("refunds")
      .innerJoin("inbound_transfers", "inbound_transfers.id", "refunds.source_id")
      .select([
        "refunds.type",
        "refunds.reason",
        "refunds.amount_minor",
        "refunds.status",
        "refunds.transaction_id",
        "refunds.merchant_id",
        "refunds.rail",
      ])
      .where("inbound_transfers.account_number", "=", unknown)
      .execute();
    expect(rows.map((r) => ({ ...r, amount_minor: String(r.amount_minor) }))).toEqual([
      {
        type: "automatic",
        reason: "unknown_account",
        amount_minor: "123450",
        status: "pending",
        transaction_id: null,
        merchant_id: null,
        rail: "sandbox",
      },
    ]);
  });
});
