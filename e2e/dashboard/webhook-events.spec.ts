import { expect, test } from "../fixtures";

/**
 * The console's webhook form offers every event type the service sends (lib/webhooks/event-types.ts), and
 * saving it keeps every subscription the endpoint has: a form that listed only some types unsubscribed the
 * endpoint from the others without a word.
 */

const PASSWORD = "correct horse battery staple";
const EVENT_TYPES = [
  "payment.completed",
  "payment.failed",
  "checkout.awaiting_transfer",
  "checkout.completed",
  "checkout.amount_mismatch",
  "refund.processed",
  "refund.failed",
  "subscription.created",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.cancelled",
  "subscription.completed",
  "invoice.payment_failed",
];

test("saving the webhook form keeps every event subscription, refunds included", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const signup = await request.post("/v1/merchants/auth/signup", {
    data: {
      businessName: "Hooks shop",
      email: `hooks-${process.pid}-${Date.now()}@example.com`,
      password: PASSWORD,
    },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const token = (await signup.json()).data.accessToken as string;
  // The console's session is the API's session token in a cookie.
  await context.addCookies([{ name: "paygate_session", value: token, url: baseURL as string }]);
  const origin = new URL(baseURL as string).origin;
  const endpoint = async () => {
    const res = await page.request.get("/v1/merchants/webhook?mode=test", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as { url: string; events: string[] };
  };

  // An endpoint subscribed to every event (the default when none are named).
  const saved = await page.request.put("/dashboard/api/webhook", {
    headers: { origin },
    data: { mode: "test", url: "http://127.0.0.1:9/hook" },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  expect((await endpoint()).events.sort()).toEqual([...EVENT_TYPES].sort());

  // A merchant who unticks a box, thinks again and ticks it back, then saves, loses nothing.
  await page.goto("/dashboard/webhooks");
  const events = page.getByRole("group", { name: "Events sent to it" });
  await events.getByRole("checkbox", { name: "checkout.awaiting_transfer" }).uncheck();
  await events.getByRole("checkbox", { name: "checkout.awaiting_transfer" }).check();
  await page.getByRole("button", { name: "Save endpoint" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Endpoint saved." })).toBeVisible();
  expect((await endpoint()).events.sort()).toEqual([...EVENT_TYPES].sort());

  // Every type is offered, ticked as subscribed, and the delivery log can be filtered by each.
  for (const type of EVENT_TYPES) await expect(events.getByRole("checkbox", { name: type })).toBeChecked();
  await expect(events.getByRole("checkbox")).toHaveCount(EVENT_TYPES.length);
  const typeFilter = page.getByRole("combobox", { name: "Event type" });
  for (const type of EVENT_TYPES) await expect(typeFilter.getByRole("option", { name: type })).toHaveCount(1);

  // Unticking one refund event unsubscribes from that one only.
  await events.getByRole("checkbox", { name: "refund.failed" }).uncheck();
  await page.getByRole("button", { name: "Save endpoint" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Endpoint saved." })).toBeVisible();
  await expect
    .poll(async () => (await endpoint()).events.sort())
    .toEqual(EVENT_TYPES.filter((t) => t !== "refund.failed").sort());
});
