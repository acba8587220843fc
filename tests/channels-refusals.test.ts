import { describe, expect, it } from "vitest";
import {
  type ApiResponse,
  type Client,
  client,
  initialize,
  type Merchant,
  signup,
  targets,
} from "./helpers/api";
import {
  authorize,
  CARDS,
  card,
  checkout,
  expectConservation,
  OTP,
  type Session,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

type Co = ReturnType<typeof checkout>;

/** Every action a customer (or the sandbox) can take on a checkout. */
const ACTIONS: [string, (co: Co, api: Client, m: Merchant, s: Session) => Promise<ApiResponse>][] = [
  ["card", (co) => co.card(card(CARDS.success))],
  ["card otp", (co) => co.otp(OTP)],
  ["bank transfer", (co) => co.bankTransfer()],
  ["bank payment", (co) => co.bankPayment("058")],
  ["ussd", (co) => co.ussd({ phoneNumber: "08012345678" })],
  ["simulate success", (co) => co.simulate("success")],
  ["simulate failed", (co) => co.simulate("failed")],
  ["simulate abandoned", (co) => co.simulate("abandoned")],
  ["cancel", (co) => co.cancel()],
  ["sandbox approve", (_co, api, m, s) => authorize(api, m, s.reference, "approve")],
];

/** Ways a transaction can finish, each leaving a bank payment request and an open account behind. */
const ENDINGS: [string, (co: Co, api: Client, m: Merchant, s: Session) => Promise<unknown>][] = [
  ["success", async (co) => expect((await co.card(card(CARDS.success))).body.data.status).toBe("success")],
  ["failed", async (co) => expect((await co.simulate("failed")).body.data.status).toBe("failed")],
  ["abandoned", async (co) => expect((await co.cancel()).body.data.status).toBe("abandoned")],
];

describe.each(targets)("checkout refusals on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  it.each(ENDINGS)("every charge on a %s transaction answers 409 invalid_state", async (end, finish) => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const va = (await co.bankTransfer()).body.data;
    await co.bankPayment("058");
    await finish(co, api, m, s);
    const before = (await verify(api, m, s.reference)).body.data;
    expect(before.status).toBe(end);
    for (const [name, act] of ACTIONS) {
      const res = await act(co, api, m, s);
      expect({ action: name, status: res.status, error: res.body?.error }).toEqual({
        action: name,
        status: 409,
        error: "invalid_state",
      });
      expect(res.body.message, name).toContain(end);
    }
    // Nothing changed: not the status, not the payment, not the account.
    expect((await verify(api, m, s.reference)).body.data).toEqual(before);
    const l = await expectConservation(target, s.reference);
    expect(l.accounts.map((a) => a.account_number)).toEqual([va.accountNumber]);
    expect(l.attempts.filter((a) => a.status === "success")).toHaveLength(end === "success" ? 1 : 0);
  });

  it("400 channel_unavailable for each channel the merchant disabled", async () => {
    const m = await signup(api);
    const put = await api.put(
      "/v1/merchants/settings",
      { channels: ["card"] },
      { authorization: `Bearer ${m.accessToken}` },
    );
    expect(put.status).toBe(200);
    const s = await start(api, m);
    expect(s.channels).toEqual(["card"]);
    const co = checkout(api, s);
    for (const [name, res] of [
      ["bank transfer", await co.bankTransfer()],
      ["simulate success", await co.simulate("success")],
      // A simulated transfer that fails or is abandoned is still a bank transfer: not on a card-only payment.
      ["simulate failed", await co.simulate("failed")],
      ["simulate abandoned", await co.simulate("abandoned")],
      ["bank payment", await co.bankPayment("058")],
      ["ussd", await co.ussd({ phoneNumber: "08012345678" })],
    ] as const) {
      expect({ name, status: res.status, error: res.body.error }).toEqual({
        name,
        status: 400,
        error: "channel_unavailable",
      });
    }
    expect((await co.verify()).body.data.status).toBe("pending");
    expect(
      (
        await testDb(target)
          .selectFrom("virtual_accounts")
          .select("id")
          .where("merchant_id", "=", m.id)
          .execute()
      ).length,
    ).toBe(0);
    // The enabled channel still works.
    expect((await co.card(card(CARDS.success))).body.data.status).toBe("success");
    await expectConservation(target, s.reference);

    // And the other way round: card disabled, transfers allowed.
    await api.put(
      "/v1/merchants/settings",
      { channels: ["bank_transfer", "ussd"] },
      { authorization: `Bearer ${m.accessToken}` },
    );
    const t = await start(api, m);
    const co2 = checkout(api, t);
    const cardRes = await co2.card(card(CARDS.success));
    expect(cardRes.status).toBe(400);
    expect(cardRes.body.error).toBe("channel_unavailable");
    const bp = await co2.bankPayment("058");
    expect(bp.status).toBe(400);
    expect(bp.body.error).toBe("channel_unavailable");
    expect((await co2.bankTransfer()).status).toBe(200);
    expect((await co2.ussd({ phoneNumber: "08012345678" })).status).toBe(200);
    await expectConservation(target, t.reference);
  });

  it("400 email_required for bank transfer without an email on initialize", async () => {
    const m = await merchant();
    const res = await initialize(api, m.testKey, { amount: "5000" });
    const s = res.body.data;
    const co = checkout(api, s);
    const bt = await co.bankTransfer();
    expect(bt.status).toBe(400);
    expect(bt.body).toEqual({
      status: "failed",
      error: "email_required",
      message: expect.stringContaining("email"),
    });
    for (const scenario of ["success", "failed", "abandoned"]) {
      const sim = await co.simulate(scenario);
      expect({ scenario, status: sim.status, error: sim.body.error }).toEqual({
        scenario,
        status: 400,
        error: "email_required",
      });
    }
    expect((await co.verify()).body.data.status).toBe("pending");
    // Other channels need no email.
    expect((await co.card(card(CARDS.success))).body.data.status).toBe("success");
    await expectConservation(target, s.reference);
  });

  it("401 invalid_access_code on every checkout action with a missing, unknown or expired code", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const bad = checkout(api, { accessCode: "A".repeat(27) });
    for (const [name, act] of ACTIONS.filter(([n]) => n !== "sandbox approve")) {
      const res = await act(bad, api, m, s);
      expect({ name, status: res.status, error: res.body?.error }).toEqual({
        name,
        status: 401,
        error: "invalid_access_code",
      });
    }
    const none = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success));
    expect(none.status).toBe(401);
    expect(none.body.error).toBe("invalid_access_code");
    // The secret key is not an access code.
    const key = await api.post(
      "/v1/payment/checkout/charge/bank-transfer",
      {},
      { "x-access-code": m.testKey },
    );
    expect(key.status).toBe(401);

    await testDb(target)
      .updateTable("transactions")
      .set({ access_expires_at: Date.now() - 1000 })
      .where("reference", "=", s.reference)
      .execute();
    const co = checkout(api, s);
    for (const res of [
      await co.card(card(CARDS.success)),
      await co.bankTransfer(),
      await co.simulate("success"),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_access_code");
    }
    expect((await verify(api, m, s.reference)).body.data.status).toBe("pending");
    await expectConservation(target, s.reference);
  });

  it("sandbox doors refuse a missing key with 401 and a live key on staging with 401", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const noKey = await api.post("/v1/sandbox/authorizations", {
      reference: s.reference,
      decision: "approve",
    });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toBe("invalid_api_key");
    const live = await api.post(
      "/v1/sandbox/authorizations",
      { reference: s.reference, decision: "approve" },
      { "x-api-key": m.liveKey },
    );
    expect(live.status).toBe(401);
    expect(live.body.error).toBe("invalid_api_key");
    const acc = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: "0123456789", amount: "10" },
      { "x-access-code": s.accessCode },
    );
    expect(acc.status).toBe(401);
  });

  it("sandbox transfer validation names the field", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const va = (await checkout(api, s).bankTransfer()).body.data;
    for (const [field, body] of [
      ["accountNumber", { accountNumber: "123", amount: "10" }],
      ["amount", { accountNumber: va.accountNumber, amount: "-5" }],
      ["amount", { accountNumber: va.accountNumber, amount: "1.234" }],
      ["amount", { accountNumber: va.accountNumber, amount: 5050 }],
      ["sessionId", { accountNumber: va.accountNumber, amount: "10", sessionId: "has space" }],
    ] as const) {
      const res = await transfer(api, m, body as never);
      expect({ field, status: res.status, error: res.body.error }).toEqual({
        field,
        status: 400,
        error: "validation_error",
      });
      expect(res.body.message).toContain(field);
    }
    const l = await expectConservation(target, s.reference);
    expect(l.inbound).toHaveLength(0);
    expect(l.tx.status).toBe("awaiting_transfer");
  });
});
