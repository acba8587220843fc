import { AppError, invalidField } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { cardFingerprint } from "@/lib/customers/card-fingerprint";
import { db } from "@/lib/db/client";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { isLocale, type Locale } from "@/lib/i18n/locales";
import type { SaveCardMode } from "@/lib/payments/schemas";
import { railsFor } from "@/lib/rails/rails-for";
import type { CardDetails } from "@/lib/rails/types";
import { applyCardOutcome, type CardSummary } from "./apply-card-outcome";
import { createAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";
import { cardBrand } from "./card-brand";
import type { CardConsent } from "./card-consent";
import { cardInFlight } from "./card-in-flight";
import { consentWords } from "./consent-words";
import { openForCharge } from "./open-for-charge";
import { assertRailTakes, recordRailCharge } from "./record-rail-charge";
import { channelAmounts } from "./settlement";

/**
 * POST /payment/checkout/charge/card. The card network is called outside any database transaction (no lock
 * is held across the network); what it answers is then applied under the row lock: a success credits the
 * transaction if it is still open, and if something else paid it meanwhile the captured money is recorded
 * as a duplicate payment to refund. A processor's reference for the attempt is recorded before the call
 * (record-rail-charge.ts), so a lost answer is found again. Only brand, last 4 and expiry are kept.
 *
 * On a payment that saves the card (initialize's `saveCard`), the customer's consent is recorded with the
 * attempt (the words shown in `locale`, the time, `clientAddress`) with a keyed fingerprint of the number,
 * and the card is kept as an authorization once the network has taken the payment (keep-consented-card.ts).
 */
export async function chargeCard(input: {
  principal: AccessCodePrincipal;
  card: CardDetails;
  /** The customer ticked the box of `saveCard: "optional"`. */
  saveCard?: boolean;
  /** The page's language, the saving's words were shown in. */
  locale?: Locale;
  clientAddress?: string;
}) {
  const summary: CardSummary = {
    brand: cardBrand(input.card.number),
    last4: input.card.number.slice(-4),
    expiryMonth: input.card.expiryMonth,
    expiryYear: input.card.expiryYear,
  };
  // Computed now (a keyed hash, no database), kept only if the card is saved.
  const fingerprint = await cardFingerprint({
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
    number: input.card.number,
  });
  const { attemptId, tx, rails, consent } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await openForCharge(trx, input.principal, "card");
      // Which rails, read on this transaction's connection (one per request under load).
      const rails = await railsFor(input.principal, trx);
      assertRailTakes(rails, row);
      const consent = await consentOf(trx, row, input, fingerprint);
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
      const id = await createAttempt(trx, row, "card", "authorizing", {
        ...summary,
        ...(consent && { consent }),
      });
      await recordRailCharge(trx, rails, {
        tx: row,
        attemptId: id,
        channel: "card",
        amountMinor: channelAmounts(row, "card").totalMinor,
      });
      return { tx: row, attemptId: id, rails, consent };
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
      saveCard: consent !== null,
    }),
  );
  return applyCardOutcome({
    principal: input.principal,
    attemptId,
    summary: { ...summary, ...(consent && { consent }) },
    outcome,
  });
}

/**
 * The consent to keep this card, when the payment saves cards: `required` (paying is agreeing to the terms the
 * page states) or `optional` with the box ticked. A ticked box on a payment that offers no saving is refused
 * (400 naming `saveCard`), as is a merchant's charge of a saved card (it has no card form).
 */
async function consentOf(
  trx: Trx,
  tx: TransactionRow,
  input: { saveCard?: boolean; locale?: Locale; clientAddress?: string },
  fingerprint: string,
): Promise<CardConsent | null> {
  const offered = tx.save_card as SaveCardMode | null;
  if (tx.merchant_initiated === 1) {
    throw new AppError(
      "invalid_state",
      "This payment charges a saved card: there is no card to send, only the step the bank asks for.",
    );
  }
  if (input.saveCard && !offered)
    throw invalidField("saveCard", "not_offered", "saveCard: this payment does not offer to save the card");
  const kind: SaveCardMode | null =
    offered === "required" ? "required" : offered && input.saveCard ? "optional" : null;
  if (!kind || tx.customer_id === null) return null;
  const merchant = await trx
    .selectFrom("merchants")
    .select("business_name")
    .where("id", "=", tx.merchant_id)
    .executeTakeFirstOrThrow();
  const locale: Locale = input.locale ?? (isLocale(tx.locale) ? tx.locale : "en");
  return {
    kind,
    text: consentWords(kind, locale, merchant.business_name),
    locale,
    clientAddress: input.clientAddress ?? "unknown",
    givenAt: Date.now(),
    fingerprint,
  };
}
