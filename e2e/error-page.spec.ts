import pg from "pg";
import { type ServerProcess, startServer } from "../scripts/lib/server-process";
import { expect, expectAccessible, expectNoHorizontalScroll, initialize, signUp, test } from "./fixtures";

/**
 * A hosted page that cannot load what it shows, for real: a server of this test's own on a PostgreSQL database
 * that goes away after a payment was started. The checkout cannot be loaded; the customer gets the product's
 * notice saying so, server-rendered (so it reads without JavaScript), with a way to try again and the reference
 * the fault was logged under, never the error's message. Its status is 200, as docs/decisions/009-first-tap.md
 * explains (Next cannot set a page's status once it renders). Needs a PostgreSQL server (TEST_DATABASE_URL, as
 * the HTTP suites do); skipped without one.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

test.skip(!adminUrl, "needs TEST_DATABASE_URL (a PostgreSQL server)");

test("a checkout that cannot load shows the branded error notice, without JavaScript too, accessible", async ({
  browser,
  playwright,
}) => {
  test.setTimeout(90_000);
  const name = `paygate_test_${Date.now()}_${process.pid}_e2e_error`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl as string);
  url.pathname = `/${name}`;
  let app: ServerProcess | undefined;
  try {
    app = await startServer({
      name: "e2e-error",
      env: {
        DATABASE_URL: url.toString(),
        APP_SECRET: "e2e-error-secret-0123456789abcdefghijklmnopqrstuvwxyz",
        SEED_DEMO: "0",
        WEB_CONCURRENCY: "1",
        LOG_LEVEL: "silent",
        CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
        WEBHOOK_RELAY: "0",
      },
    });
    const request = await playwright.request.newContext({ baseURL: app.url });
    const shop = await signUp(request, "Vanishing Shop");
    const session = await initialize(request, shop, {});
    await request.dispose();
    // The database goes away under the running server.
    await admin(`DROP DATABASE ${name} WITH (FORCE)`);

    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const response = await page.goto(session.checkoutUrl);
      expect(response?.status()).toBe(200);
      await expect(
        page.getByRole("heading", { level: 1, name: "Something went wrong on our side" }),
      ).toBeVisible();
      await expect(page.getByText("If you were paying, no payment was made by this error.")).toBeVisible();
      // Trying again loads the same checkout address.
      await expect(page.getByRole("link", { name: "Try again" })).toHaveAttribute(
        "href",
        new URL(session.checkoutUrl).pathname,
      );
      await expect(page.getByText(/^Ref: /)).toContainText(/\S{8,}/);
      await expect(page.getByText("Secured by Paygate")).toBeVisible();
      // Nothing of the error itself (a database message) reaches the customer.
      await expect(page.locator("body")).not.toContainText(/database|postgres|ECONNREFUSED|does not exist/i);
      if (javaScriptEnabled) {
        await expectNoHorizontalScroll(page);
        await expectAccessible(page, "error notice");
      }
      await context.close();
    }
  } finally {
    await app?.stop();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
});
