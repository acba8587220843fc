import {
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  initialize,
  LAYOUTS,
  secondsLeft,
  signUp,
  test,
  updateSettings,
} from "../fixtures";
import { SHORT_WINDOW_BASE_URL } from "../servers";

test("checkout pages carry the security headers of docs/checkout.md; the API does not pay for them", async ({
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant);
  const nonces = new Set<string>();
  const stylesheets = new Set<string>();
  for (const path of [new URL(session.checkoutUrl).pathname, "/demo", "/pay/unknownCode0000000000000000"]) {
    const res = await request.get(path);
    const headers = res.headers();
    const csp = headers["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce, path).toBeTruthy();
    nonces.add(nonce ?? "");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(headers["referrer-policy"]).toBe("same-origin");
    expect(headers["cache-control"]).toContain("no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    // Every script Next rendered carries this request's nonce.
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    // The app's stylesheet is in the <head> itself, with this request's nonce; none is linked.
    const styles = [...html.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style>/g)];
    expect(styles, path).toHaveLength(1);
    expect(styles[0]?.[1], path).toContain(`nonce="${nonce}"`);
    expect(html, path).not.toMatch(/<link\b[^>]*rel="stylesheet"/);
    expect(headers.link ?? "", path).not.toContain("as=style");
    stylesheets.add(styles[0]?.[2] ?? "");
  }
  expect(nonces.size).toBe(3);
  expect(stylesheets.size, "every page carries the same stylesheet").toBe(1);
  const api = await request.get("/v1/ping");
  expect(api.headers()["content-security-policy"]).toBeUndefined();
});

test("the page loads the code of the panel it opens on with itself, and no other panel's", async ({
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant);
  const path = new URL(session.checkoutUrl).pathname;
  /** The text of every script the page runs or preloads (a next/dynamic chunk it rendered on the server). */
  async function firstLoad(query: string): Promise<string> {
    const html = await (await request.get(`${path}${query}`)).text();
    const sources = [
      ...(html.match(/<script\b[^>]*\bsrc="[^"]+"/g) ?? []),
      ...(html.match(/<link\b[^>]*\brel="preload"[^>]*\bas="script"[^>]*>/g) ?? []),
    ].map((tag) => /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1] ?? "");
    const texts = await Promise.all(sources.map(async (src) => (await request.get(src)).text()));
    return texts.join("\n");
  }
  // The card form's number field and the transfer panel's account number, as their code names them.
  const card = await firstLoad("");
  expect(card).toContain('"cc-number"');
  expect(card).not.toContain('"account-number"');
  const transfer = await firstLoad("?channel=bank_transfer");
  expect(transfer).toContain('"account-number"');
  expect(transfer).not.toContain('"cc-number"');
});

for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    test.use(layout.use);

    // (An expired one answers the same: lib/checkout/load-checkout.test.ts.)
    test("an unknown access code is a 404 'not valid' page", async ({ page }) => {
      const res = await page.goto("/pay/AbCdEfGhIjKlMnOpQrStUvWxYz0");
      expect(res?.status()).toBe(404);
      await expect(
        page.getByRole("heading", { level: 1, name: "This payment link is not valid" }),
      ).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "not found");
    });
  });
}

test("merchant strings render as text; brand colour and logo; only the transaction's channels", async ({
  page,
  request,
}) => {
  const name = `<img src=x onerror="window.__xss=1">Shop & "Co"`;
  const shop = await signUp(request, name);
  await updateSettings(request, shop, {
    channels: ["card", "ussd"],
    brandColor: "#fde047",
    logoUrl: "https://cdn.example/logo.png",
  });
  await page.route("https://cdn.example/**", (route) =>
    route.fulfill({
      contentType: "image/svg+xml",
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#222"/></svg>',
    }),
  );
  const session = await initialize(request, shop, {
    amount: "1000",
    callbackUrl: "https://merchant.example/r",
  });
  await page.goto(session.checkoutUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(name);
  // The header says what is being paid and by whom ("Total to pay: " and "Paying as " are for screen readers).
  const header = page.locator("header");
  await expect(header.getByText("Total to pay: NGN 1,015.00")).toBeVisible();
  await expect(header.getByTestId("amount-parts")).toHaveText("NGN 1,000.00 + NGN 15.00 card fee");
  await expect(header.getByText("Paying as buyer@example.com")).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.getByRole("tab")).toHaveText([/^Card/, /^USSD/]);
  await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAccessibleDescription(
    "NGN 1,015.00",
  );
  await expect(page.getByRole("tab", { name: "USSD" })).toHaveAccessibleDescription("NGN 1,010.00");
  await expect(page.locator("header img")).toHaveAttribute("src", "https://cdn.example/logo.png");
  // A light brand colour gets dark text on the pay button (contrast), applied through the nonce'd style.
  const pay = page.getByRole("button", { name: "Pay NGN 1,015.00" });
  await expect(pay).toHaveCSS("background-color", "rgb(253, 224, 71)");
  await expect(pay).toHaveCSS("color", "rgb(15, 23, 42)");
  await expectAccessible(page, "branded checkout");
});

test("a reload while a transfer is awaited shows the same account and a continuing countdown", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant);
  await page.goto(session.checkoutUrl);
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  const account = (await page.getByTestId("account-number").textContent()) ?? "";
  // A few seconds below the full 30:00, so a countdown restarted by the reload would show.
  await expect.poll(() => secondsLeft(page)).toBeLessThan(30 * 60 - 2);
  const before = await secondsLeft(page);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("account-number")).toHaveText(account);
  const after = await secondsLeft(page);
  expect(after).toBeLessThanOrEqual(before + 1); // a second for rounding
  expect(after).toBeGreaterThan(before - 30);
  await expectNoHorizontalScroll(page);
});

test("a finished checkout opened again shows the result and a way back, without redirecting", async ({
  page,
  request,
  merchant,
}) => {
  await page.route("https://merchant.example/**", (route) => route.fulfill({ body: "merchant" }));
  const session = await initialize(request, merchant, { callbackUrl: "https://merchant.example/done" });
  const cancel = await request.post("/v1/payment/checkout/cancel", {
    headers: { "x-access-code": session.accessCode },
  });
  expect(cancel.status()).toBe(200);
  await page.goto(session.checkoutUrl);
  await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(page.url()).toBe(session.checkoutUrl);
  await expect(page.getByRole("link", { name: "Return to E2E Shop" })).toHaveAttribute(
    "href",
    `https://merchant.example/done?status=abandoned&reference=${session.reference}&amount=5000.00&currency=NGN`,
  );
  await expectAccessible(page, "finished checkout");
});

test("polling backs off and stops once the payment is final", async ({ page, request, merchant }) => {
  const session = await initialize(request, merchant);
  const polls: number[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v1/payment/checkout/verify")) polls.push(Date.now());
  });
  await page.goto(session.checkoutUrl);
  await page.getByRole("tab", { name: "USSD" }).click();
  await page.getByLabel("Phone number").fill("08031234567");
  await page.getByRole("button", { name: "Get USSD code" }).click();
  await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
  // Waiting for the customer: polled about every 1.5 s.
  const start = polls.length;
  await page.waitForTimeout(3_500);
  expect(polls.length - start).toBeGreaterThanOrEqual(2);
  await page.getByRole("button", { name: "Approve the payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  const settled = polls.length;
  await page.waitForTimeout(3_500);
  expect(polls.length).toBe(settled);
});

test.describe("rate limit", () => {
  // On the short-window server, whose only other tests (bank transfer expiry, in an earlier file) use no
  // unknown codes, and whose unknown-code window is 5 s instead of a minute (playwright.config.ts). Every
  // request here comes from 127.0.0.1, so the main server's tests could be refused for a while if this ran
  // there. The test ends only once the limiter lets the link through again.
  test.use({ baseURL: SHORT_WINDOW_BASE_URL });

  test("a network that tried too many unknown codes is told to wait, not that its valid link is invalid", async ({
    page,
    request,
  }) => {
    const shop = await signUp(request);
    const session = await initialize(request, shop);
    // RATE_LIMIT_ACCESS_CODE_BURST (30) unknown codes, then the limit answers.
    let last = 0;
    for (let i = 0; i <= 30; i++) {
      const res = await request.get("/v1/payment/checkout/verify", {
        headers: { "x-access-code": `UnknownCode${String(i).padStart(16, "0")}` },
      });
      last = res.status();
    }
    expect(last).toBe(429);

    const res = await page.goto(session.checkoutUrl);
    // 200, not 429: an App Router page cannot choose that status (app/pay/[accessCode]/_components/rate-limited.tsx).
    expect(res?.status()).toBe(200);
    await expect(
      page.getByRole("heading", { level: 1, name: "Too many attempts from your network" }),
    ).toBeVisible();
    await expect(page.getByText("Try again in a minute.")).toBeVisible();
    await expect(page.getByText("not valid")).toHaveCount(0);
    await expectAccessible(page, "rate limited");

    // The window ends within 5 s: "Try again" then opens the checkout.
    await expect(async () => {
      await page.getByRole("link", { name: "Try again" }).click();
      await expect(page.getByRole("heading", { level: 1, name: shop.businessName })).toBeVisible({
        timeout: 1_000,
      });
    }).toPass({ timeout: 15_000 });
  });
});

test("payment method tiles are all the same height, even when a label wraps", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant, {});
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto(session.checkoutUrl);
  const heights = await page
    .getByRole("tab")
    .evaluateAll((tabs) =>
      tabs.map((t) => Math.round((t.parentElement as HTMLElement).getBoundingClientRect().height)),
    );
  expect(heights.length).toBe(4);
  expect(new Set(heights).size).toBe(1);
});

test("at 320 px a card field's error shows in the space kept for it: readable, nothing below moves, accessible", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant, {});
  await page.setViewportSize({ width: 320, height: 700 });
  await page.goto(session.checkoutUrl);
  const pay = page.getByRole("button", { name: /^Pay / });
  const number = page.getByLabel("Card number");
  const placeOfPay = () => pay.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  const before = await placeOfPay();
  await number.fill("4242 4242 4242 4241");
  await page.keyboard.press("Tab");
  const error = page.getByText("This card number is not valid. Check it and try again.");
  await expect(error).toBeVisible();
  await expect(number).toHaveAccessibleDescription("This card number is not valid. Check it and try again.");
  expect(await placeOfPay()).toBe(before);
  // The whole message on screen, between the fields and Pay.
  const box = await error.boundingBox();
  const payBox = await pay.boundingBox();
  if (!box || !payBox) throw new Error("not on screen");
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  expect(box.y + box.height).toBeLessThanOrEqual(payBox.y);
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, "card number error at 320 px");
});
