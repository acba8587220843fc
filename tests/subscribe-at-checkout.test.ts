import { describe, expect, it } from "vitest";
import { formatMoney } from "@/lib/i18n/format";
import { fmt, LOCALES } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";
import { client, initialize, type Merchant, randomAddress, signup, targets } from "./helpers/api";
import { card, SAVED_CARDS, verify } from "./helpers/channels";

/**
 * A subscription started on the hosted checkout (initialize with `plan`, docs/guides/subscriptions.md), over
 * HTTP on SQLite and PostgreSQL: the payment is the plan's amount and currency and saves the card; the page
 * states the plan's terms in six languages; the first successful charge starts one subscription (the customer
 * of the email, the saved card, the first period paid by that payment); what the request says that is not the
 * plan's is a 4xx naming the field.
 */
const sk = (m: Merchant) => ({ "x-api-key": m.testKey });
const emailOf = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** The page's text, its entities decoded. */
async function pageText(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers: { "x-forwarded-for": randomAddress() } });
  const html = await res.text();
  const text = html
    .replace(/<[^>]+>/g, "")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
  return { status: res.status, text };
}

describe.each(targets)("subscribing on the checkout on $name", (target) => {
  const api = client(target.url);
  const createPlan = async (m: Merchant, body: Record<string, unknown>) => {
    const res = await api.post("/v1/plans", body, sk(m));
    expect(res.status, res.text).toBe(201);
    return res.body.data as { code: string };
  };

  it("initialize with plan: the plan's terms on the page, the first charge starts the subscription once", async () => {
    const m = await signup(api);
    const plan = await createPlan(m, { name: "Gold", amount: "5000", interval: "monthly" });
    const email = emailOf("subscribe");
    const init = await initialize(api, m.testKey, { plan: plan.code, email });
    expect(init.status, init.text).toBe(201);
    const session = init.body.data;
    expect(session).toMatchObject({ amount: "5000.00", currency: "NGN", channels: ["card"] });

    // The terms next to the amount, in every language of the page.
    for (const locale of LOCALES) {
      const s = messagesFor(locale).subscription;
      const terms = `${fmt(s.terms, { amount: formatMoney("5000.00", "NGN", locale), every: s.every.monthly })}, ${s.firstChargeToday}`;
      const page = await pageText(`${target.url}/pay/${session.accessCode}?lang=${locale}`);
      expect(page.status).toBe(200);
      expect(page.text, locale).toContain(terms);
    }
    expect((await pageText(`${target.url}/pay/${session.accessCode}`)).text).toContain(
      "NGN 5,000.00 every month, first charge today",
    );

    // Nothing starts before the payment succeeds.
    const before = await api.get(`/v1/subscriptions?plan=${plan.code}`, sk(m));
    expect(before.body.data.subscriptions).toEqual([]);

    const paid = await api.post("/v1/payment/checkout/charge/card", card(SAVED_CARDS.success), {
      "x-access-code": session.accessCode,
    });
    expect(paid.body.data.status, paid.text).toBe("success");
    const v = (await verify(api, m, session.reference)).body.data;
    expect(v).toMatchObject({ status: "success", amount: "5000.00", customer: { email } });
    const authorizationCode = v.authorization.authorizationCode as string;

    const listed = (await api.get(`/v1/subscriptions?plan=${plan.code}`, sk(m))).body.data.subscriptions;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      customer: { code: v.customer.code, email },
      plan: { code: plan.code, amount: "5000.00", interval: "monthly" },
      authorization: { authorizationCode },
      status: "active",
      invoicesPaid: 1,
    });
    const sub = listed[0];
    expect(sub.nextChargeAt).toBe(sub.currentPeriodEnd);
    const invoices = (await api.get(`/v1/subscriptions/${sub.code}/invoices`, sk(m))).body.data.invoices;
    expect(invoices).toHaveLength(2);
    expect(invoices[0]).toMatchObject({ status: "open", attempts: 0, reference: null, amount: "5000.00" });
    expect(invoices[1]).toMatchObject({
      status: "paid",
      attempts: 1,
      reference: session.reference,
      amount: "5000.00",
      currency: "NGN",
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
    });

    // The payment's end applied again (the checkout's charge and verify once more) starts nothing more.
    const again = await api.post("/v1/payment/checkout/charge/card", card(SAVED_CARDS.success), {
      "x-access-code": session.accessCode,
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
    await verify(api, m, session.reference);
    const after = (await api.get(`/v1/subscriptions?plan=${plan.code}`, sk(m))).body.data.subscriptions;
    expect(after.map((s: { code: string }) => s.code)).toEqual([sub.code]);
    for (const type of ["subscription.created", "subscription.renewed"]) {
      const events = await api.get(`/v1/events?type=${type}&limit=100`, sk(m));
      expect(events.status, events.text).toBe(200);
      expect(events.body.data.events, type).toHaveLength(1);
    }
  });

  it("refusals name the field: amount not the plan's, currency, saveCard, trial plans; unknown, another merchant's and inactive plans", async () => {
    const m = await signup(api);
    const plan = await createPlan(m, { name: "Gold", amount: "5000", interval: "monthly" });
    const email = emailOf("refused");
    for (const [body, status, error, field] of [
      [{ plan: plan.code, email, amount: "4999.99" }, 400, "validation_error", "amount"],
      [{ plan: plan.code, email, amount: "50.001" }, 400, "validation_error", "amount"],
      [{ plan: plan.code, email, currency: "GHS" }, 400, "validation_error", "currency"],
      [{ plan: plan.code, email, saveCard: "optional" }, 400, "validation_error", "saveCard"],
      [{ plan: "PLN_nope", email }, 400, "validation_error", "plan"],
      [{ plan: `PLN_${"0".repeat(20)}`, email }, 404, "plan_not_found", "plan"],
      [{ plan: plan.code }, 400, "email_required", "email"],
      [{ email }, 400, "validation_error", "amount"],
    ] as const) {
      const res = await initialize(api, m.testKey, body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([status, error]);
      expect(res.body.message, JSON.stringify(body)).toContain(field);
    }
    // The plan's amount given as it is, in any spelling, is taken.
    const same = await initialize(api, m.testKey, {
      plan: plan.code,
      email,
      amount: "5000",
      currency: "NGN",
    });
    expect(same.status, same.text).toBe(201);
    expect(same.body.data.amount).toBe("5000.00");

    const trial = await createPlan(m, { name: "Trial", amount: "5000", interval: "monthly", trialDays: 7 });
    const trialRes = await initialize(api, m.testKey, { plan: trial.code, email });
    expect([trialRes.status, trialRes.body.error]).toEqual([400, "validation_error"]);
    expect(trialRes.body.message).toContain("plan");

    const other = await signup(api);
    const theirs = await initialize(api, other.testKey, { plan: plan.code, email });
    expect([theirs.status, theirs.body.error]).toEqual([404, "plan_not_found"]);
    expect(theirs.body.message).toContain("plan");

    const off = await api.request("PATCH", `/v1/plans/${plan.code}`, {
      body: { active: false },
      headers: sk(m),
    });
    expect(off.status, off.text).toBe(200);
    const inactive = await initialize(api, m.testKey, { plan: plan.code, email });
    expect([inactive.status, inactive.body.error]).toEqual([409, "plan_inactive"]);
    expect(inactive.body.message).toContain("plan");
  });
});
