import { assertServedMode } from "@/lib/core/assert-served-mode";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findEndpoint } from "./find-endpoint";
import { presentEndpoint } from "./present";

/** GET /merchants/webhook: the endpoint of a mode (url, events, status), or null when none is set. */
export async function getWebhookEndpoint(input: { merchantId: string; mode: Mode }) {
  assertServedMode(input.mode);
  const row = await findEndpoint(db(), input.merchantId, input.mode);
  return row ? presentEndpoint(row) : null;
}
