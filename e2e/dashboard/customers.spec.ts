import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, expectNoHorizontalScroll, LAYOUTS, test } from "../fixtures";

/**
 * The console's Customers (docs/console.md): empty, then a customer who saved two cards (one with the box
 * ticked, one by a payment's terms) and paid; searched by email; their page with the payments, the saved
 * cards and the consent each came with; a card deactivated (asked first, keyboard only); another merchant's
 * customer is a 404. At 390 px and 1280 px, axe on each state, nothing scrolling sideways.
 */
const PASSWORD = "correct horse battery staple";

async function signUpByApi(request: APIRequestContext, tag: string) {
  const login = `${tag}-${process.pid}-${Date.now()}@example.com`;
  const res = await request.post("/v1/merchants/auth/signup", {
    data: { businessName: "Kente Corner", email: login, password: PASSWORD },
  });
  expect(res.status()).toBe(201);
  return { login, key: (await res.json()).data.keys.test.secretKey as string };
}

/** A payment of `email` that saves `number` (the box ticked, or the payment's terms), paid by card. */
async function savedCard(
  request: APIRequestContext,
  key: string,
  email: string,
  number: string,
  saveCard: "optional" | "required",
) {
  const init = await request.post("/v1/payment/initialize", {
    headers: { "x-api-key": key },
    data: { amount: "3200.00", email, customerName: "Abena Mensah", saveCard },
  });
  const { reference, accessCode } = (await init.json()).data as { reference: string; accessCode: string };
  const charge = await request.post("/v1/payment/checkout/charge/card", {
    headers: { "x-access-code": accessCode },
    data: {
      number,
      expiryMonth: 11,
      expiryYear: new Date().getUTCFullYear() + 3,
      cvv: "123",
      ...(saveCard === "optional" && { saveCard: true }),
      locale: saveCard === "optional" ? "en" : "fr",
    },
  });
  expect((await charge.json()).data.status).toBe("success");
  return reference;
}

async function signIn(page: Page, login: string) {
  await page.goto("/dashboard/login");
  await page.getByLabel("Email address").fill(login);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

async function checkPage(page: Page, heading: string, state: string) {
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, state);
}

for (const layout of LAYOUTS) {
  test.describe(`Customers at ${layout.use.viewport.width} px`, () => {
    test.use(layout.use);

    test("empty, then a customer's saved cards with their consent, searched, deactivated", async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const me = await signUpByApi(request, `customers-${layout.name}`);
      await signIn(page, me.login);
      await page
        .getByRole("navigation", { name: "Console" })
        .getByRole("link", { name: "Customers", exact: true })
        .click();
      await expect(page.getByText("No test customers yet.")).toBeVisible();
      await checkPage(page, "Customers", `customers (empty, ${layout.name})`);

      const email = `abena-${layout.name}@example.com`;
      const first = await savedCard(request, me.key, email, "4242424242424242", "optional");
      await savedCard(request, me.key, email, "5555555555554444", "required");
      // Another customer, who saved nothing.
      await request.post("/v1/customers", {
        headers: { "x-api-key": me.key },
        data: { email: `kofi-${layout.name}@example.com`, name: "Kofi" },
      });

      await page.reload();
      await expect(page.getByRole("link", { name: email })).toBeVisible();
      await checkPage(page, "Customers", `customers (filled, ${layout.name})`);
      await page.getByLabel("Email").fill("KOFI");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("link", { name: `kofi-${layout.name}@example.com` })).toBeVisible();
      await expect(page.getByRole("link", { name: email })).toHaveCount(0);
      await page.getByLabel("Email").fill("nobody-here");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByText("No customer's email contains “nobody-here”.")).toBeVisible();
      await page.getByLabel("Email").fill("abena");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("link", { name: email }).click();

      await expect(page.getByRole("heading", { level: 2, name: email })).toBeVisible();
      const cards = page.getByRole("region", { name: "Saved cards" });
      await expect(cards.getByRole("heading", { level: 3, name: "Visa •••• 4242" })).toBeVisible();
      await expect(cards.getByRole("heading", { level: 3, name: "Mastercard •••• 4444" })).toBeVisible();
      await expect(cards.getByText("“Save this card for future payments to Kente Corner")).toBeVisible();
      await expect(cards.getByText(/Box ticked · English · .* · from 127\.0\.0\.1/)).toBeVisible();
      await expect(
        cards.getByText("“Cette carte sera enregistrée, et Kente Corner la débitera plus tard"),
      ).toBeVisible();
      await expect(cards.getByText(/Terms of the payment · Français/)).toBeVisible();
      await expect(cards.getByRole("link", { name: first })).toBeVisible();
      await expect(
        page.getByRole("region", { name: "Payments" }).getByRole("link", { name: first }),
      ).toBeVisible();
      await checkPage(page, "Customer", `customer (${layout.name})`);

      // Deactivate, by keyboard: asked first, then the card is deactivated and can no longer be.
      const deactivate = cards.getByRole("button", { name: "Deactivate Visa •••• 4242" });
      await deactivate.focus();
      await page.keyboard.press("Enter");
      await expect(
        cards.getByText(/^Deactivate Visa •••• 4242\? It can never be charged again/),
      ).toBeFocused();
      await expectAccessible(page, `customer, deactivate asked (${layout.name})`);
      await page.keyboard.press("Tab");
      await expect(cards.getByRole("button", { name: "Yes, deactivate" })).toBeFocused();
      await page.keyboard.press("Enter");
      await expect(
        cards.getByRole("listitem").filter({ hasText: "Visa •••• 4242" }).getByText("deactivated"),
      ).toBeVisible();
      await expect(cards.getByRole("button", { name: "Deactivate Visa •••• 4242" })).toHaveCount(0);
      await expect(cards.getByRole("button", { name: "Deactivate Mastercard •••• 4444" })).toBeVisible();

      // The payment's page links to its customer and names the card.
      await page.goto(`/dashboard/payments/${first}`);
      await expect(page.getByText("Visa •••• 4242")).toBeVisible();
      await page.getByRole("link", { name: email }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Customer" })).toBeVisible();

      if (layout.name === "phone") {
        const other = await signUpByApi(request, "customers-other");
        const theirs = await request.post("/v1/customers", {
          headers: { "x-api-key": other.key },
          data: { email: "not-yours@example.com" },
        });
        const res = await page.goto(`/dashboard/customers/${(await theirs.json()).data.code}`);
        expect(res?.status()).toBe(404);
        await expect(page.getByText("not-yours@example.com")).toHaveCount(0);
      }
    });
  });
}
