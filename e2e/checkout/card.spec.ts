import {
  expect,
  expectAccessible,
  expectDemoReturn,
  expectNoHorizontalScroll,
  fillCard,
  initialize,
  LAYOUTS,
  panel,
  startFromDemo,
  test,
  verify,
} from "../fixtures";

for (const layout of LAYOUTS) {
  test.describe(`card (${layout.name})`, () => {
    test.use(layout.use);

    test("pays by card from the demo store and returns to its callback page", async ({ page }) => {
      await startFromDemo(page, "Ankara tote bag", { checkStore: true });
      await expect(page.getByText("Test mode", { exact: true })).toBeVisible();
      // The header: what is being paid, and by whom (the email the demo store's form sent).
      const header = page.locator("header");
      await expect(header.getByText("Total to pay: NGN 5,175.00")).toBeVisible();
      await expect(header.getByTestId("amount-parts")).toHaveText("NGN 5,000.00 + NGN 175.00 card fee");
      await expect(header.getByText("Paying as customer@example.com")).toBeVisible();
      await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAttribute(
        "aria-selected",
        "true",
      );
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "card form");

      await fillCard(page, { number: "4242424242424242" });
      // Grouped in fours as typed, brand shown.
      await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
      await expect(page.getByText("Visa", { exact: true })).toBeVisible();
      await page.getByRole("button", { name: "Pay NGN 5,175.00" }).click();

      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeFocused();
      await expect(page.getByText("You paid NGN 5,175.00 to Demo Store.")).toBeVisible();
      // The way back counts down; the customer can stay as long as they like.
      await expect(page.getByRole("status").filter({ hasText: "Returning you to" })).toHaveText(
        /^Returning you to Demo Store in [1-5] s…$/,
      );
      await page.getByRole("button", { name: "Stay on this page" }).click();
      await expect(page.getByRole("status")).toHaveText(
        "Take your time. Return to Demo Store when you are ready.",
      );
      await expect(page.getByRole("link", { name: "Return to Demo Store" })).toBeFocused();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "payment successful, staying");
      await page.waitForTimeout(6_000);
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await page.getByRole("link", { name: "Return to Demo Store" }).click();
      await expectDemoReturn(page, "success");
      // The store's page says what the customer paid, the order and the fee as its parts.
      await expect(
        page.getByText("You paid NGN 5,175.00 (the order's NGN 5,000.00 and a NGN 175.00 fee).", {
          exact: false,
        }),
      ).toBeVisible();
      await expect(page.locator('[data-field="Fee"]')).toHaveText("NGN 175.00");
      await expect(page.locator('[data-field="Paid with"]')).toHaveText("Card");
      await expect(page.locator('[data-field="Customer paid"]')).toHaveText("NGN 5,175.00");
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "demo return");
    });

    test("a declined card says why, then another card pays", async ({ page }) => {
      await startFromDemo(page);
      await fillCard(page, { number: "4000 0000 0000 0002" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      const declined = page.getByRole("heading", { name: "Payment declined" });
      await expect(declined).toBeFocused();
      await expect(page.getByText("Your bank declined this card. Nothing was charged.")).toBeVisible();
      // The decline and its ways on, not the filled form beside "Try another card".
      await expect(page.getByLabel("Card number")).toBeHidden();
      await expect(page.getByRole("button", { name: /^Pay NGN/ })).toBeHidden();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "card declined");

      await page.getByRole("button", { name: "Try another card" }).click();
      await expect(page.getByLabel("Card number")).toBeFocused();
      await expect(page.getByLabel("Card number")).toHaveValue("");
      await fillCard(page, { number: "4000 0000 0000 9995" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await expect(
        page.getByText("This card does not have enough funds. Nothing was charged."),
      ).toBeVisible();

      await page.getByRole("button", { name: "Try another card" }).click();
      await fillCard(page, { number: "4242 4242 4242 4242" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await expectDemoReturn(page, "success");
    });

    test("a card that asks for a one-time password", async ({ page }) => {
      await startFromDemo(page);
      await fillCard(page, { number: "4000000000003220" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      const otpHeading = page.getByRole("heading", { name: "Enter the one-time password" });
      await expect(otpHeading).toBeFocused();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "otp step");

      // A wrong code: typed again on the same step, the card kept, twice; the third ends the attempt.
      const otp = page.getByLabel("One-time password");
      for (const left of [2, 1]) {
        await otp.fill("000000");
        await page.getByRole("button", { name: /^Confirm payment/ }).click();
        await expect(
          page.getByText(`That code is not correct. Type it again (tries left: ${left}).`),
        ).toBeVisible();
        await expect(otp).toHaveValue("");
        await expect(otpHeading).toBeVisible();
      }
      await expectAccessible(page, "otp step after a wrong code");
      await otp.fill("000000");
      await page.getByRole("button", { name: /^Confirm payment/ }).click();
      await expect(
        page.getByText("The one-time password was not correct. Nothing was charged."),
      ).toBeVisible();

      await fillCard(page, { number: "4000000000003220" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await page.getByLabel("One-time password").fill("999999");
      await page.getByRole("button", { name: /^Confirm payment/ }).click();
      await expect(page.getByText("That code is not correct. Type it again (tries left: 2).")).toBeVisible();
      await page.getByLabel("One-time password").fill("123456");
      await page.getByRole("button", { name: /^Confirm payment/ }).click();
      await expectDemoReturn(page, "success");
    });

    test("a card that asks for 3-D Secure: the bank's page declines once, then approves", async ({
      page,
    }) => {
      await startFromDemo(page);
      await fillCard(page, { number: "4000000000003063" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await expect(page.getByRole("heading", { name: "Confirm on your bank's page" })).toBeFocused();
      await expectAccessible(page, "3-D Secure step");

      // The bank's page takes this tab, and sends the customer back to the checkout.
      await page.getByRole("link", { name: "Continue to your bank" }).click();
      await expect(page.getByRole("heading", { name: "Confirm this test payment" })).toBeVisible();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "sandbox bank page");
      await page.getByRole("button", { name: "Decline" }).click();
      // Back on the checkout's card form, which says why.
      await expect(page).toHaveURL(/\/pay\/[A-Za-z0-9]+\?channel=card&problem=/);
      await expect(page.getByRole("heading", { name: "Payment declined" })).toBeVisible();
      await expect(page.getByText("Your bank declined this card.", { exact: false })).toBeVisible();

      await fillCard(page, { number: "4000000000003063" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await page.getByRole("link", { name: "Continue to your bank" }).click();
      await page.getByRole("button", { name: "Approve" }).click();
      // Back on the checkout, paid: the result and the way back to the store (a checkout opened again does not
      // send the customer on by itself).
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      await page.getByRole("link", { name: /^Return to / }).click();
      await expectDemoReturn(page, "success");
    });

    test("pressing Pay from a field with a mistake does not move Pay before the release", async ({
      page,
      request,
      merchant,
    }) => {
      const session = await initialize(request, merchant);
      await page.goto(session.checkoutUrl);
      await fillCard(page, { number: "4242 4242 4242 4242", expiry: "12/34", cvv: "12" });
      const pay = page.getByRole("button", { name: /^Pay NGN/ });
      const before = await pay.boundingBox();
      if (!before) throw new Error("Pay button not laid out");
      // Press, as a finger or mouse does, with the CVV still focused: focus moves to Pay. An error shown for
      // the CVV now would push Pay down, and the release would land outside it: the click would be lost.
      await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
      await page.mouse.down();
      await expect(pay).toBeFocused();
      expect(await pay.boundingBox()).toEqual(before);
      await page.mouse.up();
      // The click went through: the submit shows the mistake and puts the customer on it.
      await expect(page.getByText("The security code is 3 or 4 digits.")).toBeVisible();
      await expect(page.getByLabel("CVV")).toBeFocused();
      expect((await verify(request, merchant, session.reference)).status).toBe("pending");
    });

    test("leaving a field by Tab shows its mistake at once", async ({ page, request, merchant }) => {
      const session = await initialize(request, merchant);
      await page.goto(session.checkoutUrl);
      await fillCard(page, { number: "4242 4242 4242 4242", expiry: "12/34", cvv: "12" });
      await expect(page.getByText("The security code is 3 or 4 digits.")).toBeHidden();
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: /^Pay NGN/ })).toBeFocused();
      await expect(page.getByText("The security code is 3 or 4 digits.")).toBeVisible();
      await expect(page.getByLabel("CVV")).toHaveAttribute("aria-invalid", "true");
    });

    test("inline validation: Luhn, past expiry, CVV length", async ({ page, request, merchant }) => {
      const session = await initialize(request, merchant);
      await page.goto(session.checkoutUrl);
      await fillCard(page, { number: "4242 4242 4242 4241", expiry: "01/20", cvv: "12" });
      await page.getByRole("button", { name: /^Pay NGN/ }).click();
      await expect(page.getByText("This card number is not valid. Check it and try again.")).toBeVisible();
      await expect(page.getByText("This card has expired.")).toBeVisible();
      await expect(page.getByText("The security code is 3 or 4 digits.")).toBeVisible();
      await expect(page.getByLabel("Card number")).toBeFocused();
      await expect(page.getByLabel("Card number")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "card form errors");
      // Nothing reached the API.
      expect((await verify(request, merchant, session.reference)).status).toBe("pending");
      // Posted by the browser itself (before the page's code runs), the card goes in a POST body to the
      // server action that charges it, like the API: never in an address or a history entry.
      await expect(panel(page).locator("form:has(input[name=number])")).toHaveAttribute("method", /^post$/i);
    });

    test("a double click charges once", async ({ page, request, merchant }) => {
      const session = await initialize(request, merchant);
      await page.goto(session.checkoutUrl);
      const charges: string[] = [];
      page.on("request", (r) => {
        if (r.url().endsWith("/charge/card")) charges.push(r.headers()["idempotency-key"] ?? "");
      });
      await fillCard(page, { number: "4242424242424242" });
      await page.getByRole("button", { name: /^Pay NGN/ }).dblclick();
      await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatch(/^chk_[0-9a-f]{32}$/);
      // Without a callback URL the page is the receipt.
      await expect(page.getByText(session.reference)).toBeVisible();
      await expect(page.getByText("Paid with")).toBeVisible();
      await expectAccessible(page, "receipt");
    });
  });
}

test("keyboard alone can pay by card", async ({ page, request, merchant }) => {
  // The merchant's callback, answered here; its own query survives next to the four callback parameters (docs/checkout.md).
  await page.route("https://merchant.example/**", (route) => route.fulfill({ body: "merchant callback" }));
  const session = await initialize(request, merchant, {
    callbackUrl: "https://merchant.example/return?order=42",
  });
  await page.goto(session.checkoutUrl);
  // Tab from the top of the page: the tablist is one stop, then the card form.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tab", { name: "Card", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Bank transfer" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "USSD" })).toBeFocused();
  await page.keyboard.press("Home");
  await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Card number")).toBeFocused();
  await page.keyboard.type("4242424242424242");
  await page.keyboard.press("Tab");
  await page.keyboard.type("1234");
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  await expect(page.getByLabel("Expiry (MM/YY)")).toHaveValue("12/34");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeFocused();
  await page.waitForURL(
    `https://merchant.example/return?order=42&status=success&reference=${session.reference}&amount=5000.00&currency=NGN`,
  );
});
