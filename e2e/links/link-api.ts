import type { APIRequestContext, Page } from "@playwright/test";
import { expect, type Merchant } from "../fixtures";

/**
 * Helpers of the payment link browser tests: links are created and changed through the merchant API with the
 * session token (docs/api.md), never through the database; payments are checked with server verify.
 */

export type LinkField = {
  name: string;
  label: string;
  type: "text" | "email" | "phone" | "number" | "select";
  required?: boolean;
  options?: string[];
};

export type LinkInput = {
  title: string;
  description?: string;
  amount?: string;
  minAmount?: string;
  maxAmount?: string;
  currency?: string;
  channels?: string[];
  redirectUrl?: string;
  feeBearer?: "customer" | "merchant";
  metadata?: { fields: LinkField[] };
  active?: boolean;
};

export type Link = {
  id: string;
  slug: string;
  paymentLinkUrl: string;
  title: string;
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  currency: string;
  channels: string[];
  redirectUrl: string | null;
  feeBearer: string;
  metadata: { fields: LinkField[] };
  active: boolean;
  usageCount: number;
};

export type VerifiedLinkPayment = {
  reference: string;
  status: string;
  amount: string;
  total: string | null;
  currency: string;
  channel: string | null;
  fees: string | null;
  metadata: { paymentLink?: { id: string; slug: string; title: string }; fields?: Record<string, string> };
  customer: { email: string | null; name: string | null };
};

const session = (merchant: Merchant) => ({ authorization: `Bearer ${merchant.accessToken}` });

export async function createLink(request: APIRequestContext, merchant: Merchant, input: LinkInput) {
  const res = await request.post("/v1/merchants/payment-links", { data: input, headers: session(merchant) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data as Link;
}

export async function updateLink(
  request: APIRequestContext,
  merchant: Merchant,
  slug: string,
  changes: { active?: boolean },
) {
  const res = await request.patch(`/v1/merchants/payment-links/${slug}`, {
    data: changes,
    headers: session(merchant),
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as Link;
}

export async function getLink(request: APIRequestContext, merchant: Merchant, slug: string) {
  const res = await request.get(`/v1/merchants/payment-links/${slug}`, { headers: session(merchant) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as Link;
}

/** Server verify with the secret key, with the fields a link payment adds (metadata, customer). */
export async function verifyPayment(request: APIRequestContext, merchant: Merchant, reference: string) {
  const res = await request.get(`/v1/payment/verify/${reference}`, {
    headers: { "x-api-key": merchant.secretKey },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as VerifiedLinkPayment;
}

/** The merchant's own "thank you" page, a same-origin path that the browser test answers itself. */
export const MERCHANT_RETURN_PATH = "/e2e-merchant/thanks";

export async function serveMerchantReturn(page: Page) {
  await page.route(`**${MERCHANT_RETURN_PATH}?**`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: '<!doctype html><html lang="en"><title>Shop</title><main><h1>Back at the shop</h1></main></html>',
    }),
  );
}

/** Every request the start page sends to the link's pay endpoint (to prove inline errors stay client-side). */
export function payRequests(page: Page, slug: string): string[] {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "POST") return;
    const path = new URL(r.url()).pathname;
    // The API's route, or the page's own form (its server action, posted by the page's code or the browser).
    if (path === `/v1/merchants/payment-links/${slug}/pay` || path === `/l/${slug}`) seen.push(r.url());
  });
  return seen;
}
