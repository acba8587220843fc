import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expect, expectAccessible, fillCard, initialize, signUp, test, verify } from "../fixtures";
import { MAIN_BASE_URL } from "../servers";

/**
 * The embedded checkout (docs/guides/embed-the-checkout.md) as a merchant's page uses it: the page is served
 * from another origin than the service (two more ports on 127.0.0.1: the merchant's, listed in its
 * embedOrigins, and a stranger's, not listed), loads /v1/inline.js from the service and records every event
 * the script calls back, in order, in `window.events`.
 *
 * The ports: E2E_MERCHANT_PORT and the one after it when set, otherwise two the OS picks.
 */

type Recorded = { type: string; reference?: string | null; status?: string | null; code?: string };
type Hook = { event: string; data: { reference: string; status: string } };

const SHOP = (base: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant shop</title><script src="${base}/v1/inline.js"></script></head>
<body><main><h1>Merchant shop</h1><p>Ankara tote bag, NGN 5,000.00</p>
<button type="button" id="pay">Pay now</button></main>
<script>
  window.events = [];
  const query = new URLSearchParams(location.search);
  const record = (type) => (e) => window.events.push(Object.assign({ type }, e));
  document.getElementById("pay").addEventListener("click", () => {
    window.handle = Paygate.open(query.get("code"), {
      loadTimeout: Number(query.get("timeout") || 20000),
      onLoad: record("load"), onPending: record("pending"), onSuccess: record("success"),
      onCancel: record("cancel"), onError: record("error"), onClose: record("close"),
    });
  });
</script></body></html>`;

/** A page of the stranger's origin that posts the script's messages, forged, to whatever frames it. */
const FORGER = `<!doctype html><html lang="en"><head><title>forger</title></head><body><script>
  for (const type of ["loaded", "success", "cancel", "pending", "error", "close", "escape"])
    parent.postMessage({ protocol: "paygate.inline", version: 1, type, reference: "PAY_TXN_forged", status: "success" }, "*");
  document.title = "forged";
</script></body></html>`;

let merchantServer: Server;
let strangerServer: Server;
let MERCHANT_ORIGIN = "";
let STRANGER_ORIGIN = "";
const hooks: Array<{ headers: IncomingMessage["headers"]; body: string }> = [];

function listen(server: Server, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

function handler(req: IncomingMessage, res: import("node:http").ServerResponse) {
  const url = new URL(req.url ?? "/", "http://x");
  if (req.method === "POST" && url.pathname === "/hook") {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      hooks.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
    return;
  }
  if (url.pathname === "/shop") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(SHOP(MAIN_BASE_URL));
    return;
  }
  if (url.pathname === "/forger") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(FORGER);
    return;
  }
  res.writeHead(404).end();
}

test.beforeAll(async () => {
  const fixed = Number(process.env.E2E_MERCHANT_PORT ?? 0);
  merchantServer = createServer(handler);
  strangerServer = createServer(handler);
  MERCHANT_ORIGIN = await listen(merchantServer, fixed);
  STRANGER_ORIGIN = await listen(strangerServer, fixed ? fixed + 1 : 0);
});

test.afterAll(async () => {
  await new Promise((r) => merchantServer.close(r));
  await new Promise((r) => strangerServer.close(r));
});

/** A merchant of its own whose embed origins are the merchant page's; with a webhook endpoint there. */
async function embeddingMerchant(request: import("@playwright/test").APIRequestContext) {
  const merchant = await signUp(request, "Embed Shop");
  const auth = { authorization: `Bearer ${merchant.accessToken}` };
  const settings = await request.put("/v1/merchants/settings", {
    data: { embedOrigins: [MERCHANT_ORIGIN] },
    headers: auth,
  });
  expect(settings.status(), await settings.text()).toBe(200);
  expect((await settings.json()).data.embedOrigins).toEqual([MERCHANT_ORIGIN]);
  const webhook = await request.put("/v1/merchants/webhook", {
    data: { mode: "test", url: `${MERCHANT_ORIGIN}/hook` },
    headers: auth,
  });
  expect(webhook.status(), await webhook.text()).toBe(200);
  return { merchant, webhookSecret: (await webhook.json()).data.secret as string };
}

async function openOnShop(page: Page, origin: string, accessCode: string, timeout?: number) {
  const query = new URLSearchParams({ code: accessCode, ...(timeout ? { timeout: String(timeout) } : {}) });
  await page.goto(`${origin}/shop?${query}`);
  await page.getByRole("button", { name: "Pay now" }).click();
}

const events = (page: Page) => page.evaluate(() => (window as unknown as { events: Recorded[] }).events);
const types = async (page: Page) => (await events(page)).map((e) => e.type);
const checkout = (page: Page) => page.frameLocator('dialog iframe[title="Checkout"]');

async function waitForEvent(page: Page, type: string) {
  await expect.poll(() => types(page), { timeout: 20_000 }).toContain(type);
}

/** Signed webhooks the merchant page's server received for `reference`. */
function hooksFor(reference: string, secret: string): Hook[] {
  const wh = new Webhook(secret);
  const signed: Hook[] = [];
  for (const h of hooks) {
    try {
      signed.push(wh.verify(h.body, h.headers as Record<string, string>) as Hook);
    } catch {
      // Another test's merchant's delivery (another secret).
    }
  }
  return signed.filter((h) => h.data?.reference === reference);
}

test.describe("the embedded checkout", () => {
  test("opens over a page of another origin, takes a card, and onSuccess fires once with the reference", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);

    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAttribute("aria-modal", "true");
    await waitForEvent(page, "load");
    const frame = checkout(page);
    await expect(frame.getByRole("heading", { level: 1, name: "Embed Shop" })).toBeVisible();
    // The keyboard is on the checkout: its selected payment method.
    await expect(frame.getByRole("tab", { name: "Card", exact: true })).toBeFocused();

    const card = frame.getByRole("tabpanel");
    await fillCard(frame, { number: "4242 4242 4242 4242" });
    await card.getByRole("button", { name: /^Pay NGN/ }).click();
    await expect(frame.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    await waitForEvent(page, "success");
    // The status poll keeps running: still one success a few seconds on.
    await page.waitForTimeout(3_000);
    const seen = await events(page);
    expect(seen.filter((e) => e.type === "success")).toEqual([
      expect.objectContaining({ type: "success", reference: session.reference, status: "success" }),
    ]);
    // The page is still the merchant's: the checkout never navigated it.
    expect(page.url()).toContain(`${MERCHANT_ORIGIN}/shop`);

    // The checkout's own button closes the modal; focus goes back to the page's Pay button.
    await frame.getByRole("button", { name: "Return to Embed Shop" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Pay now" })).toBeFocused();
    expect(await types(page)).toEqual(["load", "success", "close"]);
    expect((await events(page)).at(-1)).toEqual({
      type: "close",
      reference: session.reference,
      status: "success",
    });
    // What the merchant fulfils on: its server's verify.
    expect((await verify(request, merchant, session.reference)).status).toBe("success");
  });

  test("3-D Secure opens the bank's page in a window of its own, which comes back and closes; the merchant's page stays", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);
    await waitForEvent(page, "load");
    const frame = checkout(page);
    const card = frame.getByRole("tabpanel");
    await fillCard(frame, { number: "4000 0000 0000 3063" });
    await card.getByRole("button", { name: /^Pay NGN/ }).click();

    const popupOpened = page.waitForEvent("popup");
    await card.getByRole("link", { name: "Continue to your bank" }).click();
    const bank = await popupOpened;
    await expect(bank.getByRole("heading", { name: "Confirm this test payment" })).toBeVisible();
    await expect(bank.getByText("Embed Shop asks to charge")).toBeVisible();
    // The merchant's page is where it was, the checkout still over it.
    expect(page.url()).toContain(`${MERCHANT_ORIGIN}/shop`);
    await bank.getByRole("button", { name: "Approve" }).click();
    // Back on the checkout, the bank's window closes itself; the embedded checkout shows the outcome.
    await bank.waitForEvent("close");
    // The embedded checkout learns it from its status poll (or at once, when the closing window gives it the
    // focus back, which a headless browser does not do): a few seconds at most.
    await expect(frame.getByRole("heading", { name: "Payment successful" })).toBeVisible({ timeout: 20_000 });
    await waitForEvent(page, "success");
    await page.waitForTimeout(2_000);
    expect((await events(page)).filter((e) => e.type === "success")).toEqual([
      expect.objectContaining({ type: "success", reference: session.reference, status: "success" }),
    ]);
    expect(page.url()).toContain(`${MERCHANT_ORIGIN}/shop`);
    expect((await verify(request, merchant, session.reference)).status).toBe("success");
  });

  test("cancel: onCancel with the reference, then onClose; verify says abandoned", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);
    await waitForEvent(page, "load");
    const frame = checkout(page);
    await frame.getByRole("button", { name: "Cancel payment" }).click();
    await frame.getByRole("button", { name: "Yes, cancel payment" }).click();
    await waitForEvent(page, "cancel");
    await page.getByRole("button", { name: "Close checkout" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await events(page)).toEqual([
      expect.objectContaining({ type: "load", reference: session.reference, status: "pending" }),
      expect.objectContaining({ type: "cancel", reference: session.reference, status: "abandoned" }),
      { type: "close", reference: session.reference, status: "abandoned" },
    ]);
    expect((await verify(request, merchant, session.reference)).status).toBe("abandoned");
  });

  test("closed while a transfer is pending: onPending, then the webhook and verify show the payment", async ({
    page,
    request,
  }) => {
    const { merchant, webhookSecret } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);
    await waitForEvent(page, "load");
    const frame = checkout(page);
    await frame.getByRole("tab", { name: "Bank transfer" }).click();
    await frame.getByRole("button", { name: "Get account number" }).click();
    await expect(frame.getByTestId("account-number")).toBeVisible();
    await waitForEvent(page, "pending");

    // Escape inside the frame closes the modal, as outside it.
    await frame.getByRole("heading", { name: /^Transfer NGN/ }).click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await events(page)).toEqual([
      expect.objectContaining({ type: "load", reference: session.reference, status: "pending" }),
      expect.objectContaining({ type: "pending", reference: session.reference, status: "awaiting_transfer" }),
      { type: "close", reference: session.reference, status: "awaiting_transfer" },
    ]);

    // The customer's bank sends the money after the modal is gone.
    const record = await request.get("/v1/payment/checkout/verify", {
      headers: { "x-access-code": session.accessCode },
    });
    const transfer = (await record.json()).data.transfer as { accountNumber: string; amount: string };
    const sent = await request.post("/v1/sandbox/transfers", {
      data: { accountNumber: transfer.accountNumber, amount: transfer.amount },
      headers: { "x-api-key": merchant.secretKey },
    });
    expect(sent.status(), await sent.text()).toBeLessThan(300);

    await expect
      .poll(() => hooksFor(session.reference, webhookSecret).map((h) => h.event), { timeout: 30_000 })
      .toContain("payment.completed");
    const completed = hooksFor(session.reference, webhookSecret).find((h) => h.event === "payment.completed");
    expect(completed?.data.status).toBe("success");
    const verified = await verify(request, merchant, session.reference);
    expect(verified).toMatchObject({ status: "success", channel: "bank_transfer" });
  });

  test("framed only by the merchant's origins: another origin is refused, and a forged message is ignored", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);

    // The headers: exactly the merchant's origins when asked embedded by one of them, 'none' otherwise.
    const csp = async (query: string) => {
      const res = await page.request.get(`/pay/${session.accessCode}${query}`);
      expect(res.status()).toBe(200);
      const policy = res.headers()["content-security-policy"] ?? "";
      return {
        frameAncestors: /frame-ancestors ([^;]+)/.exec(policy)?.[1],
        xfo: res.headers()["x-frame-options"],
        rest: policy.replace(/frame-ancestors [^;]+/, "").replace(/'nonce-[^']+'/g, "'nonce'"),
      };
    };
    const plain = await csp("");
    expect(plain).toMatchObject({ frameAncestors: "'none'", xfo: "DENY" });
    const allowed = await csp(`?embed=1&origin=${encodeURIComponent(MERCHANT_ORIGIN)}`);
    expect(allowed).toMatchObject({ frameAncestors: MERCHANT_ORIGIN, xfo: undefined });
    // Nothing else in the policy changes.
    expect(allowed.rest).toBe(plain.rest);
    const stranger = await csp(`?embed=1&origin=${encodeURIComponent(STRANGER_ORIGIN)}`);
    expect(stranger).toMatchObject({ frameAncestors: "'none'", xfo: "DENY" });

    // A page of the stranger's origin: Chromium refuses the frame, the script says the checkout did not load.
    const refused: string[] = [];
    page.on("console", (m) => {
      if (m.text().includes("frame-ancestors")) refused.push(m.text());
    });
    await openOnShop(page, STRANGER_ORIGIN, session.accessCode, 4_000);
    await waitForEvent(page, "error");
    expect(refused.join("\n")).toContain("frame-ancestors");
    expect(await events(page)).toEqual([
      {
        type: "error",
        reference: null,
        status: null,
        code: "load_failed",
        message: "The checkout did not load: is this site's origin among your embed origins?",
      },
    ]);
    const frames = page.frames().filter((f) => f !== page.mainFrame());
    expect(frames.map((f) => f.url()).filter((u) => u.includes("/pay/"))).toEqual([]);
    await page.evaluate(() => (window as unknown as { handle: { close(): void } }).handle.close());

    // On the merchant's page, messages from anywhere but the checkout's frame are ignored: a frame of another
    // origin and the page itself post the script's messages, well formed.
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);
    await waitForEvent(page, "load");
    await page.evaluate((src) => {
      const forger = document.createElement("iframe");
      forger.src = src;
      forger.title = "forger";
      document.querySelector("main")?.append(forger);
      window.postMessage(
        {
          protocol: "paygate.inline",
          version: 1,
          type: "success",
          reference: "PAY_TXN_forged",
          status: "success",
        },
        "*",
      );
    }, `${STRANGER_ORIGIN}/forger`);
    await expect(page.frameLocator('iframe[title="forger"]').locator("body")).toBeAttached();
    await expect.poll(() => page.frames().some((f) => f.url().endsWith("/forger"))).toBe(true);
    await page.waitForTimeout(1_500);
    expect(await types(page)).toEqual(["load"]);
    await expect(page.getByRole("dialog", { name: "Checkout" })).toBeVisible();
    expect((await verify(request, merchant, session.reference)).status).toBe("pending");
  });

  test("the open modal passes axe, keeps the keyboard inside, and takes a phone's whole screen", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const session = await initialize(request, merchant);
    await page.setViewportSize({ width: 1280, height: 800 });
    await openOnShop(page, MERCHANT_ORIGIN, session.accessCode);
    await waitForEvent(page, "load");
    await expect(checkout(page).getByRole("tab", { name: "Card", exact: true })).toBeVisible();
    await expectAccessible(page, "embedded checkout open");

    // Tab after Tab, the keyboard stays in the dialog (the page behind it is inert).
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(() => {
        const active = document.activeElement;
        return !active || active === document.body || !!document.querySelector("dialog")?.contains(active);
      });
      expect(inside, `Tab ${i + 1}`).toBe(true);
    }
    const desktop = await page.getByRole("dialog").boundingBox();
    expect(desktop?.width).toBeLessThanOrEqual(560);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(async () => {
        const box = await page.getByRole("dialog").boundingBox();
        return box && [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)];
      })
      .toEqual([0, 0, 390, 844]);
    await expectAccessible(page, "embedded checkout open on a phone");
    // The close button (or Escape on the page) closes it.
    await page.getByRole("button", { name: "Close checkout" }).focus();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await types(page)).toEqual(["load", "close"]);
  });

  test("the demo store's Pay in a popup: the checkout over the store, paid by card, then the store verifies", async ({
    page,
  }) => {
    await page.goto("/demo");
    await page.getByRole("radio", { name: "Ankara tote bag" }).check();
    await page.getByRole("button", { name: "Pay in a popup" }).click();
    const dialog = page.getByRole("dialog", { name: "Checkout" });
    await expect(dialog).toBeVisible();
    const card = checkout(page).getByRole("tabpanel");
    await fillCard(checkout(page), { number: "4242 4242 4242 4242" });
    await card.getByRole("button", { name: /^Pay NGN/ }).click();
    // onSuccess: the store's return page, which verifies on the store's server before it confirms.
    await page.waitForURL(/\/demo\/return\?reference=PAY_TXN_/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Thank you! Your order is confirmed" }),
    ).toBeVisible();
  });

  test("saves the card when the box is ticked in the embedded checkout, and the merchant can charge it", async ({
    page,
    request,
  }) => {
    const { merchant } = await embeddingMerchant(request);
    const saving = await request.post("/v1/payment/initialize", {
      data: { amount: "5000.00", email: "embedded-saver@example.com", saveCard: "optional" },
      headers: { "x-api-key": merchant.secretKey },
    });
    const { accessCode, reference } = (await saving.json()).data;
    await openOnShop(page, MERCHANT_ORIGIN, accessCode);
    await waitForEvent(page, "load");
    const frame = checkout(page);
    const card = frame.getByRole("tabpanel");
    await fillCard(frame, { number: "4242 4242 4242 4242" });
    await card.getByRole("checkbox", { name: "Save this card for future payments to Embed Shop" }).check();
    await card.getByRole("button", { name: /^Pay NGN/ }).click();
    await expect(frame.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    await waitForEvent(page, "success");
    const paid = await request.get(`/v1/payment/verify/${reference}`, {
      headers: { "x-api-key": merchant.secretKey },
    });
    const { authorization } = (await paid.json()).data;
    expect(authorization).toMatchObject({ last4: "4242", status: "active" });
    const charged = await request.post("/v1/payment/charge-authorization", {
      data: { authorizationCode: authorization.authorizationCode, amount: "1000.00" },
      headers: { "x-api-key": merchant.secretKey },
    });
    expect((await charged.json()).data.status).toBe("success");
  });

  test("/v1/inline.js: cacheable, versioned, at most 5 kB gzip", async ({ page }) => {
    const res = await page.request.get("/v1/inline.js");
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(headers["cache-control"]).toMatch(/^public, max-age=\d+/);
    expect(headers["access-control-allow-origin"]).toBe("*");
    const text = await res.text();
    expect(text.split("\n")[0]).toBe(`/*! Paygate inline checkout ${headers["x-paygate-inline-version"]} */`);
    expect(gzipSync(text, { level: 6 }).length).toBeLessThanOrEqual(5 * 1024);
    const again = await page.request.get("/v1/inline.js", {
      headers: { "if-none-match": headers.etag ?? "" },
    });
    expect(again.status()).toBe(304);
    const module = await page.request.get("/v1/inline.mjs");
    expect(await module.text()).toContain("export function open(");
  });
});
