import type { TransactionRow, Trx } from "@/lib/db/types";
import { newId } from "@/lib/security/tokens";

/** Queue one delivery of an event to an endpoint, inside the caller's database transaction. */
export async function scheduleDelivery(
  trx: Trx,
  input: {
    eventId: string;
    endpointId: string;
    merchantId: string;
    mode: TransactionRow["mode"];
    attempt: number;
    trigger: string;
    dueAt: number;
  },
): Promise<void> {
  await trx
    .insertInto("webhook_deliveries")
    .values({
      id: newId(),
      event_id: input.eventId,
      endpoint_id: input.endpointId,
      merchant_id: input.merchantId,
      mode: input.mode,
      attempt: input.attempt,
      trigger: input.trigger,
      status: "pending",
      due_at: input.dueAt,
      locked_until: null,
      url: null,
      response_status: null,
      response_excerpt: null,
      latency_ms: null,
      error: null,
      created_at: Date.now(),
      finished_at: null,
    })
    .execute();
}
