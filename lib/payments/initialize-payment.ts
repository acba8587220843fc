import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import type { MerchantPricing } from "@/lib/core/principal";
import { ensureCustomer } from "@/lib/customers/ensure-customer";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import type { Database, Mode } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { env } from "@/lib/env";
import { feesFor } from "@/lib/money/fees";
import { pepper } from "@/lib/security/pepper";
import { keyedHash, newId } from "@/lib/security/tokens";
import { type Channel, channelServes, parseChannels, serializeChannels } from "./channel-list";
import { merchantPricing } from "./merchant-pricing";
import { planPayment } from "./plan-payment";
import { presentSession } from "./present";
import { newAccessCode, newReference } from "./references";
import type { InitializeInput } from "./schemas";

/**
 * Create a pending transaction for a merchant and mode: fees and totals from the fee schedule, the merchant's
 * enabled channels (narrowed by `channels` when a payment link asks), a reference and an access code.
 */
export async function initializePayment(input: {
  merchantId: string;
  mode: Mode;
  payment: InitializeInput;
  channels?: readonly Channel[];
  /** Set by payment links, which run this inside their own transaction (the link row locked). */
  paymentLinkId?: string;
  trx?: Trx;
  /** The merchant's settings when the caller has them already (the secret key lookup reads them). */
  merchant?: MerchantPricing;
  /** How long the access code lives, when not ACCESS_CODE_TTL_SECONDS (usage-limited payment links). */
  accessTtlSeconds?: number;
  /** The request's `Idempotency-Key` and its body's keyed hash (lib/http/with-api.ts), kept on the row. */
  idempotency?: { key: string; requestHash: string } | null;
  /** A usage-limited link's place (lib/links/holds-place.ts): held until `until`, for the address `holder`. */
  linkPlace?: { until: number; holder: string };
}) {
  const executor = input.trx ?? db();
  const merchant =
    input.merchant ??
    (await executor
      .selectFrom("merchants")
      .select(["channels", "merchant_bears_cost", "fee_schedule"])
      .where("id", "=", input.merchantId)
      .executeTakeFirst()
      .then((m) => m && merchantPricing(m)));
  if (!merchant) throw new AppError("invalid_api_key", "The merchant of this key no longer exists.");

  // Initialize with `plan`: the plan's amount and currency, the card saved (lib/payments/plan-payment.ts).
  const { payment: p, planId } = await planPayment(executor, input, input.payment);
  if (p.saveCard && !p.email) {
    throw new AppError(
      "email_required",
      "saveCard needs the customer's email: a saved card belongs to the customer of that email. Pass email to initialize.",
    );
  }
  const enabled = parseChannels(merchant.channels);
  const asked = input.channels ? enabled.filter((c) => input.channels?.includes(c)) : enabled;
  // A card the payment's terms save: only the card channel is offered.
  const requested = p.saveCard === "required" ? asked.filter((c) => c === "card") : asked;
  if (p.saveCard === "required" && requested.length === 0) {
    throw new AppError(
      "channel_unavailable",
      'saveCard "required" takes the payment by card, and card payments are not enabled for this merchant.',
    );
  }
  // Only channels that can take this currency are offered (no USSD for GHS or KES).
  const channels = requested.filter((c) => channelServes(c, p.currency));
  if (channels.length === 0) {
    throw new AppError(
      "channel_unavailable",
      requested.length === 0
        ? "None of the requested channels is enabled for this merchant."
        : `None of the enabled channels (${requested.join(", ")}) takes ${p.currency} payments.`,
    );
  }

  // The merchant's own rules where it has set them (fixed on the transaction now: later changes never
  // reprice a payment already offered).
  const fees = feesFor(p.amountMinor, p.currency, merchant.feeSchedule);
  // With an Idempotency-Key, the transaction keeps it. lib/http/idempotency.ts answers a retry from the stored
  // answer; this covers the retry whose first run committed the transaction but died before storing that
  // answer: its insert meets the unique key and it answers with the transaction the key made
  // (docs/decisions/005). No lookup before the insert: a key's first run pays nothing extra.
  const keyed = input.idempotency
    ? {
        ref: keyedHash(
          await pepper(),
          JSON.stringify(["initialize", input.merchantId, input.mode, input.idempotency.key]),
        ),
        requestHash: input.idempotency.requestHash,
      }
    : null;
  const now = Date.now();
  // Every payment with an email belongs to that email's customer, made on first use.
  const customerId = p.email
    ? await ensureCustomer(executor, {
        merchantId: input.merchantId,
        mode: input.mode,
        email: p.email,
        name: p.customerName,
        at: now,
      })
    : null;
  const row = {
    id: newId(),
    reference: newReference(),
    merchant_id: input.merchantId,
    mode: input.mode,
    access_code: newAccessCode(),
    access_expires_at: now + (input.accessTtlSeconds ?? env().ACCESS_CODE_TTL_SECONDS) * 1000,
    amount_minor: p.amountMinor,
    currency: p.currency,
    email: p.email ?? null,
    customer_name: p.customerName ?? null,
    callback_url: p.callbackUrl ?? null,
    locale: p.locale ?? null,
    description: p.description ?? null,
    metadata: p.metadata ? JSON.stringify(p.metadata) : null,
    distribution: p.distributionMinor
      ? JSON.stringify(
          Object.fromEntries(Object.entries(p.distributionMinor).map(([k, v]) => [k, v.toString()])),
        )
      : null,
    merchant_bears_cost: (p.merchantBearsCost ?? merchant.merchantBearsCost) ? 1 : 0,
    channels: serializeChannels(channels),
    card_fee_minor: fees.cardFeeMinor,
    transfer_fee_minor: fees.transferFeeMinor,
    status: "pending",
    channel: null,
    fees_minor: null,
    total_minor: null,
    amount_settled_minor: null,
    paid_at: null,
    mismatch_expected_minor: null,
    mismatch_received_minor: null,
    payment_link_id: input.paymentLinkId ?? null,
    amount_refunded_minor: 0,
    refund_credit_minor: 0,
    idempotency_ref: keyed?.ref ?? null,
    idempotency_request_hash: keyed?.requestHash ?? null,
    link_place_until: input.linkPlace?.until ?? null,
    link_holder: input.linkPlace?.holder ?? null,
    customer_id: customerId,
    save_card: p.saveCard ?? null,
    authorization_id: null,
    invoice_id: null,
    subscription_id: null,
    plan_id: planId,
    merchant_initiated: 0,
    link_payment_started_at: null,
    created_at: now,
    updated_at: now,
  };
  try {
    await executor.insertInto("transactions").values(row).execute();
  } catch (err) {
    // The key made a transaction already (a retry after its answer was lost, or two runs at once when the
    // first outlived its claim on the key): answer with that one.
    if (keyed && isUniqueViolation(err)) {
      const earlier = await madeWithKey(executor, keyed.ref, keyed.requestHash);
      if (earlier) return earlier;
    }
    throw err;
  }
  return presentSession(row);
}

/** The session of the transaction an earlier run with this key made, or undefined; 422 for another body. */
async function madeWithKey(executor: Kysely<Database>, idempotencyRef: string, requestHash: string) {
  const earlier = await executor
    .selectFrom("transactions")
    .selectAll()
    .where("idempotency_ref", "=", idempotencyRef)
    .executeTakeFirst();
  if (!earlier) return undefined;
  if (earlier.idempotency_request_hash !== requestHash) {
    throw new AppError(
      "idempotency_key_reused",
      "This Idempotency-Key was already used with a different request body; use a new key for a new request.",
    );
  }
  return presentSession(earlier);
}
