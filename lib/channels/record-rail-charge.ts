import { AppError } from "@/lib/core/errors";
import type { TransactionRow, Trx } from "@/lib/db/types";
import type { Channel } from "@/lib/payments/channel-list";
import type { Rails } from "@/lib/rails/types";

/**
 * Before a processor is called for an attempt: refuse what it cannot take (a currency it does not charge,
 * no email where it needs one), then record the reference it will know the attempt by, with whose key, in
 * the attempt's own database transaction. Whatever happens to the call (an answer lost, the process killed),
 * the processor's webhook, card reconciliation and refunds find the attempt from that reference.
 * Returns the reference (null on the sandbox, which keeps none).
 */
export async function recordRailCharge(
  trx: Trx,
  rails: Rails,
  input: { tx: TransactionRow; attemptId: string; channel: Channel; amountMinor: bigint },
): Promise<string | null> {
  const reference = rails.chargeReference({ reference: input.tx.reference, attemptId: input.attemptId });
  if (reference === null) return null;
  await trx
    .insertInto("rail_charges")
    .values({
      rail_reference: reference,
      rail: rails.name,
      attempt_id: input.attemptId,
      transaction_id: input.tx.id,
      merchant_id: input.tx.merchant_id,
      mode: input.tx.mode,
      channel: input.channel,
      key_source: rails.keySource ?? "deployment",
      amount_minor: input.amountMinor,
      currency: input.tx.currency,
      rail_id: null,
      created_at: Date.now(),
    })
    .execute();
  return reference;
}

/** Refuse (before anything is written) a charge the rails cannot take: its currency, or no email. */
export function assertRailTakes(rails: Rails, tx: TransactionRow): void {
  if (rails.currencies !== "any" && !rails.currencies.includes(tx.currency)) {
    throw new AppError(
      "channel_unavailable",
      `Payments in ${tx.currency} cannot be taken through ${rails.name === "paystack" ? "Paystack" : rails.name} here; only ${rails.currencies.join(", ")}.`,
    );
  }
  if (rails.needsEmail && !tx.email) {
    throw new AppError(
      "email_required",
      "This payment needs the customer's email (the payment processor requires one): pass email to initialize.",
    );
  }
}
