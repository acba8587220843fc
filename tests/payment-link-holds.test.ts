import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  type Client,
  client,
  type Merchant,
  randomAddress,
  signup,
  targets,
} from "./helpers/api";
import { CARDS, card } from "./helpers/channels";
import { type AppProc, cleanupHarness, dbKinds, freshDatabase, startApp } from "./helpers/webhook-harness";

/**
 * A usage-limited payment link cannot be used up by someone who only starts checkouts (docs/api.md, "Payment
 * links"). A place is held by a payment paid or under way; a checkout nobody has started paying (no card
 * attempt, no transfer account issued, no bank or USSD request) holds one only tentatively, for 5 minutes
 * (PAYMENT_LINK_PLACE_SECONDS), and gives it up to a customer who starts paying while the link is otherwise
 * full. One client address may hold one unpaid place of a link (PAYMENT_LINK_PLACES_PER_ADDRESS), and then only
 * while that leaves a place for somebody else; its next starts are 429. The counts and the hand-over live in
 * the database, so they hold across the SQLite target's two processes, on PostgreSQL, and between two
 * instances on one database (the last block).
 */
const PLACE_SECONDS = 5 * 60;

function linkApi(api: Client) {
  const bearer = (m: Merchant) => ({ authorization: `Bearer ${m.accessToken}` });
  return {
    async limitedLink(m: Merchant, usageLimit: number) {
      const res = await api.post(
        "/v1/merchants/payment-links",
        { title: "Concert ticket", amount: "2500", usageLimit },
        bearer(m),
      );
      expect(res.status, res.text).toBe(201);
      return res.body.data.slug as string;
    },
    pay: (slug: string, address = randomAddress(), on: Client = api) =>
      on.post(
        `/v1/merchants/payment-links/${slug}/pay`,
        { email: "fan@example.com" },
        { "x-forwarded-for": address },
      ),
    usage: async (m: Merchant, slug: string) =>
      (await api.get(`/v1/merchants/payment-links/${slug}`, bearer(m))).body.data.usageCount as number,
    advance: (m: Merchant, reference: string, seconds: number) =>
      api.post("/v1/sandbox/clock/advance", { reference, seconds }, { "x-api-key": m.testKey }),
    charge: (accessCode: string, number: string = CARDS.success, on: Client = api) =>
      on.post("/v1/payment/checkout/charge/card", card(number), { "x-access-code": accessCode }),
    status: async (accessCode: string) =>
      (await api.get("/v1/payment/checkout/verify", { "x-access-code": accessCode })).body.data
        .status as string,
  };
}

const paid = (res: ApiResponse) => {
  expect(res.body.data?.status, res.text).toBe("success");
};

describe.each(targets)("usage-limited payment links under attack on $name", (target) => {
  const api = client(target.url);
  const { limitedLink, pay, usage, advance, charge, status } = linkApi(api);

  it("60 anonymous starts from one address hold one place of a 2-place link; the real customers get in and pay", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 2);
    const attacker = randomAddress();
    const starts = await Promise.all(Array.from({ length: 60 }, () => pay(slug, attacker)));
    const statuses = starts.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    const refused = starts.filter((r) => r.status !== 201);
    expect(new Set(refused.map((r) => `${r.status} ${r.body?.error}`))).toEqual(
      new Set(["429 rate_limited"]),
    );
    expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await usage(m, slug)).toBe(1);

    // Two real customers, each from an address of their own: both start, both pay. The second takes the place
    // the attacker's idle checkout held: nobody was paying for it.
    const first = await pay(slug);
    expect(first.status, first.text).toBe(201);
    const second = await pay(slug);
    expect(second.status, second.text).toBe(201);
    paid(await charge(first.body.data.accessCode));
    paid(await charge(second.body.data.accessCode));
    expect(await usage(m, slug)).toBe(2);

    // Now the link is used up: the next customer is told so, and the attacker's checkout pays nothing.
    const full = await pay(slug);
    expect(full.status).toBe(409);
    expect(full.body.error).toBe("payment_link_unavailable");
    const [held] = starts.filter((r) => r.status === 201);
    const late = await charge(held?.body.data.accessCode);
    expect(late.status, late.text).toBe(409);
    expect(late.body.error).toBe("payment_link_unavailable");
  });

  it("a checkout whose payment has started keeps its place; only one nobody pays for is handed over", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 2);
    const a = (await pay(slug)).body.data;
    // A's customer tried a card that was declined: a payment has started, and may be tried again.
    const declined = await charge(a.accessCode, CARDS.declined);
    expect(declined.body.data?.status, declined.text).toBe("failed");
    const [y, z] = [(await pay(slug)).body.data, (await pay(slug)).body.data];
    paid(await charge(y.accessCode));
    // Z finds the link full: its one other place is A's, and A's customer is paying.
    const refused = await charge(z.accessCode);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toBe("payment_link_unavailable");
    expect(await status(z.accessCode)).toBe("pending");
    paid(await charge(a.accessCode));
    expect(await usage(m, slug)).toBe(2);
  });

  it("an idle checkout's place lapses after 5 minutes; a cancelled one frees it at once", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 3);
    const a = (await pay(slug)).body.data;
    const b = (await pay(slug)).body.data;
    expect(await usage(m, slug)).toBe(2);
    // Left on the page without paying: after the place's 5 minutes it no longer counts; the checkout itself
    // stays open, and its customer may still pay while a place is free.
    expect((await advance(m, a.reference, PLACE_SECONDS - 30)).status).toBe(200);
    expect(await usage(m, slug)).toBe(2);
    expect((await advance(m, a.reference, 31)).status).toBe(200);
    expect(await usage(m, slug)).toBe(1);
    // Cancelling gives b's place back at once.
    expect(
      (await api.post("/v1/payment/checkout/cancel", {}, { "x-access-code": b.accessCode })).status,
    ).toBe(200);
    expect(await usage(m, slug)).toBe(0);
    paid(await charge(a.accessCode));
    expect(await usage(m, slug)).toBe(1);
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
    // Waiting for the transfer, 10 minutes in: the place is still held, and nobody takes it over.
    expect((await advance(m, s.reference, 10 * 60)).status).toBe(200);
    expect((await pay(slug)).status).toBe(409);
    const sent = await api.post(
      "/v1/sandbox/transfers",
      { accountNumber: va.body.data.accountNumber, amount: s.transferTotal },
      { "x-api-key": m.testKey },
    );
    expect(sent.body.data?.outcome, sent.text).toBe("credited");
    expect((await advance(m, s.reference, 24 * 3600)).status).toBe(200);
    expect((await pay(slug)).status).toBe(409);
    expect(await usage(m, slug)).toBe(1);
  });

  it("an address's paid places do not count against it; its one unpaid place does", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 10);
    const buyer = randomAddress();
    for (let i = 0; i < 3; i++) {
      const started = await pay(slug, buyer);
      expect(started.status, started.text).toBe(201);
      // While that one is unpaid, the same address may not start another.
      expect((await pay(slug, buyer)).status).toBe(429);
      paid(await charge(started.body.data.accessCode));
    }
    // A family buying tickets one after the other from one home address.
    expect((await pay(slug, buyer)).status).toBe(201);
    expect(await usage(m, slug)).toBe(4);
  });

  it("the last free place is never held idle: it goes to whoever starts paying first", async () => {
    const m = await signup(api);
    const slug = await limitedLink(m, 1);
    const [a, b] = [(await pay(slug)).body.data, (await pay(slug)).body.data];
    expect(await usage(m, slug)).toBe(0);
    paid(await charge(b.accessCode));
    const late = await charge(a.accessCode);
    expect(late.status, late.text).toBe(409);
    expect(late.body.error).toBe("payment_link_unavailable");
    expect(await usage(m, slug)).toBe(1);
  });
});

describe.each(dbKinds)("payment link places across two instances on one %s database", (kind) => {
  let instances: AppProc[] = [];
  beforeAll(async () => {
    const database = await freshDatabase(kind);
    instances = await Promise.all(
      ["a", "b"].map((name) =>
        startApp({
          name: `link-places-${kind}-${name}`,
          databaseUrl: database.url,
          env: { LOG_LEVEL: "warn" },
        }),
      ),
    );
  }, 180_000);
  afterAll(() => cleanupHarness(), 60_000);

  it("an address's starts spread over both instances hold one place; customers paying at once on both for the last place: one gets it", async () => {
    const [a, b] = instances.map((p) => client(p.url)) as [Client, Client];
    const { limitedLink, pay, usage, charge } = linkApi(a);
    const m = await signup(a);
    const slug = await limitedLink(m, 2);
    const attacker = randomAddress();
    const starts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => pay(slug, attacker, i % 2 ? b : a)),
    );
    expect(starts.filter((r) => r.status === 201)).toHaveLength(1);
    expect(starts.filter((r) => r.status === 429)).toHaveLength(39);

    const first = (await pay(slug, randomAddress(), b)).body.data;
    paid(await charge(first.accessCode, CARDS.success, b));
    // One place left, held idle by the attacker: four customers start paying at once, on both instances.
    const customers = [];
    for (let i = 0; i < 4; i++) customers.push((await pay(slug, randomAddress(), i % 2 ? b : a)).body.data);
    const charges = await Promise.all(
      customers.map((c, i) => charge(c.accessCode, CARDS.success, i % 2 ? a : b)),
    );
    const outcomes = charges.map((r) =>
      r.status === 200 ? r.body.data.status : `${r.status} ${r.body.error}`,
    );
    expect(outcomes.filter((o) => o === "success")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "409 payment_link_unavailable")).toHaveLength(3);
    expect(await usage(m, slug)).toBe(2);
  });
});
