import { expect, expectAccessible, expectNoHorizontalScroll, LAYOUTS, test } from "./fixtures";

for (const layout of LAYOUTS) {
  test.describe(`home page (${layout.name})`, () => {
    test.use(layout.use);

    test("the front door: what it is, the demo, the quick start and the API, without sideways scroll", async ({
      page,
    }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Paygate" })).toBeVisible();
      await expect(page.getByText("Staging: test mode")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Quick start" })).toBeVisible();
      const table = page.getByRole("table");
      await expect(
        table.getByRole("row", { name: /POST \/v1\/payment\/initialize secret key/ }),
      ).toBeVisible();
      // The ways in: the API reference and the merchant console, where they really lead.
      const start = page.getByRole("navigation", { name: "Get started" });
      await expect(start.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs");
      await expect(start.getByRole("link", { name: "Merchant console" })).toHaveAttribute(
        "href",
        "/dashboard/login",
      );
      await expect(page.getByRole("link", { name: "create an account" })).toHaveAttribute(
        "href",
        "/dashboard/signup",
      );
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, "home page");
      await start.getByRole("link", { name: "Merchant console" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
      await page.goBack();
      await start.getByRole("link", { name: "API reference" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("API");
      await page.goBack();
      await page.getByRole("link", { name: "Try the demo store" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Paygate demo store" })).toBeVisible();
    });
  });
}

test("a merchant signs up, initializes a payment and verifies it over the API", async ({ request }) => {
  const email = `e2e-${Date.now()}@example.com`;
  const signup = await request.post("/v1/merchants/auth/signup", {
    data: { businessName: "E2E Shop", email, password: "correct horse battery" },
  });
  expect(signup.status()).toBe(201);
  const key = (await signup.json()).data.keys.test.secretKey as string;
  const init = await request.post("/v1/payment/initialize", {
    data: { amount: "2500.00", email: "buyer@example.com" },
    headers: { "x-api-key": key },
  });
  expect(init.status()).toBe(201);
  const session = (await init.json()).data;
  expect(session.cardFee).toBe("137.50");
  const verify = await request.get(`/v1/payment/verify/${session.reference}`, {
    headers: { "x-api-key": key },
  });
  expect(verify.status()).toBe(200);
  expect((await verify.json()).data).toMatchObject({
    reference: session.reference,
    status: "pending",
    amount: "2500.00",
  });
});
