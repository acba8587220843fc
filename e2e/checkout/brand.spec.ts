import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, startFromDemo, test } from "../fixtures";
import { demoMerchantFile, MAIN_BASE_URL } from "../servers";

/**
 * The merchant's brand colour is applied however checkout is reached: by a client-side navigation (the demo
 * store's server action redirects there) and by a full page load. The CSP (a fresh nonce per request) must
 * not block it either way: no Content Security Policy violation on the page.
 */
// The demo merchant is given a colour of its own for these tests (#7c3aed), unlike the product's default
// (#0f766e), so a page that lost the merchant's colour and fell back to the default fails.
const BRAND_HEX = "#7c3aed";
const BRAND = "rgb(124, 58, 237)";

async function setDemoBrand(request: APIRequestContext, brandColor: string | null) {
  const demo = JSON.parse(readFileSync(demoMerchantFile("main"), "utf8")) as {
    email: string;
    password: string;
  };
  const login = await request.post("/v1/merchants/auth/login", {
    data: { email: demo.email, password: demo.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const token = (await login.json()).data.accessToken as string;
  const res = await request.put("/v1/merchants/settings", {
    data: { brandColor },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: MAIN_BASE_URL });
  await setDemoBrand(request, BRAND_HEX);
  await request.dispose();
});

test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: MAIN_BASE_URL });
  await setDemoBrand(request, null);
  await request.dispose();
});

async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const w = window as unknown as { __csp?: string[] };
      w.__csp = [...(w.__csp ?? []), `${event.violatedDirective} ${event.blockedURI}`];
    });
  });
  return violations;
}

async function expectBrand(page: Page) {
  const stripe = page.getByTestId("brand-stripe");
  await expect(stripe).toHaveCSS("background-color", BRAND);
  const pay = page.getByRole("tabpanel").getByRole("button", { name: /^Pay NGN/ });
  await expect(pay).toHaveCSS("background-color", BRAND);
  await expect(page.getByRole("tab", { selected: true }).locator("..")).toHaveCSS("border-top-color", BRAND);
}

test("the brand colour survives a client-side navigation from /demo, with no CSP violation", async ({
  page,
}) => {
  const violations = await watchCsp(page);
  await startFromDemo(page);
  await expectBrand(page);
  expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  expect(violations).toEqual([]);
});

test("the brand colour is applied on a full page load, with no CSP violation", async ({ page }) => {
  const violations = await watchCsp(page);
  await startFromDemo(page);
  await page.reload();
  await expectBrand(page);
  expect(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).toEqual([]);
  expect(violations).toEqual([]);
});
