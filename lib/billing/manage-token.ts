import { createHmac } from "node:crypto";
import { env } from "@/lib/env";
import { pepper } from "@/lib/security/pepper";
import { safeEqual } from "@/lib/security/tokens";

/** How long a link to the customer's own page of a subscription works. */
export const MANAGE_LINK_TTL_MS = 7 * 86_400_000;

const PURPOSE = "subscription-manage";

async function signature(body: string): Promise<string> {
  return createHmac("sha256", await pepper())
    .update(`${PURPOSE}\n${body}`)
    .digest("base64url");
}

/**
 * A token for the customer's own page of one subscription (`/subscriptions/manage/{token}`): the subscription's
 * code and an expiry, signed with the deployment's pepper under a purpose of its own, so it opens that page of
 * that subscription only, until it expires, and no other token of the service can stand in for it.
 */
export async function manageToken(subscriptionId: string, now = Date.now()) {
  const expiresAt = now + MANAGE_LINK_TTL_MS;
  const body = `${subscriptionId}.${expiresAt.toString(36)}`;
  const token = `${body}.${await signature(body)}`;
  return { token, expiresAt, url: `${env().PUBLIC_BASE_URL}/subscriptions/manage/${token}` };
}

/** The subscription a token opens, or null when it is malformed, forged or expired. */
export async function readManageToken(token: string, now = Date.now()): Promise<string | null> {
  const match = /^(SUB_[0-9A-Z]{20})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, subscriptionId = "", expires = "", given = ""] = match;
  const expected = await signature(`${subscriptionId}.${expires}`);
  if (!safeEqual(given, expected)) return null;
  if (Number.parseInt(expires, 36) <= now) return null;
  return subscriptionId;
}
