import { db } from "@/lib/db/client";
import { type Mode, toMillis } from "@/lib/db/schema";

/**
 * The merchant's active secret keys: what identifies each (its prefix and last four characters) and when it
 * was made. The key itself is stored only as a hash and cannot be shown again.
 */
export async function listKeys(input: { merchantId: string }) {
  const rows = await db()
    .selectFrom("api_keys")
    .select(["mode", "key_last4", "created_at"])
    .where("merchant_id", "=", input.merchantId)
    .where("revoked_at", "is", null)
    .orderBy("mode", "desc")
    .execute();
  return rows.map((r) => ({
    mode: r.mode as Mode,
    hint: `sk_${r.mode}_…${r.key_last4}`,
    createdAt: new Date(toMillis(r.created_at)).toISOString(),
  }));
}
