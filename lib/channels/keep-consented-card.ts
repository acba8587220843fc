import { saveAuthorization } from "@/lib/customers/save-authorization";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { sandboxRails } from "@/lib/rails/sandbox";
import type { ReusableCard } from "@/lib/rails/types";
import type { CardSummary } from "./apply-card-outcome";
import { cardDetails } from "./waiting-card-attempt";

/**
 * The card of a card attempt that paid: kept as its customer's saved card when the customer agreed (the
 * attempt carries the consent) and the network gave a reusable card, inside the payment's database
 * transaction and before it is completed, so verify and payment.completed name the authorization. The
 * transaction's row comes back with it. Nothing happens for a payment without consent, a network that gave
 * no reusable card (then the consent cannot be honoured and nothing is kept), or one already kept.
 */
export async function keepConsentedCard(
  trx: Trx,
  tx: TransactionRow,
  attemptId: string,
  reusable: ReusableCard | undefined,
): Promise<TransactionRow> {
  if (!reusable || tx.authorization_id !== null || tx.customer_id === null) return tx;
  const attempt = await trx
    .selectFrom("charge_attempts")
    .select(["details", "status"])
    .where("id", "=", attemptId)
    .executeTakeFirstOrThrow();
  const summary: CardSummary = cardDetails(attempt).summary;
  const consent = summary.consent;
  if (!consent) return tx;
  // The rail that took the payment keeps the card: a processor's charges are recorded (rail_charges), the
  // sandbox's are not.
  const charge = await trx
    .selectFrom("rail_charges")
    .select(["rail", "key_source"])
    .where("attempt_id", "=", attemptId)
    .executeTakeFirst();
  const authorizationId = await saveAuthorization(
    trx,
    {
      merchantId: tx.merchant_id,
      mode: tx.mode,
      customerId: tx.customer_id,
      fingerprint: consent.fingerprint,
      rail: charge?.rail ?? sandboxRails.name,
      keySource: charge?.key_source ?? null,
      token: reusable.token,
      brand: summary.brand,
      last4: summary.last4,
      expMonth: summary.expiryMonth,
      expYear: summary.expiryYear,
      bank: reusable.bank,
    },
    {
      kind: consent.kind,
      text: consent.text,
      locale: consent.locale,
      clientAddress: consent.clientAddress,
      givenAt: consent.givenAt,
      transactionId: tx.id,
    },
  );
  await trx
    .updateTable("transactions")
    .set({ authorization_id: authorizationId })
    .where("id", "=", tx.id)
    .execute();
  // A subscription this payment started before its card was kept (a processor's webhook completed it first)
  // gets the card now, to renew with.
  const started = await trx
    .selectFrom("transactions")
    .select("subscription_id")
    .where("id", "=", tx.id)
    .executeTakeFirstOrThrow();
  if (tx.plan_id && started.subscription_id) {
    await trx
      .updateTable("subscriptions")
      .set({ authorization_id: authorizationId })
      .where("id", "=", started.subscription_id)
      .where("authorization_id", "is", null)
      .execute();
  }
  return { ...tx, authorization_id: authorizationId };
}
