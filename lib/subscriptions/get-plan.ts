import { findPlan } from "@/lib/billing/find-plan";
import { presentPlan } from "@/lib/billing/present";
import type { Mode } from "@/lib/db/schema";

/** GET /v1/plans/{code}. */
export async function getPlan(input: { merchantId: string; mode: Mode; code: string }) {
  return presentPlan(await findPlan(input));
}
