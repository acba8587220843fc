import { describe, expect, it } from "vitest";
import { isValidNuban } from "@/lib/rails/nuban";
import { client, production, signup, targets } from "./helpers/api";
import {
  checkout,
  expectConservation,
  ISO,
  ledger,
  sessionId,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

describe.each(targets)("bank transfer channel on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);
  const db = () => testDb(target);

  async function expireAccounts(reference: string) {
    const { tx } = await ledger(target, reference);
    await db()
      .updateTable("virtual_accounts")
      .set({ expires_at: Date.now() - 1000 })
      .where("transaction_id", "=", tx.id)
      .execute();
  }

  it("pending → awaiting_transfer issues a one-time NUBAN for transferTotal; repeats return it", async () => {
    const m = await signup(api, { businessName: "Ada Stores" });
    const s = await start(api, m, { amount: "5000" });
    expect(s.transferFee).toBe("50.00");
    expect(s.transferTotal).toBe("5050.00");
    const co = checkout(api, s);

    const first = await co.bankTransfer();
    expect(first.status).toBe(200);
    const va = first.body.data;
    expect(va).toMatchObject({
      status: "awaiting_transfer",
      reference: s.reference,
      accountNumber: expect.stringMatching(/^\d{10}$/),
      bankName: expect.any(String),
      accountName: expect.stringContaining("Ada Stores"),
      amount: "5050.00",
      expiresAt: expect.stringMatching(ISO),
      expiresInSeconds: expect.any(Number),
    });
    expect(va.bankName.length).toBeGreaterThan(0);
    expect(isValidNuban("999", va.accountNumber), "CBN check digit of the sandbox bank").toBe(true);
    expect(va.expiresInSeconds).toBeGreaterThan(1700);
    expect(va.expiresInSeconds).toBeLessThanOrEqual(1800);
    const left = (Date.parse(va.expiresAt) - Date.now()) / 1000;
    expect(Math.abs(left - va.expiresInSeconds)).toBeLessThan(5);

    expect((await co.verify()).body.data.status).toBe("awaiting_transfer");
    const again = await co.bankTransfer();
    expect(again.status).toBe(200);
    expect(again.body.data.accountNumber).toBe(va.accountNumber);
    expect(again.body.data.expiresAt).toBe(va.expiresAt);
    const { accounts } = await ledger(target, s.reference);
    expect(accounts).toHaveLength(1);
    expect(BigInt(accounts[0]?.expected_minor as string)).toBe(505000n);
  });

  it("after the window a new request issues a new account", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const first = (await co.bankTransfer()).body.data;
    await expireAccounts(s.reference);
    const second = await co.bankTransfer();
    expect(second.status).toBe(200);
    expect(second.body.data.status).toBe("awaiting_transfer");
    expect(second.body.data.accountNumber).not.toBe(first.accountNumber);
    expect(second.body.data.expiresInSeconds).toBeGreaterThan(1700);
    const { accounts } = await ledger(target, s.reference);
    expect(accounts).toHaveLength(2);
  });

  it("an exact transfer completes the payment: verify reports bank_transfer, fees and totals", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    const sid = sessionId();
    const res = await transfer(api, m, {
      accountNumber: va.accountNumber,
      amount: va.amount,
      sessionId: sid,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      outcome: "credited",
      reference: s.reference,
      sessionId: sid,
      replayed: false,
    });

    const v = await verify(api, m, s.reference);
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({
      reference: s.reference,
      status: "success",
      channel: "bank_transfer",
      amount: "5000.00",
      fees: "50.00",
      total: "5050.00",
      amountSettled: "5000.00",
      merchantBearsCost: false,
      paidAt: expect.stringMatching(ISO),
    });
    const c = await co.verify();
    expect(c.body.data).toMatchObject({
      status: "success",
      channel: "bank_transfer",
      fees: "50.00",
      total: "5050.00",
      paidAt: v.body.data.paidAt,
    });
    expect(c.body.data.amountMismatch).toBeUndefined();
    const l = await expectConservation(target, s.reference);
    expect(l.refunds).toHaveLength(0);
    expect(l.inbound).toHaveLength(1);
  });

  it("merchant bears cost: total = amount and amountSettled = amount - transferFee", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "10000", merchantBearsCost: true });
    expect(s.transferFee).toBe("100.00");
    expect(s.transferTotal).toBe("10000.00");
    const va = (await checkout(api, s).bankTransfer()).body.data;
    expect(va.amount).toBe("10000.00");
    await transfer(api, m, { accountNumber: va.accountNumber, amount: "10000.00" });
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({
      status: "success",
      channel: "bank_transfer",
      merchantBearsCost: true,
      total: "10000.00",
      fees: "100.00",
      amountSettled: "9900.00",
    });
    await expectConservation(target, s.reference);
  });

  it("too little leaves awaiting_transfer, shows what is still due, keeps the account and holds the money", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    const res = await transfer(api, m, { accountNumber: va.accountNumber, amount: "5000.00" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      outcome: "amount_mismatch",
      reference: s.reference,
      replayed: false,
      due: "50.00",
    });

    const c = await co.verify();
    expect(c.body.data).toMatchObject({
      status: "awaiting_transfer",
      amountMismatch: { expected: "5050.00", received: "5000.00", due: "50.00" },
    });
    expect((await verify(api, m, s.reference)).body.data.status).toBe("awaiting_transfer");
    const again = await co.bankTransfer();
    expect(again.status).toBe(200);
    expect(again.body.data.accountNumber).toBe(va.accountNumber);

    // Held on the account while its window is open (tests/transfer-top-up.test.ts follows it further).
    let l = await expectConservation(target, s.reference);
    expect(l.refunds).toEqual([]);
    expect(l.inbound.map((t) => t.partial)).toEqual(["held"]);

    // The customer then sends the difference: the two add up, the payment completes, nothing goes back.
    const ok = await transfer(api, m, { accountNumber: va.accountNumber, amount: "50" });
    expect(ok.body.data.outcome).toBe("credited");
    const after = await co.verify();
    expect(after.body.data.status).toBe("success");
    expect(after.body.data.amountMismatch).toBeUndefined();
    l = await expectConservation(target, s.reference);
    expect(l.refunds).toHaveLength(0);
  });

  it("the same sessionId twice credits once; the second answer is replayed", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const sid = sessionId();
    const body = { accountNumber: va.accountNumber, amount: va.amount, sessionId: sid };
    const a = await transfer(api, m, body);
    const b = await transfer(api, m, body);
    expect(a.body.data).toMatchObject({ outcome: "credited", replayed: false });
    expect(b.status).toBe(200);
    expect(b.body.data).toMatchObject({
      outcome: "credited",
      replayed: true,
      reference: s.reference,
      sessionId: sid,
    });
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(1);
    expect(l.refunds).toHaveLength(0);
    expect(l.tx.status).toBe("success");
  });

  it("a sessionId counts per merchant: another merchant's same sessionId credits its own payment", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const sa = await start(api, a);
    const sb = await start(api, b);
    const vaA = (await checkout(api, sa).bankTransfer()).body.data;
    const vaB = (await checkout(api, sb).bankTransfer()).body.data;
    const sid = sessionId("shared");
    const first = await transfer(api, a, {
      accountNumber: vaA.accountNumber,
      amount: vaA.amount,
      sessionId: sid,
    });
    expect(first.body.data).toMatchObject({ outcome: "credited", replayed: false, reference: sa.reference });
    const second = await transfer(api, b, {
      accountNumber: vaB.accountNumber,
      amount: vaB.amount,
      sessionId: sid,
    });
    expect(second.status).toBe(200);
    // B's own payment is credited, and nothing of A's (its reference) is shown to B.
    expect(second.body.data).toMatchObject({ outcome: "credited", replayed: false, reference: sb.reference });
    expect(second.text).not.toContain(sa.reference);
    expect((await verify(api, b, sb.reference)).body.data.status).toBe("success");
    expect((await expectConservation(target, sa.reference)).inbound).toHaveLength(1);
    expect((await expectConservation(target, sb.reference)).inbound).toHaveLength(1);
  });

  it("the same sessionId with another amount or account is refused (422), nothing credited or refunded", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const other = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const vaOther = (await checkout(api, other).bankTransfer()).body.data;
    const sid = sessionId();
    const short = await transfer(api, m, {
      accountNumber: va.accountNumber,
      amount: "100.00",
      sessionId: sid,
    });
    expect(short.body.data).toMatchObject({ outcome: "amount_mismatch", replayed: false });
    for (const body of [
      { accountNumber: va.accountNumber, amount: va.amount, sessionId: sid },
      { accountNumber: vaOther.accountNumber, amount: "100.00", sessionId: sid },
    ]) {
      const res = await transfer(api, m, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({
        status: "failed",
        error: "idempotency_key_reused",
        message: expect.stringContaining(`sessionId ${sid}`),
      });
    }
    // Only the first transfer exists, held on the account; the exact amount was never credited.
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(1);
    expect(l.inbound[0]?.partial).toBe("held");
    expect(l.refunds).toEqual([]);
    expect(l.tx.status).toBe("awaiting_transfer");
    expect((await expectConservation(target, other.reference)).inbound).toHaveLength(0);
  });

  it("a transfer after success is a duplicate payment to refund, never credited twice", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
    const paid = (await verify(api, m, s.reference)).body.data;
    const dup = await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
    expect(dup.status).toBe(200);
    expect(dup.body.data).toMatchObject({ outcome: "duplicate_payment", replayed: false });
    const after = (await verify(api, m, s.reference)).body.data;
    expect(after).toEqual(paid); // nothing about the credited payment changed
    const l = await expectConservation(target, s.reference);
    expect(l.refunds.map((r) => r.reason)).toEqual(["duplicate_payment"]);
    expect(l.inbound.filter((r) => r.outcome === "credited")).toHaveLength(1);
  });

  it("a transfer after the window is a late payment: refunded, the transaction stays open", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    await expireAccounts(s.reference);
    const late = await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
    expect(late.status).toBe(200);
    expect(late.body.data.outcome).toBe("late_payment");
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v.status).not.toBe("success");
    expect(v.paidAt).toBeNull();
    const l = await expectConservation(target, s.reference);
    expect(l.refunds.map((r) => r.reason)).toEqual(["late_payment"]);

    // A fresh account in a new window still takes payment.
    const fresh = (await co.bankTransfer()).body.data;
    expect(fresh.accountNumber).not.toBe(va.accountNumber);
    expect(
      (await transfer(api, m, { accountNumber: fresh.accountNumber, amount: fresh.amount })).body.data
        .outcome,
    ).toBe("credited");
    await expectConservation(target, s.reference);
  });

  it.each(["failed", "abandoned"] as const)(
    "a transfer to a %s transaction is a late payment",
    async (end) => {
      const m = await merchant();
      const s = await start(api, m);
      const co = checkout(api, s);
      const va = (await co.bankTransfer()).body.data;
      const ended = end === "failed" ? await co.simulate("failed") : await co.cancel();
      expect(ended.status).toBe(200);
      expect(ended.body.data.status).toBe(end);
      const late = await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
      expect(late.body.data.outcome).toBe("late_payment");
      expect((await verify(api, m, s.reference)).body.data.status).toBe(end);
      const l = await expectConservation(target, s.reference);
      expect(l.refunds.map((r) => r.reason)).toEqual(["late_payment"]);
    },
  );

  it("simulate success funds the account through the inbound path and completes", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const res = await co.simulate("success");
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("success");
    expect(res.body.data).toMatchObject({ reference: s.reference, scenario: "success", status: "success" });
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({ status: "success", channel: "bank_transfer", total: "5050.00", fees: "50.00" });
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(1);
    expect(l.accounts).toHaveLength(1);
  });

  it("simulate success reuses an account already issued", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    expect((await co.simulate("success")).body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.accounts.map((a) => a.account_number)).toEqual([va.accountNumber]);
  });

  it.each(["failed", "abandoned"] as const)("simulate %s ends the transaction so", async (scenario) => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.bankTransfer();
    const res = await co.simulate(scenario);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ reference: s.reference, scenario, status: scenario });
    expect((await verify(api, m, s.reference)).body.data.status).toBe(scenario);
    expect((await co.verify()).body.data.status).toBe(scenario);
    await expectConservation(target, s.reference);
  });

  it("simulate refuses an unknown scenario with validation_error naming scenario", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const res = await checkout(api, s).simulate("maybe");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.message).toContain("scenario");
  });

  it("a transfer to an account no one issued answers transaction_not_found", async () => {
    const m = await merchant();
    const res = await transfer(api, m, { accountNumber: "0000000000", amount: "10" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("transaction_not_found");
  });

  it("another merchant cannot fund an account through the sandbox", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const s = await start(api, a);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const res = await transfer(api, b, { accountNumber: va.accountNumber, amount: va.amount });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("transaction_not_found");
    expect((await verify(api, a, s.reference)).body.data.status).toBe("awaiting_transfer");
    await expectConservation(target, s.reference);
  });

  it("sandbox transfers need the test secret key", async () => {
    const res = await api.post("/v1/sandbox/transfers", { accountNumber: "0000000000", amount: "10" });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_api_key");
  });
});

describe("sandbox and simulate on the production deployment", () => {
  const api = client(production.url);

  it("answer 403 test_mode_only for a live transaction", async () => {
    const m = await signup(api);
    const init = await api.post(
      "/v1/payment/initialize",
      { amount: "5000", email: "payer@example.com" },
      { "x-api-key": m.liveKey },
    );
    expect(init.status).toBe(201);
    const s = init.body.data;
    const h = { "x-access-code": s.accessCode };
    for (const scenario of ["success", "failed", "abandoned"]) {
      const sim = await api.post("/v1/payment/checkout/charge/bank-transfer/simulate", { scenario }, h);
      expect(sim.status, scenario).toBe(403);
      expect(sim.body).toEqual({
        status: "failed",
        error: "test_mode_only",
        message: expect.any(String),
      });
    }
    const t = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: "0123456789", amount: "5050", sessionId: "live-1" },
      { "x-api-key": m.liveKey },
    );
    expect(t.status).toBe(403);
    expect(t.body.error).toBe("test_mode_only");
    const a = await api.post(
      "/v1/sandbox/authorizations",
      { reference: s.reference, decision: "approve" },
      { "x-api-key": m.liveKey },
    );
    expect(a.status).toBe(403);
    expect(a.body.error).toBe("test_mode_only");
    // Nothing moved.
    const v = await api.get(`/v1/payment/verify/${s.reference}`, { "x-api-key": m.liveKey });
    expect(v.body.data.status).toBe("pending");
  });
});
