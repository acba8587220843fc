import { expect, expectAccessible, expectNoHorizontalScroll, LAYOUTS, test } from "./fixtures";

/**
 * Not-found pages in the product's look (not Next's stock page): an unknown access code, an unknown payment
 * link and any other address each answer 404, say what happened and what to do, and pass axe.
 */
const PAGES = [
  {
    path: "/pay/notarealaccesscode123",
    heading: "This payment link is not valid",
    says: "Go back to the business you were paying and start the payment again.",
    home: false,
  },
  {
    path: "/l/no-such-link-abc123",
    heading: "This payment link is not valid",
    says: "Check the address with the business that sent it to you",
    home: false,
  },
  {
    path: "/no/such/page",
    heading: "Page not found",
    says: "There is no page at this address.",
    home: true,
  },
] as const;

for (const layout of LAYOUTS) {
  test.describe(`error pages (${layout.name})`, () => {
    test.use(layout.use);

    for (const p of PAGES) {
      test(`${p.path} is a branded 404`, async ({ page, context }) => {
        const response = await page.goto(p.path);
        expect(response?.status()).toBe(404);
        await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
        await expect(page.getByText(p.says, { exact: false })).toBeVisible();
        await expect(page.getByText("Secured by Paygate")).toBeVisible();
        // The app's own typeface (the checkout's), not the stock page's: compared with the demo store's in a
        // page of its own, so this page never navigates away and back (a document still being replaced
        // while it is read fails with "Execution context was destroyed").
        const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
        const demo = await context.newPage();
        await demo.goto("/demo");
        expect(font).toBe(await demo.evaluate(() => getComputedStyle(document.body).fontFamily));
        await demo.close();
        if (p.home) {
          await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
        }
        await expectNoHorizontalScroll(page);
        await expectAccessible(page, `404 ${p.path}`);
      });
    }
  });
}
