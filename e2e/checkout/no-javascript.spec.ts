import type { Page, Route } from "@playwright/test";
import { expect, initialize, test } from "../fixtures";
import { demoMerchantFile, MAIN_BASE_URL } from "../servers";

/**
 * With JavaScript off, or before the page's code has arrived on a slow phone, the hosted pages work as plain
 * HTML: the tabs are links, every form is posted by the browser itself and answered by the page at its next
 * step, never by an error page; and no credential ever travels in an address. Every flow runs twice: with
 * JavaScript off, and with it on but the app's code held back (each chunk's request left unanswered), so
 * every tap lands before hydration.
 */
const MODES = [
  { name: "with JavaScript off", javaScriptEnabled: false },
  { name: "before the page's code runs", javaScriptEnabled: true },
] as const;

/** Every request the page makes, to assert on (no `password=` in any address). */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => seen.push(`${request.method()} ${request.url()}`));
  return seen;
}

/** Opens `url`, waiting for the document, not for its code (which may be held back). */
async function open(page: Page, url: string) {
  return page.goto(url, { waitUntil: "domcontentloaded" });
}

async function expectNoErrorPage(page: Page) {
  await expect(page.locator("html#__next_error__")).toHaveCount(0);
  await expect(page.getByText("Internal Server Error")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

for (const mode of MODES) {
  test.describe(mode.name, () => {
    test.use({ javaScriptEnabled: mode.javaScriptEnabled });
    const chunks = { asked: 0, arrived: 0 };
    test.beforeEach(async ({ page }) => {
      // The app's chunks never arrive: the page stays as the server sent it, its inline scripts running.
      if (!mode.javaScriptEnabled) return;
      chunks.asked = 0;
      chunks.arrived = 0;
      await page.route("**/_next/static/chunks/**", (route) => {
        if (route.request().url().endsWith(".js")) chunks.asked++;
        else void route.continue();
      });
      page.on("requestfinished", (request) => {
        if (/\/_next\/static\/chunks\/.*\.js$/.test(request.url())) chunks.arrived++;
      });
    });
    test.afterEach(() => {
      // Held back for real: the pages asked for their code, and none of it ever ran.
      if (!mode.javaScriptEnabled) return;
      expect(chunks.asked).toBeGreaterThan(0);
      expect(chunks.arrived).toBe(0);
    });
    test("the checkout shows the merchant, the amount, the fee and the channels", async ({
      page,
      request,
      merchant,
    }) => {
      const shop = merchant;
      const session = await initialize(request, shop, { amount: "5000.00" });
      const res = await open(page, session.checkoutUrl);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: merchant.businessName })).toBeVisible();
      await expect(page.getByText("NGN 5,175.00").first()).toBeVisible();
      await expect(page.getByText("NGN 175.00 card fee").first()).toBeVisible();
      for (const channel of ["Card", "Bank transfer", "Bank payment", "USSD"]) {
        await expect(page.getByRole("tab", { name: channel, exact: true })).toBeVisible();
      }
      await expect(page.getByLabel("Card number")).toBeVisible();
    });

    test("a customer pays by bank transfer: the tab, the account, the money arriving", async ({
      page,
      request,
      merchant,
    }) => {
      const shop = merchant;
      const session = await initialize(request, shop, { amount: "5000.00" });
      await open(page, session.checkoutUrl);
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(page).toHaveURL(/channel=bank_transfer/);
      await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAttribute("aria-selected", "true");
      const panel = page.getByRole("tabpanel", { name: "Bank transfer" });
      // The amount with its fee, then the account the server issues for the posted form.
      await expect(panel.getByText("NGN 5,050.00").first()).toBeVisible();
      await panel.getByRole("button", { name: "Get account number" }).click();
      await expectNoErrorPage(page);
      await expect(panel.getByRole("heading", { name: /^Transfer NGN 5,050\.00/ })).toBeVisible();
      // A Copy button would do nothing without the page's code: there is none.
      await expect(page.getByRole("button", { name: /^Copy/ })).toHaveCount(0);
      const accountNumber =
        (await panel.getByTestId("account-number").textContent())?.replace(/\s/g, "") ?? "";
      expect(accountNumber).toMatch(/^\d{10}$/);
      await expect(panel.getByText("Account name")).toBeVisible();
      // The same account after a reload, as the API says.
      const status = await (
        await request.get(`${MAIN_BASE_URL}/v1/payment/checkout/verify`, {
          headers: { "x-access-code": session.accessCode },
        })
      ).json();
      expect(status.data.status).toBe("awaiting_transfer");
      expect(status.data.transfer.accountNumber).toBe(accountNumber);
      // The sandbox plays the bank: the money arrives and the page, posted again, shows the payment made.
      await page.getByRole("button", { name: "Send the exact amount" }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    });

    test("a card with a one-time password pays after a wrong one, and a declined card says why", async ({
      page,
      request,
      merchant,
    }) => {
      const shop = merchant;
      const declined = await initialize(request, shop, { amount: "1000.00" });
      await open(page, declined.checkoutUrl);
      await page.getByLabel("Card number").fill("4000 0000 0000 0002");
      await page.getByLabel("Expiry (MM/YY)").fill("12/34");
      await page.getByLabel("CVV").fill("123");
      await page.getByRole("button", { name: /^Pay / }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
      // Without the page's code, no button that would do nothing: the form is there to post again.
      await expect(page.getByRole("button", { name: "Try another card" })).toHaveCount(0);
      await expect(page.getByLabel("Card number")).toBeVisible();
      expect(page.url()).not.toContain("4000");

      const session = await initialize(request, shop, { amount: "1000.00" });
      await open(page, session.checkoutUrl);
      await page.getByLabel("Card number").fill("4000 0000 0000 3220");
      await page.getByLabel("Expiry (MM/YY)").fill("12/34");
      await page.getByLabel("CVV").fill("123");
      await page.getByRole("button", { name: /^Pay / }).click();
      await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeVisible();
      // A wrong code: the same step again, saying so, the card kept.
      await page.getByLabel("One-time password").fill("000000");
      await page.getByRole("button", { name: /^Confirm payment/ }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeVisible();
      await expect(page.getByText("That code is not correct. Type it again (tries left: 2).")).toBeVisible();
      await page.getByLabel("One-time password").fill("123456");
      await page.getByRole("button", { name: /^Confirm payment/ }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
    });

    test("bank payment and USSD ask the bank, and cancelling asks first", async ({
      page,
      request,
      merchant,
    }) => {
      const shop = merchant;
      const session = await initialize(request, shop, { amount: "2000.00" });
      await open(page, session.checkoutUrl);
      await page.getByRole("tab", { name: "Bank payment" }).click();
      const bank = page.getByRole("tabpanel", { name: "Bank payment" });
      await bank.getByLabel("Your bank").selectOption({ label: "Zenith Bank" });
      await bank.getByRole("button", { name: /^Pay / }).click();
      await expectNoErrorPage(page);
      await expect(page.getByTestId("bank-payment-waiting")).toContainText("Zenith Bank");
      await page.getByRole("button", { name: "Decline the payment" }).click();
      await expect(page.getByRole("heading", { name: "The payment was not approved" })).toBeVisible();

      await page.getByRole("tab", { name: "USSD" }).click();
      const ussd = page.getByRole("tabpanel", { name: "USSD" });
      await ussd.getByLabel("Phone number").fill("12");
      await ussd.getByRole("button", { name: "Get USSD code" }).click();
      await expect(ussd.getByText("Enter a phone number of 10 to 15 digits")).toBeVisible();
      await ussd.getByLabel("Phone number").fill("08031234567");
      await ussd.getByRole("button", { name: "Get USSD code" }).click();
      await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
      await expect(page.getByTestId("ussd-code")).toHaveText(/^\*\d+\*/);

      await page.getByRole("button", { name: "Cancel payment" }).click();
      await page.getByRole("button", { name: "Yes, cancel payment" }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
    });

    test("the language menu, the demo store and a payment link lead to checkout", async ({
      page,
      request,
      merchant,
    }) => {
      // The demo store posts its order form and lands on the checkout.
      await open(page, "/demo");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("tablist", { name: "Payment method" })).toBeVisible();
      // The language menu posts the pick and the page answers in that language.
      await page.getByText(/^Language:/).click();
      await page.getByRole("button", { name: "Français" }).click();
      await expectNoErrorPage(page);
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");

      // A payment link's form, posted by the browser: on to checkout; a bad email comes back said, on its field.
      const shop = merchant;
      const link = await (
        await request.post(`${MAIN_BASE_URL}/v1/merchants/payment-links`, {
          headers: { authorization: `Bearer ${shop.accessToken}` },
          data: { title: "Tote bag", amount: "1500.00" },
        })
      ).json();
      await open(page, link.data.paymentLinkUrl);
      await page.getByLabel("Email address").fill("not-an-email");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expectNoErrorPage(page);
      await expect(page.getByLabel("Email address")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(
        /Enter a valid email address\./,
      );
      await page.getByLabel("Email address").fill("buyer@example.com");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expect(page.getByRole("tablist", { name: "Payment method" })).toBeVisible();
    });

    test("the console signs in and up by POST, never with a password in the address", async ({ page }) => {
      const requests = recordRequests(page);
      const { readFileSync } = await import("node:fs");
      const demo = JSON.parse(readFileSync(demoMerchantFile("main"), "utf8")) as {
        email: string;
        password: string;
      };
      await open(page, "/dashboard/login");
      await page.getByLabel("Email address").fill(demo.email);
      await page.getByLabel("Password").fill("wrong password here");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expectNoErrorPage(page);
      await expect(page.getByRole("alert")).toContainText("The email or password is incorrect.");
      // What was typed stays (not the password).
      await expect(page.getByLabel("Email address")).toHaveValue(demo.email);
      await page.getByLabel("Password").fill(demo.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

      await page.context().clearCookies();
      await open(page, "/dashboard/signup");
      await page.getByLabel("Business name").fill("No Script Signup");
      await page.getByLabel("Email address").fill(`noscript-${Date.now()}@example.com`);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByText("password must be at least 10 characters")).toBeVisible();
      await expect(page.getByLabel("Business name")).toHaveValue("No Script Signup");
      await page.getByLabel("Password").fill("a long enough password");
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.getByRole("heading", { name: "Your secret keys" })).toBeVisible();
      await expect(page.getByText(/^sk_test_/).first()).toBeVisible();

      for (const line of requests) expect(line).not.toMatch(/password=/i);
      expect(requests.some((line) => line.startsWith("POST ") && line.includes("/dashboard/login"))).toBe(
        true,
      );
    });
  });
}

test.describe("typed before the page's code runs, sent after", () => {
  test("the console's sign-in keeps what was typed while the code arrived, and signs in", async ({
    page,
  }) => {
    const requests = recordRequests(page);
    const refused: string[] = [];
    page.on("response", (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    });
    const { readFileSync } = await import("node:fs");
    const demo = JSON.parse(readFileSync(demoMerchantFile("main"), "utf8")) as {
      email: string;
      password: string;
    };
    // The app's chunks are held back until the fields are typed in: a phone whose code is slow to arrive.
    const held: Route[] = [];
    let holding = true;
    await page.route("**/_next/static/chunks/**", (route) => {
      if (holding && route.request().url().endsWith(".js")) held.push(route);
      else void route.continue();
    });
    // Link prefetches are made by the page's code only: the first one says it runs.
    const prefetched = page.waitForRequest(
      (request) => request.url().includes("/dashboard/signup") && request.headers().rsc === "1",
    );

    await open(page, "/dashboard/login");
    await page.getByLabel("Email address").pressSequentially(demo.email);
    await page.getByLabel("Password").pressSequentially(demo.password);
    expect(held.length).toBeGreaterThan(0);

    holding = false;
    for (const route of held.splice(0)) await route.continue();
    await prefetched;
    // What was typed before the code ran is still there, and is what is sent.
    await expect(page.getByLabel("Email address")).toHaveValue(demo.email);
    await expect(page.getByLabel("Password")).toHaveValue(demo.password);
    const signIn = page.waitForRequest(
      (request) => request.method() === "POST" && new URL(request.url()).pathname === "/dashboard/login",
    );
    await page.getByRole("button", { name: "Sign in" }).click();
    // Posted by the page's code (a server action call), not by the browser's own form post.
    expect((await signIn).headers()["next-action"]).toBeTruthy();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard(\?|$)/);

    expect(refused).toEqual([]);
    for (const line of requests) expect(line).not.toMatch(/password=/i);
  });
});
