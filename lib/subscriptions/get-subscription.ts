import { presentSubscriptionRow } from "@/lib/billing/load-subscription";
import type { Mode } from "@/lib/db/schema";
import { findSubscription } from "./find-subscription";

/** GET /v1/subscriptions/{code}. */
export async function getSubscription(input: { merchantId: string; mode: Mode; code: string }) {
  return presentSubscriptionRow(await findSubscription(input));
}
