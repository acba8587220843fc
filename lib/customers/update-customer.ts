import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findCustomer } from "./find-customer";
import { getCustomer } from "./get-customer";
import type { CustomerPatch } from "./schemas";

/** PATCH /customers/{code}: name, phone and metadata; a field left out is unchanged, `null` clears it. */
export async function updateCustomer(input: {
  merchantId: string;
  mode: Mode;
  code: string;
  patch: CustomerPatch;
  audit?: AuditContext;
}) {
  const row = await findCustomer(input);
  const { name, phone, metadata } = input.patch;
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("customers")
        .set({
          ...(name !== undefined && { name }),
          ...(phone !== undefined && { phone }),
          ...(metadata !== undefined && { metadata: metadata === null ? null : JSON.stringify(metadata) }),
          updated_at: Date.now(),
        })
        .where("id", "=", row.id)
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .execute();
      if (input.audit)
        await recordAudit(
          trx,
          input.audit,
          "customer.update",
          `${row.id}: ${Object.keys(input.patch).join(", ")}`,
        );
    });
  return getCustomer(input);
}
