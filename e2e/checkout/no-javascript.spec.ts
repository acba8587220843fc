import { expect, test } from "@playwright/test";
import { initialize, signUp } from "../fixtures";

/**
 * The checkout's first screen is the server's HTML: with JavaScript off (or still loading on a slow phone),
 * the customer can read whom they pay, what, the fee and the ways to pay.
 */
test.use({ javaScriptEnabled: false });

test("with JavaScript off the checkout shows the merchant, the amount, the fee and the channels", async ({
  page,
  request,
}) => {
  const shop = await signUp(request, "No Script Shop");
  const session = await initialize(request, shop, { amount: "5000.00" });
  const res = await page.goto(session.checkoutUrl);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "No Script Shop" })).toBeVisible();
  await expect(page.getByText("NGN 5,175.00").first()).toBeVisible();
  await expect(page.getByText("NGN 175.00 card fee").first()).toBeVisible();
  for (const channel of ["Card", "Bank transfer", "Bank payment", "USSD"]) {
    await expect(page.getByRole("tab", { name: channel, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel("Card number")).toBeVisible();
});
