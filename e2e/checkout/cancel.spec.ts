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
  test.describe(`cancel (${layout.name})`, () => {
    test.use(layout.use);

    test("cancel payment returns to the merchant as abandoned", async ({ page }) => {
      await startFromDemo(page, "Coffee beans, 1 kg");
      await page.getByRole("button", { name: "Cancel payment" }).click();
      await expect(page.getByRole("button", { name: "Keep paying" })).toBeFocused();
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "cancel confirmation");
      await page.getByRole("button", { name: "Keep paying" }).click();
      await expect(page.getByRole("button", { name: "Cancel payment" })).toBeFocused();

      await page.getByRole("button", { name: "Cancel payment" }).click();
      await page.getByRole("button", { name: "Yes, cancel payment" }).click();
      await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
      await expectDemoReturn(page, "abandoned");
      expect(new URL(page.url()).searchParams.get("amount")).toBe("12500.00");
      await expectAccessible(page, "demo return, abandoned");
    });
  });
}
