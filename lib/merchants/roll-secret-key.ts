import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { db } from "@/lib/db/client";
import { lockMerchant } from "@/lib/db/lock-merchant";
import type { Mode } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { issueSecretKey } from "./credentials";
import { recordDemoMerchantKey } from "./demo-merchant-key";

/**
 * Revoke the merchant's key of one mode and issue a new one, atomically; the old key stops working at once.
 * Concurrent rolls queue on the merchant's row, so each revokes the key the one before it issued: however many
 * run at once, exactly one key per mode is active afterwards (a partial unique index refuses a second).
 */
export async function rollSecretKey(input: { merchantId: string; mode: Mode; audit?: AuditContext }) {
  assertServedMode(input.mode);
  const peppered = await pepper();
  return db()
    .transaction()
    .execute(async (trx) => {
      await lockMerchant(trx, input.merchantId);
      const now = Date.now();
      await trx
        .updateTable("api_keys")
        .set({ revoked_at: now })
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .where("revoked_at", "is", null)
        .execute();
      const secretKey = await issueSecretKey(trx, input.merchantId, input.mode, now, peppered);
      if (input.audit)
        await recordAudit(
          trx,
          { ...input.audit, mode: input.mode },
          "key.roll",
          `${input.mode} secret key`,
          now,
        );
      // The demo store pays with the demo merchant's test key: it follows the roll.
      if (input.mode === "test")
        await recordDemoMerchantKey(trx, { merchantId: input.merchantId, testSecretKey: secretKey });
      return { mode: input.mode, secretKey };
    });
}
