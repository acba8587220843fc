import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type ApiResponse, type Client, client, type Merchant, signup, targets } from "./helpers/api";
import { CARDS, card, checkout, type Session, start } from "./helpers/channels";
import { testDb } from "./helpers/db";

/**
 * One Idempotency-Key sent at once for refunds of two different payments: on /v1/refunds twice, and across
 * /v1/refunds, /v1/merchants/refunds and the console's /dashboard/api/refunds, which record the key with the
 * refund (lib/refunds/create-refund.ts). Exactly one refund is made per key; the other request is told the key
 * was used for another refund (422 `idempotency_key_reused`), never a 500. Raced many times, since on
 * PostgreSQL two payments' rows lock apart and both requests reach the refund's unique key together.
 */
const ROUNDS = 12;

describe.each(targets)("one Idempotency-Key raced over two refunds on $name", (target) => {
  const api = client(target.url);
  let merchant: Promise<Merchant> | undefined;
  const me = () => {
    merchant ??= signup(api, { businessName: "Refund Racer" });
    return merchant;
  };

  async function paid(m: Merchant, c: Client = api): Promise<Session> {
    const s = await start(c, m, { amount: "1000" });
    const res = await checkout(c, s).card(card(CARDS.success));
    expect(res.body.data.status, res.text).toBe("success");
    return s;
  }

  type Door = "secret key" | "session" | "console";
  function refund(m: Merchant, door: Door, reference: string, key: string): Promise<ApiResponse> {
    const body = { reference, amount: "100" };
    const headers = { "idempotency-key": key };
    if (door === "secret key") return api.post("/v1/refunds", body, { ...headers, "x-api-key": m.testKey });
    if (door === "session")
      return api.post("/v1/merchants/refunds", body, {
        ...headers,
        authorization: `Bearer ${m.accessToken}`,
      });
    return consoleRefund(m, body, key);
  }

  /** The console's refund form posts here with the session cookie and one key per confirmation. */
  async function consoleRefund(m: Merchant, body: unknown, key: string): Promise<ApiResponse> {
    const res = await fetch(`${target.url}/dashboard/api/refunds`, {
      method: "POST",
      headers: {
        origin: target.url,
        "content-type": "application/json",
        cookie: `paygate_session=${m.accessToken}`,
        "idempotency-key": key,
        "x-forwarded-for": api.address,
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  }

  async function refundsMadeWith(m: Merchant, references: string[]) {
    const rows = await testDb(target)
      .selectFrom("refunds")
      .select(["reference", "amount_minor"])
      .where("merchant_id", "=", m.id)
      .where("reference", "in", references)
      .execute();
    return rows.length;
  }

  async function race(doors: [Door, Door]) {
    const m = await me();
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await Promise.all([paid(m), paid(m)]);
      const key = `race-${randomBytes(8).toString("hex")}`;
      const answers = await Promise.all([
        refund(m, doors[0], a.reference, key),
        refund(m, doors[1], b.reference, key),
      ]);
      const seen = answers.map((r) => `${r.status} ${r.text.slice(0, 200)}`).join(" | ");
      expect(
        answers.map((r) => r.status).sort(),
        `round ${round}: one refund made, one refused: ${seen}`,
      ).toEqual([201, 422]);
      const refused = answers.find((r) => r.status === 422);
      expect(refused?.body, seen).toMatchObject({ status: "failed", error: "idempotency_key_reused" });
      expect(await refundsMadeWith(m, [a.reference, b.reference]), seen).toBe(1);
    }
  }

  it("on /v1/refunds twice at once: one 201, one 422 idempotency_key_reused, never a 500", () =>
    race(["secret key", "secret key"]));

  it("across /v1/refunds and /v1/merchants/refunds at once: one 201, one 422", () =>
    race(["secret key", "session"]));

  it("across /v1/merchants/refunds and the console at once: one 201, one 422", () =>
    race(["session", "console"]));

  it("the same refund through two doors at once is made once and answered twice", async () => {
    const m = await me();
    for (let round = 0; round < 4; round++) {
      const s = await paid(m);
      const key = `same-${randomBytes(8).toString("hex")}`;
      const answers = await Promise.all([
        refund(m, "secret key", s.reference, key),
        refund(m, "session", s.reference, key),
      ]);
      const seen = answers.map((r) => `${r.status} ${r.text.slice(0, 200)}`).join(" | ");
      expect(
        answers.map((r) => r.status),
        seen,
      ).toEqual([201, 201]);
      expect(answers[0]?.body.data.id, seen).toBe(answers[1]?.body.data.id);
      expect(await refundsMadeWith(m, [s.reference]), seen).toBe(1);
    }
  });
});
