import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { pepper } from "@/lib/security/pepper";
import { consume } from "@/lib/security/rate-limit";
import { randomString } from "@/lib/security/tokens";
import { signedHeaders, signingSecrets } from "./endpoint-secrets";
import { findEndpoint } from "./find-endpoint";
import { postWebhook } from "./post-webhook";

/**
 * "Send a test event" from the console: one signed `webhook.test` POST to the mode's endpoint now, answered
 * with what the endpoint said (status, time, a short excerpt). It is not an event of the outbox: nothing is
 * retried or logged as a delivery, and no payment event is imitated, so no handler can fulfil an order on it.
 * It spends the merchant's redelivery budget (429 `rate_limited`).
 */
export async function sendTestEvent(input: { merchantId: string; mode: Mode }) {
  assertServedMode(input.mode);
  const endpoint = await findEndpoint(db(), input.merchantId, input.mode);
  if (!endpoint)
    throw new AppError("invalid_state", `No ${input.mode} webhook endpoint is set; save one first.`);
  await consume("redeliver", input.merchantId);
  const id = `evt_${randomString(24)}`;
  const now = new Date();
  const body = JSON.stringify({
    event: "webhook.test",
    data: { message: "A test event from the Paygate console. No payment is behind it.", mode: input.mode },
    timestamp: now.toISOString(),
  });
  const result = await postWebhook({
    url: endpoint.url,
    body,
    headers: signedHeaders(id, body, signingSecrets(await pepper(), endpoint), now),
    timeoutMs: env().WEBHOOK_TIMEOUT_MS,
  });
  return {
    id,
    delivered: result.ok,
    responseStatus: result.status,
    latencyMs: result.latencyMs,
    responseExcerpt: result.excerpt.slice(0, 200),
    error: result.error,
  };
}
