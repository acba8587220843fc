import { describe, expect, it } from "vitest";
import { client, failure, production, signup, targets } from "./helpers/api";
import {
  CARDS,
  card,
  checkout,
  expectConservation,
  sharedMerchant,
  start,
  transfer,
} from "./helpers/channels";

/**
 * What a QA engineer holding only a test key can do (docs/testing.md): move one transaction's clock
 * (POST /v1/sandbox/clock/advance) and read the events a webhook would carry (GET /v1/events, /v1/events/{id}).
 */
describe.each(targets)("QA tools in test mode on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  const advance = (key: string, body: unknown) =>
    api.post("/v1/sandbox/clock/advance", body, { "x-api-key": key });

  it("advancing past a transfer window expires the account at once: a new one is issued, the old one's money is a late payment", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const co = checkout(api, s);
    const first = (await co.bankTransfer()).body.data;
    expect(first.expiresInSeconds).toBeGreaterThan(1700);

    const moved = await advance(m.testKey, { reference: s.reference, seconds: 1_800 });
    expect(moved.status).toBe(200);
    // Answered as verify: the checkout (which lives a day) is still open, only the account's window ended.
    expect(moved.body.data).toMatchObject({
      reference: s.reference,
      status: "awaiting_transfer",
      paidAt: null,
    });

    const fresh = (await co.bankTransfer()).body.data;
    expect(fresh.accountNumber).not.toBe(first.accountNumber);
    expect(fresh.expiresInSeconds).toBeGreaterThan(1700);

    const late = await transfer(api, m, { accountNumber: first.accountNumber, amount: first.amount });
    expect(late.status).toBe(200);
    expect(late.body.data.outcome).toBe("late_payment");
    const v = (await api.get(`/v1/payment/verify/${s.reference}`, { "x-api-key": m.testKey })).body.data;
    expect(v.status).toBe("awaiting_transfer");
    await expectConservation(target, s.reference);
  });

  it("advancing part of a window brings its countdown that much closer, and moves nothing else", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const other = await start(api, m);
    const co = checkout(api, s);
    const before = (await co.bankTransfer()).body.data;
    const otherBefore = (await checkout(api, other).bankTransfer()).body.data;
    expect((await advance(m.testKey, { reference: s.reference, seconds: 600 })).status).toBe(200);

    const after = (await co.bankTransfer()).body.data;
    expect(after.accountNumber).toBe(before.accountNumber);
    expect(Date.parse(before.expiresAt) - Date.parse(after.expiresAt)).toBe(600_000);
    expect(after.expiresInSeconds).toBeLessThanOrEqual(before.expiresInSeconds - 599);
    const otherAfter = (await checkout(api, other).bankTransfer()).body.data;
    expect(otherAfter.expiresAt).toBe(otherBefore.expiresAt);
  });

  it("advancing past the checkout's expiry ends it abandoned at once, with checkout.completed readable by the key", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const moved = await advance(m.testKey, { reference: s.reference, seconds: 2 * 24 * 3600 });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ reference: s.reference, status: "abandoned" });
    // The access code has expired with it.
    expect((await checkout(api, s).verify()).status).toBe(401);

    const events = await api.get(`/v1/events?reference=${s.reference}&type=checkout.completed`, {
      "x-api-key": m.testKey,
    });
    expect(events.status).toBe(200);
    expect(events.body.data.events).toHaveLength(1);
    const [event] = events.body.data.events;
    expect(event).toMatchObject({
      type: "checkout.completed",
      reference: s.reference,
      payload: { data: { reference: s.reference, status: "abandoned" } },
    });
    // Advancing a finished transaction changes nothing: no second event.
    expect((await advance(m.testKey, { reference: s.reference, seconds: 60 })).body.data.status).toBe(
      "abandoned",
    );
    const again = await api.get(`/v1/events?reference=${s.reference}`, { "x-api-key": m.testKey });
    expect(
      again.body.data.events.filter((e: { type: string }) => e.type === "checkout.completed"),
    ).toHaveLength(1);
  });

  it("a card payment still at the network is left to the network's answer", async () => {
    const m = await merchant();
    const s = await start(api, m);
    const paid = await checkout(api, s).card(card(CARDS.success));
    expect(paid.body.data.status).toBe("success");
    const moved = await advance(m.testKey, { reference: s.reference, seconds: 3 * 24 * 3600 });
    expect(moved.body.data.status).toBe("success");
  });

  it("refuses bad input with validation_error naming the field", async () => {
    const m = await merchant();
    const s = await start(api, m);
    for (const [body, field] of [
      [{ reference: s.reference, seconds: 0 }, "seconds"],
      [{ reference: s.reference, seconds: 1.5 }, "seconds"],
      [{ reference: s.reference, seconds: "60" }, "seconds"],
      [{ reference: s.reference, seconds: 40 * 24 * 3600 }, "seconds"],
      [{ reference: "nope", seconds: 60 }, "reference"],
      [{ seconds: 60 }, "reference"],
    ] as const) {
      const res = await advance(m.testKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(failure(res).error).toBe("validation_error");
      expect(res.body.message).toContain(field);
    }
  });

  it("money sent to the sandbox's unknown account comes back by an automatic refund only its sender sees", async () => {
    const m = await signup(api);
    const other = await signup(api);
    const sent = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: "9999999999", amount: "1234.00", sessionId: "qa-unknown-1" },
      { "x-api-key": m.testKey },
    );
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ outcome: "unknown_account", reference: null, replayed: false });
    const refunds = (await api.get("/v1/refunds", { "x-api-key": m.testKey })).body.data.refunds;
    expect(refunds).toEqual([
      expect.objectContaining({
        type: "automatic",
        reason: "unknown_account",
        reference: null,
        amount: "1234.00",
        status: "pending",
      }),
    ]);
    // The sandbox bank settles it like any refund; nobody else sees it.
    const settled = await api.post(
      `/v1/sandbox/refunds/${refunds[0].id}`,
      { outcome: "processed" },
      { "x-api-key": m.testKey },
    );
    expect(settled.body.data.status).toBe("processed");
    expect((await api.get("/v1/refunds", { "x-api-key": other.testKey })).body.data.refunds).toEqual([]);
    // Any other number that is not one of the merchant's accounts is still refused.
    const typo = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: "9999999998", amount: "10.00" },
      { "x-api-key": m.testKey },
    );
    expect(failure(typo).error).toBe("transaction_not_found");
  });

  it("another merchant's reference is unknown; a live key is refused (this staging deployment takes test keys only)", async () => {
    const m = await merchant();
    const other = await signup(api);
    const s = await start(api, m);
    const res = await advance(other.testKey, { reference: s.reference, seconds: 60 });
    expect(res.status).toBe(404);
    expect(failure(res).error).toBe("transaction_not_found");
    expect((await advance(m.liveKey, { reference: s.reference, seconds: 60 })).status).toBe(401);
    expect((await advance("sk_test_nope", { reference: s.reference, seconds: 60 })).status).toBe(401);
  });

  it("GET /v1/events and /v1/events/{id} show the key's own events with their attempts, as the console's do", async () => {
    const m = await merchant();
    const s = await start(api, m);
    expect((await checkout(api, s).card(card(CARDS.success))).body.data.status).toBe("success");
    const key = { "x-api-key": m.testKey };

    const list = await api.get(`/v1/events?reference=${s.reference}`, key);
    expect(list.status).toBe(200);
    const types = list.body.data.events.map((e: { type: string }) => e.type).sort();
    expect(types).toEqual(["checkout.completed", "payment.completed"]);
    const bySession = await api.get(`/v1/merchants/events?mode=test&reference=${s.reference}`, {
      authorization: `Bearer ${m.accessToken}`,
    });
    expect(list.body.data).toEqual(bySession.body.data);

    const [first] = list.body.data.events;
    const one = await api.get(`/v1/events/${first.id}`, key);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(first);
    expect(one.body.data.attempts).toEqual(expect.any(Array));

    // Another merchant's event, a live key, a malformed id, a filter that does not exist.
    const other = await signup(api);
    expect(failure(await api.get(`/v1/events/${first.id}`, { "x-api-key": other.testKey })).error).toBe(
      "event_not_found",
    );
    expect((await api.get(`/v1/events/${first.id}`, { "x-api-key": m.liveKey })).status).toBe(401);
    const bad = await api.get("/v1/events/evt_nope", key);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("id");
    const badType = await api.get("/v1/events?type=payment.maybe", key);
    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain("type");
    // The key decides the mode: a mode in the query is not a filter here.
    expect((await api.get("/v1/events?mode=live", key)).status).toBe(400);
    expect((await api.get("/v1/events")).status).toBe(401);
  });
});

describe("on the production deployment", () => {
  const api = client(production.url);

  it("the clock is test-mode only: a live key is refused", async () => {
    const m = await signup(api);
    const res = await api.post(
      "/v1/sandbox/clock/advance",
      { reference: "PAY_TXN_abc", seconds: 60 },
      { "x-api-key": m.liveKey },
    );
    expect(res.status).toBe(403);
    expect(failure(res).error).toBe("test_mode_only");
  });

  it("events are read with the live key there, and another merchant's are unknown", async () => {
    const m = await signup(api);
    const other = await signup(api);
    const own = await api.get("/v1/events", { "x-api-key": m.liveKey });
    expect(own.status).toBe(200);
    expect(own.body.data).toEqual({ events: [], nextCursor: null });
    expect((await api.get("/v1/events", { "x-api-key": m.testKey })).status).toBe(401);
    const missing = await api.get("/v1/events/evt_000000000000000000000000", { "x-api-key": other.liveKey });
    expect(missing.status).toBe(404);
    expect(failure(missing).error).toBe("event_not_found");
  });
});
