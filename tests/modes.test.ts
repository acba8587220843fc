import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { client, initialize, signup, targets } from "./helpers/api";
import { testDb } from "./helpers/db";

const base62 = (n: number) =>
  randomBytes(n * 2)
    .toString("base64")
    .replace(/[^0-9A-Za-z]/g, "")
    .slice(0, n);

/**
 * docs/api.md: test and live never see each other. The staging servers only take test keys, so the live
 * side is made in the database: a copy of the merchant's own test transaction, in live mode, with its own
 * reference and access code. Every reader must keep to the caller's mode even for the same merchant.
 */
describe.each(targets)("test and live data apart on $name", (target) => {
  const api = client(target.url);

  it("a live transaction of the same merchant is invisible to its test key, its session and checkout", async () => {
    const m = await signup(api);
    const mine = await initialize(api, m.testKey, { amount: "100", email: "modes@example.com" });
    expect(mine.status).toBe(201);
    const db = testDb(target);
    const row = await db
      .selectFrom("transactions")
      .selectAll()
      .where("reference", "=", mine.body.data.reference)
      .executeTakeFirstOrThrow();
    const live = { reference: `PAY_TXN_${base62(20)}`, accessCode: base62(27) };
    await db
      .insertInto("transactions")
      .values({
        ...row,
        id: randomUUID(),
        reference: live.reference,
        access_code: live.accessCode,
        mode: "live",
      })
      .execute();

    const key = { "x-api-key": m.testKey };
    expect((await api.get(`/v1/payment/verify/${mine.body.data.reference}`, key)).status).toBe(200);
    const verify = await api.get(`/v1/payment/verify/${live.reference}`, key);
    expect(verify.status).toBe(404);
    expect(verify.body.error).toBe("transaction_not_found");

    const list = await api.get("/v1/merchants/transactions?limit=100", {
      authorization: `Bearer ${m.accessToken}`,
    });
    expect(list.status).toBe(200);
    const references = list.body.data.transactions.map((t: { reference: string }) => t.reference);
    expect(references).toEqual([mine.body.data.reference]);

    const code = { "x-access-code": live.accessCode };
    for (const res of [
      await api.get("/v1/payment/checkout/verify", code),
      await api.get("/v1/payment/checkout/banks?country=NG", code),
      await api.post("/v1/payment/checkout/charge/bank-transfer", {}, code),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("invalid_access_code");
    }
    const page = await fetch(`${target.url}/pay/${live.accessCode}`);
    expect(page.status).toBe(404);

    // Nothing the refused calls could have written: the live row is as it was inserted.
    const after = await db
      .selectFrom("transactions")
      .select(["status", "channel", "updated_at"])
      .where("reference", "=", live.reference)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: row.status, channel: row.channel, updated_at: row.updated_at });
  });
});
