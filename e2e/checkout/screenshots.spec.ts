import { expect, fillCard, LAYOUTS, startFromDemo, test } from "../fixtures";
import { createLink } from "../links/link-api";

/**
 * Phone-size screenshots of each channel for the docs (docs/screenshots/*.png). Not part of the normal
 * run (playwright.config.ts ignores this file unless SCREENSHOTS is set): `SCREENSHOTS=1 npx playwright test e2e/checkout/screenshots.spec.ts`.
 */
test.use({ ...LAYOUTS[0].use, deviceScaleFactor: 2 });

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png`, fullPage: true });

test("screenshots of every channel at phone size", async ({ page }) => {
  await startFromDemo(page);
  await page.screenshot(shot("card"));
  await fillCard(page, { number: "4000000000003220" });
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Enter the one-time password" })).toBeVisible();
  await page.screenshot(shot("card-otp"));
  await page.getByRole("button", { name: "Use a different card" }).click();
  await fillCard(page, { number: "4000000000000002" });
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
  await page.screenshot(shot("card-declined"));

  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  await page.getByRole("button", { name: /^Send a wrong amount/ }).click();
  await expect(page.getByText("The amount received does not match")).toBeVisible();
  await page.screenshot(shot("bank-transfer-mismatch"));

  await page.getByRole("tab", { name: "Bank payment" }).click();
  await page.getByRole("combobox", { name: "Your bank" }).fill("a");
  await page.screenshot(shot("bank-payment-picker"));
  await page.getByRole("option", { name: "Access Bank", exact: true }).click();
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Approve the payment in your banking app" })).toBeVisible();
  await page.screenshot(shot("bank-payment-waiting"));

  await page.getByRole("tab", { name: "USSD" }).click();
  await page.getByLabel("Phone number").fill("0803 123 4567");
  await page.getByRole("button", { name: "Get USSD code" }).click();
  await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeVisible();
  await page.screenshot(shot("ussd-code"));

  await page.getByRole("button", { name: "Approve the payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
  await page.screenshot(shot("success"));
  await page.getByRole("button", { name: "Stay on this page" }).click();
  await page.getByRole("link", { name: "Return to Demo Store" }).click();
  await page.waitForURL(/\/demo\/return/);
  await page.screenshot(shot("demo-return"));
});

test("screenshot of the bank transfer account with its countdown", async ({ page }) => {
  await startFromDemo(page);
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  await expect(page.getByRole("heading", { name: /^Transfer NGN/ })).toBeVisible();
  await page.screenshot(shot("bank-transfer"));
});

test("screenshots of the receipt, a payment link, the home page and a 404", async ({
  page,
  request,
  merchant,
}) => {
  const link = await createLink(request, merchant, { title: "Conference pass", amount: "18500" });
  await page.goto(link.paymentLinkUrl);
  await expect(page.getByTestId("fee-notice")).toBeVisible();
  await page.screenshot(shot("payment-link"));
  await page.getByLabel("Email address").fill("payer@example.com");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.waitForURL(/\/pay\//);
  await fillCard(page, { number: "4242 4242 4242 4242" });
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByTestId("paid-with")).toHaveText("Visa •••• 4242");
  await page.screenshot(shot("receipt"));

  await page.goto("/");
  await page.screenshot(shot("home"));
  await page.goto("/pay/notarealaccesscode123");
  await page.screenshot(shot("not-found"));
});
