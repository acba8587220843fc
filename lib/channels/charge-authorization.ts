import { AppError } from "@/lib/core/errors";
import { authorizationForCharge } from "@/lib/customers/authorization-for-charge";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { env } from "@/lib/env";
import { feesFor } from "@/lib/money/fees";
import { serializeChannels } from "@/lib/payments/channel-list";
import { newAccessCode, newReference } from "@/lib/payments/references";
import { railsOfSavedCard } from "@/lib/rails/rails-for";
import { pepper } from "@/lib/security/pepper";
import { keyedHash, newId } from "@/lib/security/tokens";
import { applyCardOutcome, type CardSummary } from "./apply-card-outcome";
import { createAttempt } from "./attempts";
import { callCardRail } from "./call-card-rail";
import { presentAuthorizationCharge } from "./present-authorization-charge";
import { recordRailCharge } from "./record-rail-charge";
import type { ChargeAuthorizationInput } from "./schemas";
import { channelAmounts } from "./settlement";

/**
 * POST /v1/payment/charge-authorization (docs/customers.md): charge a saved card with the customer away. One
 * verb for every caller, the API's and a background job's (a subscription's renewal): no request is needed,
 * only the merchant, the mode, the charge and, to make it once, a caller-chosen `reference` and/or an
 * idempotency key.
 *
 *  1. The card must be the merchant's own in this mode (404 `authorization_not_found`) and active (409
 *     `authorization_inactive`: deactivated, or past its expiry by its clock), and its rail must take the
 *     currency (400 `channel_unavailable`): all refused before anything is written or the rail is asked.
 *  2. A new payment (channel card, fees as for any card payment, the card's customer) and its card attempt
 *     commit together, with the rail's reference of the attempt (record-rail-charge.ts). The payment's
 *     reference and the key's keyed hash are unique: a second run with either finds the first payment and
 *     answers it as it stands, never charging again (a key with another body: 422; a reference another
 *     payment has: 409 `reference_in_use`).
 *  3. The card's rail is asked outside any database transaction; its answer goes through the card path of
 *     every card payment (applyCardOutcome): success completes the payment (payment.completed), a decline
 *     fails it (payment.failed), a step the bank asks for leaves it `pending` for the customer to finish on
 *     the hosted page. A process that dies while the rail holds the attempt leaves it `authorizing`, and card
 *     reconciliation (reconcile-cards.ts) asks the rail what it decided, as for any card attempt.
 */
export async function chargeAuthorization(input: {
  merchantId: string;
  mode: Mode;
  charge: ChargeAuthorizationInput;
  idempotency?: { key: string; requestHash: string } | null;
  /** A subscription's invoice this charge pays (lib/subscriptions/run-invoice.ts): its outcome settles it. */
  invoice?: { id: string; subscriptionId: string };
}) {
  const { charge } = input;
  const {
    row: authorization,
    customer,
    token,
  } = await authorizationForCharge({
    merchantId: input.merchantId,
    mode: input.mode,
    code: charge.authorizationCode,
  });
  const rails = await railsOfSavedCard({
    merchantId: input.merchantId,
    mode: input.mode,
    rail: authorization.rail,
    keySource: authorization.key_source,
  });
  if (rails.currencies !== "any" && !rails.currencies.includes(charge.currency)) {
    throw new AppError(
      "channel_unavailable",
      `currency: this saved card's processor takes ${rails.currencies.join(", ")} only; nothing was charged.`,
    );
  }
  const merchant = await db()
    .selectFrom("merchants")
    .select(["merchant_bears_cost", "fee_schedule"])
    .where("id", "=", input.merchantId)
    .executeTakeFirstOrThrow();
  const keyed = input.idempotency
    ? {
        ref: keyedHash(
          await pepper(),
          JSON.stringify(["charge-authorization", input.merchantId, input.mode, input.idempotency.key]),
        ),
        requestHash: input.idempotency.requestHash,
      }
    : null;
  const fees = feesFor(charge.amountMinor, charge.currency, merchant.fee_schedule);
  const now = Date.now();
  const row: TransactionRow = {
    id: newId(),
    reference: charge.reference ?? newReference(),
    merchant_id: input.merchantId,
    mode: input.mode,
    access_code: newAccessCode(),
    access_expires_at: now + env().ACCESS_CODE_TTL_SECONDS * 1000,
    amount_minor: charge.amountMinor,
    currency: charge.currency,
    email: customer.email,
    customer_name: customer.name,
    callback_url: null,
    locale: null,
    description: charge.description ?? null,
    metadata: charge.metadata ? JSON.stringify(charge.metadata) : null,
    distribution: null,
    merchant_bears_cost: merchant.merchant_bears_cost,
    channels: serializeChannels(["card"]),
    card_fee_minor: fees.cardFeeMinor,
    transfer_fee_minor: fees.transferFeeMinor,
    status: "pending",
    channel: null,
    fees_minor: null,
    total_minor: null,
    amount_settled_minor: null,
    paid_at: null,
    created_at: now,
    updated_at: now,
    mismatch_expected_minor: null,
    mismatch_received_minor: null,
    payment_link_id: null,
    amount_refunded_minor: 0,
    refund_credit_minor: 0,
    idempotency_ref: keyed?.ref ?? null,
    idempotency_request_hash: keyed?.requestHash ?? null,
    link_place_until: null,
    link_payment_started_at: null,
    link_holder: null,
    customer_id: customer.id,
    save_card: null,
    authorization_id: authorization.id,
    invoice_id: input.invoice?.id ?? null,
    subscription_id: input.invoice?.subscriptionId ?? null,
    plan_id: null,
    merchant_initiated: 1,
  };
  const summary: CardSummary = {
    brand: authorization.brand,
    last4: authorization.last4,
    expiryMonth: authorization.exp_month,
    expiryYear: authorization.exp_year,
    savedCard: authorization.id,
  };
  const started = await db()
    .transaction()
    .execute(async (trx) => {
      // A conflict on the reference or the key's hash: a charge made before (the first run's answer was lost,
      // or two runs raced); this one makes nothing.
      const inserted = await trx
        .insertInto("transactions")
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return null;
      const attemptId = await createAttempt(trx, row, "card", "authorizing", summary);
      await recordRailCharge(trx, rails, {
        tx: row,
        attemptId,
        channel: "card",
        amountMinor: channelAmounts(row, "card").totalMinor,
      });
      return attemptId;
    });
  if (started === null) return chargeMadeBefore(input, row, keyed);

  const principal = { transactionId: row.id };
  const outcome = await callCardRail(principal, started, () =>
    rails.card.chargeAuthorization({
      attemptId: started,
      token,
      amountMinor: channelAmounts(row, "card").totalMinor,
      currency: row.currency,
      reference: row.reference,
      email: customer.email,
    }),
  );
  await applyCardOutcome({ principal, attemptId: started, summary, outcome });
  return answerOf(row.id);
}

/** The charge as it stands now (the payment, its card attempt, its saved card). */
async function answerOf(transactionId: string) {
  const tx = await db()
    .selectFrom("transactions")
    .selectAll()
    .where("id", "=", transactionId)
    .executeTakeFirstOrThrow();
  const attempt = await db()
    .selectFrom("charge_attempts")
    .select(["status", "failure_reason"])
    .where("transaction_id", "=", tx.id)
    .where("channel", "=", "card")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  const authorization = await db()
    .selectFrom("card_authorizations")
    .selectAll()
    .where("id", "=", tx.authorization_id ?? "")
    .executeTakeFirstOrThrow();
  return presentAuthorizationCharge(tx, attempt, authorization);
}

/**
 * The payment an earlier run made with this key (its body must be the same: 422 otherwise) or this reference
 * (it must be a charge of the same saved card, amount and currency by this merchant in this mode: 409
 * `reference_in_use` otherwise, whoever's it is), answered as it stands.
 */
async function chargeMadeBefore(
  input: { merchantId: string; mode: Mode },
  row: TransactionRow,
  keyed: { ref: string; requestHash: string } | null,
) {
  if (keyed) {
    const earlier = await db()
      .selectFrom("transactions")
      .select(["id", "idempotency_request_hash"])
      .where("idempotency_ref", "=", keyed.ref)
      .executeTakeFirst();
    if (earlier) {
      if (earlier.idempotency_request_hash !== keyed.requestHash) {
        throw new AppError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request body; use a new key for a new request.",
        );
      }
      return answerOf(earlier.id);
    }
  }
  const same = await db()
    .selectFrom("transactions")
    .select([
      "id",
      "merchant_id",
      "mode",
      "merchant_initiated",
      "authorization_id",
      "amount_minor",
      "currency",
    ])
    .where("reference", "=", row.reference)
    .executeTakeFirst();
  if (
    same &&
    same.merchant_id === input.merchantId &&
    same.mode === input.mode &&
    same.merchant_initiated === 1 &&
    same.authorization_id === row.authorization_id &&
    BigInt(same.amount_minor) === BigInt(row.amount_minor) &&
    same.currency === row.currency
  ) {
    return answerOf(same.id);
  }
  throw new AppError(
    "reference_in_use",
    `reference: ${row.reference} is already the reference of another payment; charge with a new reference, or leave it out.`,
  );
}
