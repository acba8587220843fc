import { describe, expect, it, vi } from "vitest";
import { client, type Merchant, signup, targets } from "./helpers/api";
import { card, ISO, SAVED_CARDS, sharedMerchant, start, verify } from "./helpers/channels";
import { testDb } from "./helpers/db";

/**
 * Plans and subscriptions over HTTP (docs/guides/subscriptions.md), on SQLite and PostgreSQL: plans and their
 * refusals (each naming the field), another merchant's plan and subscription looking unknown, a subscription
 * from a saved card whose test clock moves a year (twelve renewals, one payment each, verified like any
 * payment), a declining card that goes past due and is cancelled after the last retry, cancelling twice, and
 * the manage link.
 */
const sk = (m: Merchant) => ({ "x-api-key": m.testKey });
const DAY = 86_400;

describe.each(targets)("plans and subscriptions on $name", (target) => {
  const api = client(target.url);
  const merchant = sharedMerchant(api);
  const emailOf = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

  /** A card saved on a checkout (saveCard required): its authorization and customer codes. */
  async function saveCard(m: Merchant, number: string = SAVED_CARDS.success, email = emailOf("sub")) {
    const s = await start(api, m, { email, saveCard: "required", amount: "100" });
    const paid = await api.post("/v1/payment/checkout/charge/card", card(number), {
      "x-access-code": s.accessCode,
    });
    expect(paid.body.data.status, paid.text).toBe("success");
    const v = (await verify(api, m, s.reference)).body.data;
    return {
      authorizationCode: v.authorization.authorizationCode as string,
      customer: v.customer.code as string,
      email,
    };
  }
  const createPlan = (m: Merchant, body: Record<string, unknown>) => api.post("/v1/plans", body, sk(m));

  it("plans: create, list, get, reprice and deactivate; bad intervals, amounts and currencies are 400s naming the field", async () => {
    const m = await signup(api);
    const made = await createPlan(m, {
      name: "Gold",
      amount: "5000",
      interval: "monthly",
      description: "All of it",
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      code: expect.stringMatching(/^PLN_[0-9A-Z]{20}$/),
      name: "Gold",
      amount: "5000.00",
      currency: "NGN",
      interval: "monthly",
      description: "All of it",
      trialDays: 0,
      invoiceLimit: null,
      active: true,
      createdAt: expect.stringMatching(ISO),
    });
    const code = made.body.data.code;
    expect((await api.get(`/v1/plans/${code}`, sk(m))).body.data).toEqual(made.body.data);
    expect((await api.get("/v1/plans", sk(m))).body.data).toEqual({
      plans: [made.body.data],
      nextCursor: null,
    });
    const patched = await api.request("PATCH", `/v1/plans/${code}`, {
      body: { amount: "6000.5", active: false },
      headers: sk(m),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ amount: "6000.50", active: false });
    expect((await api.get("/v1/plans?active=true", sk(m))).body.data.plans).toEqual([]);

    for (const [body, field] of [
      [{ name: "X", amount: "5000", interval: "fortnightly" }, "interval"],
      [{ name: "X", amount: 5000, interval: "monthly" }, "amount"],
      [{ name: "X", amount: "0", interval: "monthly" }, "amount"],
      [{ name: "X", amount: "50.001", interval: "monthly" }, "amount"],
      [{ name: "X", amount: "5000", currency: "EUR", interval: "monthly" }, "currency"],
      [{ name: "", amount: "5000", interval: "monthly" }, "name"],
      [{ name: "X", amount: "5000", interval: "monthly", trialDays: -1 }, "trialDays"],
      [{ name: "X", amount: "5000", interval: "monthly", invoiceLimit: 0 }, "invoiceLimit"],
    ] as const) {
      const res = await createPlan(m, body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, "validation_error"]);
      expect(res.body.message, JSON.stringify(body)).toContain(field);
    }
    const badPatch = await api.request("PATCH", `/v1/plans/${code}`, {
      body: { amount: "1.234" },
      headers: sk(m),
    });
    expect([badPatch.status, badPatch.body.error]).toEqual([400, "validation_error"]);
    expect(badPatch.body.message).toContain("amount");

    // Another merchant's plan is unknown, as is a well-formed code nobody has.
    const other = await signup(api);
    for (const res of [
      await api.get(`/v1/plans/${code}`, sk(other)),
      await api.request("PATCH", `/v1/plans/${code}`, { body: { name: "Mine" }, headers: sk(other) }),
      await api.get(`/v1/plans/PLN_${"0".repeat(20)}`, sk(m)),
    ])
      expect([res.status, res.body.error]).toEqual([404, "plan_not_found"]);
    expect((await api.get(`/v1/plans/${code}`, sk(m))).body.data.name).toBe("Gold");
  });

  it("a subscription from a saved card: charged at once, the clock moves a year, twelve renewals paid once each", async () => {
    const m = await merchant();
    const saved = await saveCard(m);
    const plan = (await createPlan(m, { name: "Monthly", amount: "5000", interval: "monthly" })).body.data;
    const made = await api.post(
      "/v1/subscriptions",
      { customer: saved.customer, plan: plan.code, authorizationCode: saved.authorizationCode },
      sk(m),
    );
    expect(made.status, made.text).toBe(201);
    const sub = made.body.data;
    expect(sub).toMatchObject({
      code: expect.stringMatching(/^SUB_[0-9A-Z]{20}$/),
      customer: { code: saved.customer, email: saved.email },
      plan: { code: plan.code, name: "Monthly", amount: "5000.00", interval: "monthly" },
      authorization: { authorizationCode: saved.authorizationCode },
      status: "active",
      invoicesPaid: 1,
      cancelAtPeriodEnd: false,
      cancelledAt: null,
      cancelReason: null,
    });
    expect(sub.nextChargeAt).toBe(sub.currentPeriodEnd);
    const started = Date.now();
    const moved = await api.post(
      "/v1/sandbox/clock/advance",
      { subscription: sub.code, seconds: 365 * DAY },
      sk(m),
    );
    const took = Date.now() - started;
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data).toMatchObject({ code: sub.code, status: "active", invoicesPaid: 13 });
    // Under 2 s on an idle 2-core machine (docs/testing.md); the bound leaves room for a suite sharing it.
    expect(took).toBeLessThan(4_000);
    const invoices = (await api.get(`/v1/subscriptions/${sub.code}/invoices`, sk(m))).body.data.invoices;
    expect(invoices).toHaveLength(14);
    expect(invoices[0]).toMatchObject({ status: "open", attempts: 0, reference: null });
    const paid = invoices.slice(1);
    expect(paid.map((i: { status: string }) => i.status)).toEqual(Array(13).fill("paid"));
    expect(paid.map((i: { attempts: number }) => i.attempts)).toEqual(Array(13).fill(1));
    const references = new Set(paid.map((i: { reference: string }) => i.reference));
    expect(references.size).toBe(13);
    // Each is a payment like any other: verified, of the plan's amount, with the saved card.
    for (const reference of [...references].slice(0, 3) as string[]) {
      const v = (await verify(api, m, reference)).body.data;
      expect(v).toMatchObject({ status: "success", amount: "5000.00", channel: "card" });
    }
    const listed = await api.get(`/v1/subscriptions?customer=${saved.customer}&status=active`, sk(m));
    expect(listed.body.data.subscriptions.map((s: { code: string }) => s.code)).toContain(sub.code);
  });

  it("a declining card goes past due, is retried on the retry days, then cancelled; cancelling again says so", async () => {
    const m = await signup(api);
    const saved = await saveCard(m, SAVED_CARDS.declinesLater);
    const plan = (await createPlan(m, { name: "Weekly", amount: "1500", interval: "weekly" })).body.data;
    const sub = (
      await api.post(
        "/v1/subscriptions",
        { customer: saved.customer, plan: plan.code, authorizationCode: saved.authorizationCode },
        sk(m),
      )
    ).body.data;
    expect(sub.status).toBe("past_due");
    const moved = await api.post(
      "/v1/sandbox/clock/advance",
      { subscription: sub.code, seconds: 6 * DAY },
      sk(m),
    );
    expect(moved.body.data).toMatchObject({
      status: "cancelled",
      cancelReason: "payment_failed",
      nextChargeAt: null,
    });
    const [invoice] = (await api.get(`/v1/subscriptions/${sub.code}/invoices`, sk(m))).body.data.invoices;
    expect(invoice).toMatchObject({ status: "void", attempts: 4, nextAttemptAt: null });
    const again = await api.post(`/v1/subscriptions/${sub.code}/cancel`, {}, sk(m));
    expect([again.status, again.body.error]).toEqual([409, "subscription_ended"]);
    const events = await api.get("/v1/merchants/events?limit=100", {
      authorization: `Bearer ${m.accessToken}`,
    });
    const types = (events.body.data.events as Array<{ type: string }>).map((e) => e.type);
    expect(types.filter((t) => t === "invoice.payment_failed")).toHaveLength(4);
    for (const t of ["subscription.created", "subscription.past_due", "subscription.cancelled"])
      expect(
        types.filter((x) => x === t),
        t,
      ).toHaveLength(1);

    // The audit log: the plan and the subscription made with the secret key; the refused second cancel is not
    // there (written in the change's transaction, which the 409 rolled back).
    const repriced = await api.request("PATCH", `/v1/plans/${plan.code}`, {
      body: { amount: "1600" },
      headers: sk(m),
    });
    expect(repriced.status).toBe(200);
    const audited = async (prefix: string) =>
      (
        await api.get(`/v1/merchants/audit-log?action=${prefix}`, {
          authorization: `Bearer ${m.accessToken}`,
        })
      ).body.data.entries.map(
        (e: { action: string; target: string; actor: { type: string; last4?: string } }) =>
          `${e.action} ${e.target} by ${e.actor.type} ${e.actor.last4}`,
      );
    const by = `by secret_key ${m.testKey.slice(-4)}`;
    expect(await audited("plan")).toEqual([
      `plan.update ${plan.code} ${by}`,
      `plan.create ${plan.code} ${by}`,
    ]);
    expect(await audited("subscription")).toEqual([`subscription.create ${sub.code} ${by}`]);
  });

  it("refusals: another merchant's plan, customer, card or subscription is 404; bad bodies are 400s naming the field", async () => {
    const m = await merchant();
    const saved = await saveCard(m);
    const plan = (await createPlan(m, { name: "Daily", amount: "100", interval: "daily" })).body.data;
    const sub = (
      await api.post(
        "/v1/subscriptions",
        { customer: saved.customer, plan: plan.code, authorizationCode: saved.authorizationCode },
        sk(m),
      )
    ).body.data;
    const other = await signup(api);
    const otherPlan = (await createPlan(other, { name: "Theirs", amount: "100", interval: "daily" })).body
      .data;
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { customer: saved.customer, plan: otherPlan.code, authorizationCode: saved.authorizationCode },
        "plan_not_found",
      ],
    ];
    for (const [body, error] of cases) {
      const res = await api.post("/v1/subscriptions", body, sk(m));
      expect([res.status, res.body.error]).toEqual([404, error]);
    }
    const foreign = await api.post(
      "/v1/subscriptions",
      { customer: saved.customer, plan: otherPlan.code, authorizationCode: saved.authorizationCode },
      sk(other),
    );
    expect([foreign.status, foreign.body.error]).toEqual([404, "customer_not_found"]);
    for (const res of [
      await api.get(`/v1/subscriptions/${sub.code}`, sk(other)),
      await api.get(`/v1/subscriptions/${sub.code}/invoices`, sk(other)),
      await api.post(`/v1/subscriptions/${sub.code}/cancel`, {}, sk(other)),
      await api.post(`/v1/subscriptions/${sub.code}/manage-link`, undefined, sk(other)),
      await api.post("/v1/sandbox/clock/advance", { subscription: sub.code, seconds: 60 }, sk(other)),
    ])
      expect([res.status, res.body.error]).toEqual([404, "subscription_not_found"]);
    for (const [body, field] of [
      [{ customer: "nope", plan: plan.code, authorizationCode: saved.authorizationCode }, "customer"],
      [{ customer: saved.customer, plan: "PLN_x", authorizationCode: saved.authorizationCode }, "plan"],
      [{ customer: saved.customer, plan: plan.code }, "authorizationCode"],
      [
        {
          customer: saved.customer,
          plan: plan.code,
          authorizationCode: saved.authorizationCode,
          startAt: "tomorrow",
        },
        "startAt",
      ],
    ] as const) {
      const res = await api.post("/v1/subscriptions", body, sk(m));
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, "validation_error"]);
      expect(res.body.message).toContain(field);
    }
    const tooFar = await api.post(
      "/v1/sandbox/clock/advance",
      { subscription: sub.code, seconds: 401 * DAY },
      sk(m),
    );
    expect([tooFar.status, tooFar.body.error]).toEqual([400, "validation_error"]);
    expect(tooFar.body.message).toContain("seconds");
    const link = await api.post(`/v1/subscriptions/${sub.code}/manage-link`, undefined, sk(m));
    expect(link.status, link.text).toBe(201);
    expect(link.body.data.url).toContain(`/subscriptions/manage/${sub.code}.`);
    expect(Date.parse(link.body.data.expiresAt)).toBeGreaterThan(Date.now() + 6 * DAY * 1000);
    // Cancel at the period's end, then at once; then nothing more.
    const atEnd = await api.post(`/v1/subscriptions/${sub.code}/cancel`, { atPeriodEnd: true }, sk(m));
    expect(atEnd.body.data).toMatchObject({ status: "active", cancelAtPeriodEnd: true, nextChargeAt: null });
    const now = await api.post(`/v1/subscriptions/${sub.code}/cancel`, {}, sk(m));
    expect(now.body.data).toMatchObject({ status: "cancelled", cancelReason: "requested" });
    const changed = await api.request("PATCH", `/v1/subscriptions/${sub.code}`, {
      body: { plan: plan.code },
      headers: sk(m),
    });
    expect([changed.status, changed.body.error]).toEqual([409, "subscription_ended"]);
  });
});
