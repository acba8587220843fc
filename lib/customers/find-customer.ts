import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";

/** One of the merchant's customers in this mode, by code; another merchant's or mode's looks unknown (404). */
export async function findCustomer(input: { merchantId: string; mode: Mode; code: string }) {
  const row = await db()
    .selectFrom("customers")
    .selectAll()
    .where("id", "=", input.code)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row)
    throw new AppError("customer_not_found", `code: no customer ${input.code} in ${input.mode} mode.`);
  return row;
}
