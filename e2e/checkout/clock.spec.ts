import { expect, initialize, secondsLeft, test } from "../fixtures";

/**
 * The sandbox clock on an open page (docs/testing.md "The tools"): a partial POST /v1/sandbox/clock/advance
 * brings the account's deadline closer, and the open bank-transfer page's countdown follows it within one poll
 * (1.5 s while a transfer is awaited, lib/checkout/poll-delay.ts): it jumps down, it does not count down to it.
 */
const POLL_MS = 1_500;

test("a partial clock advance makes an open bank-transfer page's countdown jump down within one poll", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant);
  await page.goto(session.checkoutUrl);
  await page.getByRole("tab", { name: "Bank transfer" }).click();
  await page.getByRole("button", { name: "Get account number" }).click();
  await expect(page.getByRole("heading", { name: /^Transfer NGN/ })).toBeVisible();
  // The main server's window is 30 minutes (playwright.config.ts).
  const before = await secondsLeft(page);
  expect(before).toBeGreaterThan(29 * 60);

  const moved = await request.post("/v1/sandbox/clock/advance", {
    data: { reference: session.reference, seconds: 600 },
    headers: { "x-api-key": merchant.secretKey },
  });
  expect(moved.status()).toBe(200);
  const advancedAt = Date.now();

  // Ten minutes less at once (a few seconds of this test's own time aside), the account still open.
  await expect
    .poll(() => secondsLeft(page), { timeout: POLL_MS + 1_000, intervals: [100] })
    .toBeLessThanOrEqual(before - 600);
  expect(Date.now() - advancedAt).toBeLessThan(POLL_MS + 1_000);
  expect(await secondsLeft(page)).toBeGreaterThan(before - 600 - 10);
  await expect(page.getByRole("heading", { name: /^Transfer NGN/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "This account number has expired" })).toHaveCount(0);
});
