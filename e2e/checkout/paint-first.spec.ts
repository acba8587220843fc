import { expect, initialize, test } from "../fixtures";
import { createLink } from "../links/link-api";

/**
 * The hosted pages paint from the server's HTML before their code is fetched (lib/http/paint-first.mjs): in a
 * real Chromium, no app chunk starts downloading before the first contentful paint, the page then hydrates
 * (`<html data-hydrated>`) and answers input.
 */
type Timings = { fcp: number | null; chunks: { name: string; startTime: number }[] };

async function timings(page: import("@playwright/test").Page): Promise<Timings> {
  return page.evaluate(() => ({
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    chunks: performance
      .getEntriesByType("resource")
      .filter((e) => /\/_next\/static\/chunks\/[^/]+\.js/.test(e.name))
      .map((e) => ({ name: new URL(e.name).pathname, startTime: e.startTime })),
  }));
}

function expectChunksAfterPaint(t: Timings, page: string) {
  expect(t.fcp, `${page}: first contentful paint`).not.toBeNull();
  expect(t.chunks.length, `${page}: app chunks loaded`).toBeGreaterThan(0);
  for (const chunk of t.chunks)
    expect(
      chunk.startTime,
      `${page}: ${chunk.name} fetched after the paint at ${t.fcp} ms`,
    ).toBeGreaterThanOrEqual(t.fcp ?? Number.POSITIVE_INFINITY);
}

test("the checkout, a payment link and the console's sign-in fetch their code only after the first paint, then hydrate", async ({
  page,
  request,
  merchant,
}) => {
  const session = await initialize(request, merchant, { amount: "5000.00" });
  const link = await createLink(request, merchant, { title: "Paint first", amount: "1500.00" });
  for (const [name, url] of [
    ["checkout", session.checkoutUrl],
    ["payment link", link.paymentLinkUrl],
    ["console sign-in", "/dashboard/login"],
  ] as const) {
    // goto waits for <html data-hydrated> too (the fixture's page).
    await page.goto(url);
    await expect(page.locator("html[data-hydrated]")).toBeAttached();
    expectChunksAfterPaint(await timings(page), name);
  }
  // Hydrated means answering: the checkout's tabs switch panels.
  await page.goto(session.checkoutUrl);
  await page.getByRole("tab", { name: "USSD", exact: true }).click();
  await expect(page.getByRole("tab", { name: "USSD", exact: true })).toHaveAttribute("aria-selected", "true");
});

/**
 * Runs in the page before its own scripts: no paint is ever reported to an observer (what a hidden page or a
 * browser without paint timing gets), and the page is hidden or has no paint timing at all.
 */
function withoutPaintReports(kind: "hidden" | "no paint timing") {
  const observe = PerformanceObserver.prototype.observe;
  PerformanceObserver.prototype.observe = function (options?: PerformanceObserverInit) {
    if (options?.type === "paint" || options?.entryTypes?.includes("paint")) return;
    observe.call(this, options);
  };
  if (kind === "hidden")
    Object.defineProperty(Document.prototype, "visibilityState", { get: () => "hidden", configurable: true });
  else
    Object.defineProperty(PerformanceObserver, "supportedEntryTypes", {
      get: () => Object.freeze(["navigation", "resource"]),
      configurable: true,
    });
}

// A loader that waited for a paint report here would add the code only at its 2 s fallback.
for (const kind of ["hidden", "no paint timing"] as const) {
  test(`a checkout ${kind === "hidden" ? "loaded hidden" : "in a browser without paint timing"} loads its code at once and hydrates`, async ({
    page,
    request,
    merchant,
  }) => {
    const session = await initialize(request, merchant, { amount: "5000.00" });
    await page.addInitScript(withoutPaintReports, kind);
    await page.goto(session.checkoutUrl, { waitUntil: "commit" });
    await expect(page.locator("html[data-hydrated]")).toBeAttached({ timeout: 1_500 });
  });
}
