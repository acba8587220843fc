import { manageToken } from "@/lib/billing/manage-token";
import type { Mode } from "@/lib/db/schema";
import { findSubscription } from "./find-subscription";

/** POST /v1/subscriptions/{code}/manage-link: the customer's own page of this subscription, for a week. */
export async function createManageLink(input: { merchantId: string; mode: Mode; code: string }) {
  const sub = await findSubscription(input);
  const link = await manageToken(sub.id);
  return { url: link.url, expiresAt: new Date(link.expiresAt).toISOString() };
}
