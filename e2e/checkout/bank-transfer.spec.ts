import {
  expect,
  expectAccessible,
  expectDemoReturn,
  expectNoHorizontalScroll,
  initialize,
  LAYOUTS,
  secondsLeft,
  startFromDemo,
  test,
} from "../fixtures";
import { SHORT_WINDOW_BASE_URL, SHORT_WINDOW_SECONDS } from "../servers";

for (const layout of LAYOUTS) {
  test.describe(`bank transfer (${layout.name})`, () => {
    test.use(layout.use);

    test("too little shows what is still due on the same account, then the rest pays", async ({ page }) => {
      await startFromDemo(page);
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAttribute("aria-selected", "true");
      await page.getByRole("button", { name: "Get account number" }).click();

      await expect(page.getByRole("heading", { name: "Transfer NGN 5,050.00" })).toBeFocused();
      const account = (await page.getByTestId("account-number").textContent()) ?? "";
      expect(account).toMatch(/^\d{3} \d{3} \d{4}$/);
      await expect(page.getByText("Paygate Sandbox Bank")).toBeVisible();
      await expect(page.getByText("Paygate/Demo Store")).toBeVisible();
      await expect(page.getByRole("button", { name: "Copy account number" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "virtual account");

      await page.getByRole("button", { name: /^Send a wrong amount/ }).click();
      const notice = page.getByRole("alert").filter({ hasText: "The amount received does not match" });
      await expect(notice).toContainText(
        "We have received NGN 2,525.00 of the NGN 5,050.00 this payment needs. Send the remaining NGN 2,525.00 to the same account below before it expires, and the payment completes.",
      );
      // It says what happens to the money if the rest never comes, and when.
      await expect(notice).toContainText(
        "If the rest does not arrive in time, the NGN 2,525.00 goes back to the account it came from automatically, usually within 24 hours.",
      );
      // The same account stays on screen, asking for the rest.
      await expect(page.getByTestId("account-number")).toHaveText(account);
      await expect(page.getByRole("heading", { name: "Transfer NGN 2,525.00" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "amount mismatch");
      // Switching channel does not hide it.
      await page.getByRole("tab", { name: "Card", exact: true }).click();
      await expect(page.getByTestId("mismatch-elsewhere")).toHaveText(
        "NGN 2,525.00 of NGN 5,050.00 has arrived by bank transfer: send the remaining NGN 2,525.00 to the same account to complete the payment. If you pay another way instead, the NGN 2,525.00 goes back to the account it came from automatically, usually within 24 hours.",
      );
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(page.getByTestId("mismatch-elsewhere")).toHaveCount(0);

      await page.getByRole("button", { name: "I've sent the money" }).click();
      await expect(page.getByRole("heading", { name: "Waiting for your transfer" })).toBeFocused();
      await expect(page.getByRole("progressbar", { name: "Waiting for your transfer" })).toBeVisible();
      await expectAccessible(page, "waiting for transfer");

      // The rest arrives on the same account: the two transfers add up and the payment completes.
      await page.getByRole("button", { name: "Send the exact amount" }).click();
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await expectDemoReturn(page, "success");
      await expect(page.locator('[data-field="Paid with"]')).toHaveText("Bank transfer");
      await expect(page.locator('[data-field="Customer paid"]')).toHaveText("NGN 5,050.00");
    });

    test("a failed transfer returns to the merchant with status failed", async ({ page }) => {
      await startFromDemo(page);
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await page.getByRole("button", { name: "Get account number" }).click();
      await page.getByRole("button", { name: "Fail the payment" }).click();
      await expect(page.getByRole("heading", { name: "Payment failed" })).toBeFocused();
      // Pressing anywhere on the result stops the count down.
      await page.getByText("Return to Demo Store to try again.").click();
      await expect(page.getByRole("status")).toHaveText(
        "Take your time. Return to Demo Store when you are ready.",
      );
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "payment failed");
      await page.getByRole("link", { name: "Return to Demo Store" }).click();
      await expectDemoReturn(page, "failed");
      await expectAccessible(page, "demo return, failed");
    });
  });

  test.describe(`bank transfer expiry (${layout.name})`, () => {
    // A server whose virtual accounts last seconds, so the expiry flow runs in one test.
    test.use({ ...layout.use, baseURL: SHORT_WINDOW_BASE_URL });

    test("the countdown runs down; an expired account gets a new one, which pays", async ({ page }) => {
      await startFromDemo(page);
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await page.getByRole("button", { name: "Get account number" }).click();
      await expect(page.getByRole("heading", { name: "Transfer NGN 5,050.00" })).toBeVisible();
      const first = (await page.getByTestId("account-number").textContent()) ?? "";

      // This server's window is SHORT_WINDOW_SECONDS (e2e/servers.ts).
      const before = await secondsLeft(page);
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThanOrEqual(SHORT_WINDOW_SECONDS);
      await expect.poll(() => secondsLeft(page), { timeout: 4_000 }).toBeLessThan(before);

      // (That it is derived from the deadline, not counted down, is the "device slept" test below.)

      const expired = page.getByRole("heading", { name: "This account number has expired" });
      await expect(expired).toBeVisible({ timeout: 15_000 });
      await expect(page.getByText(first)).toHaveCount(1); // named in the warning, no longer as the account
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "account expired");

      await page.getByRole("button", { name: "Get a new account number" }).click();
      await expect(page.getByRole("heading", { name: "Transfer NGN 5,050.00" })).toBeFocused();
      const second = (await page.getByTestId("account-number").textContent()) ?? "";
      expect(second).not.toBe(first);
      await page.getByRole("button", { name: "Send the exact amount" }).click();
      await expectDemoReturn(page, "success");
    });
  });
}

test("bank transfer needs the customer's email", async ({ page, request, merchant }) => {
  const session = await initialize(request, merchant, { email: null });
  await page.goto(session.checkoutUrl);
  // Without an email the header shows the amount only.
  await expect(page.locator("header").getByText("Total to pay: NGN 5,175.00")).toBeVisible();
  await expect(page.locator("header")).not.toContainText("Paying as");
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await expect(page.getByRole("heading", { name: "Pay by bank transfer" })).toBeVisible();
  // The header follows the chosen channel: one amount, the fee as its part.
  await expect(page.locator("header").getByText("Total to pay: NGN 5,050.00")).toBeVisible();
  await expect(page.getByTestId("amount-parts")).toHaveText("NGN 5,000.00 + NGN 50.00 bank transfer fee");
  await expectAccessible(page, "bank transfer start");
  await page.getByRole("button", { name: "Get account number" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "email" })).toContainText(
    "Bank transfer needs the customer's email",
  );
  await expectAccessible(page, "bank transfer email required");
});

test("the countdown is derived from expiresAt: after 5 minutes of sleep it shows 5 minutes less", async ({
  page,
  request,
  merchant,
}) => {
  // The page's clock is faked from now on, starting at the real time, so it agrees with the server's
  // expiresAt (no clock-skew fallback to expiresInSeconds) and can be moved on like a sleeping device's.
  await page.clock.install();
  const session = await initialize(request, merchant);
  await page.goto(session.checkoutUrl);
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  await expect(page.getByRole("heading", { name: /^Transfer NGN/ })).toBeVisible();
  // The main server's window is 30 minutes (playwright.config.ts).
  await expect(page.getByTestId("countdown")).toHaveText(/^(30:00|29:5\d)$/);
  const before = await secondsLeft(page);

  // The customer looks at another method and the device sleeps for 5 minutes: no timer runs meanwhile, and
  // on waking each due timer fires once (so a countdown that subtracts a second per tick would be 1 s
  // lower, not 300). Hidden tab panels stay mounted, so the tab switch alone would prove nothing.
  await page.getByRole("tab", { name: "Card", exact: true }).click();
  await page.clock.fastForward("05:00");
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await expect(page.getByTestId("countdown")).toHaveText(/^(25:00|24:[0-5]\d)$/);
  const after = await secondsLeft(page);
  expect(after).toBeLessThanOrEqual(before - 300);
  expect(after).toBeGreaterThan(before - 300 - 15);
  await expect(page.getByRole("button", { name: "I've sent the money" })).toBeVisible();
});
