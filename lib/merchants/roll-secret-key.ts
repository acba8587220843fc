import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { issueSecretKey } from "./credentials";

/** Revoke the merchant's key(s) of one mode and issue a new one, atomically; the old key stops working at once. */
export async function rollSecretKey(input: { merchantId: string; mode: Mode }) {
  const peppered = await pepper();
  return db()
    .transaction()
    .execute(async (trx) => {
      const now = Date.now();
      await trx
        .updateTable("api_keys")
        .set({ revoked_at: now })
        .where("merchant_id", "=", input.merchantId)
        .where("mode", "=", input.mode)
        .where("revoked_at", "is", null)
        .execute();
      const secretKey = await issueSecretKey(trx, input.merchantId, input.mode, now, peppered);
      return { mode: input.mode, secretKey };
    });
}
