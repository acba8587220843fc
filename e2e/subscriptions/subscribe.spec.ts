import { expect, expectAccessible, fillCard, initialize, type Merchant, test } from "../fixtures";

/**
 * A customer subscribes on the hosted checkout (initialize with `plan`, docs/guides/subscriptions.md): the page
 * states the plan's terms next to the amount, the customer pays by card, and the subscription starts with its
 * first period paid; the subscription's test clock then moves a year and the twelve renewals are each paid once.
 */
const sk = (m: Merchant) => ({ "x-api-key": m.secretKey });
const YEAR = 365 * 86_400;

test.use({ viewport: { width: 375, height: 740 } });

test("a customer subscribes on the checkout by card; a year of the clock pays twelve renewals once each", async ({
  page,
  request,
  merchant,
}) => {
  const plan = (
    await (
      await request.post("/v1/plans", {
        data: { name: "Gold", amount: "5000", interval: "monthly" },
        headers: sk(merchant),
      })
    ).json()
  ).data;
  const email = `subscribe-${Date.now()}@example.com`;
  const session = await initialize(request, merchant, { plan: plan.code, email, amount: "5000.00" } as never);

  await page.goto(`/pay/${session.accessCode}`);
  await expect(page.getByTestId("plan-terms")).toHaveText("NGN 5,000.00 every month, first charge today");
  await expect(page.getByTestId("save-card-terms")).toBeVisible();
  await expectAccessible(page, "checkout of a plan");
  await page.goto(`/pay/${session.accessCode}?lang=fr`);
  await expect(page.getByTestId("plan-terms")).toContainText("chaque mois");
  await page.goto(`/pay/${session.accessCode}`);

  await fillCard(page, { number: "4242424242424242" });
  await page.getByRole("button", { name: /^Pay NGN/ }).click();
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible();

  const listed = (
    await (await request.get(`/v1/subscriptions?plan=${plan.code}`, { headers: sk(merchant) })).json()
  ).data.subscriptions;
  expect(listed).toHaveLength(1);
  const sub = listed[0];
  expect(sub).toMatchObject({ customer: { email }, status: "active", invoicesPaid: 1 });
  expect(sub.authorization.last4).toBe("4242");

  const moved = await request.post("/v1/sandbox/clock/advance", {
    data: { subscription: sub.code, seconds: YEAR },
    headers: sk(merchant),
  });
  expect(moved.status(), await moved.text()).toBe(200);
  expect((await moved.json()).data).toMatchObject({ code: sub.code, status: "active", invoicesPaid: 13 });

  const invoices = (
    await (await request.get(`/v1/subscriptions/${sub.code}/invoices`, { headers: sk(merchant) })).json()
  ).data.invoices as { status: string; attempts: number; reference: string | null }[];
  const paid = invoices.filter((i) => i.status === "paid");
  expect(paid).toHaveLength(13);
  expect(paid.map((i) => i.attempts)).toEqual(Array(13).fill(1));
  const references = new Set(paid.map((i) => i.reference));
  expect(references.size).toBe(13);
  // The first is the checkout's own payment; the renewals are charges of the saved card, each verified paid.
  expect(paid.at(-1)?.reference).toBe(session.reference);
  for (const reference of references) {
    const v = (await (await request.get(`/v1/payment/verify/${reference}`, { headers: sk(merchant) })).json())
      .data;
    expect(v).toMatchObject({ status: "success", amount: "5000.00", channel: "card" });
  }
  expect(invoices.filter((i) => i.status !== "paid").map((i) => i.status)).toEqual(["open"]);
});
