import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { railsFor } from "@/lib/rails/rails-for";
import type { CardDetails } from "@/lib/rails/types";
import { applyCardOutcome, type CardSummary } from "./apply-card-outcome";
import { createAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";
import { cardBrand } from "./card-brand";
import { cardInFlight } from "./card-in-flight";
import { openForCharge } from "./open-for-charge";
import { assertRailTakes, recordRailCharge } from "./record-rail-charge";
import { channelAmounts } from "./settlement";

/**
 * POST /payment/checkout/charge/card. The card network is called outside any database transaction (no lock
 * is held across the network); what it answers is then applied under the row lock: a success credits the
 * transaction if it is still open, and if something else paid it meanwhile the captured money is recorded
 * as a duplicate payment to refund. A processor's reference for the attempt is recorded before the call
 * (record-rail-charge.ts), so a lost answer is found again. Only brand, last 4 and expiry are kept.
 */
export async function chargeCard(input: { principal: AccessCodePrincipal; card: CardDetails }) {
  const summary: CardSummary = {
    brand: cardBrand(input.card.number),
    last4: input.card.number.slice(-4),
    expiryMonth: input.card.expiryMonth,
    expiryYear: input.card.expiryYear,
  };
  const { attemptId, tx, rails } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await openForCharge(trx, input.principal, "card");
      // Which rails, read on this transaction's connection (one per request under load).
      const rails = await railsFor(input.principal, trx);
      assertRailTakes(rails, row);
      // One card network call at a time per transaction.
      if (await cardInFlight(trx, row.id)) {
        throw new AppError(
          "invalid_state",
          "A card payment for this transaction is already being processed.",
        );
      }
      // A new card payment replaces one still waiting for the customer (an OTP, a PIN, the bank's page).
      await trx
        .updateTable("charge_attempts")
        .set({ status: "failed", failure_reason: "superseded", updated_at: Date.now() })
        .where("transaction_id", "=", row.id)
        .where("channel", "=", "card")
        .where("status", "in", ["awaiting_otp", "awaiting_action"])
        .execute();
      const id = await createAttempt(trx, row, "card", "authorizing", summary);
      await recordRailCharge(trx, rails, {
        tx: row,
        attemptId: id,
        channel: "card",
        amountMinor: channelAmounts(row, "card").totalMinor,
      });
      return { tx: row, attemptId: id, rails };
    });
  const amounts = channelAmounts(tx, "card");
  const outcome = await callCardRail(input.principal, attemptId, () =>
    rails.card.authorize({
      attemptId,
      card: input.card,
      amountMinor: amounts.totalMinor,
      currency: tx.currency,
      reference: tx.reference,
      email: tx.email,
    }),
  );
  return applyCardOutcome({ principal: input.principal, attemptId, summary, outcome });
}
