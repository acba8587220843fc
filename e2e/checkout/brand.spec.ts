import type { Page } from "@playwright/test";
import { expect, startFromDemo, test } from "../fixtures";

/**
 * The merchant's brand colour is applied however checkout is reached: by a client-side navigation (the demo
 * store's server action redirects there) and by a full page load. The CSP (a fresh nonce per request) must
 * not block it either way: no Content Security Policy violation on the page.
 */
const DEFAULT_BRAND = "rgb(15, 118, 110)"; // #0f766e: the demo merchant has no colour of its own

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
  await expect(stripe).toHaveCSS("background-color", DEFAULT_BRAND);
  const pay = page.getByRole("tabpanel").getByRole("button", { name: /^Pay NGN/ });
  await expect(pay).toHaveCSS("background-color", DEFAULT_BRAND);
  await expect(page.getByRole("tab", { selected: true }).locator("..")).toHaveCSS(
    "border-top-color",
    DEFAULT_BRAND,
  );
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
