import type { Locator } from "@playwright/test";
import { expect, initialize, LAYOUTS, test } from "../fixtures";

/**
 * Taps a customer makes on a phone land where they were aimed: a menu left open never covers the page's own
 * buttons, and an error that appears when a field is left does not move what is under the finger.
 */
for (const layout of LAYOUTS) {
  test.describe(layout.name, () => {
    test.use(layout.use);

    test("the language menu closes after a pick, on a tap elsewhere and on Escape", async ({
      page,
      request,
      merchant,
    }) => {
      const session = await initialize(request, merchant);
      await page.goto(session.checkoutUrl);
      const menu = page.getByTestId("language-menu");
      const summary = page.getByText(/^Language:/);

      await summary.click();
      await expect(menu).toHaveAttribute("open", "");
      // A tap elsewhere on the page closes it, and lands on what was tapped.
      await page.getByRole("heading", { name: "Choose how to pay" }).click();
      await expect(menu).not.toHaveAttribute("open", "");

      await summary.click();
      await expect(menu).toHaveAttribute("open", "");
      await page.keyboard.press("Escape");
      await expect(menu).not.toHaveAttribute("open", "");
      await expect(summary).toBeFocused();

      // A pick changes the language and closes the menu: the card form's Pay button is free to tap.
      await summary.click();
      await page.getByRole("button", { name: "Français" }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await expect(menu).not.toHaveAttribute("open", "");
      await page.getByRole("button", { name: /^Payer / }).click({ trial: true });
    });

    test("leaving a card number with a mistake does not move the button tapped next", async ({
      page,
      request,
      merchant,
    }) => {
      const session = await initialize(request, merchant);
      const number = page.getByLabel("Card number");
      const testCards = page.getByText("Test cards");
      const cancel = page.getByRole("button", { name: "Cancel payment" });
      const language = page.getByText(/^Language:/);
      const mistake = page.getByText("This card number is not valid. Check it and try again.");

      /** Where an element is on the page (not in the viewport, which a scroll moves). */
      const placeOf = (locator: Locator) =>
        locator.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
        });
      const places = async () => ({
        language: await placeOf(language),
        cancel: await placeOf(cancel),
        testCards: await placeOf(testCards),
      });

      // Each of these taps is the one that leaves the field: the error appears after it, not under it, and
      // takes no room from what is below (once the tap's own effect is undone, everything is where it was).
      for (const [target, answered, undo] of [
        [
          testCards,
          () => expect(page.getByText("4242 4242 4242 4242")).toBeVisible(),
          async () => {
            await testCards.click();
            await expect(page.getByText("4242 4242 4242 4242")).toBeHidden();
          },
        ],
        [
          cancel,
          () => expect(page.getByRole("button", { name: "Yes, cancel payment" })).toBeVisible(),
          async () => {
            await page.getByRole("button", { name: "Keep paying" }).click();
            await expect(cancel).toBeVisible();
          },
        ],
        [
          language,
          () => expect(page.getByTestId("language-menu")).toHaveAttribute("open", ""),
          async () => {
            await page.keyboard.press("Escape");
            await expect(page.getByTestId("language-menu")).not.toHaveAttribute("open", "");
          },
        ],
      ] as const) {
        // A fresh page each time: a field once left keeps showing its error.
        await page.goto(session.checkoutUrl);
        await number.fill("4242 4242 4242 4241");
        await expect(mistake).toBeHidden();
        const before = await places();
        await target.scrollIntoViewIfNeeded();
        const box = await target.boundingBox();
        if (!box) throw new Error("not on screen");
        // A finger's press and release at one spot, with the field still focused.
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.down();
        await page.waitForTimeout(80);
        await page.mouse.up();
        await answered();
        await expect(mistake).toBeVisible();
        await expect(number).toHaveAttribute("aria-invalid", "true");
        await expect(number).toHaveAccessibleDescription(/This card number is not valid/);
        await undo();
        expect(await places()).toEqual(before);
      }
    });
  });
}
