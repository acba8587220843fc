import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findEndpoint } from "@/lib/webhooks/find-endpoint";
import { presentEndpoint } from "@/lib/webhooks/present";

/**
 * The console's read of a mode's webhook endpoint (never its secret), or null when none is set. Unlike
 * `getWebhookEndpoint` it does not refuse the mode this deployment does not serve: the console shows that
 * mode's page (empty) rather than an error.
 */
export async function consoleWebhookEndpoint(input: { merchantId: string; mode: Mode }) {
  const row = await findEndpoint(db(), input.merchantId, input.mode);
  return row ? presentEndpoint(row) : null;
}
