import { expect, initialize, test } from "./fixtures";

/**
 * What an address can make a hosted page say: only the product's own words. A link someone else crafted
 * (`/demo?error=…`, `/pay/<code>?problem=…`, a payment link's `?problem=…`) shows no text of its own, and a
 * client cannot pass the hosted pages' internal headers.
 */
const PLANTED = "Your card was blocked call 0800 FRAUD now";

test("the demo store shows only its own messages, whatever ?error= says", async ({ page }) => {
  await page.goto(`/demo?error=${encodeURIComponent(PLANTED)}`);
  await expect(page.getByRole("button", { name: "Continue to payment" })).toBeVisible();
  await expect(page.getByText(PLANTED)).toHaveCount(0);
  expect(await page.content()).not.toContain("0800 FRAUD");
});

test("a checkout's ?problem= is a code the page words itself, never text from the address", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant);
  await page.goto(`${session.checkoutUrl}?channel=card&problem=${encodeURIComponent(PLANTED)}`);
  await expect(page.getByLabel("Card number")).toBeVisible();
  expect(await page.content()).not.toContain("0800 FRAUD");
  // A known code is worded from the catalogue.
  await page.goto(`${session.checkoutUrl}?channel=card&problem=decline:insufficient_funds`);
  await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
});

test("a client's x-page-url does not reach the pages (no language or wording chosen by it)", async ({
  request,
}) => {
  const res = await request.get("/no/such/page", { headers: { "x-page-url": "/pay/abc?lang=fr" } });
  expect(res.status()).toBe(404);
  const html = await res.text();
  expect(html).toContain('<html lang="en">');
  expect(html).toContain("Page not found");
});
