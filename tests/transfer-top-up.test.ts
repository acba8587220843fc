import { describe, expect, it } from "vitest";
import { type ApiResponse, client, type Merchant, targets } from "./helpers/api";
import {
  CARDS,
  card,
  checkout,
  expectConservation,
  ledger,
  type Session,
  sessionId,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";

/**
 * Money that arrives on a virtual account inside its window adds up (docs/states.md, docs/api.md): a customer
 * who sends too little and then the difference pays once, with nothing refunded; a sum past the total completes
 * the payment and the excess goes back as an automatic refund (reason `amount_mismatch`); while the sum is
 * short, checkout verify's `amountMismatch` and the `checkout.amount_mismatch` event say how much is still due.
 * A sum that never reaches the total is refunded when the window ends, the payment is made another way, or the
 * checkout is cancelled: never lost, never credited. Money received = credited + refunded + refunds pending +
 * held on an open window, at every step (expectConservation).
 */
describe.each(targets)("transfers that add up on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);
  const key = (m: Merchant) => ({ "x-api-key": m.testKey });

  /** A payment of 5000.00 waiting for its transfer: 5050.00 with the transfer fee. */
  async function awaiting(m: Merchant) {
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data as { accountNumber: string; amount: string };
    expect(va.amount).toBe("5050.00");
    return { s, co, va };
  }

  const send = (m: Merchant, accountNumber: string, amount: string, sid = sessionId("topup")) =>
    transfer(api, m, { accountNumber, amount, sessionId: sid });

  async function mismatchEvents(m: Merchant, s: Session) {
    const res = await api.get(`/v1/events?type=checkout.amount_mismatch&reference=${s.reference}`, key(m));
    expect(res.status).toBe(200);
    return (res.body.data.events as Array<{ payload: { data: Record<string, unknown> } }>)
      .map((e) => e.payload.data)
      .reverse();
  }

  const refundsOf = async (reference: string) =>
    (await ledger(target, reference)).refunds.map((r) => [r.reason, String(r.amount_minor), r.source]);

  it("too little, then the difference: the payment completes once and nothing is refunded", async () => {
    const m = await merchant();
    const { s, co, va } = await awaiting(m);
    const short = await send(m, va.accountNumber, "3000");
    expect(short.body.data).toMatchObject({
      outcome: "amount_mismatch",
      amount: "3000.00",
      expected: "5050.00",
      due: "2050.00",
    });
    expect((await co.verify()).body.data).toMatchObject({
      status: "awaiting_transfer",
      amountMismatch: { expected: "5050.00", received: "3000.00", due: "2050.00" },
    });
    expect(await mismatchEvents(m, s)).toEqual([
      expect.objectContaining({
        reference: s.reference,
        status: "awaiting_transfer",
        accountNumber: va.accountNumber,
        amountMismatch: { expected: "5050.00", received: "3000.00", due: "2050.00" },
      }),
    ]);
    // Held for the rest of the window, not refunded.
    expect(await refundsOf(s.reference)).toEqual([]);
    await expectConservation(target, s.reference);

    const rest = await send(m, va.accountNumber, "2050");
    expect(rest.body.data).toMatchObject({ outcome: "credited", amount: "2050.00", expected: "5050.00" });
    const paid = (await verify(api, m, s.reference)).body.data;
    expect(paid).toMatchObject({ status: "success", channel: "bank_transfer", total: "5050.00" });
    expect((await co.verify()).body.data.amountMismatch).toBeUndefined();
    expect(await refundsOf(s.reference)).toEqual([]);
    // Each transfer keeps the answer it was given; the short one is now part of the payment.
    const l = await expectConservation(target, s.reference);
    expect(l.inbound.map((t) => [t.outcome, t.partial]).sort()).toEqual([
      ["amount_mismatch", "credited"],
      ["credited", null],
    ]);
  });

  it("three transfers add up; the event of each short one says what is still due", async () => {
    const m = await merchant();
    const { s, va } = await awaiting(m);
    expect((await send(m, va.accountNumber, "1000")).body.data.due).toBe("4050.00");
    expect((await send(m, va.accountNumber, "2000.50")).body.data.due).toBe("2049.50");
    expect((await send(m, va.accountNumber, "2049.50")).body.data.outcome).toBe("credited");
    expect((await mismatchEvents(m, s)).map((d) => d.amountMismatch)).toEqual([
      { expected: "5050.00", received: "1000.00", due: "4050.00" },
      { expected: "5050.00", received: "3000.50", due: "2049.50" },
    ]);
    expect((await verify(api, m, s.reference)).body.data.status).toBe("success");
    expect(await refundsOf(s.reference)).toEqual([]);
    await expectConservation(target, s.reference);
  });

  it("a sum past the total completes the payment and refunds the excess automatically", async () => {
    const m = await merchant();
    const { s, va } = await awaiting(m);
    await send(m, va.accountNumber, "3000");
    const over = await send(m, va.accountNumber, "2500");
    expect(over.body.data).toMatchObject({ outcome: "credited", amount: "2500.00", refunded: "450.00" });
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      total: "5050.00",
    });
    expect(await refundsOf(s.reference)).toEqual([["amount_mismatch", "45000", "bank_transfer"]]);
    await expectConservation(target, s.reference);

    // One transfer of too much completes the payment the same way.
    const one = await awaiting(m);
    const big = await send(m, one.va.accountNumber, "6000");
    expect(big.body.data).toMatchObject({ outcome: "credited", refunded: "950.00" });
    expect((await verify(api, m, one.s.reference)).body.data.status).toBe("success");
    expect(await refundsOf(one.s.reference)).toEqual([["amount_mismatch", "95000", "bank_transfer"]]);
    await expectConservation(target, one.s.reference);
  });

  it("two top-ups at once: one completes the payment, the other is a duplicate payment refunded", async () => {
    const m = await merchant();
    for (let round = 0; round < 3; round++) {
      const { s, va } = await awaiting(m);
      await send(m, va.accountNumber, "3050");
      const answers: ApiResponse[] = await Promise.all([
        send(m, va.accountNumber, "2000"),
        send(m, va.accountNumber, "2000"),
      ]);
      expect(answers.map((r) => r.body.data.outcome).sort()).toEqual(["credited", "duplicate_payment"]);
      expect((await verify(api, m, s.reference)).body.data.status).toBe("success");
      expect(await refundsOf(s.reference)).toEqual([["duplicate_payment", "200000", "bank_transfer"]]);
      await expectConservation(target, s.reference);
    }
  });

  it("a short sum when the window ends is refunded, and a new account starts from nothing", async () => {
    const m = await merchant();
    const { s, co, va } = await awaiting(m);
    await send(m, va.accountNumber, "3000");
    // The window ends (31 minutes on the transaction's clock): what falls due runs at once.
    const moved = await api.post(
      "/v1/sandbox/clock/advance",
      { reference: s.reference, seconds: 31 * 60 },
      key(m),
    );
    expect(moved.status, moved.text).toBe(200);
    expect(await refundsOf(s.reference)).toEqual([["amount_mismatch", "300000", "bank_transfer"]]);
    expect((await co.verify()).body.data.amountMismatch).toBeUndefined();
    await expectConservation(target, s.reference);
    // A late transfer to the old account is refunded on its own; it adds to nothing.
    expect((await send(m, va.accountNumber, "2050")).body.data.outcome).toBe("late_payment");
    // A new account expects the whole total again.
    const fresh = (await co.bankTransfer()).body.data;
    expect(fresh.accountNumber).not.toBe(va.accountNumber);
    expect((await send(m, fresh.accountNumber, "2050")).body.data).toMatchObject({
      outcome: "amount_mismatch",
      due: "3000.00",
    });
    expect((await send(m, fresh.accountNumber, "3000")).body.data.outcome).toBe("credited");
    expect((await refundsOf(s.reference)).map((r) => r[0])).toEqual(["amount_mismatch", "late_payment"]);
    await expectConservation(target, s.reference);
  });

  it("a short sum is refunded when the customer pays by card instead, or cancels", async () => {
    const m = await merchant();
    const byCard = await awaiting(m);
    await send(m, byCard.va.accountNumber, "1000");
    const paid = await byCard.co.card(card(CARDS.success));
    expect(paid.body.data.status).toBe("success");
    expect(await refundsOf(byCard.s.reference)).toEqual([["amount_mismatch", "100000", "bank_transfer"]]);
    await expectConservation(target, byCard.s.reference);
    // A transfer after that is a second payment, refunded whole.
    expect((await send(m, byCard.va.accountNumber, "4050")).body.data.outcome).toBe("duplicate_payment");
    await expectConservation(target, byCard.s.reference);

    const cancelled = await awaiting(m);
    await send(m, cancelled.va.accountNumber, "1000");
    expect((await cancelled.co.cancel()).body.data.status).toBe("abandoned");
    expect(await refundsOf(cancelled.s.reference)).toEqual([["amount_mismatch", "100000", "bank_transfer"]]);
    await expectConservation(target, cancelled.s.reference);
  });

  it("the same sessionId twice adds once", async () => {
    const m = await merchant();
    const { s, va } = await awaiting(m);
    const sid = sessionId("twice");
    const first = await send(m, va.accountNumber, "3000", sid);
    const again = await send(m, va.accountNumber, "3000", sid);
    expect(again.body.data).toMatchObject({ outcome: "amount_mismatch", replayed: true });
    expect(first.body.data.due).toBe("2050.00");
    expect((await checkout(api, s).verify()).body.data.amountMismatch.due).toBe("2050.00");
    await expectConservation(target, s.reference);
  });

  it("simulate success sends what is still due", async () => {
    const m = await merchant();
    const { s, co, va } = await awaiting(m);
    await send(m, va.accountNumber, "3000");
    const sim = await co.simulate("success");
    expect(sim.body.data).toMatchObject({ status: "success", outcome: "credited" });
    expect(await refundsOf(s.reference)).toEqual([]);
    const l = await expectConservation(target, s.reference);
    expect(l.inbound.map((t) => String(t.amount_minor)).sort()).toEqual(["205000", "300000"]);
  });
});
