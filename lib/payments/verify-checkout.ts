import { db } from "@/lib/db/client";
import { AppError } from "@/lib/http/errors";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { presentCheckoutRecord } from "./present";

/** Checkout verify: the status of the access code's own transaction, for the pay page to poll. */
export async function verifyCheckout(input: { principal: AccessCodePrincipal }) {
  const row = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", input.principal.transactionId)
    .where("mode", "=", input.principal.mode)
    .executeTakeFirst();
  if (!row) throw new AppError("invalid_access_code", "The access code no longer matches a transaction.");
  return presentCheckoutRecord(row);
}
