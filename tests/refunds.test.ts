import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type Client, client, type Merchant, signup, targets } from "./helpers/api";
import {
  CARDS,
  card,
  checkout,
  expectConservation,
  ISO,
  type Session,
  sessionId,
  sharedMerchant,
  start,
  transfer,
  verify,
} from "./helpers/channels";
import { testDb } from "./helpers/db";

/**
 * docs/refunds.md over HTTP, on SQLite and PostgreSQL: merchant refunds (full, partial, the refundable balance,
 * concurrency, idempotency, scoping), automatic refunds, and the sandbox rail settling them. The staging
 * servers of tests/setup/servers.ts never settle a refund on their own (SANDBOX_REFUND_DELAY_MS is an hour):
 * each test settles the ones it needs through POST /v1/sandbox/refunds/{id}.
 */
describe.each(targets)("refunds on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);

  const key = (m: Merchant) => ({ "x-api-key": m.testKey });
  const refund = (m: Merchant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api.post("/v1/refunds", body, { ...key(m), ...headers });
  const settle = (m: Merchant, id: string, outcome: "processed" | "failed") =>
    api.post(`/v1/sandbox/refunds/${id}`, { outcome }, key(m));

  /** A transaction paid by card (4242…), 5000.00 by default: the customer pays 5175.00 with the card fee. */
  async function paid(m: Merchant, body: Record<string, unknown> = {}, c: Client = api): Promise<Session> {
    const s = await start(c, m, { amount: "5000", ...body });
    const res = await checkout(c, s).card(card(CARDS.success));
    expect(res.body.data.status).toBe("success");
    return s;
  }

  it("a partial refund, then the rest by default: verify reports amountRefunded and stays success", async () => {
    const m = await merchant();
    const s = await paid(m);
    const first = await refund(m, { reference: s.reference, amount: "1200.5", reason: "one item returned" });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe("success");
    expect(first.body.data).toEqual({
      id: expect.stringMatching(/^rfd_[A-Za-z0-9]{24}$/),
      reference: s.reference,
      amount: "1200.50",
      currency: "NGN",
      status: "pending",
      reason: "one item returned",
      type: "merchant",
      failureReason: null,
      createdAt: expect.stringMatching(ISO),
      processedAt: null,
    });
    let v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({ status: "success", amount: "5000.00", amountRefunded: "1200.50" });

    // No amount: what is still refundable (fees are not returned).
    const rest = await refund(m, { reference: s.reference });
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ amount: "3799.50", reason: null, type: "merchant" });
    v = (await verify(api, m, s.reference)).body.data;
    expect(v).toMatchObject({ status: "success", amountRefunded: "5000.00" });

    const more = await refund(m, { reference: s.reference, amount: "0.01" });
    expect(more.status).toBe(409);
    expect(more.body).toMatchObject({ status: "failed", error: "refund_exceeds_available" });
    expect(more.body.message).toMatch(/^amount: /);
    const none = await refund(m, { reference: s.reference });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe("refund_exceeds_available");

    // Settled by the sandbox rail: the money reached the payer.
    const done = await settle(m, first.body.data.id, "processed");
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({
      id: first.body.data.id,
      status: "processed",
      processedAt: expect.stringMatching(ISO),
    });
    const got = await api.get(`/v1/refunds/${first.body.data.id}`, key(m));
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(done.body.data);
    await expectConservation(target, s.reference);
  });

  it("more than is refundable is refused with refund_exceeds_available, naming what is left", async () => {
    const m = await merchant();
    const s = await paid(m, { amount: "300" });
    const res = await refund(m, { reference: s.reference, amount: "300.01" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("refund_exceeds_available");
    expect(res.body.message).toContain("300.00");
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("0.00");
  });

  it("a payment that is not successful cannot be refunded (409 invalid_state)", async () => {
    const m = await merchant();
    const open = await start(api, m, { amount: "100" });
    const res = await refund(m, { reference: open.reference });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect(res.body.message).toContain("pending");

    const cancelled = await start(api, m, { amount: "100" });
    expect((await checkout(api, cancelled).cancel()).status).toBe(200);
    const again = await refund(m, { reference: cancelled.reference, amount: "10" });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("invalid_state");
  });

  it("malformed requests are 400s naming the field and the rule", async () => {
    const m = await merchant();
    const s = await paid(m, { amount: "100" });
    const cases: [Record<string, unknown>, string][] = [
      [{}, "reference"],
      [{ reference: "nope" }, "reference"],
      [{ reference: s.reference, amount: 10 }, "amount"],
      [{ reference: s.reference, amount: "0" }, "amount"],
      [{ reference: s.reference, amount: "-5" }, "amount"],
      [{ reference: s.reference, amount: "1.234" }, "amount"],
      [{ reference: s.reference, amount: "1e3" }, "amount"],
      [{ reference: s.reference, reason: "" }, "reason"],
      [{ reference: s.reference, reason: "x".repeat(201) }, "reason"],
      [{ reference: s.reference, extra: true }, "extra"],
    ];
    for (const [body, field] of cases) {
      const res = await refund(m, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toContain(field);
    }
    for (const query of ["status=done", "limit=0", "limit=x", "reference=bad", "cursor=%21%21"]) {
      const res = await api.get(`/v1/refunds?${query}`, key(m));
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe("validation_error");
    }
    const badId = await api.get("/v1/refunds/not-a-refund", key(m));
    expect(badId.status).toBe(400);
    expect(badId.body.message).toContain("id");
    const unknown = await refund(m, { reference: `PAY_TXN_${"Z".repeat(20)}` });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("transaction_not_found");
    const noKey = await api.post("/v1/refunds", { reference: s.reference });
    expect(noKey.status).toBe(401);
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("0.00");
  });

  it("50 concurrent refunds of one payment never exceed it", async () => {
    const m = await merchant();
    const s = await paid(m, { amount: "1000" });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => refund(m, { reference: s.reference, amount: "70.00" })),
    );
    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status === 409);
    expect(created).toHaveLength(14);
    expect(refused).toHaveLength(36);
    for (const r of refused) expect(r.body.error).toBe("refund_exceeds_available");
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(14);
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("980.00");
    // The rest, in one refund and no more.
    const last = await Promise.all(Array.from({ length: 10 }, () => refund(m, { reference: s.reference })));
    expect(last.filter((r) => r.status === 201).map((r) => r.body.data.amount)).toEqual(["20.00"]);
    const rows = await testDb(target)
      .selectFrom("refunds")
      .select(["amount_minor"])
      .where("reference", "=", s.reference)
      .execute();
    expect(rows.reduce((sum, r) => sum + BigInt(r.amount_minor), 0n)).toBe(100_000n);
    await expectConservation(target, s.reference);
  });

  it("Idempotency-Key: the same request again replays the first answer and refunds once", async () => {
    const m = await merchant();
    const s = await paid(m, { amount: "800" });
    const k = { "idempotency-key": `refund-${randomBytes(6).toString("hex")}` };
    const body = { reference: s.reference, amount: "500" };
    const [a, b] = await Promise.all([refund(m, body, k), refund(m, body, k)]);
    const statuses = [a.status, b.status].sort();
    // Two at once: one runs, the other is told it is in flight (or, if the first already finished, replayed).
    expect(statuses[0]).toBe(201);
    const first = a.status === 201 ? a : b;
    const replay = await refund(m, body, k);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const reused = await refund(m, { ...body, amount: "100" }, k);
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe("idempotency_key_reused");
    const list = await api.get(`/v1/refunds?reference=${s.reference}`, key(m));
    expect(list.body.data.refunds).toHaveLength(1);
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("500.00");
  });

  it("another merchant's reference and refund are unknown (404)", async () => {
    const owner = await merchant();
    const other = await signup(api);
    const s = await paid(owner, { amount: "200" });
    const mine = await refund(owner, { reference: s.reference, amount: "50" });
    expect(mine.status).toBe(201);

    const theirs = await refund(other, { reference: s.reference });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe("transaction_not_found");
    const get = await api.get(`/v1/refunds/${mine.body.data.id}`, key(other));
    expect(get.status).toBe(404);
    expect(get.body.error).toBe("refund_not_found");
    const list = await api.get(`/v1/refunds?reference=${s.reference}`, key(other));
    expect(list.body.data.refunds).toEqual([]);
    const session = await api.get(`/v1/merchants/refunds/${mine.body.data.id}`, {
      authorization: `Bearer ${other.accessToken}`,
    });
    expect(session.status).toBe(404);
    const settleTheirs = await settle(other, mine.body.data.id, "failed");
    expect(settleTheirs.status).toBe(404);
    expect((await api.get(`/v1/refunds/${mine.body.data.id}`, key(owner))).body.data.status).toBe("pending");
  });

  it("test and live apart: a live transaction and refund of the same merchant are invisible to test", async () => {
    const m = await signup(api);
    const s = await paid(m, { amount: "150" });
    const mine = await refund(m, { reference: s.reference, amount: "20" });
    const db = testDb(target);
    const row = await db
      .selectFrom("transactions")
      .selectAll()
      .where("reference", "=", s.reference)
      .executeTakeFirstOrThrow();
    const liveReference = `PAY_TXN_${randomBytes(10).toString("hex").toUpperCase()}`;
    const liveTx = randomUUID();
    await db
      .insertInto("transactions")
      .values({
        ...row,
        id: liveTx,
        reference: liveReference,
        access_code: randomBytes(20).toString("hex"),
        mode: "live",
        amount_refunded_minor: 0,
      })
      .execute();
    const liveRefund = `rfd_${randomBytes(12).toString("hex")}`;
    const now = Date.now();
    await db
      .insertInto("refunds")
      .values({
        id: liveRefund,
        transaction_id: liveTx,
        merchant_id: m.id,
        mode: "live",
        reference: liveReference,
        type: "merchant",
        reason: null,
        amount_minor: 100,
        currency: "NGN",
        status: "pending",
        source: null,
        source_id: null,
        rail: "live",
        rail_reference: null,
        failure_reason: null,
        due_at: now,
        created_at: now + 1,
        processed_at: null,
        updated_at: now,
      })
      .execute();

    const live = await refund(m, { reference: liveReference });
    expect(live.status).toBe(404);
    expect(live.body.error).toBe("transaction_not_found");
    expect((await api.get(`/v1/refunds/${liveRefund}`, key(m))).status).toBe(404);
    const list = await api.get("/v1/refunds?limit=100", key(m));
    expect(list.body.data.refunds.map((r: { id: string }) => r.id)).toEqual([mine.body.data.id]);
    const session = await api.get("/v1/merchants/refunds?limit=100", {
      authorization: `Bearer ${m.accessToken}`,
    });
    expect(session.body.data.refunds.map((r: { id: string }) => r.id)).toEqual([mine.body.data.id]);
    expect((await settle(m, liveRefund, "processed")).status).toBe(404);
    // A live key is refused on this staging deployment altogether.
    const liveKey = await api.post("/v1/refunds", { reference: s.reference }, { "x-api-key": m.liveKey });
    expect(liveKey.status).toBe(401);
  });

  it("the sandbox rail settles: processed and failed send their events, a failed refund is refundable again", async () => {
    const m = await signup(api);
    const s = await paid(m, { amount: "1000" });
    const a = (await refund(m, { reference: s.reference, amount: "600" })).body.data;
    expect((await refund(m, { reference: s.reference, amount: "600" })).body.error).toBe(
      "refund_exceeds_available",
    );
    const failed = await settle(m, a.id, "failed");
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ status: "failed", failureReason: "sandbox_failed" });
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("0.00");
    const again = await settle(m, a.id, "processed");
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("invalid_state");
    const badOutcome = await api.post(`/v1/sandbox/refunds/${a.id}`, { outcome: "maybe" }, key(m));
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.message).toContain("outcome");

    const b = (await refund(m, { reference: s.reference })).body.data;
    expect(b.amount).toBe("1000.00");
    expect((await settle(m, b.id, "processed")).body.data.status).toBe("processed");

    const session = { authorization: `Bearer ${m.accessToken}` };
    const events = (await api.get(`/v1/merchants/events?reference=${s.reference}&limit=100`, session)).body
      .data.events;
    const byType = (type: string) => events.filter((e: { type: string }) => e.type === type);
    expect(byType("refund.failed")).toHaveLength(1);
    expect(byType("refund.processed")).toHaveLength(1);
    expect(byType("refund.failed")[0].payload).toMatchObject({
      event: "refund.failed",
      data: {
        id: a.id,
        reference: s.reference,
        amount: "600.00",
        currency: "NGN",
        status: "failed",
        type: "merchant",
      },
    });
    expect(byType("refund.processed")[0].payload.data).toMatchObject({
      id: b.id,
      status: "processed",
      amount: "1000.00",
    });

    const processedOnly = await api.get(`/v1/refunds?reference=${s.reference}&status=processed`, key(m));
    expect(processedOnly.body.data.refunds.map((r: { id: string }) => r.id)).toEqual([b.id]);
    await expectConservation(target, s.reference);
  });

  it("the session endpoints: refund, list with a cursor, and one refund", async () => {
    const m = await signup(api);
    const s = await paid(m, { amount: "90" });
    const session = { authorization: `Bearer ${m.accessToken}` };
    const made = [];
    for (const amount of ["10", "20", "30"]) {
      const res = await api.post("/v1/merchants/refunds", { reference: s.reference, amount }, session);
      expect(res.status).toBe(201);
      made.push(res.body.data.id);
    }
    const page1 = await api.get("/v1/merchants/refunds?limit=2", session);
    expect(page1.status).toBe(200);
    expect(page1.body.data.refunds.map((r: { id: string }) => r.id)).toEqual([made[2], made[1]]);
    const page2 = await api.get(
      `/v1/merchants/refunds?limit=2&cursor=${page1.body.data.nextCursor}`,
      session,
    );
    expect(page2.body.data.refunds.map((r: { id: string }) => r.id)).toEqual([made[0]]);
    expect(page2.body.data.nextCursor).toBeNull();
    const one = await api.get(`/v1/merchants/refunds/${made[0]}`, session);
    expect(one.body.data).toMatchObject({ id: made[0], amount: "10.00", reference: s.reference });
    expect((await api.get("/v1/merchants/refunds", { authorization: "Bearer nope" })).status).toBe(401);
  });

  it("money that must not be credited becomes an automatic refund with its reason", async () => {
    const m = await merchant();
    const s = await start(api, m, { amount: "2000" });
    const va = (await checkout(api, s).bankTransfer()).body.data;
    const wrong = await transfer(api, m, {
      accountNumber: va.accountNumber,
      amount: "1500",
      sessionId: sessionId(),
    });
    expect(wrong.body.data.outcome).toBe("amount_mismatch");
    const right = await transfer(api, m, {
      accountNumber: va.accountNumber,
      amount: va.amount,
      sessionId: sessionId(),
    });
    expect(right.body.data.outcome).toBe("credited");
    const again = await transfer(api, m, {
      accountNumber: va.accountNumber,
      amount: va.amount,
      sessionId: sessionId(),
    });
    expect(again.body.data.outcome).toBe("duplicate_payment");

    const list = (await api.get(`/v1/refunds?reference=${s.reference}`, key(m))).body.data.refunds;
    expect(
      list.map((r: { type: string; reason: string; amount: string; status: string }) => [
        r.type,
        r.reason,
        r.amount,
        r.status,
      ]),
    ).toEqual([
      ["automatic", "duplicate_payment", va.amount, "pending"],
      ["automatic", "amount_mismatch", "1500.00", "pending"],
    ]);
    // Automatic refunds are money the payer sent beside the payment: the merchant's refundable balance is whole.
    expect((await verify(api, m, s.reference)).body.data.amountRefunded).toBe("0.00");
    // A failed automatic refund leaves the money with the merchant, refundable again.
    const dup = list[0];
    expect((await settle(m, dup.id, "failed")).body.data.status).toBe("failed");
    const back = await refund(m, { reference: s.reference });
    expect(back.status).toBe(201);
    expect(back.body.data.amount).toBe((Number(va.amount) + 2000).toFixed(2));
    await expectConservation(target, s.reference);
  });
});
