import { presentPlan } from "@/lib/billing/present";
import type { Mode } from "@/lib/db/schema";
import { findPlan } from "./find-plan";

/** GET /v1/plans/{code}. */
export async function getPlan(input: { merchantId: string; mode: Mode; code: string }) {
  return presentPlan(await findPlan(input));
}
