import { existsSync, readFileSync } from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { client, type Merchant, production, signup, targets } from "./helpers/api";
import {
  card,
  checkout,
  expectConservation,
  ISO,
  SAVED_CARDS,
  sharedMerchant,
  start,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

/**
 * Customers and saved cards (docs/customers.md), on SQLite and PostgreSQL: customers made on first use (one per
 * email, also when first payments race), cards saved on the checkout with consent, and charges of a saved
 * card with the customer away (success, decline, an OTP the customer answers on the hosted page), with bad
 * input and races.
 */
const SAVED = SAVED_CARDS;

const sk = (m: Merchant) => ({ "x-api-key": m.testKey });

describe.each(targets)("customers and saved cards on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  /** A checkout that saves `number` for `email` (optional box ticked), paid; returns its verify data. */
  async function saveCard(m: Merchant, email: string, number: string = SAVED.success, extra = {}) {
    const s = await start(api, m, { email, saveCard: "optional", amount: "1000" });
    const res = await checkout(api, s).card({ ...card(number), saveCard: true, locale: "fr", ...extra });
    expect(res.status, res.text).toBe(200);
    if (res.body.data.status === "awaiting_otp") await checkout(api, s).otp("123456");
    const v = (await verify(api, m, s.reference)).body.data;
    expect(v.status).toBe("success");
    return { session: s, verified: v, code: v.authorization?.authorizationCode as string };
  }

  const charge = (m: Merchant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.post("/v1/payment/charge-authorization", body, { ...sk(m), ...headers });

  const emailOf = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  describe("customers", () => {
    it("POST /customers makes one per email: 201 new, 200 with the same customer unchanged in any casing", async () => {
      const m = await merchant();
      const email = emailOf("ada");
      const made = await api.post(
        "/v1/customers",
        { email, name: "Ada Obi", phone: "+234 803 123 4567", metadata: { tier: "gold" } },
        sk(m),
      );
      expect(made.status).toBe(201);
      expect(made.body.data).toMatchObject({
        code: expect.stringMatching(/^CUS_[0-9A-Z]{20}$/),
        email,
        name: "Ada Obi",
        phone: "+2348031234567",
        metadata: { tier: "gold" },
        createdAt: expect.stringMatching(ISO),
        authorizations: [],
      });
      const again = await api.post("/v1/customers", { email: email.toUpperCase(), name: "Other" }, sk(m));
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(made.body.data);
      // GET by code, by email (any casing), PATCH (null clears, a field left out stays).
      const code = made.body.data.code;
      expect((await api.get(`/v1/customers/${code}`, sk(m))).body.data).toEqual(made.body.data);
      const found = await api.get(`/v1/customers?email=${encodeURIComponent(email.toUpperCase())}`, sk(m));
      expect(found.body.data).toEqual({ customers: [made.body.data], nextCursor: null });
      const patched = await api.request("PATCH", `/v1/customers/${code}`, {
        body: { phone: null, metadata: { tier: "silver" } },
        headers: sk(m),
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ name: "Ada Obi", phone: null, metadata: { tier: "silver" } });
      // The same with a session token, under /merchants.
      const console = { authorization: `Bearer ${m.accessToken}` };
      expect((await api.get(`/v1/merchants/customers/${code}`, console)).body.data.phone).toBeNull();
    });

    it("another merchant's customer, a malformed code or body: 404 and 400s naming the field", async () => {
      const m = await merchant();
      const other = await signup(api);
      const made = await api.post("/v1/customers", { email: emailOf("x") }, sk(m));
      const code = made.body.data.code;
      const foreign = await api.get(`/v1/customers/${code}`, sk(other));
      expect([foreign.status, foreign.body.error]).toEqual([404, "customer_not_found"]);
      const unknown = await api.get("/v1/customers/CUS_00000000000000000000", sk(m));
      expect(unknown.body.error).toBe("customer_not_found");
      const bad = await api.get("/v1/customers/cus_123", sk(m));
      expect([bad.status, bad.body.error]).toEqual([400, "validation_error"]);
      for (const body of [
        {},
        { email: "not-an-email" },
        { email: "a@b.co", name: "" },
        { email: "a@b.co", extra: 1 },
      ]) {
        const res = await api.post("/v1/customers", body, sk(m));
        expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, "validation_error"]);
      }
      const email = await api.request("PATCH", `/v1/customers/${code}`, {
        body: { email: "new@example.com" },
        headers: sk(m),
      });
      expect(email.body.message).toMatch(/email/);
    });

    it("lists newest first with the keyset cursor", async () => {
      const m = await signup(api);
      const codes: string[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await api.post("/v1/customers", { email: emailOf(`l${i}`) }, sk(m))).body.data.code);
      const first = await api.get("/v1/customers?limit=2", sk(m));
      const second = await api.get(`/v1/customers?limit=2&cursor=${first.body.data.nextCursor}`, sk(m));
      const third = await api.get(`/v1/customers?limit=2&cursor=${second.body.data.nextCursor}`, sk(m));
      const seen = [first, second, third].flatMap((r) =>
        r.body.data.customers.map((c: { code: string }) => c.code),
      );
      expect(seen).toEqual([...codes].reverse());
      expect(third.body.data.nextCursor).toBeNull();
      expect((await api.get("/v1/customers?cursor=bad", sk(m))).body.error).toBe("validation_error");
    });

    it("every payment with an email belongs to its customer; first payments of a new email at once make one", async () => {
      const m = await merchant();
      const email = emailOf("race");
      const sessions = await Promise.all(
        Array.from({ length: 8 }, (_, i) => start(api, m, { email: i % 2 ? email.toUpperCase() : email })),
      );
      const codes = new Set<string>();
      for (const s of sessions) codes.add((await verify(api, m, s.reference)).body.data.customer.code);
      expect(codes.size).toBe(1);
      const [code] = [...codes];
      expect(code).toMatch(/^CUS_/);
      const rows = await testDb(target)
        .selectFrom("customers")
        .selectAll()
        .where("merchant_id", "=", m.id)
        .where("email_key", "=", email.toLowerCase())
        .execute();
      expect(rows.map((r) => r.id)).toEqual([code]);
      // Without an email, no customer.
      const anonymous = await start(api, m, { email: null });
      expect((await verify(api, m, anonymous.reference)).body.data.customer).toEqual({
        code: null,
        email: null,
        name: null,
      });
    });
  });

  describe("saving a card on the checkout", () => {
    it("optional, ticked: the card becomes the customer's authorization, with the consent kept", async () => {
      const m = await merchant();
      const email = emailOf("save");
      const { session, verified, code } = await saveCard(m, email);
      expect(verified.authorization).toMatchObject({
        authorizationCode: expect.stringMatching(/^AUTH_[0-9A-Z]{20}$/),
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        reusable: true,
        status: "active",
        bank: "Paygate Sandbox Bank",
        lastUsedAt: null,
      });
      const customer = (await api.get(`/v1/customers/${verified.customer.code}`, sk(m))).body.data;
      expect(customer.authorizations).toEqual([verified.authorization]);
      const consents = await testDb(target)
        .selectFrom("card_consents")
        .selectAll()
        .where("authorization_id", "=", code)
        .execute();
      expect(consents).toHaveLength(1);
      expect(consents[0]).toMatchObject({ kind: "optional", locale: "fr" });
      expect(consents[0]?.text).toContain("Enregistrer cette carte pour de futurs paiements à Test Shop");
      expect(consents[0]?.client_address).toBe(api.address);
      // payment.completed names the customer and the card.
      const events = await api.get(`/v1/events?reference=${session.reference}&type=payment.completed`, sk(m));
      expect(events.body.data.events[0].payload.data).toMatchObject({
        customer: { code: verified.customer.code, email },
        authorization: { authorizationCode: code, last4: "4242" },
      });
    });

    it("optional, not ticked: nothing is saved; required: only card is offered and the card is saved", async () => {
      const m = await merchant();
      const email = emailOf("req");
      const unticked = await start(api, m, { email, saveCard: "optional" });
      await checkout(api, unticked).card(card(SAVED.success));
      expect((await verify(api, m, unticked.reference)).body.data.authorization).toBeNull();

      const required = await start(api, m, { email, saveCard: "required" });
      expect(required.channels).toEqual(["card"]);
      expect((await checkout(api, required).card(card(SAVED.success))).body.data.status).toBe("success");
      const v = (await verify(api, m, required.reference)).body.data;
      expect(v.authorization.status).toBe("active");
      const consent = await testDb(target)
        .selectFrom("card_consents")
        .selectAll()
        .where("authorization_id", "=", v.authorization.authorizationCode)
        .executeTakeFirstOrThrow();
      expect(consent.kind).toBe("required");
      expect(consent.text).toContain("This card will be saved, and Test Shop will charge it later");
    });

    it("the same card saved again is the same authorization; another card is a second one", async () => {
      const m = await merchant();
      const email = emailOf("twice");
      const first = await saveCard(m, email);
      const again = await saveCard(m, email.toUpperCase(), SAVED.success, {
        expiryYear: new Date().getUTCFullYear() + 5,
      });
      expect(again.code).toBe(first.code);
      expect(again.verified.authorization.expYear).toBe(new Date().getUTCFullYear() + 5);
      const other = await saveCard(m, email, SAVED.second);
      expect(other.code).not.toBe(first.code);
      expect(other.verified.authorization.brand).toBe("mastercard");
      const customer = (await api.get(`/v1/customers/${first.verified.customer.code}`, sk(m))).body.data;
      expect(customer.authorizations.map((a: { authorizationCode: string }) => a.authorizationCode)).toEqual([
        other.code,
        first.code,
      ]);
      // Two consents for the first card, one for the second.
      const consents = await testDb(target)
        .selectFrom("card_consents")
        .select("authorization_id")
        .where("authorization_id", "in", [first.code, other.code])
        .execute();
      expect(consents.filter((c) => c.authorization_id === first.code)).toHaveLength(2);
    });

    it("a card that asks for an OTP is saved once the OTP pays it", async () => {
      const m = await merchant();
      const { verified } = await saveCard(m, emailOf("otp"), SAVED.otp);
      expect(verified.authorization.last4).toBe("3220");
    });

    it("refuses saveCard without an email, and a ticked box on a payment that offers none", async () => {
      const m = await merchant();
      const noEmail = await api.post(
        "/v1/payment/initialize",
        { amount: "100", saveCard: "optional" },
        sk(m),
      );
      expect([noEmail.status, noEmail.body.error]).toEqual([400, "email_required"]);
      const bad = await api.post(
        "/v1/payment/initialize",
        { amount: "100", email: "a@b.co", saveCard: "always" },
        sk(m),
      );
      expect(bad.body.message).toMatch(/saveCard/);
      const plain = await start(api, m);
      const ticked = await checkout(api, plain).card({ ...card(SAVED.success), saveCard: true });
      expect([ticked.status, ticked.body.error]).toEqual([400, "validation_error"]);
      expect(ticked.body.message).toMatch(/saveCard/);
      expect((await checkout(api, plain).verify()).body.data.status).toBe("pending");
    });
  });

  describe("charging a saved card with the customer away", () => {
    it("succeeds: fees as for a card payment, verify, events and a refund as for any card payment", async () => {
      const m = await merchant();
      const { code, verified: saved } = await saveCard(m, emailOf("charge"));
      const res = await charge(m, { authorizationCode: code, amount: "5000", description: "November" });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data).toMatchObject({
        reference: expect.stringMatching(/^PAY_TXN_/),
        status: "success",
        amount: "5000.00",
        fees: "175.00",
        total: "5175.00",
        currency: "NGN",
        authorization: { authorizationCode: code, status: "active", lastUsedAt: expect.stringMatching(ISO) },
      });
      expect(res.body.data.checkoutUrl).toBeUndefined();
      const v = (await verify(api, m, res.body.data.reference)).body.data;
      expect(v).toMatchObject({
        status: "success",
        channel: "card",
        fees: "175.00",
        total: "5175.00",
        customer: { code: saved.customer.code, email: saved.customer.email },
        authorization: { authorizationCode: code },
      });
      const events = await api.get(`/v1/events?reference=${res.body.data.reference}`, sk(m));
      expect(events.body.data.events.map((e: { type: string }) => e.type).sort()).toEqual([
        "checkout.completed",
        "payment.completed",
      ]);
      const refund = await api.post(
        "/v1/refunds",
        { reference: res.body.data.reference, amount: "1000" },
        sk(m),
      );
      expect(refund.status).toBe(201);
      await expectConservation(target, res.body.data.reference);
    });

    it("the card that declines later: failed with the reason, the payment failed, payment.failed sent", async () => {
      const m = await merchant();
      const { code } = await saveCard(m, emailOf("declines"), SAVED.declinesLater);
      const res = await charge(m, { authorizationCode: code, amount: "2500" });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ status: "failed", reason: "card_declined" });
      expect((await verify(api, m, res.body.data.reference)).body.data.status).toBe("failed");
      const events = await api.get(
        `/v1/events?reference=${res.body.data.reference}&type=payment.failed`,
        sk(m),
      );
      expect(events.body.data.events).toHaveLength(1);
      await expectConservation(target, res.body.data.reference);
      // The card stays active: a later charge is tried again (and declined again).
      expect((await charge(m, { authorizationCode: code, amount: "2500" })).body.data.reason).toBe(
        "card_declined",
      );
    });

    it("the card that asks for an OTP: requires_action, the customer finishes on the hosted page", async () => {
      const m = await merchant();
      const { code } = await saveCard(m, emailOf("otp-later"), SAVED.otpLater);
      const res = await charge(m, { authorizationCode: code, amount: "3000" });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        status: "requires_action",
        checkoutUrl: expect.stringMatching(/\/pay\/[A-Za-z0-9]+$/),
        accessCode: expect.any(String),
      });
      const { reference, accessCode } = res.body.data;
      expect((await verify(api, m, reference)).body.data.status).toBe("pending");
      const co = checkout(api, { accessCode });
      expect((await co.verify()).body.data).toMatchObject({
        status: "pending",
        action: { channel: "card", step: "otp" },
      });
      // No card to send on this page: only the answer.
      expect((await co.card(card(SAVED.success))).body.error).toBe("invalid_state");
      const paid = await co.otp("123456");
      expect(paid.body.data).toMatchObject({ status: "success", card: { last4: "3184" } });
      expect((await verify(api, m, reference)).body.data).toMatchObject({
        status: "success",
        channel: "card",
      });
      await expectConservation(target, reference);
      // A wrong OTP is typed again, as on any card payment; the third wrong one ends the charge.
      const again = await charge(m, { authorizationCode: code, amount: "3000" });
      const page = checkout(api, { accessCode: again.body.data.accessCode });
      expect((await page.otp("000000")).body.data).toMatchObject({
        status: "awaiting_otp",
        reason: "invalid_otp",
        otpTriesLeft: 2,
      });
      expect((await page.otp("000001")).body.data).toMatchObject({ status: "awaiting_otp", otpTriesLeft: 1 });
      const wrong = await page.otp("000002");
      expect(wrong.body.data).toMatchObject({ status: "failed", reason: "invalid_otp" });
      expect((await verify(api, m, again.body.data.reference)).body.data.status).toBe("failed");
    });

    it("unknown, another merchant's or another mode's code: 404; deactivated or expired: 409", async () => {
      const m = await merchant();
      const other = await signup(api);
      const { code } = await saveCard(m, emailOf("codes"));
      const notFound = (res: { status: number; body: { error?: string } }) => [res.status, res.body.error];
      expect(
        notFound(await charge(m, { authorizationCode: "AUTH_00000000000000000000", amount: "100" })),
      ).toEqual([404, "authorization_not_found"]);
      expect(notFound(await charge(other, { authorizationCode: code, amount: "100" }))).toEqual([
        404,
        "authorization_not_found",
      ]);
      const live = client(production.url);
      const liveMerchant = await signup(live);
      expect(
        notFound(
          await live.post(
            "/v1/payment/charge-authorization",
            { authorizationCode: code, amount: "100" },
            { "x-api-key": liveMerchant.liveKey },
          ),
        ),
      ).toEqual([404, "authorization_not_found"]);
      expect(notFound(await api.post(`/v1/authorizations/${code}/deactivate`, {}, sk(other)))).toEqual([
        404,
        "authorization_not_found",
      ]);
      const off = await api.post(`/v1/authorizations/${code}/deactivate`, {}, sk(m));
      expect(off.body.data).toMatchObject({ authorizationCode: code, status: "deactivated" });
      expect((await api.post(`/v1/authorizations/${code}/deactivate`, {}, sk(m))).body.data.status).toBe(
        "deactivated",
      );
      expect(notFound(await charge(m, { authorizationCode: code, amount: "100" }))).toEqual([
        409,
        "authorization_inactive",
      ]);

      // Expiry by the card's clock: saved with this month's expiry, then a month on.
      const now = new Date();
      const { code: soon } = await saveCard(m, emailOf("expiry"), SAVED.success, {
        expiryMonth: now.getUTCMonth() + 1,
        expiryYear: now.getUTCFullYear(),
      });
      expect((await charge(m, { authorizationCode: soon, amount: "100" })).body.data.status).toBe("success");
      const moved = await api.post(
        "/v1/sandbox/clock/advance",
        { authorization: soon, seconds: 32 * 86_400 },
        sk(m),
      );
      expect(moved.body.data).toMatchObject({ authorizationCode: soon, status: "expired" });
      expect(notFound(await charge(m, { authorizationCode: soon, amount: "100" }))).toEqual([
        409,
        "authorization_inactive",
      ]);
      const both = await api.post(
        "/v1/sandbox/clock/advance",
        { authorization: soon, reference: "PAY_TXN_X", seconds: 1 },
        sk(m),
      );
      expect(both.body.error).toBe("validation_error");
    });

    it("validates the amount and currency as initialize does", async () => {
      const m = await merchant();
      const { code } = await saveCard(m, emailOf("valid"));
      for (const body of [
        { authorizationCode: code, amount: 5000 },
        { authorizationCode: code, amount: "0" },
        { authorizationCode: code, amount: "10.001" },
        { authorizationCode: code, amount: "-1" },
        { authorizationCode: code, amount: "100000000.01" },
        { authorizationCode: code, amount: "100", currency: "EUR" },
        { authorizationCode: code, amount: "100", reference: "order-1" },
        { authorizationCode: "AUTH_x", amount: "100" },
        { authorizationCode: code, amount: "100", extra: true },
        { amount: "100" },
      ]) {
        const res = await charge(m, body);
        expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, "validation_error"]);
      }
      const usd = await charge(m, { authorizationCode: code, amount: "10.50", currency: "USD" });
      expect(usd.body.data).toMatchObject({ status: "success", currency: "USD", amount: "10.50" });
    });

    it("one Idempotency-Key charges once however many ask at once; different keys each charge once", async () => {
      const m = await merchant();
      const { code } = await saveCard(m, emailOf("idem"));
      const body = { authorizationCode: code, amount: "700" };
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => charge(m, body, { "idempotency-key": `sub-${code}-1` })),
      );
      for (const a of answers) expect([201, 409]).toContain(a.status);
      const references = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.reference));
      expect(references.size).toBe(1);
      const replay = await charge(m, body, { "idempotency-key": `sub-${code}-1` });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.data.reference).toBe([...references][0]);
      const reused = await charge(m, { ...body, amount: "800" }, { "idempotency-key": `sub-${code}-1` });
      expect(reused.body.error).toBe("idempotency_key_reused");

      const distinct = await Promise.all(
        Array.from({ length: 5 }, (_, i) => charge(m, body, { "idempotency-key": `sub-${code}-k${i}` })),
      );
      expect(new Set(distinct.map((d) => d.body.data.reference)).size).toBe(5);
      for (const d of distinct) {
        expect(d.body.data.status).toBe("success");
        const l = await expectConservation(target, d.body.data.reference);
        expect(l.attempts).toHaveLength(1);
      }
      const rows = await testDb(target)
        .selectFrom("transactions")
        .select("id")
        .where("authorization_id", "=", code)
        .where("merchant_initiated", "=", 1)
        .execute();
      expect(rows).toHaveLength(6);
    });

    it("a caller's reference charges once: the same again answers the first charge; another use is refused", async () => {
      const m = await merchant();
      const { code } = await saveCard(m, emailOf("ref"));
      const reference = `PAY_TXN_INV${Date.now()}${Math.floor(Math.random() * 1e6)}`;
      const body = { authorizationCode: code, amount: "1200", reference };
      const racing = await Promise.all(Array.from({ length: 4 }, () => charge(m, body)));
      for (const r of racing) {
        expect(r.status, r.text).toBe(201);
        expect(r.body.data.reference).toBe(reference);
        expect(["success", "pending"]).toContain(r.body.data.status);
      }
      const later = await charge(m, body);
      expect(later.body.data.status).toBe("success");
      const l = await expectConservation(target, reference);
      expect(l.attempts).toHaveLength(1);
      expect((await charge(m, { ...body, amount: "1300" })).body.error).toBe("reference_in_use");
      const other = await signup(api);
      const { code: otherCode } = await saveCard(other, emailOf("ref-other"));
      const taken = await charge(other, { authorizationCode: otherCode, amount: "1200", reference });
      expect([taken.status, taken.body.error]).toEqual([409, "reference_in_use"]);
    });
  });

  it("no card number or CVV is stored or logged, saved or not: every database file and the log are read", async () => {
    const m = await merchant();
    const cvv = "7391";
    const email = emailOf("pan");
    const numbers = [SAVED.success, SAVED.second, SAVED.declinesLater, SAVED.otpLater];
    for (const number of numbers) await saveCard(m, email, number, { cvv });
    const plain = await start(api, m, { email });
    await checkout(api, plain).card(card(SAVED.otp, { cvv }));
    await new Promise((r) => setTimeout(r, 300));
    const haystacks: Array<[string, string]> = [["log", readFileSync(target.logFile, "latin1")]];
    if (target.databaseUrl.startsWith("file:")) {
      const file = target.databaseUrl.slice("file:".length);
      for (const part of [file, `${file}-wal`])
        if (existsSync(part)) haystacks.push([part, readFileSync(part).toString("latin1")]);
    } else {
      const db = testDb(target);
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
      expect(tables.rows.length).toBeGreaterThan(20);
      for (const { table_name } of tables.rows) {
        const rows = await sql<{
          row: string;
        }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
        haystacks.push([table_name, rows.rows.map((r) => r.row).join("\n")]);
      }
    }
    expect(haystacks.some(([, text]) => text.includes("Paygate Sandbox Bank"))).toBe(true);
    for (const [where, text] of haystacks) {
      for (const number of [...numbers, SAVED.otp])
        expect(text.includes(number), `${number} in ${where}`).toBe(false);
      expect(new RegExp(`"?cvv"?\\s*[:=]\\s*"?${cvv}`).test(text), `the CVV in ${where}`).toBe(false);
    }
  });
});
