import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { PROCESSOR } from "@/lib/rails/paystack/keys";
import { presentPaystackConnection } from "./paystack-connection";

/**
 * POST /v1/merchants/paystack/disconnect: forget the merchant's Paystack key of a mode. New payments of the
 * mode then use the deployment's default key, or the sandbox (test), or answer 409 `live_not_connected`
 * (live). Payments made with the removed key cannot be continued or refunded until it is connected again.
 */
export async function disconnectPaystack(input: { merchantId: string; mode: Mode; audit?: AuditContext }) {
  assertServedMode(input.mode);
  await db()
    .transaction()
    .execute(async (trx) => {
      const gone = await trx
        .deleteFrom("processor_connections")
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .where("processor", "=", PROCESSOR)
        .executeTakeFirst();
      if (input.audit && Number(gone.numDeletedRows) > 0)
        await recordAudit(
          trx,
          { ...input.audit, mode: input.mode },
          "processor.disconnect",
          `paystack ${input.mode}`,
        );
    });
  return presentPaystackConnection(input.merchantId, input.mode);
}
