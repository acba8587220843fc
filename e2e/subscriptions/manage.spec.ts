import type { APIRequestContext } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoHorizontalScroll,
  fillCard,
  initialize,
  type Merchant,
  test,
} from "../fixtures";

/**
 * The customer's own page of a subscription (docs/guides/subscriptions.md): a card that declines makes the
 * subscription past due; the customer opens the page from its link, pays the overdue invoice with another
 * card on the hosted checkout, and the subscription is active again on that card. Without JavaScript the page
 * still shows everything and cancels at the period's end.
 */
const sk = (m: Merchant) => ({ "x-api-key": m.secretKey });

async function savedCard(request: APIRequestContext, merchant: Merchant, number: string, email: string) {
  const s = await initialize(request, merchant, { amount: "100", email, saveCard: "required" } as never);
  const paid = await request.post("/v1/payment/checkout/charge/card", {
    data: { number, expiryMonth: 12, expiryYear: 2034, cvv: "123" },
    headers: { "x-access-code": s.accessCode },
  });
  expect((await paid.json()).data.status).toBe("success");
  const v = (await (await request.get(`/v1/payment/verify/${s.reference}`, { headers: sk(merchant) })).json())
    .data;
  return {
    authorizationCode: v.authorization.authorizationCode as string,
    customer: v.customer.code as string,
  };
}

async function pastDueSubscription(request: APIRequestContext, merchant: Merchant, tag: string) {
  const card = await savedCard(request, merchant, "4000000000000341", `${tag}-${Date.now()}@example.com`);
  const plan = (
    await (
      await request.post("/v1/plans", {
        data: { name: "Gold", amount: "5000", interval: "monthly" },
        headers: sk(merchant),
      })
    ).json()
  ).data;
  const sub = (
    await (
      await request.post("/v1/subscriptions", {
        data: { customer: card.customer, plan: plan.code, authorizationCode: card.authorizationCode },
        headers: sk(merchant),
      })
    ).json()
  ).data;
  expect(sub.status).toBe("past_due");
  const link = (
    await (await request.post(`/v1/subscriptions/${sub.code}/manage-link`, { headers: sk(merchant) })).json()
  ).data;
  return { sub, url: link.url as string };
}

test.use({ viewport: { width: 375, height: 740 } });

test("a past-due subscription recovers when the customer pays with another card on their page", async ({
  page,
  request,
  merchant,
}) => {
  const { sub, url } = await pastDueSubscription(request, merchant, "recover");
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Gold from E2E Shop" })).toBeVisible();
  await expect(page.getByText("NGN 5,000.00 every month")).toBeVisible();
  await expect(page.getByText("Payment overdue")).toBeVisible();
  await expect(page.getByText("Visa ending in 0341, expires 12/2034")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await expectAccessible(page, "manage page, past due");
  for (const lang of ["fr", "yo", "ha", "ig", "pcm"]) {
    await page.goto(`${url}?lang=${lang}`);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expectAccessible(page, `manage page in ${lang}`);
  }
  await page.goto(url);

  await page.getByRole("button", { name: "Pay NGN 5,000.00 with another card" }).click();
  await expect(page).toHaveURL(/\/pay\//);
  await fillCard(page, { number: "5555555555554444" });
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

  const after = (await (await request.get(`/v1/subscriptions/${sub.code}`, { headers: sk(merchant) })).json())
    .data;
  expect(after).toMatchObject({ status: "active", invoicesPaid: 1 });
  expect(after.authorization.last4).toBe("4444");
  const invoices = (
    await (await request.get(`/v1/subscriptions/${sub.code}/invoices`, { headers: sk(merchant) })).json()
  ).data.invoices;
  expect(invoices.map((i: { status: string }) => i.status)).toEqual(["open", "paid"]);
  expect(invoices[1].attempts).toBe(2);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the page shows the subscription in the chosen language and cancels it at the period's end", async ({
    page,
    request,
    merchant,
  }) => {
    const { url } = await pastDueSubscription(request, merchant, "nojs");
    await page.goto(`${url}?lang=fr`);
    await expect(page.getByText(/5.000,00.*chaque mois$/)).toBeVisible();
    await expect(page.getByText("Paiement en retard")).toBeVisible();
    await page.goto(url);
    await page.getByRole("button", { name: "Cancel at the end of the period" }).click();
    // Past due, nothing of the period is paid: it ends at once.
    await expect(page.getByText("This subscription has ended. Nothing more will be charged.")).toBeVisible();
    await expect(page.getByText("Cancelled", { exact: true })).toBeVisible();
  });

  test("a forged or expired token is a 404", async ({ page }) => {
    const res = await page.goto(`/subscriptions/manage/SUB_${"0".repeat(20)}.zzzzzz.${"A".repeat(43)}`);
    expect(res?.status()).toBe(404);
  });
});
