import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { presentEndpoint } from "./present";

/** GET /merchants/webhook: the endpoint of a mode (url, events, status), or null when none is set. */
export async function getWebhookEndpoint(input: { merchantId: string; mode: Mode }) {
  const row = await db()
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  return row ? presentEndpoint(row) : null;
}
