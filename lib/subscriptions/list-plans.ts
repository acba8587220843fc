import { PLAN_CODE } from "@/lib/billing/codes";
import { presentPlan } from "@/lib/billing/present";
import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";

/** GET /v1/plans: the merchant's plans in this mode, newest first (the keyset cursor of every list). */
export async function listPlans(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  active?: "true" | "false";
  cursor?: string;
}) {
  let query = db()
    .selectFrom("plans")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.active) query = query.where("active", "=", input.active === "true" ? 1 : 0);
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: PLAN_CODE,
    limit: input.limit,
  });
  return { plans: page.map(presentPlan), nextCursor };
}
