import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findAuthorization } from "./find-authorization";
import { presentAuthorization } from "./present";

/**
 * POST /authorizations/{code}/deactivate: the saved card can never be charged again (its code stays
 * deactivated for good; the customer saving the same card later makes a new authorization). Deactivating one
 * already deactivated answers it as it is.
 */
export async function deactivateAuthorization(input: {
  merchantId: string;
  mode: Mode;
  code: string;
  audit?: AuditContext;
}) {
  const row = await findAuthorization(input);
  if (row.status !== "deactivated") {
    const now = Date.now();
    await db()
      .transaction()
      .execute(async (trx) => {
        const changed = await trx
          .updateTable("card_authorizations")
          .set({ status: "deactivated", active_fingerprint: null, deactivated_at: now, updated_at: now })
          .where("id", "=", row.id)
          .where("status", "=", "active")
          .executeTakeFirst();
        if (input.audit && Number(changed.numUpdatedRows) === 1)
          await recordAudit(trx, input.audit, "card.deactivate", input.code, now);
      });
  }
  return presentAuthorization(await findAuthorization(input));
}
