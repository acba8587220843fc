import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import { Webhook } from "standardwebhooks";
import { toMillis, type WebhookEndpointsTable } from "@/lib/db/schema";
import { seal, unseal } from "@/lib/security/seal";

/** `whsec_` + base64 of 32 random bytes (docs/api.md). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function sealSecret(pepper: string, secret: string): string {
  return seal(pepper, secret);
}

/** The secrets that sign now: the current one, and the previous one during its 24 h overlap. */
export function signingSecrets(
  pepper: string,
  endpoint: Selectable<WebhookEndpointsTable>,
  now = Date.now(),
): string[] {
  const secrets = [unseal(pepper, endpoint.secret_sealed)];
  if (
    endpoint.previous_secret_sealed &&
    endpoint.previous_secret_expires_at !== null &&
    toMillis(endpoint.previous_secret_expires_at) > now
  ) {
    secrets.push(unseal(pepper, endpoint.previous_secret_sealed));
  }
  return secrets;
}

/**
 * Standard Webhooks headers for the exact bytes sent: `webhook-id` (the event id, the same on every retry),
 * `webhook-timestamp` (unix seconds) and `webhook-signature` (`v1,<base64>` per signing secret, space-separated).
 */
export function signedHeaders(
  eventId: string,
  body: string,
  secrets: string[],
  at = new Date(),
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(eventId, at, body));
  return {
    "content-type": "application/json",
    "user-agent": "Paygate-Webhooks/1.0",
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
