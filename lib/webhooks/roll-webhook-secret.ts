import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { lockMerchant } from "@/lib/db/lock-merchant";
import type { Mode } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { unseal } from "@/lib/security/seal";
import { newWebhookSecret, sealSecret } from "./endpoint-secrets";
import { findEndpoint } from "./find-endpoint";
import { presentEndpoint } from "./present";

export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * POST /merchants/webhook/roll-secret: a new secret; the old one keeps signing beside it for 24 h, so the
 * merchant can deploy the new one without dropping a delivery. Rolls queue on the merchant's row: each keeps
 * the secret the one before it made as the previous one, so no secret handed out is lost to a concurrent roll.
 */
export async function rollWebhookSecret(input: { merchantId: string; mode: Mode; audit?: AuditContext }) {
  assertServedMode(input.mode);
  const peppered = await pepper();
  const row = await db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.merchantId);
      const existing = await findEndpoint(trx, input.merchantId, input.mode);
      if (!existing)
        throw new AppError(
          "invalid_state",
          `No ${input.mode} webhook endpoint is set; PUT /v1/merchants/webhook first.`,
        );
      const now = Date.now();
      await trx
        .updateTable("webhook_endpoints")
        .set({
          secret_sealed: sealSecret(peppered, newWebhookSecret()),
          previous_secret_sealed: existing.secret_sealed,
          previous_secret_expires_at: now + SECRET_OVERLAP_MS,
          updated_at: now,
        })
        .where("id", "=", existing.id)
        .execute();
      if (input.audit)
        await recordAudit(
          trx,
          { ...input.audit, mode: input.mode },
          "webhook.roll_secret",
          `${input.mode} endpoint`,
        );
      return trx
        .selectFrom("webhook_endpoints")
        .selectAll()
        .where("id", "=", existing.id)
        .executeTakeFirstOrThrow();
    });
  return { ...presentEndpoint(row), secret: unseal(peppered, row.secret_sealed) };
}
