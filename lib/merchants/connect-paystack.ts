import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { paystackKeyWorks } from "@/lib/rails/paystack/connector";
import { keySeal, PROCESSOR } from "@/lib/rails/paystack/keys";
import { pepper } from "@/lib/security/pepper";
import { seal } from "@/lib/security/seal";
import { randomString } from "@/lib/security/tokens";
import { presentPaystackConnection } from "./paystack-connection";

/**
 * PUT /v1/merchants/paystack (console: Settings → Live payments): connect the merchant's own Paystack account
 * for a mode, or replace the key of the one connected. The key must be of the mode (sk_live_ for live), and
 * Paystack is asked once whether it takes it (GET /balance) before anything is saved; it is then kept only
 * sealed (AES-256-GCM under a key derived from APP_SECRET, bound to this merchant and mode) and never shown
 * again. Replacing keeps the connection's id, so the webhook address set in Paystack stays valid.
 */
export async function connectPaystack(input: {
  merchantId: string;
  mode: Mode;
  secretKey: string;
  audit?: AuditContext;
}) {
  assertServedMode(input.mode);
  const prefix = `sk_${input.mode}_`;
  if (!input.secretKey.startsWith(prefix)) {
    throw invalidField(
      "secretKey",
      "wrong_mode",
      `secretKey must be a Paystack ${input.mode} secret key (${prefix}...) for ${input.mode} mode`,
    );
  }
  if (!(await paystackKeyWorks(input.secretKey))) {
    throw invalidField(
      "secretKey",
      "refused",
      "secretKey was refused by Paystack (Invalid key): copy the secret key again from Paystack's dashboard (Settings → API Keys & Webhooks). Nothing was saved",
    );
  }
  const sealed = seal(await pepper(), input.secretKey, keySeal(input.merchantId, input.mode));
  const now = Date.now();
  await db()
    .transaction()
    .execute(async (trx) => {
      await trx
        .insertInto("processor_connections")
        .values({
          id: `psc_${randomString(24)}`,
          merchant_id: input.merchantId,
          mode: input.mode,
          processor: PROCESSOR,
          secret_sealed: sealed,
          key_last4: input.secretKey.slice(-4),
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc
            .columns(["merchant_id", "mode", "processor"])
            .doUpdateSet({ secret_sealed: sealed, key_last4: input.secretKey.slice(-4), updated_at: now }),
        )
        .execute();
      if (input.audit)
        await recordAudit(
          trx,
          { ...input.audit, mode: input.mode },
          "processor.connect",
          `paystack ${input.mode} key …${input.secretKey.slice(-4)}`,
          now,
        );
    });
  return presentPaystackConnection(input.merchantId, input.mode);
}
