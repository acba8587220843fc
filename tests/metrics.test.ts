import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port";
import { checkContract } from "./helpers/contract";
import {
  type AppProc,
  cleanupHarness,
  dbKinds,
  freshDatabase,
  type HookMerchant,
  initializePayment,
  merchantWithWebhook,
  payByCard,
  type Receiver,
  startApp,
  startReceiver,
  startWorker,
  waitFor,
} from "./helpers/webhook-harness";

/**
 * GET /v1/metrics (docs/deploy.md "Metrics"): Prometheus' text format, open with METRICS_TOKEN or from
 * METRICS_ALLOWED_ADDRESSES only, counting every worker of the instance (two here), on each database.
 */
const TOKEN = "metrics-token-0123456789abcdefghijklmnop";

afterAll(async () => {
  await cleanupHarness();
});

/** A sample's value from the text format, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = match[2] ?? "";
    if (want.every((pair) => have.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/v1/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

describe.each(dbKinds)("GET /v1/metrics on %s", (kind) => {
  let app: AppProc;
  let receiver: Receiver;
  let merchant: HookMerchant;

  beforeAll(async () => {
    const db = await freshDatabase(kind);
    app = await startApp({
      name: `metrics-${kind}`,
      databaseUrl: db.url,
      env: {
        WEB_CONCURRENCY: "2",
        METRICS_TOKEN: TOKEN,
        METRICS_ALLOWED_ADDRESSES: "10.1.2.0/24",
        WEBHOOK_TIMEOUT_MS: "3000",
      },
    });
    receiver = await startReceiver();
    merchant = await merchantWithWebhook(app.url, receiver.url);
  });

  it("is refused without the token, or with another, in the API's envelope", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-the-token-0123456789abcdefghij" },
    ];
    for (const headers of attempts) {
      const res = await scrape(app.url, headers);
      expect(res.status).toBe(401);
      const body = JSON.parse(res.text);
      expect(body).toMatchObject({ status: "failed", error: "invalid_metrics_token" });
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      await checkContract(app.url, "GET", "/v1/metrics", res.status, body);
      expect(res.text).not.toContain("paygate_");
    }
  });

  it("counts a payment and its webhook delivery, summed over the instance's two workers", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const pings = 12;
    // The start-up's own readiness pings are counted too: what these add is what matters.
    const pinged = () =>
      sample(before.text, "paygate_http_requests_total", { endpoint: "/v1/ping", status: "200" }) ?? 0;
    const before = await scrape(app.url, auth);
    for (let i = 0; i < pings; i++) await fetch(`${app.url}/v1/ping`);
    const payment = await initializePayment(merchant, { amount: "2500", email: "metrics@example.com" });
    expect((await payByCard(merchant, payment.accessCode)).status).toBe("success");
    await receiver.waitForCount(
      1,
      20_000,
      (r) => r.json?.event === "payment.completed" && r.text.includes(payment.reference),
    );
    // Counted once each answer has gone; and every event of the payment delivered (the outbox empty).
    const res = await waitFor("the payment and its deliveries in the metrics", async () => {
      const r = await scrape(app.url, auth);
      const delivered = (sample(r.text, "paygate_jobs_finished_total", { job: "webhook-relay" }) ?? 0) >= 1;
      const empty = sample(r.text, "paygate_outbox_depth", { outbox: "webhook_deliveries" }) === 0;
      const charged = sample(r.text, "paygate_http_requests_total", {
        endpoint: "/v1/payment/checkout/charge/card",
      });
      return delivered && empty && charged === 1 ? r : null;
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const { text } = res;
    // Every ping counted once, whichever worker served it.
    expect(sample(text, "paygate_http_requests_total", { endpoint: "/v1/ping", status: "200" })).toBe(
      pinged() + pings,
    );
    expect(
      sample(text, "paygate_http_requests_total", { endpoint: "/v1/payment/initialize", method: "POST" }),
    ).toBe(1);
    expect(
      sample(text, "paygate_http_requests_total", {
        endpoint: "/v1/payment/checkout/charge/card",
        status: "200",
      }),
    ).toBe(1);
    expect(
      sample(text, "paygate_http_request_duration_seconds_count", { endpoint: "/v1/payment/initialize" }),
    ).toBe(1);
    expect(sample(text, "paygate_jobs_claimed_total", { job: "webhook-relay" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "paygate_webhook_delivery_failures_total")).toBe(0);
    expect(sample(text, "paygate_outbox_depth", { outbox: "webhook_deliveries" })).toBe(0);
    expect(sample(text, "paygate_webhook_deliveries_pending")).toBe(0);
    expect(sample(text, "paygate_webhook_oldest_pending_seconds")).toBe(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    if (kind === "postgres")
      expect(sample(text, "paygate_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    else expect(sample(text, "paygate_db_pool_connections")).toBeUndefined();
  });

  it("counts failed deliveries, the webhook backlog and its age, and rate-limit refusals", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    // A receiver that never answers: the delivery is due and unsent until its timeout; the backlog ages.
    receiver.respond(() => "hang");
    const payment = await initializePayment(merchant, { amount: "3000", email: "backlog@example.com" });
    await payByCard(merchant, payment.accessCode);
    const backlog = await waitFor("the backlog to age a second", async () => {
      const r = (await scrape(app.url, auth)).text;
      return (sample(r, "paygate_webhook_oldest_pending_seconds") ?? 0) >= 1 ? r : null;
    });
    expect(sample(backlog, "paygate_webhook_deliveries_pending")).toBeGreaterThanOrEqual(1);
    // Then it fails (the hung attempt times out; the next answer is a 500).
    receiver.respond(() => ({ status: 500, body: "down" }));
    const text = await waitFor("a failed delivery in the metrics", async () => {
      const r = await scrape(app.url, auth);
      return (sample(r.text, "paygate_webhook_delivery_failures_total") ?? 0) >= 1 ? r.text : null;
    });
    // The failed attempt is rescheduled: one delivery waits in the outbox.
    expect(sample(text, "paygate_outbox_depth", { outbox: "webhook_deliveries" })).toBeGreaterThanOrEqual(1);
    receiver.respond(() => ({ status: 200, body: "ok" }));
    // Wrong passwords until the login budget is spent.
    let refused = 0;
    for (let i = 0; i < 40 && refused === 0; i++) {
      const res = await fetch(`${app.url}/v1/merchants/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `nobody-${kind}@example.com`, password: "wrong password here" }),
      });
      if (res.status === 429) refused++;
    }
    expect(refused).toBe(1);
    const after = await waitFor("the refusal in the metrics", async () => {
      const r = (await scrape(app.url, auth)).text;
      return sample(r, "paygate_http_requests_total", { endpoint: "/v1/merchants/auth/login", status: "429" })
        ? r
        : null;
    });
    expect(sample(after, "paygate_rate_limit_refusals_total", { door: "api" })).toBeGreaterThanOrEqual(1);
  });
});

describe("GET /v1/metrics by address", () => {
  let app: AppProc;
  beforeAll(async () => {
    const db = await freshDatabase("sqlite");
    // Behind a proxy (TRUST_PROXY), the client address is the proxy's last X-Forwarded-For hop.
    app = await startApp({
      name: "metrics-addresses",
      databaseUrl: db.url,
      env: { WEB_CONCURRENCY: "1", TRUST_PROXY: "1", METRICS_ALLOWED_ADDRESSES: "10.20.0.0/16, 192.0.2.7" },
    });
  });

  it("answers a listed address or range without a token, and refuses any other with 403", async () => {
    for (const address of ["10.20.3.4", "192.0.2.7"])
      expect((await scrape(app.url, { "x-forwarded-for": address })).status).toBe(200);
    for (const address of ["10.21.0.1", "192.0.2.8", "127.0.0.1"]) {
      const res = await scrape(app.url, { "x-forwarded-for": address });
      expect(res.status).toBe(403);
      const body = JSON.parse(res.text);
      expect(body).toMatchObject({ status: "failed", error: "address_not_allowed" });
      await checkContract(app.url, "GET", "/v1/metrics", res.status, body);
    }
    // No token is configured: a token is refused, not taken as one.
    expect((await scrape(app.url, { authorization: "Bearer anything-at-all" })).status).toBe(401);
  });
});

describe("npm run worker's GET /v1/metrics (WORKER_METRICS_PORT)", () => {
  it("counts the background jobs it runs, behind the same token", async () => {
    const db = await freshDatabase("sqlite");
    const port = await freePort();
    await startWorker({
      name: "metrics-worker",
      databaseUrl: db.url,
      env: { WORKER_METRICS_PORT: String(port), HOSTNAME: "127.0.0.1", METRICS_TOKEN: TOKEN },
    });
    const url = `http://127.0.0.1:${port}`;
    await waitFor("the worker's metrics to listen", () =>
      fetch(`${url}/v1/metrics`).then(
        () => true,
        () => false,
      ),
    );
    const refused = await scrape(url);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ status: "failed", error: "invalid_metrics_token" });
    const { status, text } = await scrape(url, { authorization: `Bearer ${TOKEN}` });
    expect(status).toBe(200);
    for (const job of ["webhook-relay", "checkout-expiry", "card-reconciliation", "refund-settlement"])
      expect(sample(text, "paygate_jobs_claimed_total", { job })).toBeGreaterThanOrEqual(0);
    expect(sample(text, "paygate_outbox_depth", { outbox: "receipts" })).toBe(0);
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
  });
});
