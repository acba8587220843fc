import { describe, expect, it } from "vitest";
import { client, signup, targets } from "./helpers/api";
import {
  authorize,
  CARDS,
  card,
  checkout,
  expectConservation,
  ledger,
  minor,
  sessionId,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";
import type { Target } from "./setup/servers";

function count<T>(items: T[], key: (t: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/** Wait until the transaction has a card attempt whose network call is under way. */
async function cardInFlight(target: Target, reference: string) {
  const db = testDb(target);
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const row = await db
      .selectFrom("charge_attempts")
      .innerJoin("transactions", "transactions.id", "charge_attempts.transaction_id")
      .select("charge_attempts.id")
      .where("transactions.reference", "=", reference)
      .where("charge_attempts.channel", "=", "card")
      .where("charge_attempts.status", "=", "authorizing")
      .executeTakeFirst();
    if (row) return;
    await new Promise((r) => setTimeout(r, 3));
  }
  throw new Error("the card charge never reached the card network");
}

describe.each(targets)("channel concurrency on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  it("200 concurrent identical notifications (same sessionId): one credit, 199 replays", async () => {
    const m = await signup(api);
    const s = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const body = { accountNumber: va.accountNumber, amount: va.amount, sessionId: sessionId("same") };
    const results = await Promise.all(Array.from({ length: 200 }, () => transfer(api, m, body)));
    expect(count(results, (r) => String(r.status))).toEqual({ "200": 200 });
    expect(count(results, (r) => `${r.body.data.outcome}/${r.body.data.replayed}`)).toEqual({
      "credited/false": 1,
      "credited/true": 199,
    });
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({ status: "success", channel: "bank_transfer", total: s.transferTotal });
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(1);
    expect(l.refunds).toHaveLength(0);
  });

  it("200 concurrent exact transfers with different sessionIds: one credit, 199 duplicate_payment refunds", async () => {
    const m = await signup(api);
    const s = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        transfer(api, m, {
          accountNumber: va.accountNumber,
          amount: va.amount,
          sessionId: sessionId("diff"),
        }),
      ),
    );
    expect(count(results, (r) => String(r.status))).toEqual({ "200": 200 });
    expect(count(results, (r) => `${r.body.data.outcome}/${r.body.data.replayed}`)).toEqual({
      "credited/false": 1,
      "duplicate_payment/false": 199,
    });
    expect((await verify(api, m, s.reference)).body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(200);
    expect(count(l.inbound, (r) => r.outcome)).toEqual({ credited: 1, duplicate_payment: 199 });
    expect(count(l.refunds, (r) => r.reason ?? "")).toEqual({ duplicate_payment: 199 });
    expect(
      l.refunds.every((r) => BigInt(r.amount_minor as string) === BigInt(l.tx.total_minor as string)),
    ).toBe(true);
  });

  it("200 concurrent bank transfer requests from one network issue one account, and none is refused", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    // One address, far more requests than its unknown-code budget (30): a known code is no guess, so the
    // burst queues for the budget's requests and every one of them is served.
    const results = await Promise.all(Array.from({ length: 200 }, () => co.bankTransfer()));
    expect(count(results, (r) => String(r.status))).toEqual({ "200": 200 });
    const numbers = new Set(results.map((r) => r.body.data.accountNumber));
    expect(numbers.size).toBe(1);
    const l = await ledger(target, s.reference);
    expect(l.accounts).toHaveLength(1);
    expect(l.attempts).toHaveLength(1);
    expect(l.tx.status).toBe("awaiting_transfer");
    const events = await testDb(target)
      .selectFrom("events")
      .select("type")
      .where("reference", "=", s.reference)
      .where("type", "=", "checkout.awaiting_transfer")
      .execute();
    expect(events).toHaveLength(1);
  });

  it("a card success racing an exact transfer: one success, one duplicate payment to refund", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    const cardCall = co.card(card(CARDS.success));
    await cardInFlight(target, s.reference);
    const sent = await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
    const charged = await cardCall;
    expect(sent.status).toBe(200);
    expect(charged.status).toBe(200);

    const v = (await verify(api, m, s.reference)).body.data;
    expect(v.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.refunds.map((r) => r.reason)).toEqual(["duplicate_payment"]);
    expect(l.inbound).toHaveLength(1);
    const cardAttempt = l.attempts.find((a) => a.channel === "card");
    if (sent.body.data.outcome === "credited") {
      // The usual order: the transfer lands while the card network is still answering (150 ms); it
      // credits, and the money the card then captures goes back.
      expect(v).toMatchObject({ channel: "bank_transfer", total: s.transferTotal, fees: s.transferFee });
      expect(charged.body.data).toMatchObject({ status: "failed", reason: "already_paid" });
      expect(l.refunds[0]).toMatchObject({ source: "card", reason: "duplicate_payment" });
      expect(BigInt(l.refunds[0]?.amount_minor as string)).toBe(minor(s.cardTotal));
      expect(cardAttempt?.status).toBe("refunded");
    } else {
      // A loaded machine delayed the transfer past the card's answer: the card paid, the transfer is due back.
      expect(sent.body.data.outcome).toBe("duplicate_payment");
      expect(v).toMatchObject({ channel: "card", total: s.cardTotal, fees: s.cardFee });
      expect(charged.body.data.status).toBe("success");
      expect(l.refunds[0]).toMatchObject({ source: "bank_transfer", reason: "duplicate_payment" });
      expect(BigInt(l.refunds[0]?.amount_minor as string)).toBe(minor(s.transferTotal));
      expect(cardAttempt?.status).toBe("success");
    }
  });

  it("the customer cancelling while the card network answers is refused: the card's answer decides", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const cardCall = co.card(card(CARDS.success));
    await cardInFlight(target, s.reference);
    const cancel = await co.cancel();
    // Cancelled then captured, the money would have to go back; refused, the payment completes.
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toBe("invalid_state");
    expect(cancel.body.message).toMatch(/card payment .* being processed/);
    const charged = await cardCall;
    expect(charged.body.data.status).toBe("success");
    expect((await verify(api, m, s.reference)).body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.refunds).toHaveLength(0);
  });

  it("5 concurrent card charges: one reaches the network, the others 409", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const results = await Promise.all(Array.from({ length: 5 }, () => co.card(card(CARDS.success))));
    expect(count(results, (r) => `${r.status}/${r.body.data?.status ?? r.body.error}`)).toEqual({
      "200/success": 1,
      "409/invalid_state": 4,
    });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts).toHaveLength(1);
    expect(l.refunds).toHaveLength(0);
  });

  it("20 concurrent approvals of one USSD request: one success, the rest 409", async () => {
    const m = await merchant();
    const s = await start(api, m);
    await checkout(api, s).ussd({ phoneNumber: "08012345678" });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => authorize(api, m, s.reference, "approve")),
    );
    expect(count(results, (r) => `${r.status}/${r.body.data?.status ?? r.body.error}`)).toEqual({
      "200/success": 1,
      "409/invalid_state": 19,
    });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.filter((a) => a.captured_minor !== null)).toHaveLength(1);
  });

  it("a bank-app approval racing an exact transfer: exactly one credit either way", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    await co.bankPayment("058");
    const [approved, sent] = await Promise.all([
      authorize(api, m, s.reference, "approve"),
      transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount }),
    ]);
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    if (v.channel === "bank_payment") {
      expect(approved.body.data.status).toBe("success");
      expect(sent.body.data.outcome).toBe("duplicate_payment");
      expect(l.refunds.map((r) => r.reason)).toEqual(["duplicate_payment"]);
    } else {
      expect(v.channel).toBe("bank_transfer");
      expect(sent.body.data.outcome).toBe("credited");
      expect(approved.status).toBe(409);
      expect(l.refunds).toHaveLength(0);
    }
  });
});
