import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { merchantLink } from "./find-link";
import { presentLink } from "./present";
import { linkUsage } from "./usage";

/** PATCH /merchants/payment-links/{slug}: change what a live link may change (deactivate it, most often). */
export async function updatePaymentLink(input: {
  merchantId: string;
  mode: Mode;
  slug: string;
  changes: {
    title?: string;
    description?: string | null;
    redirectUrl?: string | null;
    active?: boolean;
    expiresAt?: string | null;
    usageLimit?: number | null;
  };
  audit?: AuditContext;
}) {
  assertServedMode(input.mode);
  const row = await merchantLink(input);
  const c = input.changes;
  const expiresAt =
    c.expiresAt === undefined ? undefined : c.expiresAt === null ? null : Date.parse(c.expiresAt);
  if (typeof expiresAt === "number" && expiresAt <= Date.now())
    throw invalidField("expiresAt", "in_the_past", "expiresAt must be in the future");
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable("payment_links")
        .set({
          updated_at: Date.now(),
          ...(c.title !== undefined && { title: c.title }),
          ...(c.description !== undefined && { description: c.description || null }),
          ...(c.redirectUrl !== undefined && { redirect_url: c.redirectUrl }),
          ...(c.active !== undefined && { active: c.active ? 1 : 0 }),
          ...(expiresAt !== undefined && { expires_at: expiresAt }),
          ...(c.usageLimit !== undefined && { usage_limit: c.usageLimit }),
        })
        .where("id", "=", row.id)
        .execute();
      if (input.audit)
        await recordAudit(trx, input.audit, "link.update", `${row.slug}: ${Object.keys(c).join(", ")}`);
    });
  const updated = await db()
    .selectFrom("payment_links")
    .selectAll()
    .where("id", "=", row.id)
    .executeTakeFirstOrThrow();
  return presentLink(updated, await linkUsage(db(), row.id));
}
