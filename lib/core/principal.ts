/**
 * Who is calling, and the types every layer shares about them: the domain's verbs take a principal, the
 * transport (lib/http) makes one from a credential. Types only.
 */

import type { Role } from "./roles";

/** Test or live: every key, transaction, link, endpoint and event carries one (lib/db/schema.ts stores it). */
export type Mode = "test" | "live";

/** A merchant's checkout settings as the secret key's lookup reads them (lib/merchants/present.ts). */
export type MerchantPricing = { channels: string; merchantBearsCost: boolean; feeSchedule: string | null };

/** Who is calling, as established by one of the credentials of docs/api.md ("Endpoints"). */
export type SecretKeyPrincipal = {
  kind: "secret_key";
  merchantId: string;
  mode: Mode;
  keyId: string;
  /** The key's last four characters: how the audit log names it. */
  keyLast4: string;
  /** The merchant's checkout settings, read with the key (initialize needs them; one query fewer). */
  merchant: MerchantPricing;
};
export type AccessCodePrincipal = {
  kind: "access_code";
  merchantId: string;
  mode: Mode;
  transactionId: string;
  reference: string;
};
/**
 * A signed-in member: a user (`userId`, `email`) acting in one merchant through one membership, with that
 * membership's role (lib/core/roles.ts), read afresh on every request so a changed role or a removal holds at once.
 */
export type SessionPrincipal = {
  kind: "session";
  merchantId: string;
  mode: Mode;
  sessionId: string;
  userId: string;
  membershipId: string;
  email: string;
  role: Role;
  /** The merchant requires two-factor sign-in and this user has not set it up: only `account.self` is allowed. */
  twoFactorMissing: boolean;
};
export type AnonymousPrincipal = { kind: "none" };

export type Principal = SecretKeyPrincipal | AccessCodePrincipal | SessionPrincipal | AnonymousPrincipal;
