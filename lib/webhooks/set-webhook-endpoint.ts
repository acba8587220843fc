import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { db } from "@/lib/db/client";
import { lockMerchant } from "@/lib/db/lock-merchant";
import type { Mode } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { unseal } from "@/lib/security/seal";
import { newId } from "@/lib/security/tokens";
import { newWebhookSecret, sealSecret } from "./endpoint-secrets";
import { EVENT_TYPES, type EventType } from "./event-types";
import { findEndpoint } from "./find-endpoint";
import { presentEndpoint } from "./present";

/**
 * PUT /merchants/webhook: create or change the endpoint of one mode. A new endpoint gets a new `whsec_`
 * secret; changing the URL keeps the secret (roll it with /merchants/webhook/roll-secret). Saving a disabled
 * endpoint enables it again. Answers the secret (the merchant is signed in); GET never shows it. Saves queue on
 * the merchant's row, so two at once (a double-submitted form, two instances) make one endpoint, not a 500.
 */
export async function setWebhookEndpoint(input: {
  merchantId: string;
  mode: Mode;
  url: string;
  events?: EventType[];
  audit?: AuditContext;
}) {
  assertServedMode(input.mode);
  const peppered = await pepper();
  const events = JSON.stringify(input.events ?? EVENT_TYPES);
  const row = await db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.merchantId);
      const now = Date.now();
      const existing = await findEndpoint(trx, input.merchantId, input.mode);
      if (existing) {
        await trx
          .updateTable("webhook_endpoints")
          .set({
            url: input.url,
            events,
            status: "enabled",
            disabled_reason: null,
            disabled_at: null,
            updated_at: now,
          })
          .where("id", "=", existing.id)
          .execute();
      } else {
        await trx
          .insertInto("webhook_endpoints")
          .values({
            id: newId(),
            merchant_id: input.merchantId,
            mode: input.mode,
            url: input.url,
            events,
            secret_sealed: sealSecret(peppered, newWebhookSecret()),
            previous_secret_sealed: null,
            previous_secret_expires_at: null,
            status: "enabled",
            disabled_reason: null,
            disabled_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      const saved = await findEndpoint(trx, input.merchantId, input.mode);
      if (!saved) throw new Error("webhook endpoint vanished inside its own transaction");
      if (input.audit)
        await recordAudit(trx, { ...input.audit, mode: input.mode }, "webhook.update", input.url);
      return saved;
    });
  return { ...presentEndpoint(row), secret: unseal(peppered, row.secret_sealed) };
}
