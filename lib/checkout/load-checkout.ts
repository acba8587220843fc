import { bankChoices, countryForCurrency, findBank } from "@/lib/banks/banks";
import { isAppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { authenticateAccessCode } from "@/lib/payments/authenticate-access-code";
import { chargeAction } from "@/lib/payments/charge-action";
import { presentCheckoutRecord, presentSession } from "@/lib/payments/present";
import { isTerminal } from "@/lib/payments/status";
import { USSD_TYPES } from "@/lib/rails/paystack/connector";
import { paystackKeyFor } from "@/lib/rails/paystack/keys";
import { receiptsByEmail } from "@/lib/receipts/transport";
import { currentAttempt } from "./current-attempt";
import type { CheckoutRecord, CheckoutView } from "./types";

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  verve: "Verve",
  amex: "American Express",
  discover: "Discover",
};

/** "Visa •••• 4242" or the bank's name, from a successful attempt's details; null when they say nothing. */
export function describeInstrument(channel: string, detailsJson: string): string | null {
  let details: Record<string, unknown>;
  try {
    details = JSON.parse(detailsJson) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (channel === "card") {
    const brand = typeof details.brand === "string" ? (BRANDS[details.brand] ?? "Card") : "Card";
    const last4 = typeof details.last4 === "string" && /^\d{4}$/.test(details.last4) ? details.last4 : null;
    return last4 ? `${brand} •••• ${last4}` : brand;
  }
  return typeof details.bankName === "string" ? details.bankName : null;
}

/** What the pay page shows for an access code (see `loadCheckout`). */
export type CheckoutLoad =
  | { kind: "found"; view: CheckoutView }
  | { kind: "not_found" }
  | { kind: "rate_limited" };

/**
 * The hosted checkout's view of one access code. `not_found` when the code is unknown, expired or of the
 * other mode than this deployment (the page answers 404 "This payment link is not valid"); `rate_limited`
 * when this client address has spent its unknown-code attempts, whatever the code (the page says so, and
 * does not claim the link is invalid). The code is checked by the same rule as the API's `x-access-code`
 * (`authenticateAccessCode`), so unknown codes from one address count against the same rate limit and
 * cannot be guessed faster through the page than through the API.
 */
export async function loadCheckout(input: {
  accessCode: string;
  clientAddress: string;
}): Promise<CheckoutLoad> {
  let transactionId: string;
  try {
    const principal = await authenticateAccessCode(input);
    transactionId = principal.transactionId;
  } catch (err) {
    if (isAppError(err) && err.code === "invalid_access_code") return { kind: "not_found" };
    if (isAppError(err) && err.code === "rate_limited") return { kind: "rate_limited" };
    throw err;
  }
  const mode = deploymentMode();
  const found = await db()
    .selectFrom("transactions")
    .innerJoin("merchants", "merchants.id", "transactions.merchant_id")
    .selectAll("transactions")
    .select([
      "merchants.business_name as merchant_name",
      "merchants.brand_color as merchant_brand_color",
      "merchants.logo_url as merchant_logo_url",
    ])
    .where("transactions.id", "=", transactionId)
    .where("transactions.mode", "=", mode)
    .where("transactions.access_expires_at", ">", Date.now())
    .executeTakeFirst();
  if (!found) return { kind: "not_found" };
  const { merchant_name, merchant_brand_color, merchant_logo_url, ...row } = found;
  const paidAttempt =
    row.status === "success"
      ? await db()
          .selectFrom("charge_attempts")
          .select(["channel", "details"])
          .where("transaction_id", "=", row.id)
          .where("status", "=", "success")
          .orderBy("updated_at", "desc")
          .limit(1)
          .executeTakeFirst()
      : undefined;
  const session = presentSession(row);
  // A merchant's charge of a saved card shows that card (brand and last 4, all there is of it).
  const saved =
    row.merchant_initiated === 1 && row.authorization_id
      ? await db()
          .selectFrom("card_authorizations")
          .select(["brand", "last4"])
          .where("id", "=", row.authorization_id)
          .executeTakeFirst()
      : undefined;
  // Whether a payment processor (Paystack) takes this merchant's payments of the mode: the same rule as
  // railsFor, without refusing (a live checkout without one shows what the charges answer: live_not_connected).
  const plan = row.plan_id
    ? await db()
        .selectFrom("plans")
        .select(["name", "amount_minor", "currency", "interval"])
        .where("id", "=", row.plan_id)
        .executeTakeFirst()
    : undefined;
  const processor = (await paystackKeyFor({ merchantId: row.merchant_id, mode })) !== undefined;
  const action = isTerminal(row.status) ? undefined : await chargeAction(db(), row.id);
  const country = countryForCurrency(row.currency);
  const view: CheckoutView = {
    accessCode: row.access_code,
    reference: row.reference,
    merchant: {
      name: merchant_name,
      // Validated on input already; checked again because it ends up inside a <style> element.
      brandColor: merchant_brand_color && HEX_COLOUR.test(merchant_brand_color) ? merchant_brand_color : null,
      logoUrl: merchant_logo_url && /^https?:\/\//i.test(merchant_logo_url) ? merchant_logo_url : null,
    },
    email: row.email,
    customerName: row.customer_name,
    description: row.description,
    amount: session.amount,
    currency: session.currency,
    channels: session.channels,
    totals: { card: session.cardTotal, transfer: session.transferTotal },
    fees: { card: session.cardFee, transfer: session.transferFee },
    merchantBearsCost: session.merchantBearsCost,
    callbackUrl: row.callback_url,
    testMode: mode === "test",
    sandbox: mode === "test" && !processor,
    bankNeedsAccount: processor,
    // Through Paystack, only the banks whose USSD codes its USSD charge takes.
    ussdBanks: bankChoices(country, { ussdOnly: true }).filter(
      (b) =>
        !processor ||
        (USSD_TYPES as readonly string[]).includes(
          (findBank(country, b.code)?.ussd ?? "").replace(/[*#]/g, ""),
        ),
    ),
    paymentBanks: session.channels.includes("bank_payment") ? bankChoices(country) : [],
    attempt: await currentAttempt(row),
    receiptsByEmail: receiptsByEmail(),
    paidWith: paidAttempt ? describeInstrument(paidAttempt.channel, paidAttempt.details) : null,
    record: { ...presentCheckoutRecord(row), ...(action && { action }) } as CheckoutRecord,
    saveCard: row.merchant_initiated === 1 ? null : (row.save_card as CheckoutView["saveCard"]),
    savedCard: saved ? { brand: saved.brand, last4: saved.last4 } : null,
    // The payment's own amount and currency are the plan's first period (the plan's, when it was initialized).
    plan: plan
      ? { name: plan.name, amount: session.amount, currency: session.currency, interval: plan.interval }
      : null,
  };
  return { kind: "found", view };
}
