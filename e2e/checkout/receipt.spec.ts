import {
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  initialize,
  panel,
  test,
} from "../fixtures";

/**
 * A receipt worth keeping: the reference stays whole on one line inside the card and has a copy button, the date is the payer's
 * local time, the card is named by brand and last 4, and the page prints as a receipt (no buttons).
 */
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  timezoneId: "Africa/Lagos",
  permissions: ["clipboard-read", "clipboard-write"],
});

test("the receipt: reference with copy, local time, brand and last 4, printable", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant, { amount: "5000.00" });
  await page.goto(session.checkoutUrl);
  await fillCard(page, { number: "4242 4242 4242 4242" });
  await panel(page).getByRole("button", { name: "Pay NGN 5,175.00" }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

  const receipt = page.getByTestId("receipt");
  await expect(receipt.getByTestId("reference")).toHaveText(session.reference);
  await expect(receipt.getByTestId("paid-with")).toHaveText("Visa •••• 4242");
  // Lagos is UTC+1: the time is the payer's, with its zone, not the server's UTC.
  await expect(receipt.getByTestId("paid-at")).toHaveText(/GMT\+1$/);
  await expectNoHorizontalScroll(page);
  // The reference stays inside the receipt's box, on one line: never broken in the middle on a phone.
  const box = await receipt.boundingBox();
  const ref = await receipt.getByTestId("reference").boundingBox();
  expect(ref && box && ref.x + ref.width <= box.x + box.width).toBe(true);
  const lines = await receipt.getByTestId("reference").evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines, "lines the reference takes").toBe(1);

  await receipt.getByRole("button", { name: "Copy reference" }).click();
  await expect(receipt.getByRole("button", { name: "Copied reference" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(session.reference);
  await expectAccessible(page, "receipt");

  // Printed: the receipt without its buttons.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeHidden();
  await expect(receipt.getByRole("button", { name: /reference/ })).toBeHidden();
  await expect(receipt.getByTestId("reference")).toBeVisible();
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("button", { name: "Print receipt" })).toBeVisible();
});

test("copying the reference stops the countdown back to the merchant", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant, {
    amount: "5000.00",
    callbackUrl: "https://merchant.example/return",
  });
  await page.route("https://merchant.example/**", (route) => route.fulfill({ body: "merchant" }));
  await page.goto(session.checkoutUrl);
  await fillCard(page, { number: "4242 4242 4242 4242" });
  await panel(page).getByRole("button", { name: "Pay NGN 5,175.00" }).click();
  await expect(page.getByTestId("return-countdown")).toBeVisible();
  await page.getByRole("button", { name: "Copy reference" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Take your time" })).toBeVisible();
  await page.waitForTimeout(6_000);
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
});
