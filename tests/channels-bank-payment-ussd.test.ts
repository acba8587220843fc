import { describe, expect, it } from "vitest";
import { client, signup, targets } from "./helpers/api";
import {
  authorize,
  CARDS,
  card,
  checkout,
  expectConservation,
  ISO,
  OTP,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

describe.each(targets)("bank payment, USSD, switching and cancel on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  it("lists banks as [{code, name}] for NG and refuses an unknown country", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const res = await co.banks("NG");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data.length).toBeGreaterThan(5);
    for (const b of res.body.data) expect(Object.keys(b).sort()).toEqual(["code", "name"]);
    expect(res.body.data).toContainEqual({ code: "058", name: "Guaranty Trust Bank" });
    const bad = await co.banks("ZZ");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_error");
    expect(bad.body.message).toContain("country");
  });

  it("bank payment: a listed bankCode → awaiting_bank_authorization; approve → success (bank_payment)", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const bank = (await co.banks()).body.data.find((b: { code: string }) => b.code === "057");
    expect(bank).toBeDefined();
    const res = await co.bankPayment(bank.code);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "awaiting_bank_authorization",
      reference: s.reference,
      bankCode: "057",
    });
    expect((await co.verify()).body.data.status).toBe("awaiting_bank_authorization");
    expect((await verify(api, m, s.reference)).body.data.status).toBe("awaiting_bank_authorization");

    const ok = await authorize(api, m, s.reference, "approve");
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      reference: s.reference,
      status: "success",
      channel: "bank_payment",
    });
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "bank_payment",
      fees: "50.00",
      total: "5050.00",
      amountSettled: "5000.00",
      paidAt: expect.stringMatching(ISO),
    });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => [a.channel, a.status, String(a.captured_minor)])).toEqual([
      ["bank_payment", "success", "505000"],
    ]);
  });

  it("bank payment: merchant bears cost settles amount - transferFee", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "10000", merchantBearsCost: true });
    await checkout(api, s).bankPayment("058");
    await authorize(api, m, s.reference, "approve");
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "bank_payment",
      total: "10000.00",
      fees: "100.00",
      amountSettled: "9900.00",
    });
    await expectConservation(target, s.reference);
  });

  it("bank payment: an unknown bankCode answers 400 naming bankCode", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    for (const code of ["12345", "ZZZ", "bad code!"]) {
      const res = await co.bankPayment(code);
      expect(res.status, code).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain("bankCode");
    }
    expect((await co.verify()).body.data.status).toBe("pending");
  });

  it("bank payment: decline → back to pending; the customer retries and is approved", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.bankPayment("058");
    const no = await authorize(api, m, s.reference, "decline");
    expect(no.status).toBe(200);
    expect(no.body.data).toMatchObject({ status: "pending", channel: "bank_payment", decision: "decline" });
    expect((await co.verify()).body.data.status).toBe("pending");
    // Nothing waits any more: another answer has nothing to act on.
    const orphan = await authorize(api, m, s.reference, "approve");
    expect(orphan.status).toBe(409);
    expect(orphan.body.error).toBe("invalid_state");

    expect((await co.bankPayment("044")).body.data.status).toBe("awaiting_bank_authorization");
    expect((await authorize(api, m, s.reference, "approve")).body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => a.status).sort()).toEqual(["failed", "success"]);
  });

  it("sandbox authorizations: unknown or foreign reference → 404, bad decision → 400", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const s = await start(api, a);
    await checkout(api, s).bankPayment("058");
    const foreign = await authorize(api, b, s.reference, "approve");
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("transaction_not_found");
    const unknown = await authorize(api, a, "PAY_TXN_ZZZZZZZZZZZZZZZZZZZZ", "approve");
    expect(unknown.status).toBe(404);
    const bad = await api.post(
      "/v1/sandbox/authorizations",
      { reference: s.reference, decision: "maybe" },
      { "x-api-key": a.testKey },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("decision");
    expect((await verify(api, a, s.reference)).body.data.status).toBe("awaiting_bank_authorization");
  });

  it("USSD: a phone number gives *737*000*NNNNNN# for the default bank 058; approve → success (ussd)", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    const co = checkout(api, s);
    const res = await co.ussd({ phoneNumber: "+234 801 234 5678" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "awaiting_ussd",
      reference: s.reference,
      ussdCode: expect.stringMatching(/^\*737\*000\*\d{6}#$/),
      bankCode: "058",
    });
    expect(res.body.data.dialUrl).toBe(`tel:${encodeURIComponent(res.body.data.ussdCode)}`);
    expect((await co.verify()).body.data.status).toBe("awaiting_ussd");
    const ok = await authorize(api, m, s.reference, "approve");
    expect(ok.body.data).toMatchObject({ status: "success", channel: "ussd" });
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "ussd",
      fees: "50.00",
      total: "5050.00",
      amountSettled: "5000.00",
    });
    await expectConservation(target, s.reference);
  });

  it("USSD on a GHS transaction that still offers it (made before USSD was NGN-only) is 400 channel_unavailable", async () => {
    const m = await merchant();
    const s = await start(api, m, { currency: "GHS" });
    expect(s.channels).not.toContain("ussd");
    await testDb(target)
      .updateTable("transactions")
      .set({ channels: JSON.stringify(["card", "bank_transfer", "bank_payment", "ussd"]) })
      .where("reference", "=", s.reference)
      .execute();
    const res = await checkout(api, s).ussd({ phoneNumber: "08012345678" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: "failed",
      error: "channel_unavailable",
      message: "Payment by USSD is not available for GHS payments.",
    });
    expect((await checkout(api, s).verify()).body.data.status).toBe("pending");
  });

  it("USSD: another bank's short code; a bank without USSD → 400; a bad phone → 400", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const zenith = await co.ussd({ phoneNumber: "08012345678", bankCode: "057" });
    expect(zenith.status).toBe(200);
    expect(zenith.body.data.ussdCode).toMatch(/^\*966\*000\*\d{6}#$/);
    const noUssd = await co.ussd({ phoneNumber: "08012345678", bankCode: "565" });
    expect(noUssd.status).toBe(400);
    expect(noUssd.body.error).toBe("validation_error");
    expect(noUssd.body.message).toContain("bankCode");
    const unknownBank = await co.ussd({ phoneNumber: "08012345678", bankCode: "99999" });
    expect(unknownBank.status).toBe(400);
    expect(unknownBank.body.message).toContain("bankCode");
    const badPhone = await co.ussd({ phoneNumber: "12345" });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body.message).toContain("phoneNumber");
    const noPhone = await co.ussd({});
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toContain("phoneNumber");
    // The valid request still waits.
    expect((await co.verify()).body.data.status).toBe("awaiting_ussd");
  });

  it("USSD: decline → pending; a second code replaces the first", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const first = (await co.ussd({ phoneNumber: "08012345678" })).body.data.ussdCode;
    expect((await authorize(api, m, s.reference, "decline")).body.data.status).toBe("pending");
    await co.ussd({ phoneNumber: "08012345678" });
    const third = await co.ussd({ phoneNumber: "08012345678" });
    expect(third.body.data.ussdCode).toMatch(/^\*737\*000\*\d{6}#$/);
    expect(typeof first).toBe("string");
    expect((await authorize(api, m, s.reference, "approve")).body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => [a.status, a.failure_reason]).sort()).toEqual([
      ["failed", "declined_by_customer"],
      ["failed", "superseded"],
      ["success", null],
    ]);
  });

  it("switches channels while nothing is terminal, then pays once by card", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const seen: string[] = [];
    const status = async () => seen.push((await co.verify()).body.data.status);
    const va = (await co.bankTransfer()).body.data;
    await status();
    expect((await co.ussd({ phoneNumber: "08012345678" })).status).toBe(200);
    await status();
    expect((await co.bankPayment("058")).status).toBe(200);
    await status();
    expect((await co.card(card(CARDS.declined))).body.data.status).toBe("failed");
    await status();
    expect((await co.card(card(CARDS.otp))).body.data.status).toBe("awaiting_otp");
    await status();
    expect((await co.card(card(CARDS.success))).body.data.status).toBe("success");
    await status();
    expect(seen).toEqual([
      "awaiting_transfer",
      "awaiting_ussd",
      "awaiting_bank_authorization",
      "awaiting_bank_authorization", // a declined card leaves the other channel's request waiting
      "awaiting_otp",
      "success",
    ]);
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "card",
    });

    // The other channels' pending requests cannot pay it again.
    const approve = await authorize(api, m, s.reference, "approve");
    expect(approve.status).toBe(409);
    expect(approve.body.error).toBe("invalid_state");
    const otp = await co.otp(OTP);
    expect(otp.status).toBe(409);
    const dup = await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount });
    expect(dup.body.data.outcome).toBe("duplicate_payment");
    const l = await expectConservation(target, s.reference);
    expect(l.refunds.map((r) => r.reason)).toEqual(["duplicate_payment"]);
    expect(l.attempts.filter((a) => a.status === "success")).toHaveLength(1);
  });

  it.each([
    ["USSD", async (co: ReturnType<typeof checkout>) => co.ussd({ phoneNumber: "08012345678" })],
    ["bank payment", async (co: ReturnType<typeof checkout>) => co.bankPayment("058")],
    ["an OTP card", async (co: ReturnType<typeof checkout>) => co.card(card(CARDS.otp))],
  ])(
    "switching back from %s to bank transfer inside the window: same account, awaiting_transfer again",
    async (_name, other) => {
      const m = await merchant();
      const s = await start(api, m);
      const co = checkout(api, s);
      const va = (await co.bankTransfer()).body.data;
      expect((await other(co)).status).toBe(200);
      expect((await co.verify()).body.data.status).not.toBe("awaiting_transfer");
      const back = await co.bankTransfer();
      expect(back.status).toBe(200);
      expect(back.body.data).toMatchObject({ status: "awaiting_transfer", accountNumber: va.accountNumber });
      // What the answer says is what the transaction is.
      expect((await co.verify()).body.data.status).toBe("awaiting_transfer");
      expect((await verify(api, m, s.reference)).body.data.status).toBe("awaiting_transfer");
    },
  );

  it("a late decline of a bank-app request leaves the bank transfer the customer switched to", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.bankPayment("058");
    const va = (await co.bankTransfer()).body.data;
    await transfer(api, m, { accountNumber: va.accountNumber, amount: "1.00" }); // a wrong amount first
    expect((await co.verify()).body.data).toMatchObject({
      status: "awaiting_transfer",
      amountMismatch: { expected: va.amount, received: "1.00" },
    });
    // The customer now declines the old request in the bank app: that attempt fails...
    const no = await authorize(api, m, s.reference, "decline");
    expect(no.status).toBe(200);
    // ...but the transaction is still waiting for the transfer, and checkout still shows the mismatch.
    expect((await co.verify()).body.data).toMatchObject({
      status: "awaiting_transfer",
      amountMismatch: { expected: va.amount, received: "1.00" },
    });
    expect(
      (await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount })).body.data.outcome,
    ).toBe("credited");
    await expectConservation(target, s.reference);
  });

  it("an exact transfer pays a transaction the customer had switched to USSD", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    await co.ussd({ phoneNumber: "08012345678" });
    expect(
      (await transfer(api, m, { accountNumber: va.accountNumber, amount: va.amount })).body.data.outcome,
    ).toBe("credited");
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "bank_transfer",
    });
    const late = await authorize(api, m, s.reference, "approve");
    expect(late.status).toBe(409);
    await expectConservation(target, s.reference);
  });

  it("cancel → abandoned; verify and checkout verify say so", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.ussd({ phoneNumber: "08012345678" });
    const res = await co.cancel();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ reference: s.reference, status: "abandoned" });
    expect((await co.verify()).body.data.status).toBe("abandoned");
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "abandoned",
      paidAt: null,
    });
    // The customer's phone approving afterwards pays nothing.
    expect((await authorize(api, m, s.reference, "approve")).status).toBe(409);
    await expectConservation(target, s.reference);
  });
});
