import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { client, targets } from "./helpers/api";
import {
  CARDS,
  card,
  checkout,
  expectConservation,
  ISO,
  OTP,
  sharedMerchant,
  start,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

const waitForLogs = () => new Promise((r) => setTimeout(r, 300));

/** JSON with sorted keys: the request fingerprint an idempotency layer would naturally compute. */
function canonical(value: Record<string, unknown>): string {
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(value[k])}`)
    .join(",")}}`;
}

describe.each(targets)("card channel on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  it("4242 4242 4242 4242 succeeds: verify reports card, cardFee and cardTotal", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "5000" });
    expect(s.cardFee).toBe("175.00");
    expect(s.cardTotal).toBe("5175.00");
    const co = checkout(api, s);
    const res = await co.card(card(CARDS.success));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "success",
      reference: s.reference,
      channel: "card",
      card: { brand: "visa", last4: "4242" },
    });
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({
      status: "success",
      channel: "card",
      amount: "5000.00",
      fees: "175.00",
      total: "5175.00",
      amountSettled: "5000.00",
      paidAt: expect.stringMatching(ISO),
    });
    expect((await co.verify()).body.data).toMatchObject({
      status: "success",
      channel: "card",
      total: "5175.00",
    });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => [a.status, String(a.captured_minor)])).toEqual([["success", "517500"]]);
  });

  it("merchant bears cost: the customer pays amount, amountSettled = amount - cardFee", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "10000", merchantBearsCost: true });
    expect(s.cardFee).toBe("250.00");
    expect(s.cardTotal).toBe("10000.00");
    expect((await checkout(api, s).card(card(CARDS.success))).body.data.status).toBe("success");
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({
      status: "success",
      channel: "card",
      merchantBearsCost: true,
      total: "10000.00",
      fees: "250.00",
      amountSettled: "9750.00",
    });
    await expectConservation(target, s.reference);
  });

  it.each([
    ["card_declined", CARDS.declined],
    ["insufficient_funds", CARDS.insufficient],
    ["test_card_unknown", CARDS.unknown],
  ])("%s: failed with the reason, the transaction stays payable", async (reason, number) => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const res = await co.card(card(number));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "failed", reason, reference: s.reference });
    expect(typeof res.body.data.message).toBe("string");
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({ status: "pending", channel: null, paidAt: null, total: null });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => [a.status, a.failure_reason, a.captured_minor])).toEqual([
      ["failed", reason, null],
    ]);
  });

  it("a decline then a success on the same transaction: one credit", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    expect((await co.card(card(CARDS.declined))).body.data.reason).toBe("card_declined");
    expect((await co.card(card(CARDS.insufficient))).body.data.reason).toBe("insufficient_funds");
    const ok = await co.card(card(CARDS.success));
    expect(ok.body.data.status).toBe("success");
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "card",
    });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => a.status).sort()).toEqual(["failed", "failed", "success"]);
  });

  it("OTP card: awaiting_otp, then 123456 succeeds", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const res = await co.card(card(CARDS.otp));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "awaiting_otp", reference: s.reference });
    expect(res.body.data.card).toEqual({ brand: "visa", last4: "3220" });
    expect((await co.verify()).body.data.status).toBe("awaiting_otp");
    const otp = await co.otp(OTP);
    expect(otp.status).toBe(200);
    expect(otp.body.data).toMatchObject({ status: "success", channel: "card" });
    expect((await verify(api, m, s.reference)).body.data).toMatchObject({
      status: "success",
      channel: "card",
      total: s.cardTotal,
      fees: s.cardFee,
    });
    await expectConservation(target, s.reference);
  });

  it("a wrong OTP can be typed again, the card kept: two wrong tries answer awaiting_otp with the tries left, then 123456 succeeds", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.card(card(CARDS.otp));
    const first = await co.otp("654321");
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      status: "awaiting_otp",
      reason: "invalid_otp",
      otpTriesLeft: 2,
      card: { brand: "visa", last4: "3220" },
    });
    expect((await co.verify()).body.data.status).toBe("awaiting_otp");
    const second = await co.otp("111111");
    expect(second.body.data).toMatchObject({
      status: "awaiting_otp",
      reason: "invalid_otp",
      otpTriesLeft: 1,
    });
    const right = await co.otp(OTP);
    expect(right.body.data).toMatchObject({ status: "success", channel: "card" });
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => a.status)).toEqual(["success"]);
  });

  it("the third wrong OTP fails the attempt invalid_otp and returns to pending; the customer can pay again", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.card(card(CARDS.otp));
    expect((await co.otp("654321")).body.data).toMatchObject({ status: "awaiting_otp", otpTriesLeft: 2 });
    expect((await co.otp("654322")).body.data).toMatchObject({ status: "awaiting_otp", otpTriesLeft: 1 });
    const wrong = await co.otp("654323");
    expect(wrong.status).toBe(200);
    expect(wrong.body.data).toMatchObject({ status: "failed", reason: "invalid_otp" });
    expect((await co.verify()).body.data.status).toBe("pending");
    // The attempt is spent: the right OTP now has nothing to finish, and is told its step was answered.
    const late = await co.otp(OTP);
    expect(late.status).toBe(409);
    expect(late.body.error).toBe("step_already_answered");
    expect(late.body.message).toMatch(/did not go through, so nothing was charged/);
    // A new OTP card payment works, with three tries of its own.
    expect((await co.card(card(CARDS.otp))).body.data.status).toBe("awaiting_otp");
    expect((await co.otp("000000")).body.data).toMatchObject({ status: "awaiting_otp", otpTriesLeft: 2 });
    expect((await co.otp(OTP)).body.data.status).toBe("success");
    await expectConservation(target, s.reference);
  });

  it("an OTP with no card payment waiting answers 409 invalid_state", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const res = await checkout(api, s).otp(OTP);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ status: "failed", error: "invalid_state", message: expect.any(String) });
    expect((await verify(api, m, s.reference)).body.data.status).toBe("pending");
  });

  it("a new card payment replaces one waiting for its OTP", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    await co.card(card(CARDS.otp));
    expect((await co.card(card(CARDS.success))).body.data.status).toBe("success");
    const otp = await co.otp(OTP);
    expect(otp.status).toBe(409);
    expect(otp.body.error).toBe("invalid_state");
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.filter((a) => a.status === "success")).toHaveLength(1);
  });

  it.each([
    ["number", { number: "4242424242424241" }, "checksum"],
    ["number", { number: "4242" }, "digits"],
    ["number", { number: "4242abcd42424242" }, "digits"],
    ["expiryYear", { expiryMonth: 1, expiryYear: 2020 }, "expired"],
    ["expiryMonth", { expiryMonth: 13 }, "1 to 12"],
    ["expiryMonth", { expiryMonth: 0 }, "1 to 12"],
    ["cvv", { cvv: "12" }, "3 or 4 digits"],
    ["cvv", { cvv: "12345" }, "3 or 4 digits"],
    ["cvv", { cvv: "12a" }, "3 or 4 digits"],
  ])("refuses a bad %s (%j) with 400 validation_error naming it", async (field, override, rule) => {
    const m = await merchant();
    const s = await start(api, m);
    const res = await checkout(api, s).card(card(CARDS.success, override));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("validation_error");
    expect(res.body.message).toContain(field);
    expect(res.body.message).toContain(rule);
    const l = await expectConservation(target, s.reference);
    expect(l.attempts).toHaveLength(0);
    expect(l.tx.status).toBe("pending");
  });

  it("refuses a missing field and an unknown field", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const { cvv: _cvv, ...noCvv } = card(CARDS.success);
    const missing = await co.card(noCvv);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("cvv is required");
    const extra = await co.card({ ...card(CARDS.success), pin: "1234" });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('"pin"');
  });

  it("accepts a number with spaces and the current month as expiry", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const now = new Date();
    const res = await checkout(api, s).card(
      card("4242 4242 4242 4242", {
        expiryMonth: String(now.getUTCMonth() + 1),
        expiryYear: String(now.getUTCFullYear() % 100),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("success");
    await expectConservation(target, s.reference);
  });

  it("stores only brand, last 4 and expiry; PAN and CVV reach neither the database nor the logs", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const cvv = "8317";
    // A Luhn-invalid PAN (refused at validation) and valid ones (declined, OTP, success), all with the CVV.
    const badPan = "5555444433332221";
    await co.card(card(badPan, { cvv }));
    await co.card(card(CARDS.declined, { cvv }));
    await co.card(card(CARDS.otp, { cvv }));
    await co.otp("000000");
    await co.card(card("4242-4242-4242-4242", { cvv, expiryMonth: 7 }));
    const { attempts, tx } = await expectConservation(target, s.reference);
    expect(tx.status).toBe("success");
    expect(attempts).toHaveLength(3);
    for (const a of attempts) {
      const details = JSON.parse(a.details);
      // Card data is brand, last 4 and expiry; an OTP attempt also keeps the rail's opaque authorization id,
      // the steps answered (lib/channels/step-answers.ts) and how many wrong one-time passwords it had (a
      // count, never a code).
      for (const key of Object.keys(details))
        expect([
          "brand",
          "last4",
          "expiryMonth",
          "expiryYear",
          "authorization",
          "answered",
          "wrongOtps",
        ]).toContain(key);
      if ("answered" in details) expect(details.answered).toEqual(["otp"]);
      if ("wrongOtps" in details) expect(details.wrongOtps).toBe(1);
      if ("authorization" in details) expect(details.authorization).toMatch(/^auth_[A-Za-z0-9]+$/);
      expect(details.brand).toBe("visa");
      expect(details.last4).toMatch(/^\d{4}$/);
      const row = JSON.stringify(a);
      for (const pan of [CARDS.declined, CARDS.otp, CARDS.success]) expect(row).not.toContain(pan);
      expect(row).not.toMatch(/cvv/i);
      expect(row).not.toContain(cvv);
    }
    expect(attempts.map((a) => JSON.parse(a.details).last4).sort()).toEqual(["0002", "3220", "4242"]);
    expect(JSON.stringify(tx)).not.toContain(CARDS.success);

    await waitForLogs();
    const logs = readFileSync(target.logFile, "utf8");
    expect(logs).toContain("/v1/payment/checkout/charge/card"); // the requests were logged...
    for (const pan of [badPan, CARDS.declined, CARDS.otp, CARDS.success, "4242-4242-4242-4242"]) {
      expect(logs).not.toContain(pan);
    }
    expect(logs).not.toMatch(new RegExp(`cvv[^\\n]{0,20}${cvv}`, "i"));
    expect(logs).not.toMatch(/"otp"\s*:\s*"000000"/);
  });
  it("a double click with one Idempotency-Key charges once; a repeat replays the first answer", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const h = { "x-access-code": s.accessCode, "idempotency-key": `chk_${s.reference}` };
    const body = card(CARDS.success);
    const [a, b] = await Promise.all([
      api.post("/v1/payment/checkout/charge/card", body, h),
      api.post("/v1/payment/checkout/charge/card", body, h),
    ]);
    const answers = [a, b].map((r) => `${r.status}/${r.body.data?.status ?? r.body.error}`).sort();
    // The second click waits for nothing: it is told the first is in flight (or, if the first already
    // finished, gets its answer replayed). Either way the card is charged once.
    expect([
      ["200/success", "409/idempotency_in_progress"],
      ["200/success", "200/success"],
    ]).toContainEqual(answers);
    const again = await api.post("/v1/payment/checkout/charge/card", body, h);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.status).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.attempts).toHaveLength(1);
  });

  it("a declined card with an Idempotency-Key replays the decline; a new key pays", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const h = (key: string) => ({ "x-access-code": s.accessCode, "idempotency-key": key });
    const first = await api.post("/v1/payment/checkout/charge/card", card(CARDS.declined), h("k1"));
    expect(first.body.data.reason).toBe("card_declined");
    const replay = await api.post("/v1/payment/checkout/charge/card", card(CARDS.declined), h("k1"));
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const reused = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), h("k1"));
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe("idempotency_key_reused");
    expect(
      (await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), h("k2"))).body.data.status,
    ).toBe("success");
    const l = await expectConservation(target, s.reference);
    expect(l.attempts.map((a) => a.status).sort()).toEqual(["failed", "success"]);
  });

  it("an Idempotency-Key used on one checkout never answers for another checkout", async () => {
    // Idempotency for access-code requests is scoped to the merchant, so two customers of one merchant
    // whose pages send the same key (and the same test card) must still each be charged for their own.
    const m = await merchant();
    const a = await start(api, m);
    const b = await start(api, m);
    const key = `chk_shared_${a.reference}`;
    const first = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": a.accessCode,
      "idempotency-key": key,
    });
    expect(first.body.data).toMatchObject({ status: "success", reference: a.reference });
    const second = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": b.accessCode,
      "idempotency-key": key,
    });
    // Never A's answer (A's reference, A's card) to B's customer, and never "success" for an unpaid B.
    expect(second.body.data?.reference).not.toBe(a.reference);
    const vb = (await checkout(api, b).verify()).body.data;
    if (second.status === 200 && second.body.data.status === "success") expect(vb.status).toBe("success");
    await expectConservation(target, a.reference);
    await expectConservation(target, b.reference);
  });

  it("an Idempotency-Key on a card charge keeps no unkeyed fingerprint of the PAN and CVV", async () => {
    // docs/api.md: PAN and CVV are never stored. A plain SHA-256 of {number, expiry, cvv} is as good as
    // storing them: the last 4, brand and expiry are kept, so the rest is a small brute force.
    const m = await merchant();
    const s = await start(api, m);
    const body = card(CARDS.success, { cvv: "4821" });
    const res = await api.post("/v1/payment/checkout/charge/card", body, {
      "x-access-code": s.accessCode,
      "idempotency-key": "chk_fingerprint_probe",
    });
    expect(res.body.data.status).toBe("success");
    const rows = await testDb(target)
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("merchant_id", "=", m.id)
      .where("idempotency_key", "=", "chk_fingerprint_probe")
      .execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    const fingerprints = [canonical(body), JSON.stringify(body)].map((t) =>
      createHash("sha256").update(t).digest("hex"),
    );
    for (const f of fingerprints) expect(stored, "unkeyed SHA-256 of the card body").not.toContain(f);
    expect(stored).not.toContain(CARDS.success);
    // No field named cvv and not the CVV's digits. (Not the bare letters "cvv": the sealed answer is random
    // base64, where they turn up now and then by chance.)
    expect(stored).not.toMatch(/\\?"cvv\\?"/i);
    expect(stored).not.toContain("4821");
  });
});
