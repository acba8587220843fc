import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { toMillis } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { deploymentKey, PROCESSOR } from "@/lib/rails/paystack/keys";

/**
 * A merchant's Paystack connection of one mode as the console and GET /v1/merchants/paystack show it: whether
 * it is connected, the key's last four characters (the key itself is never shown again), and the two
 * addresses to set in Paystack's dashboard. Shared by the connection verbs.
 */
export async function presentPaystackConnection(merchantId: string, mode: Mode) {
  const row = await db()
    .selectFrom("processor_connections")
    .select(["id", "key_last4", "created_at", "updated_at"])
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .where("processor", "=", PROCESSOR)
    .executeTakeFirst();
  const base = env().PUBLIC_BASE_URL;
  return {
    processor: "paystack" as const,
    mode,
    connected: row !== undefined,
    keyHint: row ? `sk_${mode}_…${row.key_last4}` : null,
    connectedAt: row ? new Date(toMillis(row.created_at)).toISOString() : null,
    updatedAt: row ? new Date(toMillis(row.updated_at)).toISOString() : null,
    webhookUrl: row
      ? `${base}/v1/rails/paystack/webhook?connection=${row.id}`
      : `${base}/v1/rails/paystack/webhook`,
    callbackUrl: `${base}/pay/return/paystack`,
    /** Payments of this mode without a connection go through the deployment's own Paystack key. */
    deploymentDefault: deploymentKey(mode) !== undefined,
  };
}
