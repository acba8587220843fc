import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoHorizontalScroll } from "../fixtures";

/** /docs: the API reference rendered from /v1/openapi.json, served from the app's own bundle under its CSP. */
test("the API reference loads without errors or CSP violations, passes axe, and tries GET /v1/ping", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  const outside: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol !== "data:")
      outside.push(url.href);
  });

  await page.setViewportSize({ width: 390, height: 844 });
  const res = await page.goto("/docs");
  expect(res?.status()).toBe(200);
  expect(res?.headers()["content-security-policy"]).toContain("script-src 'self' 'nonce-");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  // Every tag of the document has its section; operations are disclosures, closed at first.
  for (const tag of [
    "Payments",
    "Checkout",
    "Sandbox",
    "Events",
    "Merchants",
    "Webhooks",
    "Payment links",
    "Service",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: tag, exact: true })).toBeVisible();
  }
  await expectAccessible(page, "API reference");
  await expectNoHorizontalScroll(page);

  // An operation opens with its credential, body, answer and failures; axe again with it open.
  const initialize = page.locator("#postPaymentInitialize");
  await initialize.getByText("/v1/payment/initialize", { exact: true }).click();
  await expect(initialize.getByText("Secret key: x-api-key")).toBeVisible();
  await expect(initialize.getByText("Answer 201:")).toBeVisible();
  await expect(initialize.getByText("invalid_api_key")).toBeVisible();
  await expectAccessible(page, "an operation open");

  // Try it: GET /v1/ping from the page, by keyboard.
  const ping = page.locator("#getPing");
  await ping.locator("summary").focus();
  await page.keyboard.press("Enter");
  await ping.getByRole("button", { name: "Send GET /v1/ping" }).click();
  await expect(ping.getByTestId("try-status")).toHaveText("200");
  await expect(ping.locator("pre")).toContainText('"ok": true');
  await expectAccessible(page, "try it answered");

  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
});

test("the document is served as OpenAPI 3.1 JSON", async ({ request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toContain("/v1/payment/initialize");
  expect(Object.keys(doc.webhooks)).toContain("payment.completed");
});
