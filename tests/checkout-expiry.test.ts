import { CompiledQuery } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { inProcessEnv, inProcessTargets, merchantWithCheckouts, useDatabase } from "./helpers/in-process";

/**
 * The expiry sweep (lib/channels/abandon-expired.ts) on SQLite and PostgreSQL, in-process against the real
 * domain code: checkouts that expired unpaid end `abandoned` with one `checkout.completed` event; open ones,
 * paid ones and ones whose transfer window is still open are left alone; transfers of too little held on an
 * account whose window has ended are refunded (lib/channels/held-transfers.ts). The suites' servers run with the
 * sweep off (they expire access codes by hand); tests/start.test.ts checks a real server runs it.
 */
const env = inProcessEnv("expiry");

const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { chargeBankTransfer } = await import("@/lib/channels/charge-bank-transfer");
const { chargeBankPayment } = await import("@/lib/channels/charge-bank-payment");
const { chargeCard } = await import("@/lib/channels/charge-card");
const { abandonExpiredCheckouts, expiredCheckoutsQuery } = await import("@/lib/channels/abandon-expired");
const { releaseExpiredHolds } = await import("@/lib/channels/held-transfers");
const { receiveInboundTransfer } = await import("@/lib/channels/receive-inbound-transfer");
const { sandboxRails } = await import("@/lib/rails/sandbox");

const { targets, dropAll } = inProcessTargets("expiry");

afterAll(async () => {
  await dropAll();
  env.restore();
});

describe.each(targets)("expired checkouts on $name", (target) => {
  it("end abandoned, once, with checkout.completed; open, paid and transfer-window ones are left", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `expiry-${target.name}@example.com`);
    const expire = (p: { transactionId: string }, ms = 1000) =>
      db
        .updateTable("transactions")
        .set({ access_expires_at: Date.now() - ms })
        .where("id", "=", p.transactionId)
        .execute();
    const statusOf = async (p: { transactionId: string }) =>
      (
        await db
          .selectFrom("transactions")
          .select("status")
          .where("id", "=", p.transactionId)
          .executeTakeFirstOrThrow()
      ).status;
    const completedEvents = (p: { reference: string }) =>
      db
        .selectFrom("events")
        .select(["type", "payload"])
        .where("reference", "=", p.reference)
        .where("type", "=", "checkout.completed")
        .execute();

    const walkedAway = await open(); // pending
    const inBankApp = await open(); // awaiting_bank_authorization
    await chargeBankPayment({ principal: inBankApp, bankCode: "058" });
    const paid = await open();
    await chargeCard({
      principal: paid,
      card: { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" },
    });
    const stillOpen = await open();
    const transferring = await open(); // an account whose window is open, on a checkout that expired before
    await chargeBankTransfer({ principal: transferring });
    for (const p of [walkedAway, inBankApp, paid, transferring]) await expire(p);

    // Two sweeps at once (two processes): each transaction is ended by one of them only.
    const [a, b] = await Promise.all([abandonExpiredCheckouts(), abandonExpiredCheckouts()]);
    expect(a.ended + b.ended).toBe(2);
    expect(await statusOf(walkedAway)).toBe("abandoned");
    expect(await statusOf(inBankApp)).toBe("abandoned");
    expect(await statusOf(paid)).toBe("success");
    expect(await statusOf(stillOpen)).toBe("pending");
    expect(await statusOf(transferring)).toBe("awaiting_transfer");
    for (const p of [walkedAway, inBankApp]) {
      const events = await completedEvents(p);
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]?.payload ?? "{}").data).toMatchObject({
        reference: p.reference,
        status: "abandoned",
      });
    }
    expect(await completedEvents(stillOpen)).toEqual([]);

    // Once the transfer window closes unpaid, that one ends too; a later pass finds nothing to do.
    await db
      .updateTable("virtual_accounts")
      .set({ expires_at: Date.now() - 1000 })
      .where("transaction_id", "=", transferring.transactionId)
      .execute();
    expect(await abandonExpiredCheckouts()).toEqual({ due: 1, ended: 1 });
    expect(await statusOf(transferring)).toBe("abandoned");
    expect(await abandonExpiredCheckouts()).toEqual({ due: 0, ended: 0 });
    expect(await completedEvents(transferring)).toHaveLength(1);
  });

  it("leaves a checkout whose card payment is at the network to the network's answer", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `expiry-card-${target.name}@example.com`);
    const p = await open();
    const real = sandboxRails.card.authorize;
    let answer: () => void = () => {};
    const atNetwork = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const slow = vi.spyOn(sandboxRails.card, "authorize").mockImplementation(async (input) => {
      await atNetwork;
      return real(input);
    });
    try {
      // Pay pressed a moment before the checkout expires; the sweep runs while the bank is deciding.
      const charging = chargeCard({
        principal: p,
        card: { number: "4242424242424242", expiryMonth: 12, expiryYear: 2099, cvv: "123" },
      });
      await vi.waitFor(async () => {
        const attempt = await db
          .selectFrom("charge_attempts")
          .select("status")
          .where("transaction_id", "=", p.transactionId)
          .executeTakeFirst();
        expect(attempt?.status).toBe("authorizing");
      });
      await db
        .updateTable("transactions")
        .set({ access_expires_at: Date.now() - 1000 })
        .where("id", "=", p.transactionId)
        .execute();
      expect(await abandonExpiredCheckouts()).toEqual({ due: 1, ended: 0 });
      answer();
      expect((await charging).status).toBe("success");
      const tx = await db
        .selectFrom("transactions")
        .select("status")
        .where("id", "=", p.transactionId)
        .executeTakeFirstOrThrow();
      expect(tx.status).toBe("success");
      expect(await abandonExpiredCheckouts()).toEqual({ due: 0, ended: 0 });
    } finally {
      slow.mockRestore();
    }
  });

  it("refunds transfers of too little held on an account whose window has ended, once", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const { open } = await merchantWithCheckouts(db, `held-${target.name}@example.com`);
    const short = await open();
    const va = await chargeBankTransfer({ principal: short });
    const sent = await receiveInboundTransfer({
      rail: "sandbox",
      sessionId: `held-${target.name}-${Date.now()}`,
      accountNumber: va.accountNumber,
      amountMinor: 100_000n,
    });
    expect(sent).toMatchObject({ outcome: "amount_mismatch", due: "4050.00" });
    const refunds = () =>
      db
        .selectFrom("refunds")
        .select(["reason", "amount_minor", "source"])
        .where("transaction_id", "=", short.transactionId)
        .execute();
    // The window is open: the money is held, not refunded.
    expect(await releaseExpiredHolds(Date.now())).toBe(0);
    expect(await refunds()).toEqual([]);
    // The window ends while the checkout itself lives on: the sweep gives the money back, once.
    await db
      .updateTable("virtual_accounts")
      .set({ expires_at: Date.now() - 1000 })
      .where("transaction_id", "=", short.transactionId)
      .execute();
    expect(await releaseExpiredHolds(Date.now())).toBe(1);
    expect(await releaseExpiredHolds(Date.now())).toBe(0);
    expect((await refunds()).map((r) => [r.reason, String(r.amount_minor), r.source])).toEqual([
      ["amount_mismatch", "100000", "bank_transfer"],
    ]);
    const row = await db
      .selectFrom("transactions")
      .select(["status", "mismatch_received_minor"])
      .where("id", "=", short.transactionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "awaiting_transfer", mismatch_received_minor: null });
    const held = await db
      .selectFrom("inbound_transfers")
      .select("partial")
      .where("transaction_id", "=", short.transactionId)
      .execute();
    expect(held).toEqual([{ partial: "refunded" }]);
  });

  it("finds due checkouts through the partial index, not a table scan", async () => {
    const db = await useDatabase(openDatabase, migrateToLatest, await target.url());
    const compiled = expiredCheckoutsQuery(Date.now(), 100).compile();
    let plan: string;
    if (target.name === "sqlite") {
      plan = JSON.stringify(
        (
          await db.executeQuery(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          )
        ).rows,
      );
      expect(plan).not.toMatch(/SCAN transactions(?! USING)/);
    } else {
      // PostgreSQL picks by table statistics (an empty table is cheapest to scan): with scans priced out, it
      // can only answer from the index if the index's condition matches the query's.
      const literal = compiled.sql.replace(/\$(\d+)/g, (_, n) => String(compiled.parameters[Number(n) - 1]));
      plan = await db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw("set local enable_seqscan = off"));
        const rows = (await trx.executeQuery(CompiledQuery.raw(`explain ${literal}`))).rows;
        return JSON.stringify(rows);
      });
    }
    expect(plan).toContain("transactions_open_expiry");
  });
});
