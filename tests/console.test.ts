import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { client, initialize, production, randomAddress, signup, targets, uniqueEmail } from "./helpers/api";
import { checkWebhook } from "./helpers/contract";
import { testDb } from "./helpers/db";
import { type Received, startReceiver, verifyWebhook } from "./helpers/webhook-harness";
import type { Target } from "./setup/servers";

/**
 * The merchant console's server side (/dashboard): its cookie session on the API's merchants, sessions and
 * rate limits, the Origin check on mutations, where a signed-out browser is sent, another merchant's data
 * refused, and the streamed CSV export.
 */
const PASSWORD = "correct horse battery staple";

type Browser = ReturnType<typeof browser>;

/** A browser-like client of one target: same-origin `Origin` on mutations, a cookie jar, no redirect following. */
function browser(target: Target, address = randomAddress()) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${target.url}${path}`, {
      method,
      redirect: "manual",
      headers: {
        "x-forwarded-for": address,
        ...(method !== "GET" && { origin: target.url, "content-type": "application/json" }),
        ...(jar.size && { cookie: cookieHeader() }),
        ...headers,
      },
      body: body === undefined ? (method === "GET" ? undefined : "{}") : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (/max-age=0/i.test(c) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: json };
  }
  return { jar, send, get: (path: string) => send("GET", path) };
}

const DAY = 24 * 60 * 60 * 1000;

/** RFC 4180 rows (quoted fields, doubled quotes, commas and newlines inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (c !== "\r") field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  check: () => Promise<T>,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** The text of the element carrying `data-<attr>="<value>"` in a page's HTML, tags and React's markers removed. */
function textOf(html: string, attr: string, value: string): string | null {
  const m = new RegExp(`<(\\w+)[^>]*data-${attr}="${value}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  if (!m) return null;
  return (m[2] ?? "")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A receiver on 127.0.0.1: 200 on /hook, 500 on /fail; remembers every request. */
async function receiver() {
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(req.url === "/fail" ? 500 : 200).end(req.url === "/fail" ? "down" : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A test payment initialized with `key` and paid by card; answers its reference. */
async function paidByCard(target: Target, key: string, body: Record<string, unknown> = {}) {
  const api = client(target.url);
  const init = await initialize(api, key, { amount: "5000", email: "buyer@example.com", ...body });
  expect(init.status, init.text).toBe(201);
  const { reference, accessCode } = init.body.data as { reference: string; accessCode: string };
  const card = {
    number: "4242424242424242",
    expiryMonth: 12,
    expiryYear: new Date().getUTCFullYear() + 2,
    cvv: "123",
  };
  const paid = await api.post("/v1/payment/checkout/charge/card", card, { "x-access-code": accessCode });
  expect(paid.body.data.status).toBe("success");
  return reference;
}

/**
 * Payments written straight into the database for one merchant, copied from one it initialized (so every
 * column is valid: a pending NGN 0.01 payment made now, left in place), each with its own reference; answers
 * the references in the order given.
 */
async function seedPayments(
  target: Target,
  key: string,
  rows: Array<
    Partial<{
      status: string;
      channel: string | null;
      currency: string;
      amount_minor: bigint;
      created_at: number;
      paid_at: number | null;
      customer_name: string | null;
      email: string | null;
    }>
  >,
) {
  const first = await initialize(client(target.url), key, { amount: "1", email: "seed@example.com" });
  const db = testDb(target);
  const template = await db
    .selectFrom("transactions")
    .selectAll()
    .where("reference", "=", first.body.data.reference)
    .executeTakeFirstOrThrow();
  const values = rows.map((r, i) => ({
    ...template,
    id: randomUUID(),
    reference: `PAY_TXN_seed${i}x${randomBytes(6).toString("hex")}`,
    access_code: randomBytes(20).toString("hex"),
    ...r,
  }));
  for (let i = 0; i < values.length; i += 200)
    await db
      .insertInto("transactions")
      .values(values.slice(i, i + 200))
      .execute();
  return { references: values.map((v) => v.reference), template: template.reference };
}

async function consoleSignup(b: Browser, businessName = "Console Shop") {
  const email = uniqueEmail("console");
  const res = await b.send("POST", "/dashboard/api/auth/signup", { businessName, email, password: PASSWORD });
  expect(res.status, res.text).toBe(201);
  return { email, res };
}

describe.each(targets)("merchant console on $name", (target) => {
  it("signup sets an httpOnly, SameSite=Lax session cookie (not Secure on plain-http staging) and shows both keys once", async () => {
    const b = browser(target);
    const { email, res } = await consoleSignup(b, "Ada's Kitchen");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("paygate_session="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/dashboard/);
    expect(cookie).toMatch(/; Expires=/);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.body.data.merchant).toMatchObject({ businessName: "Ada's Kitchen", email });
    expect(res.body.data.keys.test.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{43}$/);
    expect(res.body.data.keys.live.secretKey).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
    // The token lives in the cookie only, never in a body a script could read.
    expect(res.text).not.toContain("mst_");

    // The same session store as the API: the cookie's token is a valid bearer token on /v1.
    const token = b.jar.get("paygate_session") as string;
    const api = await client(target.url).get("/v1/merchants/transactions", {
      authorization: `Bearer ${token}`,
    });
    expect(api.status).toBe(200);

    const page = await b.get("/dashboard");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Overview");
    expect(page.text).toContain("Ada&#x27;s Kitchen");
    expect(page.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses mutations from another origin or with no Origin (403 cross_origin), before anything is done", async () => {
    const b = browser(target);
    await consoleSignup(b);
    const email = uniqueEmail("xorigin");
    for (const origin of ["https://evil.example", "null", undefined]) {
      const headers: Record<string, string> = origin ? { origin } : { origin: "" };
      const res = await b.send(
        "POST",
        "/dashboard/api/auth/signup",
        { businessName: "X", email, password: PASSWORD },
        headers,
      );
      expect(res.status, String(origin)).toBe(403);
      expect(res.body).toEqual({ status: "failed", error: "cross_origin", message: expect.any(String) });
      const roll = await b.send("POST", "/dashboard/api/keys/roll", { mode: "test" }, headers);
      expect(roll.status).toBe(403);
    }
    const db = testDb(target);
    expect(
      await db.selectFrom("merchants").select("id").where("email", "=", email).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("malformed requests to the console's routes are 4xx envelopes, never a 500", async () => {
    const b = browser(target);
    const wrongMethod = await b.get("/dashboard/api/auth/login");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error).toBe("method_not_allowed");
    const empty = await b.send("POST", "/dashboard/api/auth/login", {});
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^email .*; password is required/);
    const broken = await fetch(`${target.url}/dashboard/api/auth/login`, {
      method: "POST",
      headers: { origin: target.url, "content-type": "application/json", "x-forwarded-for": randomAddress() },
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toBe("invalid_json");
    const extra = await b.send("POST", "/dashboard/api/auth/login", {
      email: "a@b.co",
      password: "x",
      admin: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/unknown field "admin"/);
    const filters = await b.get("/dashboard/api/payments/export?from=yesterday");
    expect(filters.status).toBe(401);
  });

  it("login: wrong password is 401 invalid_credentials, bad input names the field, failures share the API's per-address budget", async () => {
    const m = await signup(client(target.url));
    const b = browser(target);
    const ok = await b.send("POST", "/dashboard/api/auth/login", { email: m.email, password: m.password });
    expect(ok.status).toBe(200);
    expect(ok.body.data.merchant.email).toBe(m.email);
    expect(b.jar.get("paygate_session")).toMatch(/^mst_/);

    const bad = await b.send("POST", "/dashboard/api/auth/login", { email: "not-an-email", password: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_error");
    expect(bad.body.message).toMatch(/^email /);

    const address = randomAddress();
    const attacker = browser(target, address);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await attacker.send("POST", "/dashboard/api/auth/login", {
            // Spread over emails: the address's budget refuses here, not one account's count.
            email: i === 0 ? m.email : `guess-${i}-${m.email}`,
            password: `guess-${i}-xxxx`,
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // The budget is the API's: the same address is refused on /v1 too.
    const viaApi = await client(target.url, { address }).post("/v1/merchants/auth/login", {
      email: m.email,
      password: m.password,
    });
    expect(viaApi.status).toBe(429);
  });

  it("a signed-out or expired browser is sent to sign in, then back to the page it wanted", async () => {
    const anonymous = browser(target);
    const res = await anonymous.get("/dashboard/payments?status=success");
    expect([303, 307]).toContain(res.status);
    expect(res.headers.get("location")).toMatch(
      /\/dashboard\/login\?next=%2Fdashboard%2Fpayments%3Fstatus%3Dsuccess$/,
    );

    const b = browser(target);
    const { res: signed } = await consoleSignup(b);
    const db = testDb(target);
    await db
      .updateTable("merchant_sessions")
      .set({ expires_at: Date.now() - 1000 })
      .where("merchant_id", "=", signed.body.data.merchant.id)
      .execute();
    const expired = await b.get("/dashboard/webhooks");
    expect([303, 307]).toContain(expired.status);
    expect(expired.headers.get("location")).toMatch(
      /\/dashboard\/login\?next=%2Fdashboard%2Fwebhooks&expired=1$/,
    );
    const call = await b.send("POST", "/dashboard/api/keys/roll", { mode: "test" });
    expect(call.status).toBe(401);
    expect(call.body.error).toBe("invalid_session");

    // The login page sends the merchant back only to a console page, never to another site.
    const login = await anonymous.get("/dashboard/login?next=%2F%2Fevil.example");
    expect(login.status).toBe(200);
  });

  it("sign out ends the session everywhere and clears the cookie", async () => {
    const b = browser(target);
    await consoleSignup(b);
    const token = b.jar.get("paygate_session") as string;
    const out = await b.send("POST", "/dashboard/api/auth/logout");
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith("paygate_session="));
    expect(cleared).toMatch(/^paygate_session=; .*Max-Age=0/);
    expect(cleared).toMatch(/HttpOnly/);
    const api = await client(target.url).get("/v1/merchants/transactions", {
      authorization: `Bearer ${token}`,
    });
    expect(api.status).toBe(401);
    const page = await b.send("GET", "/dashboard", undefined, { cookie: `paygate_session=${token}` });
    expect([303, 307]).toContain(page.status);
  });

  it("Send a test event posts one signed webhook.test that the document's webhooks describe", async () => {
    const receiver = await startReceiver();
    try {
      const owner = browser(target);
      await consoleSignup(owner, "Ping Shop");
      const hook = await owner.send("PUT", "/dashboard/api/webhook", { mode: "test", url: receiver.url });
      expect(hook.status, hook.text).toBe(200);
      const ping = await owner.send("POST", "/dashboard/api/webhook/test", { mode: "test" });
      expect(ping.status, ping.text).toBe(200);
      expect(ping.body.data).toMatchObject({ delivered: true, responseStatus: 200 });
      const [got] = await receiver.waitForCount(1);
      expect(got?.json).toMatchObject({ event: "webhook.test", data: { mode: "test" } });
      await checkWebhook(got?.json);
      expect(verifyWebhook(got as Received, hook.body.data.secret)).toMatchObject({ event: "webhook.test" });
    } finally {
      await receiver.close();
    }
  });

  it("a refused form answers its failing fields by path and rule; /v1 keeps the envelope docs/api.md defines", async () => {
    const owner = browser(target);
    const signed = await consoleSignup(owner, "Fields Shop");
    const bad = {
      title: " ",
      amount: "12,000",
      channels: [],
      metadata: { fields: [{ name: "size", label: "Size", type: "colour" }] },
    };
    const refused = await owner.send("POST", "/dashboard/api/payment-links", bad);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ status: "failed", error: "validation_error" });
    expect((refused.body.fields as { field: string; rule: string }[]).map((f) => [f.field, f.rule])).toEqual([
      ["title", "too_small"],
      ["channels", "too_small"],
      ["metadata.fields[0].type", "invalid_value"],
    ]);
    // Each entry's sentence is the message's, in order.
    expect(refused.body.message).toBe(
      `${(refused.body.fields as { message: string }[]).map((f) => f.message).join("; ")}.`,
    );
    // A rule the verb checks itself (the amount in the currency's decimals, the expiry) names its field too.
    const amount = await owner.send("POST", "/dashboard/api/payment-links", {
      title: "Tote",
      amount: "12,000",
    });
    expect(amount.body.fields).toEqual([
      {
        field: "amount",
        rule: "invalid_format",
        message: expect.stringMatching(/^amount must be a decimal string/),
      },
    ]);
    const past = await owner.send("POST", "/dashboard/api/payment-links", {
      title: "Tote",
      amount: "1000",
      expiresAt: "2020-01-01T00:00:00Z",
    });
    expect(past.body.fields).toEqual([
      { field: "expiresAt", rule: "in_the_past", message: "expiresAt must be in the future" },
    ]);
    // The API answers the same request with the API's envelope (docs/api.md), and nothing more.
    const login = await fetch(`${target.url}/v1/merchants/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": randomAddress() },
      body: JSON.stringify({ email: signed.email, password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    const api = await fetch(`${target.url}/v1/merchants/payment-links`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "x-forwarded-for": randomAddress(),
      },
      body: JSON.stringify(bad),
    });
    expect(api.status).toBe(400);
    const body = await api.json();
    expect(Object.keys(body).sort()).toEqual(["error", "message", "status"]);
    expect(body.message).toBe(refused.body.message);
  });

  it("never shows or changes another merchant's payment, link or event (404)", async () => {
    const api = client(target.url);
    const owner = browser(target);
    const ownerSignup = await consoleSignup(owner);
    const testKey = ownerSignup.res.body.data.keys.test.secretKey as string;
    const paid = await initialize(api, testKey, { amount: "2500", email: "buyer@example.com" });
    expect(paid.status).toBe(201);
    const reference = paid.body.data.reference as string;
    const link = await owner.send("POST", "/dashboard/api/payment-links", {
      title: "Jollof",
      amount: "3000",
    });
    expect(link.status, link.text).toBe(201);
    const slug = link.body.data.slug as string;
    const hook = await owner.send("PUT", "/dashboard/api/webhook", {
      mode: "test",
      url: "http://127.0.0.1:9/hook",
    });
    expect(hook.status, hook.text).toBe(200);
    expect(hook.body.data.secret).toMatch(/^whsec_/);

    // The owner sees them.
    expect((await owner.get(`/dashboard/payments/${reference}`)).status).toBe(200);
    expect((await owner.get(`/dashboard/links/${slug}`)).status).toBe(200);
    const db = testDb(target);
    const txn = await db
      .selectFrom("transactions")
      .select(["id", "merchant_id"])
      .where("reference", "=", reference)
      .executeTakeFirstOrThrow();
    const eventId = `evt_${randomBytes(12).toString("hex")}`;
    await db
      .insertInto("events")
      .values({
        id: eventId,
        merchant_id: txn.merchant_id,
        mode: "test",
        type: "payment.completed",
        reference,
        dedupe_key: `console-test-${eventId}`,
        payload: JSON.stringify({ event: "payment.completed", data: { reference } }),
        created_at: Date.now(),
        delivered_at: null,
      })
      .execute();

    const other = browser(target);
    await consoleSignup(other, "Someone Else");
    const ping = await other.send("POST", "/dashboard/api/webhook/test", { mode: "test" });
    expect(ping.status).toBe(409);
    expect(ping.body.error).toBe("invalid_state");
    expect((await other.get(`/dashboard/payments/${reference}`)).status).toBe(404);
    const followed = await other.get(`/dashboard/api/payments/${reference}`);
    expect(followed.status).toBe(404);
    expect(followed.body.error).toBe("transaction_not_found");
    expect((await owner.get(`/dashboard/api/payments/${reference}`)).body.data.status).toBe("pending");
    expect((await other.get(`/dashboard/links/${slug}`)).status).toBe(404);
    const patch = await other.send("PATCH", `/dashboard/api/payment-links/${slug}`, { active: false });
    expect(patch.status).toBe(404);
    expect(patch.body.error).toBe("payment_link_not_found");
    const redeliver = await other.send("POST", `/dashboard/api/events/${eventId}/redeliver`);
    expect(redeliver.status).toBe(404);
    expect(redeliver.body.error).toBe("event_not_found");
    const events = await other.get(`/dashboard/api/events?reference=${reference}`);
    expect(events.status).toBe(200);
    expect(events.body.data.events).toEqual([]);
    const csv = await other.get(`/dashboard/api/payments/export?q=${reference}`);
    expect(csv.text.trim().split("\n")).toHaveLength(1);
    // And the owner's link is still active.
    const still = await db
      .selectFrom("payment_links")
      .select("active")
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    expect(Number(still.active)).toBe(1);
  });

  it("refunds a paid payment from its page: part, then the rest; never more; another merchant's is unknown", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b);
    const testKey = res.body.data.keys.test.secretKey as string;
    const reference = await paidByCard(target, testKey);

    const page = await b.get(`/dashboard/payments/${reference}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Refundable");
    expect(page.text).toContain("NGN 5,000.00");

    const part = await b.send("POST", "/dashboard/api/refunds", {
      reference,
      amount: "1500.00",
      reason: "Returned one",
    });
    expect(part.status, part.text).toBe(201);
    expect(part.body.data).toMatchObject({
      reference,
      amount: "1500.00",
      status: "pending",
      type: "merchant",
    });
    const tooMuch = await b.send("POST", "/dashboard/api/refunds", { reference, amount: "4000.00" });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toBe("refund_exceeds_available");
    const rest = await b.send("POST", "/dashboard/api/refunds", { reference });
    expect(rest.body.data.amount).toBe("3500.00");
    const bad = await b.send("POST", "/dashboard/api/refunds", { reference, amount: "-1" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("amount");

    const list = await b.get(`/dashboard/api/refunds?reference=${reference}`);
    expect(list.body.data.refunds.map((r: { amount: string }) => r.amount)).toEqual(["3500.00", "1500.00"]);
    const refundsPage = await b.get("/dashboard/refunds");
    expect(refundsPage.status).toBe(200);
    expect(refundsPage.text).toContain(reference);
    expect((await b.get(`/dashboard/payments/${reference}`)).text).toContain(
      "Everything paid has been refunded.",
    );

    const other = browser(target);
    await consoleSignup(other, "Someone Else");
    const theirs = await other.send("POST", "/dashboard/api/refunds", { reference });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe("transaction_not_found");
    const crossSite = await b.send(
      "POST",
      "/dashboard/api/refunds",
      { reference },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
  });

  it("live mode shows none of the test data, and its keys and webhooks are managed on production", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b);
    const paid = await initialize(client(target.url), res.body.data.keys.test.secretKey, {
      amount: "100",
      email: "live@example.com",
    });
    const reference = paid.body.data.reference as string;
    expect((await b.get("/dashboard/payments")).text).toContain(reference);
    expect((await b.send("POST", "/dashboard/api/mode", { mode: "live" })).status).toBe(200);
    const live = await b.get("/dashboard/payments");
    expect(live.status).toBe(200);
    expect(live.text).not.toContain(reference);
    expect(live.text).toContain("Live mode");
    expect((await b.get(`/dashboard/payments/${reference}`)).status).toBe(404);
    const roll = await b.send("POST", "/dashboard/api/keys/roll", { mode: "live" });
    expect(roll.status).toBe(400);
    expect(roll.body.message).toMatch(/^mode must be "test"/);
  });

  it("exports 10,000 payments as CSV, streamed in pieces, with the filters applied", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b, "Bulk Shop");
    const merchantId = res.body.data.merchant.id as string;
    const first = await initialize(client(target.url), res.body.data.keys.test.secretKey, {
      amount: "1000",
      email: "first@example.com",
    });
    const db = testDb(target);
    const template = await db
      .selectFrom("transactions")
      .selectAll()
      .where("reference", "=", first.body.data.reference)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const rows = Array.from({ length: 9_999 }, (_, i) => ({
      ...template,
      id: randomUUID(),
      reference: `PAY_TXN_bulk${i}x${randomBytes(4).toString("hex")}`,
      access_code: randomBytes(20).toString("hex"),
      created_at: now - i * 1000,
      status: i % 2 === 0 ? "success" : "failed",
      customer_name: i === 0 ? '=HYPERLINK("http://evil")' : `Customer ${i}`,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto("transactions")
        .values(rows.slice(i, i + 500))
        .execute();
    }
    expect(merchantId).toBe(template.merchant_id);

    const response = await fetch(`${target.url}/dashboard/api/payments/export`, {
      headers: { cookie: `paygate_session=${b.jar.get("paygate_session")}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="payments-test-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Streamed: no length known up front, and the body arrives in many pieces.
    expect(response.headers.get("content-length")).toBeNull();
    let chunks = 0;
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(5);
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe(
      "reference,created_at,status,amount,currency,channel,fees,total,amount_settled,paid_at,customer_email,customer_name,amount_refunded,refund_count,metadata",
    );
    expect(lines).toHaveLength(10_001);
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0])).size).toBe(10_000);
    // A name that a spreadsheet would run as a formula is exported as text.
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);

    const filtered = await b.get("/dashboard/api/payments/export?status=failed");
    expect(filtered.text.trim().split("\n")).toHaveLength(1 + 4_999);
    const bad = await b.get("/dashboard/api/payments/export?status=paid");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("validation_error");
    const anonymous = await fetch(`${target.url}/dashboard/api/payments/export`);
    expect(anonymous.status).toBe(401);
  });

  it("the CSV export names each payment's refunds (amount refunded, how many) and its metadata", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b, "Refund Export Shop");
    const key = res.body.data.keys.test.secretKey as string;
    const api = client(target.url);
    const metadata = { orderId: "A-17", note: "=cmd|' /C calc'!A0", items: [1, 2] };
    const started = await initialize(api, key, { amount: "10000", email: "payer@example.com", metadata });
    expect(started.status).toBe(201);
    const { reference, accessCode } = started.body.data;
    const paid = await api.post(
      "/v1/payment/checkout/charge/card",
      { number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvv: "123" },
      { "x-access-code": accessCode },
    );
    expect(paid.body.data.status).toBe("success");
    for (const amount of ["1000", "250.50"]) {
      const refund = await api.post("/v1/refunds", { reference, amount }, { "x-api-key": key });
      expect(refund.status).toBe(201);
    }
    // An unpaid one beside it: nothing refunded, no metadata.
    const unpaid = (await initialize(api, key, { amount: "20", email: "payer@example.com" })).body.data
      .reference;

    const csv = await b.get("/dashboard/api/payments/export");
    expect(csv.status).toBe(200);
    const [header, ...rows] = parseCsv(csv.text);
    const row = (ref: string) =>
      Object.fromEntries((header ?? []).map((name, i) => [name, rows.find((r) => r[0] === ref)?.[i]]));
    expect(row(reference)).toMatchObject({
      status: "success",
      amount: "10000.00",
      amount_refunded: "1250.50",
      refund_count: "2",
    });
    // The merchant's own JSON, as it was sent, and never a formula.
    expect(JSON.parse(row(reference).metadata ?? "")).toEqual(metadata);
    expect(row(unpaid)).toMatchObject({
      status: "pending",
      amount_refunded: "0.00",
      refund_count: "0",
      metadata: "",
    });
  });

  it("overview: collected today and over the last 7 days per currency, payments, success rate, and what needs attention", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b, "Overview Shop");
    const key = res.body.data.keys.test.secretKey as string;
    const now = Date.now();
    const midnight = new Date(now);
    midnight.setUTCHours(0, 0, 0, 0);
    // Today: a few seconds ago (or at midnight itself, just after it). Earlier this week: two days before
    // today's midnight. Older: ten days ago, outside the 7 × 24 hours.
    const today = Math.max(midnight.getTime(), now - 5_000);
    const thisWeek = midnight.getTime() - 2 * DAY;
    const older = now - 10 * DAY;
    const paid = (currency: string, major: number, at: number) => ({
      status: "success",
      channel: "card",
      currency,
      amount_minor: BigInt(Math.round(major * 100)),
      created_at: at - 60_000,
      paid_at: at,
    });
    const ended = (status: string, currency: string, at: number) => ({
      status,
      currency,
      amount_minor: 99_900n,
      created_at: at,
      paid_at: null,
    });
    await seedPayments(target, key, [
      paid("NGN", 1000, today),
      paid("NGN", 2500.5, today),
      ended("failed", "NGN", today),
      paid("USD", 10, today),
      paid("NGN", 4000, thisWeek),
      paid("USD", 5.25, thisWeek),
      ended("abandoned", "USD", thisWeek),
      paid("NGN", 9999, older),
      ended("failed", "NGN", older),
    ]);
    const page = await b.get("/dashboard");
    expect(page.status).toBe(200);
    expect(textOf(page.text, "stat", "today-NGN")).toBe("NGN 3,500.50 from 2 payments");
    expect(textOf(page.text, "stat", "today-USD")).toBe("USD 10.00 from 1 payment");
    expect(textOf(page.text, "stat", "week-NGN")).toBe("NGN 7,500.50 from 3 payments");
    expect(textOf(page.text, "stat", "week-USD")).toBe("USD 15.25 from 2 payments");
    // Created in the last 7 days: the 7 seeded there and the pending one they were copied from.
    expect(textOf(page.text, "stat", "payments")).toBe("8");
    // Finished in the last 7 days: 5 succeeded, 1 failed, 1 abandoned (the pending one is not finished).
    expect(textOf(page.text, "stat", "success-rate")).toBe("71%");
    expect(page.text).toContain("the last 7 days are the 7 × 24 hours up to now");
    expect(page.text).toContain("Nothing needs your attention.");

    // An endpoint whose last delivery failed, before the relay has given up on it.
    const hook = await b.send("PUT", "/dashboard/api/webhook", {
      mode: "test",
      url: "http://127.0.0.1:9/hook",
    });
    expect(hook.status, hook.text).toBe(200);
    const db = testDb(target);
    const endpoint = await db
      .selectFrom("webhook_endpoints")
      .select(["id", "merchant_id", "url"])
      .where("merchant_id", "=", res.body.data.merchant.id)
      .executeTakeFirstOrThrow();
    const eventId = `evt_${randomBytes(12).toString("hex")}`;
    await db
      .insertInto("events")
      .values({
        id: eventId,
        merchant_id: endpoint.merchant_id,
        mode: "test",
        type: "payment.completed",
        reference: "PAY_TXN_overview",
        dedupe_key: `overview-${eventId}`,
        payload: "{}",
        created_at: now,
        delivered_at: null,
      })
      .execute();
    const attempt = (n: number, status: string, at: number, url = endpoint.url) => ({
      id: randomUUID(),
      event_id: eventId,
      endpoint_id: endpoint.id,
      merchant_id: endpoint.merchant_id,
      mode: "test" as const,
      attempt: n,
      trigger: n === 1 ? "event" : "retry",
      status,
      due_at: at,
      locked_until: null,
      url,
      response_status: status === "failed" ? 500 : 200,
      response_excerpt: null,
      latency_ms: 5,
      error: null,
      created_at: at,
      finished_at: at,
    });
    await db
      .insertInto("webhook_deliveries")
      .values([
        attempt(1, "succeeded", now - 60_000),
        attempt(2, "failed", now - 50_000),
        attempt(3, "failed", now - 40_000),
      ])
      .execute();
    let overview = await b.get("/dashboard");
    expect(textOf(overview.text, "attention", "webhook-failing")).toMatch(
      /^Your webhook endpoint is failing: the last delivery failed \(.+\), 2 failed attempts since the last success\./,
    );
    expect(overview.text).not.toContain('data-attention="webhook-disabled"');

    // A success after them: no longer failing. A failure to an earlier URL does not count.
    await db
      .insertInto("webhook_deliveries")
      .values(attempt(4, "succeeded", now - 30_000))
      .execute();
    await db
      .insertInto("webhook_deliveries")
      .values(attempt(5, "failed", now - 20_000, "http://127.0.0.1:9/old"))
      .execute();
    overview = await b.get("/dashboard");
    expect(overview.text).not.toContain('data-attention="webhook-failing"');
    expect(overview.text).toContain("Nothing needs your attention.");

    // Disabled: said as such (not as failing). Pending refunds: counted, linked.
    await db
      .updateTable("webhook_endpoints")
      .set({
        status: "disabled",
        disabled_reason: "Every delivery failed for 10 attempts.",
        disabled_at: now,
      })
      .where("id", "=", endpoint.id)
      .execute();
    const refunded = await db
      .selectFrom("transactions")
      .select(["id", "reference"])
      .where("merchant_id", "=", endpoint.merchant_id)
      .where("status", "=", "success")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 2; i++) {
      await db
        .insertInto("refunds")
        .values({
          id: `rfd_${randomBytes(12).toString("hex")}`,
          transaction_id: refunded.id,
          merchant_id: endpoint.merchant_id,
          mode: "test",
          reference: refunded.reference,
          type: "merchant",
          reason: "overview",
          amount_minor: 100n,
          currency: "NGN",
          status: "pending",
          source: null,
          source_id: null,
          rail: "sandbox",
          rail_reference: null,
          failure_reason: null,
          // Not due for a day: the refund worker leaves them pending while the page is read.
          due_at: now + DAY,
          created_at: now,
          processed_at: null,
          updated_at: now,
        })
        .execute();
    }
    overview = await b.get("/dashboard");
    expect(textOf(overview.text, "attention", "webhook-disabled")).toMatch(
      /^Your webhook endpoint is disabled \(Every delivery failed for 10 attempts\.\): events are not being delivered\./,
    );
    expect(overview.text).not.toContain('data-attention="webhook-failing"');
    expect(textOf(overview.text, "attention", "refunds-pending")).toMatch(/^2 refunds pending/);

    // Live mode counts none of it.
    await b.send("POST", "/dashboard/api/mode", { mode: "live" });
    const live = await b.get("/dashboard");
    expect(textOf(live.text, "stat", "payments")).toBe("0");
    expect(live.text).not.toContain('data-stat="today-NGN"');
    expect(live.text).toContain("Nothing needs your attention.");
  });

  it("payments list: filters by channel, currency and date range, searches by reference and customer name, pages by keyset", async () => {
    const b = browser(target);
    const { res } = await consoleSignup(b, "Filter Shop");
    const key = res.body.data.keys.test.secretKey as string;
    const at = (day: number) => Date.UTC(2025, 0, day, 12);
    const row = (channel: string, currency: string, day: number, name: string) => ({
      status: "success",
      channel,
      currency,
      created_at: at(day),
      paid_at: at(day),
      customer_name: name,
    });
    const pageRows = Array.from({ length: 30 }, (_, i) => ({
      status: "failed",
      created_at: Date.UTC(2024, 5, 1) + i * 60_000,
      customer_name: `Pager ${i}`,
    }));
    const { references, template } = await seedPayments(target, key, [
      row("card", "NGN", 10, "Adaeze Okafor"),
      row("bank_transfer", "NGN", 12, "Bola Ade"),
      row("card", "USD", 15, "Chinedu Obi"),
      row("ussd", "GHS", 13, "Dayo Bello"),
      ...pageRows,
    ]);
    const [adaeze, bola, chinedu, dayo] = references as [string, string, string, string];
    const shown = async (query: string) => {
      const page = await b.get(`/dashboard/payments?${query}`);
      expect(page.status).toBe(200);
      return [template, ...references].filter((r) => page.text.includes(r));
    };
    expect(await shown("channel=card")).toEqual([adaeze, chinedu]);
    expect(await shown("currency=USD")).toEqual([chinedu]);
    expect(await shown("channel=card&currency=NGN")).toEqual([adaeze]);
    // `to` takes in its whole day (UTC).
    expect(await shown("from=2025-01-11&to=2025-01-13")).toEqual([bola, dayo]);
    expect(await shown("from=2025-01-13")).toEqual([template, chinedu, dayo]);
    expect(await shown(`q=${bola}`)).toEqual([bola]);
    expect(await shown("q=chINEDU")).toEqual([chinedu]);
    expect(await shown("q=okafor&currency=USD")).toEqual([]);
    const bad = await b.get("/dashboard/payments?channel=cash");
    expect(bad.status).toBe(200);
    expect(bad.text).toContain("channel must be a channel");

    // Keyset pages of 25, newest first, keeping the filters: 30 failed payments of June 2024.
    const first = await b.get("/dashboard/payments?status=failed&to=2024-06-30");
    const onFirst = pageRows.map((_, i) => references[4 + i] as string).filter((r) => first.text.includes(r));
    expect(onFirst).toHaveLength(25);
    expect(first.text).not.toContain("First page");
    const next = /href="(\/dashboard\/payments\?[^"]*cursor=[^"]+)"[^>]*>Next page</.exec(first.text)?.[1];
    expect(next).toBeDefined();
    const nextUrl = (next as string).replaceAll("&amp;", "&");
    expect(nextUrl).toMatch(/status=failed&to=2024-06-30&cursor=/);
    const second = await b.get(nextUrl);
    const onSecond = pageRows
      .map((_, i) => references[4 + i] as string)
      .filter((r) => second.text.includes(r));
    expect(onSecond).toHaveLength(5);
    expect(new Set([...onFirst, ...onSecond]).size).toBe(30);
    // Newest first: the second page holds the five oldest.
    expect(onSecond.sort()).toEqual(references.slice(4, 9).sort());
    expect(second.text).not.toContain(">Next page<");
    expect(second.text).toContain(">First page<");
    const broken = await b.get("/dashboard/payments?cursor=not-a-cursor");
    expect(broken.status).toBe(200);
    expect(broken.text).toContain("start again from the first page");
  });

  it("webhooks: rolling the secret shows the new one once and it signs; the delivery log's Delivered and Not delivered filters", async () => {
    const hooks = await receiver();
    try {
      const b = browser(target);
      const { res } = await consoleSignup(b, "Hook Shop");
      const key = res.body.data.keys.test.secretKey as string;
      const noEndpoint = await b.send("POST", "/dashboard/api/webhook/roll-secret", { mode: "test" });
      expect(noEndpoint.status).toBe(409);
      expect(noEndpoint.body.error).toBe("invalid_state");

      const saved = await b.send("PUT", "/dashboard/api/webhook", { mode: "test", url: hooks.url("/hook") });
      const first = saved.body.data.secret as string;
      const rolled = await b.send("POST", "/dashboard/api/webhook/roll-secret", { mode: "test" });
      expect(rolled.status, rolled.text).toBe(200);
      const secret = rolled.body.data.secret as string;
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(first);
      // Shown once: the page never carries a secret, and says how long the previous one still signs.
      const page = await b.get("/dashboard/webhooks");
      expect(page.text).not.toContain(secret);
      expect(page.text).not.toContain(first);
      expect(page.text).toContain("Previous secret signs until");
      const crossSite = await b.send(
        "POST",
        "/dashboard/api/webhook/roll-secret",
        { mode: "test" },
        { origin: "https://evil.example" },
      );
      expect(crossSite.status).toBe(403);

      // A delivered event, signed with the new secret (and the previous one beside it).
      const delivered = await paidByCard(target, key);
      const arrived = await waitFor("payment.completed at /hook", async () =>
        hooks.received.find((r) => r.path === "/hook" && r.body.includes(delivered)),
      );
      const headers = arrived.headers as Record<string, string>;
      expect(() => new Webhook(secret).verify(arrived.body, headers)).not.toThrow();
      expect(() => new Webhook(first).verify(arrived.body, headers)).not.toThrow();

      // A failing endpoint: the next event is not delivered.
      await b.send("PUT", "/dashboard/api/webhook", { mode: "test", url: hooks.url("/fail") });
      const failed = await paidByCard(target, key);
      await waitFor("a failed attempt", async () => {
        const e = (await b.get(`/dashboard/api/events?reference=${failed}`)).body.data.events[0];
        return e?.attempts.some((a: { status: string }) => a.status === "failed");
      });
      const refs = async (delivered: string) =>
        (
          (await b.get(`/dashboard/api/events?delivered=${delivered}`)).body.data.events as {
            reference: string;
          }[]
        ).map((e) => e.reference);
      expect(await refs("false")).toContain(failed);
      expect(await refs("false")).not.toContain(delivered);
      expect(await refs("true")).toContain(delivered);
      expect(await refs("true")).not.toContain(failed);
    } finally {
      await hooks.close();
    }
  });
});

describe("merchant console on production", () => {
  it("marks the session cookie Secure", async () => {
    const b = browser(production);
    const { res } = await consoleSignup(b);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("paygate_session="));
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
  });
});
