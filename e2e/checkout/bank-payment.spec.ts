import {
  expect,
  expectAccessible,
  expectDemoReturn,
  expectNoHorizontalScroll,
  LAYOUTS,
  startFromDemo,
  test,
} from "../fixtures";

for (const layout of LAYOUTS) {
  test.describe(`bank payment (${layout.name})`, () => {
    test.use(layout.use);

    test("search a bank, decline once, approve in the banking app", async ({ page }) => {
      await startFromDemo(page);
      await page.getByRole("tab", { name: "Bank payment" }).click();
      const bank = page.getByRole("combobox", { name: "Your bank" });
      await bank.click();
      await expect(page.getByRole("listbox", { name: "Banks" })).toBeVisible();
      await bank.fill("zen");
      await expect(page.getByRole("option")).toHaveCount(1);
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "bank picker open");
      // Keyboard: arrow to the option, Enter chooses it.
      await bank.press("ArrowDown");
      await bank.press("Enter");
      await expect(bank).toHaveValue("Zenith Bank");
      await page.getByRole("button", { name: "Pay NGN 5,050.00" }).click();

      await expect(
        page.getByRole("heading", { name: "Approve the payment in your banking app" }),
      ).toBeFocused();
      // Asked once (the heading), then where and how much; not three times over.
      await expect(page.getByTestId("bank-payment-waiting")).toHaveText(
        "Open the Zenith Bank app and confirm the request for NGN 5,050.00. This page updates by itself.",
      );
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "bank payment waiting");

      await page.getByRole("button", { name: "Decline the payment" }).click();
      await expect(page.getByRole("heading", { name: "The payment was not approved" })).toBeFocused();
      await expectAccessible(page, "bank payment declined");

      await bank.fill("Guaranty");
      await page.getByRole("option", { name: "Guaranty Trust Bank" }).click();
      await page.getByRole("button", { name: "Pay NGN 5,050.00" }).click();
      await page.getByRole("button", { name: "Approve the payment" }).click();
      await expectDemoReturn(page, "success");
      await expect(page.locator('[data-field="Paid with"]')).toHaveText("Bank payment");
    });
  });
}

test("choosing no bank asks for one", async ({ page }) => {
  await startFromDemo(page);
  await page.getByRole("tab", { name: "Bank payment" }).click();
  await page.getByRole("button", { name: "Pay NGN 5,050.00" }).click();
  await expect(page.getByText("Choose your bank from the list.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Your bank" })).toBeFocused();
  await expectAccessible(page, "bank payment, no bank chosen");
});
