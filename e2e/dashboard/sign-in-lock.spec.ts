import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "../fixtures";

/**
 * The console's sign-in form (a server action, posted by the page's code and without it) when wrong passwords
 * have locked the account: a browser that signed in before still gets in with the right password (its device
 * cookie, docs/decisions/024-device-cookies.md); a browser the account does not know is told what happened and
 * what its owner can do. Every request here comes from 127.0.0.1, so five wrong passwords lock the account
 * from this address (and spend most of its failed-sign-in budget: one test does it once); the HTTP suite
 * (tests/login-limits.test.ts) covers many addresses and two instances.
 */
const PASSWORD = "correct horse battery staple";

async function signIn(page: Page, email: string) {
  await page.goto("/dashboard/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function browserOf(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  return { context, page: await context.newPage() };
}

test("a known browser signs in while the account is locked, with JavaScript and without; a new one is told why", async ({
  browser,
  request,
}) => {
  const email = `lock-${randomBytes(5).toString("hex")}@example.com`;
  const withJs = await browserOf(browser, true);
  const withoutJs = await browserOf(browser, false);
  const strangers = [await browserOf(browser, true), await browserOf(browser, false)];
  try {
    // The owner signs up in one browser and signs in with another (its JavaScript off): both are known now.
    await withJs.page.goto("/dashboard/signup");
    await withJs.page.getByLabel("Business name").fill("Lock Shop");
    await withJs.page.getByLabel("Email address").fill(email);
    await withJs.page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await withJs.page.getByRole("button", { name: "Create account" }).click();
    await expect(withJs.page.getByRole("heading", { name: "Your secret keys" })).toBeVisible();
    await signIn(withoutJs.page, email);
    await expect(withoutJs.page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    for (const { context } of [withJs, withoutJs]) await context.clearCookies({ name: "paygate_session" });

    // Someone guesses at the owner's email.
    for (let i = 0; i < 5; i++) {
      const res = await request.post("/v1/merchants/auth/login", {
        data: { email, password: `not the password ${i}` },
      });
      expect(res.status()).toBe(401);
    }

    // Browsers the account does not know: the right password is refused, and the page says what to do.
    for (const { page } of strangers) {
      await signIn(page, email);
      const alert = page.getByRole("alert").filter({ hasText: "Too many wrong passwords" });
      await expect(alert).toContainText("locked for now against browsers it has not been signed in with");
      await expect(alert).toContainText("sign in from a browser you have signed in with before");
      await expect(alert).toContainText(/try again in \d+ minutes?/);
      await expect(page).toHaveURL(/\/dashboard\/login/);
    }

    // The owner's own browsers: signed in.
    for (const { page } of [withJs, withoutJs]) {
      await page.goto("/dashboard/login");
      await expect(page.getByText("This browser is remembered once you sign in with it.")).toBeVisible();
      await signIn(page, email);
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    }
  } finally {
    for (const { context } of [withJs, withoutJs, ...strangers]) await context.close();
  }
});
