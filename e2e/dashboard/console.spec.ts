import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  LAYOUTS,
  panel,
  test,
} from "../fixtures";

/**
 * The merchant console end to end, through its pages only (docs/console.md): sign up, create a payment link with
 * a prompt, a customer pays it by card, the merchant finds the payment, sees its webhook delivered to a local
 * receiver, redelivers it, watches a failing endpoint fail, rolls the test key, switches to live, signs out.
 * At each width (390 px and 1280 px) one test visits every console page empty and then filled and runs axe on
 * it (and checks nothing scrolls sideways); a keyboard-only pass creates a link, switches mode, copies and
 * rolls the key with Tab, Enter and Space alone.
 */

const PASSWORD = "correct horse battery staple";
const SHOTS = Boolean(process.env.SCREENSHOTS);
const shot = (page: Page, name: string) =>
  SHOTS
    ? page.screenshot({ path: `docs/screenshots/console-${name}.png`, fullPage: true })
    : Promise.resolve();

type Received = { path: string; headers: IncomingHttpHeaders; body: string };

/** A merchant's webhook receiver: 200 on /hook, 500 on /fail; remembers every request. */
async function receiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(req.url === "/fail" ? 500 : 200, { "content-type": "text/plain" });
      res.end(req.url === "/fail" ? "receiver is down" : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { received, url: (path: string) => `http://127.0.0.1:${port}${path}`, close: () => server.close() };
}

const email = (tag: string) => `${tag}-${process.pid}-${Date.now()}@example.com`;

async function checkPage(page: Page, heading: string, state: string) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, state);
}

/** The page is the one named (the journey's check; axe runs in the every-page tests below). */
async function onPage(page: Page, heading: string) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Console" })).toBeVisible();
}

async function nav(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test.describe("merchant console journey (desktop)", () => {
  test.use(LAYOUTS[1].use);

  test("sign up, a link paid by card, its webhook, redeliver, a failing endpoint, roll the key, live, sign out", async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(180_000);
    const hooks = await receiver();
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);

      // Sign up: both keys shown once, with copy buttons and a warning.
      await page.goto("/dashboard/signup");
      await expect(page.getByRole("heading", { level: 1, name: "Sign up" })).toBeVisible();
      await shot(page, "signup");
      await page.getByLabel("Business name").fill("Mama Put Kitchen");
      await page.getByLabel("Email address").fill(email("journey"));
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByRole("heading", { name: "Your secret keys" })).toBeFocused();
      await expect(page.getByText("They will not be shown again")).toBeVisible();
      const testKey = (await page.locator('[data-secret="test-key"]').textContent()) ?? "";
      expect(testKey).toMatch(/^sk_test_[0-9A-Za-z]{43}$/);
      await page.getByRole("button", { name: "Copy Test secret key" }).click();
      await expect(page.getByRole("button", { name: "Copied Test secret key" })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(testKey);
      await expectAccessible(page, "signup keys shown");
      await shot(page, "signup-keys");
      await page.getByRole("link", { name: /go to the console/ }).click();

      // Overview, empty; test mode marked.
      await onPage(page, "Overview");
      await expect(page.getByText("Test mode: test data only")).toBeVisible();
      await expect(page.getByRole("button", { name: "Test", exact: true })).toHaveAttribute(
        "aria-pressed",
        "true",
      );

      // Empty pages.
      await nav(page, "Payments");
      await expect(page.getByText("No test payments yet.")).toBeVisible();
      await onPage(page, "Payments");
      await nav(page, "Payment links");
      await expect(page.getByText("No test payment links yet.")).toBeVisible();
      await onPage(page, "Payment links");
      await nav(page, "Webhooks");
      await expect(page.getByText("No webhook events match.")).toBeVisible();
      await onPage(page, "Webhooks");

      // A webhook endpoint: the local receiver. Its secret is shown once.
      await page.getByLabel("Endpoint URL").fill(hooks.url("/hook"));
      await page.getByRole("button", { name: "Save endpoint" }).click();
      await expect(page.locator('[data-secret="webhook-secret"]')).toHaveText(/^whsec_/);
      await expect(page.getByText("it will not be shown again")).toBeVisible();
      await expectAccessible(page, "webhooks (secret shown)");
      await page.getByRole("button", { name: "Send a test event" }).click();
      await expect(page.locator("[data-test-event]")).toHaveText(/^Test event delivered: HTTP 200 in \d+ ms/);
      const ping = hooks.received.find((r) => r.body.includes('"webhook.test"'));
      expect(ping?.headers["webhook-signature"]).toMatch(/^v1,/);

      // A payment link with a prompt.
      await nav(page, "Payment links");
      await page.getByRole("link", { name: "New payment link" }).click();
      await onPage(page, "New payment link");
      await page.getByLabel("Title").fill("Jollof rice and chicken");
      await page.getByLabel("Amount", { exact: true }).fill("2500");
      await page.getByRole("button", { name: "Add a question" }).click();
      await page.getByLabel("Question 1", { exact: true }).fill("Table number");
      await page.getByRole("button", { name: "Create payment link" }).click();
      await onPage(page, "Payment link");
      await expect(page.getByRole("heading", { name: "Jollof rice and chicken" })).toBeVisible();
      await expect(page.getByRole("img", { name: /^QR code of the payment link/ })).toBeVisible();
      const linkUrl = (await page.locator("[data-link-url]").textContent()) ?? "";
      expect(linkUrl).toMatch(/\/l\/[a-z0-9-]+$/);
      await shot(page, "link");
      await page.getByLabel("Most payments").fill("50");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
      await expect(page.getByText("0 of 50")).toBeVisible();

      // A customer pays it by card, in another page.
      const customer = await context.newPage();
      await customer.goto(linkUrl);
      await customer.getByLabel("Table number").fill("12");
      await customer.getByLabel("Email address").fill("ngozi@example.com");
      await customer.getByLabel("Full name").fill("Ngozi Eze");
      await customer.getByRole("button", { name: /^(Pay NGN|Continue to payment)/ }).click();
      await customer.waitForURL(/\/pay\/[0-9A-Za-z]+$/);
      await fillCard(customer, { number: "4242 4242 4242 4242" });
      await panel(customer)
        .getByRole("button", { name: /^Pay NGN/ })
        .click();
      await expect(customer.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await customer.close();

      // The merchant finds it by the customer's email.
      await nav(page, "Payments");
      await page.getByLabel("Search").fill("ngozi@example.com");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await expect(page).toHaveURL(/q=ngozi%40example.com/);
      const row = page.getByRole("row").filter({ hasText: "ngozi@example.com" });
      await expect(row).toHaveCount(1);
      await expect(row.getByText("success")).toBeVisible();
      await onPage(page, "Payments");
      await shot(page, "payments");
      await row.getByRole("link", { name: /^PAY_TXN_/ }).click();

      // One payment: amounts, the prompt's answer, timeline, its payment.completed delivered.
      await expect(page.getByRole("heading", { level: 1, name: "Payment" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "NGN 2,500.00" })).toBeVisible();
      await expect(page.getByText("Ngozi Eze")).toBeVisible();
      await expect(page.getByText("Card attempt started")).toBeVisible();
      const completed = page.locator('[data-event-type="payment.completed"]');
      await expect(completed.getByText("Delivered", { exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(completed.locator('[data-attempt="1"]')).toHaveAttribute("data-status", "succeeded");
      await onPage(page, "Payment");
      await shot(page, "payment");
      const first = hooks.received.find((r) => r.body.includes('"payment.completed"'));
      expect(first?.path).toBe("/hook");

      // Redeliver: a second attempt, same webhook-id.
      await completed.getByRole("button", { name: /^Redeliver payment.completed/ }).click();
      await expect(completed.locator('[data-attempt="2"]')).toHaveAttribute("data-status", "succeeded", {
        timeout: 20_000,
      });
      const sends = hooks.received.filter((r) => r.body.includes('"payment.completed"'));
      expect(sends).toHaveLength(2);
      expect(sends[1]?.headers["webhook-id"]).toBe(sends[0]?.headers["webhook-id"]);

      // Refund part of it, from its page: a confirmation names the amount; the refund is listed, pending.
      const refunds = page.locator("#refunds");
      await refunds.getByLabel("Amount (NGN)").fill("1000.00");
      await refunds.getByLabel("Reason").fill("One item returned");
      await refunds.getByRole("button", { name: "Refund", exact: true }).click();
      const confirm = refunds.getByRole("button", { name: "Yes, refund NGN 1,000.00" });
      await expect(confirm).toBeFocused();
      await confirm.click();
      await expect(refunds.getByRole("status")).toContainText("Refund of NGN 1,000.00 asked for");
      await expect(refunds.getByRole("row").filter({ hasText: "One item returned" })).toContainText(
        "pending",
      );
      await checkPage(page, "Payment", "payment refunded in part");
      await nav(page, "Refunds");
      await expect(page.getByRole("row").filter({ hasText: "One item returned" })).toHaveCount(1);
      await onPage(page, "Refunds");
      await page.goBack();

      // A failing endpoint: the redelivery fails and the log says so.
      await nav(page, "Webhooks");
      await page.getByLabel("Endpoint URL").fill(hooks.url("/fail"));
      await page.getByRole("button", { name: "Save endpoint" }).click();
      await expect(page.getByText("Endpoint saved.")).toBeVisible();
      const logged = page.locator('[data-event-type="payment.completed"]');
      await logged.getByRole("button", { name: /^Redeliver payment.completed/ }).click();
      await expect(logged.locator('[data-attempt="3"]')).toHaveAttribute("data-status", /failed|pending/, {
        timeout: 20_000,
      });
      await expect(logged.locator('[data-attempt="3"]')).toContainText("HTTP 500", { timeout: 20_000 });
      // A failed redelivery leaves the event delivered (its first attempt reached the receiver). (Other events
      // sent to /fail meanwhile may be under Not delivered.)
      await page.getByLabel("Outcome").selectOption({ label: "Not delivered" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page.getByText("Loading events…")).toHaveCount(0);
      await expect(page.locator('[data-event-type="payment.completed"]')).toHaveCount(0);
      await page.getByLabel("Outcome").selectOption({ label: "Delivered" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page.locator('[data-event-type="payment.completed"]')).toHaveCount(1);
      await onPage(page, "Webhooks");
      await shot(page, "webhooks");

      // Roll the test key: the old one is refused by the API, the new one works.
      await nav(page, "API keys");
      await onPage(page, "API keys");
      await page.getByRole("button", { name: "Roll test key" }).click();
      await expect(page.getByRole("button", { name: "Yes, roll the test key" })).toBeFocused();
      await page.getByRole("button", { name: "Yes, roll the test key" }).click();
      const newKey = (await page.locator('[data-secret="new-key"]').textContent()) ?? "";
      expect(newKey).toMatch(/^sk_test_/);
      expect(newKey).not.toBe(testKey);
      await expectAccessible(page, "keys (new key shown)");
      await expectKey(request, testKey, 401);
      await expectKey(request, newKey, 200);

      // Settings, with the checkout header preview.
      await nav(page, "Settings");
      await onPage(page, "Settings");
      await shot(page, "settings");
      // The websites that may embed the checkout: a path is refused at the field, origins are kept and listed.
      await expect(page.getByTestId("embed-origins")).toContainText("No website may embed your checkout yet");
      const origins = page.getByLabel("Websites that may embed the checkout");
      await origins.fill("https://shop.example/checkout");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByText("embedOrigins[0] must be an origin")).toBeVisible();
      await origins.fill("https://Shop.example\nhttp://localhost:3000");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
      await expect(page.getByTestId("embed-origins")).toHaveText(
        /https:\/\/shop\.example\s*http:\/\/localhost:3000/,
      );
      await expectAccessible(page, "settings (embed origins)");

      // Overview, filled.
      await nav(page, "Overview");
      await expect(page.getByText("NGN 2,500.00").first()).toBeVisible();
      await onPage(page, "Overview");
      await shot(page, "overview");

      // Live: no test data.
      await page.getByRole("button", { name: "Live", exact: true }).click();
      await expect(page.getByText(/^Live mode: real payments/)).toBeVisible();
      await nav(page, "Payments");
      await expect(page.getByText("No live payments yet.")).toBeVisible();
      await expect(page.getByText("ngozi@example.com")).toHaveCount(0);
      await checkPage(page, "Payments", "payments (live, empty)");
      await nav(page, "Payment links");
      await expect(page.getByText("No live payment links yet.")).toBeVisible();
      await page.getByRole("button", { name: "Test", exact: true }).click();
      await expect(page.getByText("Test mode: test data only")).toBeVisible();

      // Sign out: the back button shows nothing private.
      await nav(page, "Payments");
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await page.goBack();
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await expect(page.getByText("ngozi@example.com")).toHaveCount(0);
      await expect(page.getByText("Mama Put Kitchen")).toHaveCount(0);
    } finally {
      hooks.close();
    }
  });
});

async function expectKey(request: APIRequestContext, key: string, status: number) {
  const res = await request.post("/v1/payment/initialize", {
    headers: { "x-api-key": key },
    data: { amount: "100", email: "key@example.com" },
  });
  expect(res.status()).toBe(status === 200 ? 201 : status);
}

/** A mutation of the console's own API, as its pages send it (same origin, the context's session cookie). */
async function consoleApi(page: Page, method: "POST" | "PUT", path: string, data: unknown) {
  const res = await page.request.fetch(`/dashboard/api/${path}`, {
    method,
    data,
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return (await res.json()).data;
}

/** A test payment made with `key` and paid by card through the API; answers its reference. */
async function paidByCard(request: APIRequestContext, key: string, customerName: string) {
  const init = await request.post("/v1/payment/initialize", {
    headers: { "x-api-key": key },
    data: { amount: "7500.50", email: "phone-buyer@example.com", customerName },
  });
  const { reference, accessCode } = (await init.json()).data as { reference: string; accessCode: string };
  const charge = await request.post("/v1/payment/checkout/charge/card", {
    headers: { "x-access-code": accessCode },
    data: {
      number: "4242424242424242",
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 2,
      cvv: "123",
    },
  });
  expect((await charge.json()).data.status).toBe("success");
  return reference;
}

async function signUpByApi(request: APIRequestContext, tag: string) {
  const login = email(tag);
  const res = await request.post("/v1/merchants/auth/signup", {
    data: { businessName: `${tag} shop`, email: login, password: PASSWORD },
  });
  expect(res.status()).toBe(201);
  const data = (await res.json()).data;
  return { login, key: data.keys.test.secretKey as string, token: data.accessToken as string };
}

for (const layout of LAYOUTS) {
  test.describe(`every console page at ${layout.use.viewport.width} px`, () => {
    test.use(layout.use);

    test("empty and filled: axe finds nothing and nothing scrolls sideways", async ({ page, request }) => {
      test.setTimeout(150_000);
      const visit = async (path: string, heading: string, state: string) => {
        await page.goto(path);
        await checkPage(page, heading, `${heading} (${state}, ${layout.name})`);
      };

      // Signed out: sign up, and sign in, which (by keyboard only) comes back to the wanted page.
      await page.goto("/dashboard/signup");
      await expect(page.getByRole("heading", { level: 1, name: "Sign up" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, `signup (${layout.name})`);
      const me = await signUpByApi(request, `pages-${layout.name}`);
      await page.goto("/dashboard/payments?status=pending");
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, `login (${layout.name})`);
      await page.getByLabel("Email address").focus();
      await page.keyboard.type(me.login);
      await page.keyboard.press("Tab");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/\/dashboard\/payments\?status=pending$/);
      await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();

      // Empty.
      const pages = [
        ["/dashboard", "Overview"],
        ["/dashboard/payments", "Payments"],
        ["/dashboard/refunds", "Refunds"],
        ["/dashboard/links", "Payment links"],
        ["/dashboard/links/new", "New payment link"],
        ["/dashboard/webhooks", "Webhooks"],
        ["/dashboard/keys", "API keys"],
        ["/dashboard/settings", "Settings"],
      ] as const;
      for (const [path, heading] of pages) await visit(path, heading, "empty");

      // Filled: a link, a paid payment refunded in part (pending), an endpoint that refuses connections.
      await consoleApi(page, "PUT", "webhook", { mode: "test", url: "http://127.0.0.1:9/hook" });
      const link = await consoleApi(page, "POST", "payment-links", { title: "Suya platter", amount: "4000" });
      const reference = await paidByCard(request, me.key, "Tolu Ade");
      await consoleApi(page, "POST", "refunds", { reference, amount: "100.00", reason: "Short one stick" });
      // New payment link, API keys and Settings show no data of the mode (the same page filled as empty):
      // checked once, above, to keep the run short.
      const sameWhenFilled = new Set<string>(["New payment link", "API keys", "Settings"]);
      for (const [path, heading] of [
        ...pages.filter(([, h]) => !sameWhenFilled.has(h)),
        [`/dashboard/payments/${reference}`, "Payment"],
        [`/dashboard/links/${link.slug}`, "Payment link"],
      ] as const) {
        await page.goto(path);
        if (heading === "Payments") await expect(page.getByText("phone-buyer@example.com")).toBeVisible();
        if (heading === "Payment links")
          await expect(page.getByRole("link", { name: "Suya platter" })).toBeVisible();
        if (heading === "Refunds") await expect(page.getByText("Short one stick")).toBeVisible();
        if (heading === "Webhooks")
          await expect(
            page.locator('[data-event-type="payment.completed"] [data-attempt="1"]'),
          ).toHaveAttribute("data-status", "failed", { timeout: 15_000 });
        await checkPage(page, heading, `${heading} (filled, ${layout.name})`);
        if (layout.name === "phone" && (heading === "Overview" || heading === "Payment"))
          await shot(page, `${heading.toLowerCase()}-phone`);
      }

      if (layout.name === "phone") {
        // Another merchant's payment and link are 404 pages, not theirs to see.
        const other = await signUpByApi(request, "other");
        const theirs = await paidByCard(request, other.key, "Someone Else");
        const theirLink = await request.post("/v1/merchants/payment-links", {
          data: { title: "Not yours", amount: "100" },
          headers: { authorization: `Bearer ${other.token}` },
        });
        expect(theirLink.status()).toBe(201);
        for (const path of [
          `/dashboard/payments/${theirs}`,
          `/dashboard/links/${(await theirLink.json()).data.slug}`,
        ]) {
          const res = await page.goto(path);
          expect(res?.status(), path).toBe(404);
          await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
          await expect(page.getByText("Someone Else")).toHaveCount(0);
          await expect(page.getByText("Not yours")).toHaveCount(0);
        }
        return;
      }

      // The delivery log's outcome filter: the failed delivery is under Not delivered, not under Delivered.
      await page.goto("/dashboard/webhooks");
      const log = page.getByRole("list", { name: "Webhook events" });
      await page.getByLabel("Outcome").selectOption({ label: "Not delivered" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(log.locator('[data-event-type="payment.completed"]')).toContainText(reference);
      await page.getByLabel("Outcome").selectOption({ label: "Delivered" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page.getByText("No webhook events match.")).toBeVisible();

      // The log refreshes itself: a payment made meanwhile appears without a reload.
      await page.getByLabel("Outcome").selectOption({ label: "Delivered or not" });
      await page.getByRole("button", { name: "Filter" }).click();
      const completed = log.locator('[data-event-type="payment.completed"]');
      await expect(completed).toHaveCount(1);
      let reloaded = false;
      page.on("framenavigated", (f) => {
        if (f === page.mainFrame()) reloaded = true;
      });
      const later = await paidByCard(request, me.key, "Later Buyer");
      await expect(completed.filter({ hasText: later })).toBeVisible({ timeout: 15_000 });
      await expect(completed).toHaveCount(2);
      expect(reloaded).toBe(false);
    });
  });
}

test.describe("the console on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  /** Wholly inside the viewport's width: seen without scrolling sideways. */
  async function inSight(locator: Locator, what: string) {
    await expect(locator, what).toBeVisible();
    const box = await locator.boundingBox();
    expect(box, what).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390, `${what} within 390 px`).toBe(
      true,
    );
  }

  test("lists are stacked rows: a payment's amount and status in sight; every page of the navigation in reach", async ({
    page,
    request,
  }) => {
    const me = await signUpByApi(request, "phone-lists");
    await page.goto("/dashboard/login");
    await page.getByLabel("Email address").fill(me.login);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    const reference = await paidByCard(request, me.key, "Ngozi Eze");
    await consoleApi(page, "POST", "refunds", { reference, amount: "500.00", reason: "Late delivery" });
    await consoleApi(page, "POST", "payment-links", { title: "Jollof tray", amount: "12000" });

    // Every page of the navigation is on screen and opens.
    const navigation = page.getByRole("navigation", { name: "Console" });
    for (const name of [
      "Overview",
      "Payments",
      "Refunds",
      "Payment links",
      "Webhooks",
      "API keys",
      "Settings",
    ])
      await inSight(navigation.getByRole("link", { name, exact: true }), `navigation: ${name}`);
    await navigation.getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
    await navigation.getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

    // Payments: the payment's row shows its amount and status, in sight, the list starting on the first screen.
    await navigation.getByRole("link", { name: "Payments", exact: true }).click();
    const row = page.getByRole("row").filter({ hasText: reference });
    await inSight(row.getByRole("link", { name: reference }), "the reference");
    await inSight(row.getByText("NGN 7,500.50"), "the amount");
    await inSight(row.getByText("success", { exact: true }), "the status");
    const top = (await row.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    expect(top, "the first payment starts on the first screen").toBeLessThan(844);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "payments as stacked rows (390 px)");

    // The other lists too.
    await page.goto("/dashboard/refunds");
    const refund = page.getByRole("row").filter({ hasText: "Late delivery" });
    await inSight(refund.getByText("NGN 500.00"), "the refund's amount");
    await inSight(refund.getByText(/^(pending|processed)$/), "the refund's status");
    await expectAccessible(page, "refunds as stacked rows (390 px)");
    await page.goto("/dashboard/links");
    const link = page.getByRole("row").filter({ hasText: "Jollof tray" });
    await inSight(link.getByText("NGN 12,000.00"), "the link's amount");
    await inSight(link.getByText("Active", { exact: true }), "the link's state");
    await expectAccessible(page, "payment links as stacked rows (390 px)");
    await page.goto("/dashboard/settings");
    await inSight(page.getByRole("row").filter({ hasText: "NGN" }).getByRole("cell").first(), "a fee rule");
    await expectAccessible(page, "settings' fees as stacked rows (390 px)");
  });
});

/** Press Tab (or Shift+Tab) until `target` has the focus; it must then show that it has it. */
async function tabTo(page: Page, target: Locator, back = false) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      const visible = await target.evaluate((el) => {
        const s = getComputedStyle(el);
        const outline = s.outlineStyle !== "none" && Number.parseFloat(s.outlineWidth) > 0;
        return outline || (s.boxShadow !== "none" && s.boxShadow !== "");
      });
      expect(visible, `visible focus on ${target}`).toBe(true);
      return;
    }
  }
  throw new Error(`${target} is not reachable with ${back ? "Shift+Tab" : "Tab"}`);
}

test.describe("merchant console by keyboard only", () => {
  test.use(LAYOUTS[1].use);

  test("Tab, Enter and Space alone: a payment link, Test → Live → Test, copy, roll the key", async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const me = await signUpByApi(request, "keyboard");
    await page.goto("/dashboard/login");
    await consoleApi(page, "POST", "auth/login", { email: me.login, password: PASSWORD });
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    const navLink = (name: string) =>
      page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true });

    // A payment link.
    await tabTo(page, navLink("Payment links"));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Payment links" })).toBeVisible();
    await tabTo(page, page.getByRole("link", { name: "New payment link" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "New payment link" })).toBeVisible();
    await tabTo(page, page.getByLabel("Title"));
    await page.keyboard.type("Keyboard cake");
    await tabTo(page, page.getByLabel("Amount", { exact: true }));
    await page.keyboard.type("1200");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Payment link" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Keyboard cake" })).toBeVisible();

    // Copy its address.
    const url = (await page.locator("[data-link-url]").textContent()) ?? "";
    await tabTo(page, page.getByRole("button", { name: "Copy payment link" }));
    await page.keyboard.press("Space");
    await expect(page.getByRole("button", { name: "Copied payment link" })).toBeFocused();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Test → Live → Test, on the API keys page; the focus stays on the switch.
    await tabTo(page, navLink("API keys"));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    const live = page.getByRole("button", { name: "Live", exact: true });
    const testMode = page.getByRole("button", { name: "Test", exact: true });
    await tabTo(page, live);
    await page.keyboard.press("Enter");
    await expect(page.getByText(/^Live mode: real payments/)).toBeVisible();
    await expect(live).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("heading", { name: "Live secret key" })).toBeVisible();
    await expect(live).toBeFocused();
    await tabTo(page, testMode, true);
    await page.keyboard.press("Space");
    await expect(page.getByText("Test mode: test data only")).toBeVisible();
    await expect(testMode).toHaveAttribute("aria-pressed", "true");
    await expect(testMode).toBeFocused();

    // Roll the test key: the confirmation takes the focus, then the new key does; copy it.
    await tabTo(page, page.getByRole("button", { name: "Roll test key" }));
    await page.keyboard.press("Enter");
    const yes = page.getByRole("button", { name: "Yes, roll the test key" });
    await expect(yes).toBeFocused();
    await page.keyboard.press("Enter");
    const newKey = page.locator('[data-secret="new-key"]');
    await expect(newKey).toHaveText(/^sk_test_/);
    const key = (await newKey.textContent()) ?? "";
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Copy New test secret key" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Copied New test secret key" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await expectKey(request, me.key, 401);

    // The API reference, from the console's footer.
    await tabTo(page, page.getByRole("contentinfo").getByRole("link", { name: "API reference" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/docs$/);
  });
});

test.describe("payment link forms by field", () => {
  test.use(LAYOUTS[1].use);

  test("create and edit place each refused field beside its control, checked before anything is sent", async ({
    page,
    request,
  }) => {
    const me = await signUpByApi(request, "fields");
    await page.goto("/dashboard/login");
    await consoleApi(page, "POST", "auth/login", { email: me.login, password: PASSWORD });
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET" && new URL(r.url()).pathname.startsWith("/dashboard/api/payment-links"))
        sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto("/dashboard/links/new");
    await expect(page.getByRole("heading", { level: 1, name: "New payment link" })).toBeVisible();

    // The route's own schema and lib/money, in the browser: each failure beside its control, nothing sent.
    await page.getByLabel("Amount", { exact: true }).fill("12,000");
    await page.getByRole("button", { name: "Create payment link" }).click();
    await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Title")).toHaveAccessibleDescription(/title must not be empty\./);
    await expect(page.getByLabel("Amount", { exact: true })).toHaveAccessibleDescription(
      /amount must be a decimal string/,
    );
    await expect(page.locator("form").getByRole("alert")).toHaveCount(0);
    expect(sent).toEqual([]);
    await expectAccessible(page, "new payment link (refused fields)");

    // A rule only the server checks (the expiry against its clock) comes back on its field too.
    await page.getByLabel("Title").fill("Cake");
    await page.getByLabel("Amount", { exact: true }).fill("1200");
    await page.getByLabel("Expires").fill("2020-01-01T10:00");
    await page.getByRole("button", { name: "Create payment link" }).click();
    await expect(page.getByLabel("Expires")).toHaveAccessibleDescription(/expiresAt must be in the future\./);
    expect(sent).toEqual(["POST /dashboard/api/payment-links"]);

    await page.getByLabel("Expires").fill("");
    await page.getByRole("button", { name: "Create payment link" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment link" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "Cake" })).toBeVisible();

    // The edit form is the same fields: a cleared title is refused beside it, before anything is sent.
    sent.length = 0;
    await page.getByLabel("Title").fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByLabel("Title")).toHaveAccessibleDescription(/title must not be empty\./);
    expect(sent).toEqual([]);
  });
});
