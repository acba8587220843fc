import { describe, expect, it } from "vitest";
import { type ApiResponse, client, type Merchant, randomAddress, signup, targets } from "./helpers/api";
import { CARDS, card } from "./helpers/channels";

/**
 * A usage-limited payment link cannot be used up by someone who only starts checkouts (docs/api.md, "Payment
 * links"). One client address may hold at most 3 unpaid places on a link at once; a checkout with no payment
 * under way holds its place 5 minutes (PAYMENT_LINK_PLACE_SECONDS), and a payment under way (a transfer
 * account issued, a bank-app or USSD request, a card's OTP) holds it until it ends; cancelling gives it back at
 * once. When a place frees, the next real customer gets in. The counts live in the database, so they hold
 * across the SQLite target's two processes and on PostgreSQL.
 */
const PLACES_PER_ADDRESS = 3;
const PLACE_SECONDS = 5 * 60;

describe.each(targets)("usage-limited payment links under attack on $name", (target) => {
  const api = client(target.url);
  const bearer = (m: Merchant) => ({ authorization: `Bearer ${m.accessToken}` });
  const key = (m: Merchant) => ({ "x-api-key": m.testKey });

  async function limitedLink(m: Merchant, usageLimit: number) {
    const res = await api.post(
      "/v1/merchants/payment-links",
      { title: "Concert ticket", amount: "2500", usageLimit },
      bearer(m),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.slug as string;
  }

  const pay = (slug: string, address = randomAddress(), body: Record<string, unknown> = {}) =>
    api.post(
      `/v1/merchants/payment-links/${slug}/pay`,
      { email: "fan@example.com", ...body },
      {
        "x-forwarded-for": address,
      },
    );

  const usage = async (m: Merchant, slug: string) =>
    (await api.get(`/v1/merchants/payment-links/${slug}`, bearer(m))).body.data.usageCount as number;

  const advance = (m: Merchant, reference: string, seconds: number) =>
    api.post("/v1/sandbox/clock/advance", { reference, seconds }, key(m));

  it("200 anonymous starts from one address hold 3 places; real customers still get in", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 10);
    const attacker = randomAddress();
    const starts = await Promise.all(Array.from({ length: 200 }, () => pay(slug, attacker)));
    const statuses = starts.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(PLACES_PER_ADDRESS);
    const refused = starts.filter((r) => r.status !== 201);
    expect(new Set(refused.map((r) => `${r.status} ${r.body?.error}`))).toEqual(
      new Set(["429 rate_limited"]),
    );
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await usage(m, slug)).toBe(PLACES_PER_ADDRESS);
    const display = await api.get(`/v1/merchants/payment-links/${slug}/display`);
    expect(display.body.data.active).toBe(true);

    // Seven real customers, each from an address of their own, fill the link; the next is told it is full.
    for (let i = 0; i < 10 - PLACES_PER_ADDRESS; i++) expect((await pay(slug)).status).toBe(201);
    const full = await pay(slug);
    expect(full.status).toBe(409);
    expect(full.body.error).toBe("payment_link_unavailable");
  });

  it("an idle checkout's place lapses after 5 minutes and a cancelled one frees it at once", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 2);
    const attacker = randomAddress();
    const [a, b] = [(await pay(slug, attacker)).body.data, (await pay(slug, attacker)).body.data];
    const customer = randomAddress();
    expect((await pay(slug, customer)).status).toBe(409);

    // Left on the page without paying: after the place's 5 minutes the next customer gets in, though the
    // idle checkout itself stays open (its customer may still pay if a place is free then).
    expect((await advance(m, a.reference, PLACE_SECONDS - 30)).status).toBe(200);
    expect((await pay(slug, customer)).status).toBe(409);
    expect((await advance(m, a.reference, 31)).status).toBe(200);
    expect((await api.get("/v1/payment/checkout/verify", { "x-access-code": a.accessCode })).status).toBe(
      200,
    );
    const first = await pay(slug, customer);
    expect(first.status).toBe(201);

    // The lapsed checkout finds the link full when it starts paying, and pays nothing.
    const late = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": a.accessCode,
    });
    expect(late.status, late.text).toBe(409);
    expect(late.body.error).toBe("payment_link_unavailable");

    // Cancelling gives a place back at once: the lapsed checkout may pay now.
    expect(
      (await api.post("/v1/payment/checkout/cancel", {}, { "x-access-code": b.accessCode })).status,
    ).toBe(200);
    const paid = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": a.accessCode,
    });
    expect(paid.body.data?.status, paid.text).toBe("success");
    expect(await usage(m, slug)).toBe(2);
    expect((await pay(slug)).status).toBe(409);
  });

  it("a payment under way keeps its place past 5 minutes; paid places never lapse", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 1);
    const s = (await pay(slug)).body.data;
    const va = await api.post(
      "/v1/payment/checkout/charge/bank-transfer",
      {},
      { "x-access-code": s.accessCode },
    );
    expect(va.status, va.text).toBe(200);
    // Waiting for the transfer, 10 minutes in: the place is still held.
    expect((await advance(m, s.reference, 10 * 60)).status).toBe(200);
    expect((await pay(slug)).status).toBe(409);
    const sent = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: va.body.data.accountNumber, amount: s.transferTotal },
      key(m),
    );
    expect(sent.body.data?.outcome, sent.text).toBe("credited");
    expect((await advance(m, s.reference, 24 * 3600)).status).toBe(200);
    expect((await pay(slug)).status).toBe(409);
    expect(await usage(m, slug)).toBe(1);
  });

  it("an address's paid places do not count against it", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 10);
    const buyer = randomAddress();
    const bought: ApiResponse[] = [];
    for (let i = 0; i < PLACES_PER_ADDRESS; i++) bought.push(await pay(slug, buyer));
    expect((await pay(slug, buyer)).status).toBe(429);
    for (const b of bought) {
      const paid = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
        "x-access-code": b.body.data.accessCode,
      });
      expect(paid.body.data?.status, paid.text).toBe("success");
    }
    // A family buying tickets one after the other from one home address.
    expect((await pay(slug, buyer)).status).toBe(201);
    expect(await usage(m, slug)).toBe(PLACES_PER_ADDRESS + 1);
  });
});
