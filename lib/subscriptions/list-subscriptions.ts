import { SUBSCRIPTION_CODE } from "@/lib/billing/codes";
import { presentSubscriptionRow } from "@/lib/billing/load-subscription";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";

/** GET /v1/subscriptions: newest first, by customer, plan or status, paged by the keyset cursor. */
export async function listSubscriptions(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  customer?: string;
  plan?: string;
  status?: string;
  cursor?: string;
}) {
  let query = db()
    .selectFrom("subscriptions")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.customer) query = query.where("customer_id", "=", input.customer);
  if (input.plan) query = query.where("plan_id", "=", input.plan);
  if (input.status) query = query.where("status", "=", input.status);
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: SUBSCRIPTION_CODE,
    limit: input.limit,
  });
  const subscriptions = [];
  for (const row of page) subscriptions.push(await presentSubscriptionRow(row));
  return { subscriptions, nextCursor };
}
