import { describe, expect, it } from "vitest";
import { client, signup, targets } from "./helpers/api";
import { testDb } from "./helpers/db";

describe.each(targets)("Idempotency-Key on $name", (target) => {
  const api = client(target.url);
  const init = (key: string, body: unknown, idem?: string) =>
    api.post("/v1/payment/initialize", body, {
      "x-api-key": key,
      ...(idem ? { "idempotency-key": idem } : {}),
    });
  const countTransactions = async (merchantId: string) =>
    Number(
      (
        await testDb(target)
          .selectFrom("transactions")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("merchant_id", "=", merchantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("replays the first answer (status and body) with Idempotent-Replayed: true", async () => {
    const m = await signup(api);
    const first = await init(m.testKey, { amount: "100", email: "a@example.com" }, "order-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same body with keys in another order is the same request.
    const second = await init(m.testKey, { email: "a@example.com", amount: "100" }, "order-1");
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await countTransactions(m.id)).toBe(1);
  });

  it("answers 422 idempotency_key_reused for the same key with a different body", async () => {
    const m = await signup(api);
    await init(m.testKey, { amount: "100" }, "order-2");
    const reused = await init(m.testKey, { amount: "101" }, "order-2");
    expect(reused.status).toBe(422);
    expect(reused.body.error).toBe("idempotency_key_reused");
    expect(await countTransactions(m.id)).toBe(1);
  });

  it("does not store validation failures: the key can be used again once the request is fixed", async () => {
    const m = await signup(api);
    const bad = await init(m.testKey, { amount: "-1" }, "order-3");
    expect(bad.status).toBe(400);
    const fixed = await init(m.testKey, { amount: "1" }, "order-3");
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("scopes keys to the merchant: two merchants may use the same key", async () => {
    const a = await signup(api);
    const b = await signup(api);
    const ra = await init(a.testKey, { amount: "5" }, "shared-key");
    const rb = await init(b.testKey, { amount: "5" }, "shared-key");
    expect(ra.status).toBe(201);
    expect(rb.status).toBe(201);
    expect(rb.body.data.reference).not.toBe(ra.body.data.reference);
  });

  it("refuses a malformed key with validation_error", async () => {
    const m = await signup(api);
    for (const key of ["has space", "x".repeat(256), "emoji-🙂"]) {
      const res = await api.request("POST", "/v1/payment/initialize", {
        body: { amount: "5" },
        headers: { "x-api-key": m.testKey, "idempotency-key": encodeURI(key) === key ? key : "bad/slash" },
      });
      expect(res.status, key).toBe(400);
      expect(res.body.message).toContain("Idempotency-Key");
    }
    expect(await countTransactions(m.id)).toBe(0);
  });

  it("50 concurrent requests with one key create exactly one transaction", async () => {
    const m = await signup(api);
    const body = { amount: "2500.00", email: "race@example.com" };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => init(m.testKey, body, "concurrent-key")),
    );
    const created = results.filter((r) => r.status === 201);
    const inFlight = results.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of inFlight) expect(r.body.error).toBe("idempotency_in_progress");
    const references = new Set(created.map((r) => r.body.data.reference));
    expect(references.size).toBe(1);
    expect(await countTransactions(m.id)).toBe(1);
    // Once the first has finished, everyone gets its answer.
    const after = await init(m.testKey, body, "concurrent-key");
    expect(after.status).toBe(201);
    expect(after.body.data.reference).toBe([...references][0]);
  });

  it("answers 409 idempotency_in_progress with Retry-After while the key's first request is still running", async () => {
    const m = await signup(api);
    const body = { amount: "10" };
    const first = await init(m.testKey, body, "still-running");
    expect(first.status).toBe(201);
    // Put the key back where the first request held it while it ran: claimed, in flight, no answer yet.
    await testDb(target)
      .updateTable("idempotency_keys")
      .set({ state: "in_flight", response_status: null, response_body: null, created_at: Date.now() })
      .where("merchant_id", "=", m.id)
      .where("idempotency_key", "=", "still-running")
      .execute();
    const res = await init(m.testKey, body, "still-running");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      status: "failed",
      error: "idempotency_in_progress",
      message: expect.stringContaining("still being processed"),
    });
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await countTransactions(m.id)).toBe(1);
  });

  it("a retry whose first run committed but died before storing its answer gets that transaction, not a second", async () => {
    const m = await signup(api);
    const body = { amount: "1500.00", email: "lost-answer@example.com" };
    const first = await init(m.testKey, body, "answer-lost");
    expect(first.status).toBe(201);
    // As an instance killed between its commit and storing the answer leaves it: the key claimed, in flight,
    // with no answer, its claim older than IDEMPOTENCY_LOCK_SECONDS (so the next request takes the key over).
    await testDb(target)
      .updateTable("idempotency_keys")
      .set({
        state: "in_flight",
        response_status: null,
        response_body: null,
        created_at: Date.now() - 3_600_000,
      })
      .where("merchant_id", "=", m.id)
      .where("idempotency_key", "=", "answer-lost")
      .execute();
    const retry = await init(m.testKey, body, "answer-lost");
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toEqual(first.body.data);
    expect(await countTransactions(m.id)).toBe(1);
    // Its answer is stored now: the next retry replays it.
    const replay = await init(m.testKey, body, "answer-lost");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.reference).toBe(first.body.data.reference);

    // The same situation with another body: the key belongs to the first request's transaction.
    await testDb(target)
      .deleteFrom("idempotency_keys")
      .where("merchant_id", "=", m.id)
      .where("idempotency_key", "=", "answer-lost")
      .execute();
    const other = await init(m.testKey, { ...body, amount: "9999.00" }, "answer-lost");
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("idempotency_key_reused");
    expect(await countTransactions(m.id)).toBe(1);
    // A key is the merchant's, per mode: another merchant's request with the same key makes its own payment.
    const n = await signup(api);
    const theirs = await init(n.testKey, body, "answer-lost");
    expect(theirs.status).toBe(201);
    expect(theirs.body.data.reference).not.toBe(first.body.data.reference);
  });

  it("stores answers sealed: a rolled secret key never lies in the database in clear, yet a retry gets it back", async () => {
    const m = await signup(api);
    const session = { authorization: `Bearer ${m.accessToken}`, "idempotency-key": "roll-once" };
    const rolled = await api.post("/v1/merchants/keys/roll", { mode: "test" }, session);
    expect(rolled.status).toBe(200);
    const newKey: string = rolled.body.data.secretKey;
    expect(newKey).toMatch(/^sk_test_/);

    const rows = await testDb(target)
      .selectFrom("idempotency_keys")
      .select(["response_body", "state"])
      .where("merchant_id", "=", m.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.state).toBe("done");
    expect(rows[0]?.response_body).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(rows[0]?.response_body).not.toContain(newKey.slice(8, 20));
    expect(rows[0]?.response_body).not.toContain("secretKey");

    // The client lost the answer and retries: the same key, not a second roll that would lock it out.
    const retry = await api.post("/v1/merchants/keys/roll", { mode: "test" }, session);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.data.secretKey).toBe(newKey);
    expect((await init(newKey, { amount: "1" })).status).toBe(201);

    // A sealed answer copied under another key's scope does not open as that key's answer.
    const now = Date.now();
    await testDb(target)
      .insertInto("idempotency_keys")
      .values({
        merchant_id: m.id,
        mode: "test",
        method: "POST",
        path: "/v1/merchants/keys/roll",
        idempotency_key: "copied-row",
        request_hash: (
          await testDb(target)
            .selectFrom("idempotency_keys")
            .select("request_hash")
            .where("merchant_id", "=", m.id)
            .where("idempotency_key", "=", "roll-once")
            .executeTakeFirstOrThrow()
        ).request_hash,
        state: "done",
        response_status: 200,
        response_body: rows[0]?.response_body ?? "",
        created_at: now,
        expires_at: now + 86_400_000,
      })
      .execute();
    const copied = await api.post(
      "/v1/merchants/keys/roll",
      { mode: "test" },
      { authorization: `Bearer ${m.accessToken}`, "idempotency-key": "copied-row" },
    );
    expect(copied.status).toBe(500);
    // The one unexpected-error answer: the envelope, the request id to quote, no stack, no internals.
    expect(copied.body).toEqual({
      status: "failed",
      error: "internal_error",
      message: `Something went wrong on our side. Quote request id ${copied.headers.get("x-request-id")} to support.`,
    });
  });

  it("replays a plain (unsealed) answer only when it was stored before sealing began", async () => {
    const m = await signup(api);
    expect((await init(m.testKey, { amount: "7" }, "legacy-row")).status).toBe(201);
    const plain = JSON.stringify({ status: "success", data: { storedBeforeSealing: true } });
    const setRow = (createdAt: number) =>
      testDb(target)
        .updateTable("idempotency_keys")
        .set({ response_body: plain, created_at: createdAt })
        .where("merchant_id", "=", m.id)
        .where("idempotency_key", "=", "legacy-row")
        .execute();
    await setRow(1_000); // long before migration 0006 recorded when sealing began
    // The planted answer is this test's own, not one the API makes: no contract to check it against.
    const legacy = await api.request("POST", "/v1/payment/initialize", {
      body: { amount: "7" },
      headers: { "x-api-key": m.testKey, "idempotency-key": "legacy-row" },
      skipContract: true,
    });
    expect(legacy.status).toBe(201);
    expect(legacy.body.data).toEqual({ storedBeforeSealing: true });
    await setRow(Date.now()); // a plain answer written since sealing began is not one of ours
    const planted = await init(m.testKey, { amount: "7" }, "legacy-row");
    expect(planted.status).toBe(500);
    expect(planted.body.error).toBe("internal_error");
  });
});
