import { readManageToken } from "@/lib/billing/manage-token";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { cancelSubscription } from "./cancel-subscription";

/** The customer cancels at the end of the period from their own page (the same verb as the merchant's). */
export async function cancelFromManagePage(token: string) {
  const subscriptionId = await readManageToken(token);
  if (!subscriptionId) throw new AppError("invalid_state", "This link has expired.");
  const sub = await db()
    .selectFrom("subscriptions")
    .select(["merchant_id", "mode"])
    .where("id", "=", subscriptionId)
    .executeTakeFirstOrThrow();
  return cancelSubscription({
    merchantId: sub.merchant_id,
    mode: sub.mode,
    code: subscriptionId,
    atPeriodEnd: true,
  });
}
