import type { Selectable } from "kysely";
import { toMillis, type WebhookEndpointsTable } from "@/lib/db/schema";

const iso = (v: WebhookEndpointsTable["disabled_at"]) =>
  v === null ? null : new Date(toMillis(v)).toISOString();

/** An endpoint as the merchant sees it: never the secret. A disabled endpoint says why and since when. */
export function presentEndpoint(row: Selectable<WebhookEndpointsTable>) {
  return {
    mode: row.mode,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    disabledReason: row.disabled_reason,
    disabledAt: iso(row.disabled_at),
    previousSecretExpiresAt: iso(row.previous_secret_expires_at),
  };
}
