import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { authorizationsOf } from "./authorizations-of";
import { newCustomerCode } from "./codes";
import { emailKey } from "./email-key";
import { presentCustomer } from "./present";

/**
 * POST /customers: a customer for an email. An email already known (in any casing) answers that customer,
 * unchanged, with `created: false` (the endpoint answers 200 then, 201 for a new one); two creations of one
 * new email at once make one customer (the unique email of the merchant and mode decides which insert wins).
 */
export async function createCustomer(input: {
  merchantId: string;
  mode: Mode;
  email: string;
  name?: string | null;
  phone?: string | null;
  metadata?: Record<string, unknown> | null;
  audit?: AuditContext;
}) {
  const key = emailKey(input.email);
  const now = Date.now();
  const code = newCustomerCode();
  const inserted = await db()
    .transaction()
    .execute(async (trx) => {
      const made = await trx
        .insertInto("customers")
        .values({
          id: code,
          merchant_id: input.merchantId,
          mode: input.mode,
          email: input.email.trim(),
          email_key: key,
          name: input.name ?? null,
          phone: input.phone ?? null,
          metadata: input.metadata ? JSON.stringify(input.metadata) : null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.columns(["merchant_id", "mode", "email_key"]).doNothing())
        .executeTakeFirst();
      if (input.audit && Number(made.numInsertedOrUpdatedRows ?? 0n) === 1)
        await recordAudit(trx, input.audit, "customer.create", code, now);
      return made;
    });
  const row = await db()
    .selectFrom("customers")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .where("email_key", "=", key)
    .executeTakeFirstOrThrow();
  const cards = await authorizationsOf([row.id]);
  return {
    created: Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1,
    customer: presentCustomer(row, cards.get(row.id) ?? []),
  };
}
