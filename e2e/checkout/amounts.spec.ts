import type { Page } from "@playwright/test";
import { expect, expectAccessible, fillCard, LAYOUTS, type Merchant, panel, signUp, test } from "../fixtures";
import { createLink } from "../links/link-api";

/**
 * One amount on every screen: the link page before checkout, the checkout header, the tabs, the Pay button
 * and the receipt all show what the customer pays on the chosen channel, with the price and the fee as its
 * parts; when the merchant bears the cost, the customer sees the price everywhere and no fee.
 */
const CARD_TOTAL = "NGN 18,877.50"; // 18,500.00 + 1.5% + 100.00
const TRANSFER_TOTAL = "NGN 18,685.00"; // 18,500.00 + 1%

async function startFromLink(page: Page, url: string) {
  await page.goto(url);
  await page.getByLabel("Email address").fill("payer@example.com");
}

async function payByCard(page: Page, total: string) {
  await fillCard(page, { number: "4242 4242 4242 4242" });
  await panel(page)
    .getByRole("button", { name: `Pay ${total}` })
    .click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();
}

for (const layout of LAYOUTS) {
  test.describe(`one amount (${layout.name})`, () => {
    test.use(layout.use);

    test("customer-borne fee: the same total and parts from the link page to the receipt", async ({
      page,
      request,
      merchant,
    }) => {
      const link = await createLink(request, merchant, { title: "Conference pass", amount: "18500" });
      await startFromLink(page, link.paymentLinkUrl);
      await expect(page.getByTestId("fee-notice").getByRole("listitem")).toHaveText([
        `Card${CARD_TOTAL} (NGN 377.50 fee)`,
        `Bank transfer, bank payment or USSD${TRANSFER_TOTAL} (NGN 185.00 fee)`,
      ]);
      // The button does not promise the price alone when a fee follows.
      await expect(page.getByRole("button", { name: /^Pay NGN 18,500\.00/ })).toHaveCount(0);
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await page.waitForURL(/\/pay\/[0-9A-Za-z]+$/);

      const header = page.locator("header");
      await expect(header.getByTestId("amount-total")).toHaveText(`Total to pay: ${CARD_TOTAL}`);
      await expect(header.getByTestId("amount-parts")).toHaveText("NGN 18,500.00 + NGN 377.50 card fee");
      await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAccessibleDescription(
        CARD_TOTAL,
      );
      await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAccessibleDescription(
        TRANSFER_TOTAL,
      );

      // The header follows the chosen channel.
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(header.getByTestId("amount-total")).toHaveText(`Total to pay: ${TRANSFER_TOTAL}`);
      await expect(header.getByTestId("amount-parts")).toHaveText(
        "NGN 18,500.00 + NGN 185.00 bank transfer fee",
      );
      await expect(panel(page)).toContainText(TRANSFER_TOTAL);
      await page.getByRole("tab", { name: "Card", exact: true }).click();
      await expect(header.getByTestId("amount-total")).toHaveText(`Total to pay: ${CARD_TOTAL}`);

      await payByCard(page, CARD_TOTAL);
      await expect(page.getByText(`You paid ${CARD_TOTAL} to ${merchant.businessName}.`)).toBeVisible();
      await expect(header.getByTestId("amount-total")).toHaveText(`Total paid: ${CARD_TOTAL}`);
      const receipt = page.getByRole("definition");
      await expect(receipt).toContainText([`NGN 18,500.00`, "NGN 377.50", CARD_TOTAL]);
      await expect(page.getByRole("term")).toContainText(["Amount", "Card fee", "Total paid"]);
      await expectAccessible(page, "receipt with a fee");
    });

    test("merchant-borne fee: the price everywhere, no fee shown", async ({ page, request }) => {
      const shop: Merchant = await signUp(request, "Absorbing Shop");
      const link = await createLink(request, shop, {
        title: "Conference pass",
        amount: "18500",
        feeBearer: "merchant",
      });
      await startFromLink(page, link.paymentLinkUrl);
      await expect(page.getByTestId("fee-notice")).toHaveText(
        "No fee is added: you pay the amount shown, whichever way you pay.",
      );
      await expectAccessible(page, "link page, merchant bears the fee");
      await page.getByRole("button", { name: "Pay NGN 18,500.00" }).click();
      await page.waitForURL(/\/pay\/[0-9A-Za-z]+$/);

      const header = page.locator("header");
      await expect(header.getByTestId("amount-total")).toHaveText("Total to pay: NGN 18,500.00");
      await expect(header.getByTestId("amount-parts")).toHaveText("No fee added");
      await expect(page.getByRole("tab", { name: "Card", exact: true })).toHaveAccessibleDescription(
        "NGN 18,500.00",
      );
      await expect(page.getByRole("tab", { name: "Bank transfer" })).toHaveAccessibleDescription(
        "NGN 18,500.00",
      );
      await page.getByRole("tab", { name: "Bank transfer" }).click();
      await expect(header.getByTestId("amount-total")).toHaveText("Total to pay: NGN 18,500.00");
      await page.getByRole("tab", { name: "Card", exact: true }).click();

      await payByCard(page, "NGN 18,500.00");
      await expect(page.getByText(`You paid NGN 18,500.00 to Absorbing Shop.`)).toBeVisible();
      await expect(page.getByRole("term")).toHaveText(["Reference", "Total paid", "Paid with", "Date"]);
      await expect(page.getByText(/fee/i)).toHaveCount(1); // "No fee added" in the header only
    });
  });
}
