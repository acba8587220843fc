import {
  chooseBank,
  expect,
  expectAccessible,
  expectDemoReturn,
  expectNoHorizontalScroll,
  LAYOUTS,
  panel,
  startFromDemo,
  test,
} from "../fixtures";

for (const layout of LAYOUTS) {
  test.describe(`USSD (${layout.name})`, () => {
    test.use(layout.use);

    test("choose a bank and phone, dial the code, decline once, then approve", async ({ page }) => {
      await startFromDemo(page);
      await page.getByRole("tab", { name: "USSD" }).click();
      await expect(page.getByRole("heading", { name: "Pay with a USSD code" })).toBeVisible();
      await page.getByRole("button", { name: "Get USSD code" }).click();
      await expect(page.getByText("Enter the phone number registered with your bank.")).toBeVisible();
      await expect(page.getByLabel("Phone number")).toBeFocused();
      await expect(page.getByLabel("Phone number")).toHaveAttribute("aria-invalid", "true");
      await expectAccessible(page, "ussd form, phone number missing");

      // The same searchable bank picker as bank payment, with a bank chosen already.
      const picker = panel(page).getByRole("combobox", { name: "Your bank" });
      await expect(picker).toHaveValue(/.+/);
      await picker.fill("zen");
      await expect(page.getByRole("option")).toHaveCount(1);
      await chooseBank(page, panel(page), "Zenith Bank");
      await page.getByLabel("Phone number").fill("0803 123 4567");
      await page.getByRole("button", { name: "Get USSD code" }).click();

      await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeFocused();
      const dial = page.getByRole("link", { name: /^Tap to dial \*966\*/ });
      if (layout.name === "phone") {
        await expect(dial).toHaveAttribute("href", /^tel:\*966\*000\*\d{6}%23$/);
      } else {
        // A desktop cannot dial: the code to type on a phone, no tel: link.
        await expect(dial).toHaveCount(0);
        await expect(
          page.getByText("Type this code into your phone's dialler and press call."),
        ).toBeVisible();
        await expect(page.getByRole("button", { name: "Copy USSD code" })).toBeVisible();
      }
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "ussd code");

      // Declined on the phone: back to the form, which says so; then a new code, approved.
      await page.getByRole("button", { name: "Decline the payment" }).click();
      await expect(page.getByRole("heading", { name: "The payment was not approved" })).toBeVisible();
      await expect(page.getByText("Nothing was charged. Try again or pay another way.")).toBeVisible();
      await expectAccessible(page, "ussd not approved");
      await page.getByRole("button", { name: "Get USSD code" }).click();
      await expect(page.getByRole("heading", { name: "Dial this code on your phone" })).toBeFocused();
      await page.getByRole("button", { name: "Approve the payment" }).click();
      await expectDemoReturn(page, "success");
      await expect(page.locator('[data-field="Paid with"]')).toHaveText("USSD");
    });
  });
}
