import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";

/** One of the merchant's plans in this mode; unknown, another merchant's or mode's: 404 `plan_not_found`. */
export async function findPlan(
  input: { merchantId: string; mode: Mode; code: string },
  executor: Kysely<Database> = db(),
) {
  const row = await executor
    .selectFrom("plans")
    .selectAll()
    .where("id", "=", input.code)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row) throw new AppError("plan_not_found", `plan: no plan ${input.code} in ${input.mode} mode.`);
  return row;
}
