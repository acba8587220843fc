import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type APIResponse,
  test as base,
  expect,
  type FrameLocator,
  type Locator,
  type Page,
} from "@playwright/test";
import { checkContract } from "../tests/helpers/contract";

/**
 * Shared fixtures of the browser tests. Everything is created through the public API, like a merchant would:
 * a merchant signs up, changes its settings, initializes transactions; tests open the returned checkoutUrl.
 *
 * The demo store (/demo) uses the demo merchant that the server creates at boot: playwright.config.ts runs
 * the server with SEED_DEMO=1 on a fresh SQLite file, so lib/boot.ts seeds "Demo Store" and writes its test
 * key to this run's DEMO_MERCHANT_FILE (a temporary file), which the store reads server-side.
 */

export type Merchant = { secretKey: string; accessToken: string; businessName: string };

export type Session = {
  reference: string;
  accessCode: string;
  checkoutUrl: string;
  amount: string;
  cardTotal: string;
  transferTotal: string;
  currency: string;
  channels: string[];
};

export type InitializeOptions = {
  amount?: string;
  email?: string | null;
  callbackUrl?: string;
  currency?: string;
  merchantBearsCost?: boolean;
  /** The hosted pages' language (en, fr, yo, ha, ig, pcm). */
  locale?: string;
};

/** The two layouts every checkout flow runs at. */
export const LAYOUTS = [
  { name: "phone", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: "desktop", use: { viewport: { width: 1280, height: 800 } } },
] as const;

let seq = 0;

/**
 * Holds an API answer to the OpenAPI document its server serves (tests/helpers/contract.ts, as the HTTP suites
 * do): a status the operation does not list, or a body its schema does not describe, fails the test.
 */
export async function checkAnswer(res: APIResponse, method: string): Promise<APIResponse> {
  const url = new URL(res.url());
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  await checkContract(url.origin, method.toUpperCase(), `${url.pathname}${url.search}`, res.status(), body);
  return res;
}

const VERBS = ["get", "post", "put", "patch", "delete", "head", "fetch"] as const;

/** A request context whose every answer from `/v1` goes through checkAnswer. */
export function checkedRequest(request: APIRequestContext): APIRequestContext {
  return new Proxy(request, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (!(VERBS as readonly unknown[]).includes(prop)) return value.bind(target);
      return async (url: string, options?: { method?: string }) => {
        const res: APIResponse = await value.call(target, url, options);
        const method = prop === "fetch" ? (options?.method ?? "GET") : String(prop);
        return checkAnswer(res, method);
      };
    },
  });
}

export async function signUp(request: APIRequestContext, businessName = "E2E Shop"): Promise<Merchant> {
  const email = `e2e-${process.pid}-${Date.now()}-${seq++}@example.com`;
  const res = await checkAnswer(
    await request.post("/v1/merchants/auth/signup", {
      data: { businessName, email, password: "correct horse battery staple" },
    }),
    "POST",
  );
  expect(res.status(), await res.text()).toBe(201);
  const data = (await res.json()).data;
  return { secretKey: data.keys.test.secretKey, accessToken: data.accessToken, businessName };
}

export async function updateSettings(
  request: APIRequestContext,
  merchant: Merchant,
  settings: { channels?: string[]; brandColor?: string | null; logoUrl?: string | null },
) {
  const res = await checkAnswer(
    await request.put("/v1/merchants/settings", {
      data: settings,
      headers: { authorization: `Bearer ${merchant.accessToken}` },
    }),
    "PUT",
  );
  expect(res.status(), await res.text()).toBe(200);
}

export async function initialize(
  request: APIRequestContext,
  merchant: Merchant,
  options: InitializeOptions = {},
): Promise<Session> {
  const { email = "buyer@example.com", amount = "5000.00", ...rest } = options;
  const res = await checkAnswer(
    await request.post("/v1/payment/initialize", {
      data: { amount, ...(email !== null && { email }), ...rest },
      headers: { "x-api-key": merchant.secretKey },
    }),
    "POST",
  );
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as Session;
}

/** Server-side verify, as the merchant would before fulfilling. */
export async function verify(request: APIRequestContext, merchant: Merchant, reference: string) {
  const res = await checkAnswer(
    await request.get(`/v1/payment/verify/${reference}`, { headers: { "x-api-key": merchant.secretKey } }),
    "GET",
  );
  expect(res.status()).toBe(200);
  return (await res.json()).data as {
    status: string;
    amount: string;
    channel: string | null;
    total: string | null;
  };
}

/** No accessibility violations (axe-core: WCAG 2.0-2.2 A/AA and best practices) in the page as it is now. */
export async function expectAccessible(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`,
  );
  expect(summary, `axe violations in state "${state}"`).toEqual([]);
}

/** The page never scrolls sideways (the phone layout's promise). */
export async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, "horizontal scroll").toBeLessThanOrEqual(clientWidth);
}

/**
 * From the demo store to checkout: choose the first product and continue; answers the checkout page.
 * `checkStore` also checks the store page itself (axe, no sideways scroll) on the way.
 */
export async function startFromDemo(
  page: Page,
  product = "Ankara tote bag",
  { checkStore = false }: { checkStore?: boolean } = {},
) {
  await page.goto("/demo");
  if (checkStore) {
    await expect(page.getByRole("heading", { level: 1, name: "Paygate demo store" })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, "demo store");
  }
  await page.getByRole("radio", { name: product }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/pay\/[0-9A-Za-z]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Demo Store" })).toBeVisible();
}

/** The bank transfer countdown as seconds ("29:59" → 1799). */
export async function secondsLeft(page: Page): Promise<number> {
  const text = (await page.getByTestId("countdown").textContent()) ?? "";
  expect(text).toMatch(/^\d+:\d\d$/);
  const [m = "0", s = "0"] = text.split(":");
  return Number(m) * 60 + Number(s);
}

/** Checkout sent the browser back to the demo store, which verified the payment server-side. */
export async function expectDemoReturn(page: Page, status: "success" | "failed" | "abandoned") {
  await page.waitForURL(/\/demo\/return\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("status")).toBe(status);
  expect(url.searchParams.get("reference")).toMatch(/^PAY_TXN_/);
  expect(url.searchParams.get("amount")).toMatch(/^\d+\.\d{2}$/);
  expect(url.searchParams.get("currency")).toBe("NGN");
  const heading = {
    success: "Thank you! Your order is confirmed",
    failed: "Payment failed",
    abandoned: "Payment cancelled",
  }[status];
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  const words = { success: "Paid", failed: "Failed", abandoned: "Cancelled" }[status];
  await expect(page.locator('[data-field="Status"]')).toHaveText(words);
}

/** The visible tab panel (hidden panels stay mounted, so page-wide label lookups can be ambiguous). */
export const panel = (page: Page | FrameLocator) => page.getByRole("tabpanel");

/** Type a card into the checkout's card panel, on the page or in the embedded checkout's frame. */
export async function fillCard(
  page: Page | FrameLocator,
  card: { number: string; expiry?: string; cvv?: string },
) {
  // After a decline the form waits under it until "Try another card" is chosen.
  const again = panel(page).getByRole("button", { name: "Try another card" });
  if (await again.isVisible()) await again.click();
  // Pay is enabled once the page's code runs: typing earlier races hydration.
  await expect(panel(page).getByRole("button", { name: /^Pay NGN/ })).toBeEnabled();
  await panel(page).getByLabel("Card number").fill(card.number);
  await panel(page)
    .getByLabel("Expiry (MM/YY)")
    .fill(card.expiry ?? "12/34");
  await panel(page)
    .getByLabel("CVV")
    .fill(card.cvv ?? "123");
}

export const test = base.extend<object, { merchant: Merchant }>({
  /** The test's API requests, each answer from `/v1` held to the document (checkedRequest). */
  request: async ({ request }, use) => {
    await use(checkedRequest(request));
  },
  /** One merchant per worker, all channels, default settings. */
  merchant: [
    async ({ playwright }, use, workerInfo) => {
      const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
      await use(await signUp(request));
      await request.dispose();
    },
    { scope: "worker" },
  ],
});

export { expect };

/**
 * Choose `bank` in the checkout's bank picker (bank payment and USSD) inside `scope`: the server's plain list
 * until the page's code makes it searchable.
 */
export async function chooseBank(page: Page, scope: Locator, bank: string) {
  const picker = scope.getByRole("combobox", { name: "Your bank" });
  if ((await picker.evaluate((el) => el.tagName)) === "SELECT") {
    await picker.selectOption({ label: bank });
    return;
  }
  // Emptied first: typing the name a panel already shows (its default bank, or a name typed but not chosen)
  // opens no list.
  await picker.fill("");
  await picker.fill(bank);
  await page.getByRole("option", { name: bank, exact: true }).click();
  await expect(picker).toHaveValue(bank);
}
