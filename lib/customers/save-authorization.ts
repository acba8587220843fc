import type { Mode } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { loadedPepper, pepper } from "@/lib/security/pepper";
import { seal } from "@/lib/security/seal";
import { newId } from "@/lib/security/tokens";
import { newAuthorizationCode } from "./codes";
import { tokenSeal } from "./token-seal";

/** What a card's rail gave to charge the card again, and what is shown of the card. */
export type SavedCardInput = {
  merchantId: string;
  mode: Mode;
  customerId: string;
  /** cardFingerprint() of the number (computed before the payment's database transaction). */
  fingerprint: string;
  rail: string;
  keySource: string | null;
  token: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  bank: string | null;
};

/** The consent the customer gave on the checkout, as it was recorded with the card payment. */
export type ConsentInput = {
  kind: "optional" | "required";
  text: string;
  locale: string;
  clientAddress: string;
  givenAt: number;
  transactionId: string;
};

/**
 * Keep a card paid with consent as an authorization of its customer, inside the payment's database
 * transaction, with the consent. The same card (its fingerprint) saved again by the same customer while its
 * authorization is active is that authorization again: its rail token, expiry and bank become the latest (a
 * renewed card), and the new consent is added. Two saves of one card at once make one authorization (the
 * unique active fingerprint per customer decides which insert wins). Returns the authorization's code.
 */
export async function saveAuthorization(
  trx: Trx,
  card: SavedCardInput,
  consent: ConsentInput,
): Promise<string> {
  const peppered = loadedPepper() ?? (await pepper());
  const now = Date.now();
  const code = newAuthorizationCode();
  const sealFor = (authorizationId: string) =>
    seal(peppered, card.token, tokenSeal({ authorizationId, merchantId: card.merchantId, mode: card.mode }));
  const inserted = await trx
    .insertInto("card_authorizations")
    .values({
      id: code,
      merchant_id: card.merchantId,
      mode: card.mode,
      customer_id: card.customerId,
      fingerprint: card.fingerprint,
      active_fingerprint: card.fingerprint,
      rail: card.rail,
      key_source: card.keySource,
      token_sealed: sealFor(code),
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      bank: card.bank,
      status: "active",
      created_at: now,
      updated_at: now,
      last_used_at: null,
      deactivated_at: null,
    })
    .onConflict((oc) => oc.columns(["customer_id", "active_fingerprint"]).doNothing())
    .executeTakeFirst();
  let id = code;
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) {
    const existing = await trx
      .selectFrom("card_authorizations")
      .select("id")
      .where("customer_id", "=", card.customerId)
      .where("active_fingerprint", "=", card.fingerprint)
      .executeTakeFirstOrThrow();
    id = existing.id;
    await trx
      .updateTable("card_authorizations")
      .set({
        rail: card.rail,
        key_source: card.keySource,
        token_sealed: sealFor(id),
        brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        bank: card.bank,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
  }
  await trx
    .insertInto("card_consents")
    .values({
      id: newId(),
      authorization_id: id,
      merchant_id: card.merchantId,
      mode: card.mode,
      transaction_id: consent.transactionId,
      kind: consent.kind,
      text: consent.text,
      locale: consent.locale,
      client_address: consent.clientAddress,
      given_at: consent.givenAt,
    })
    .execute();
  return id;
}
