import type { Mode } from "@/lib/db/schema";
import type { MerchantPricing } from "@/lib/merchants/present";

/** Who is calling, as established by one of the credentials of docs/api.md ("Endpoints"). */
export type SecretKeyPrincipal = {
  kind: "secret_key";
  merchantId: string;
  mode: Mode;
  keyId: string;
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
export type SessionPrincipal = { kind: "session"; merchantId: string; mode: Mode; sessionId: string };
export type AnonymousPrincipal = { kind: "none" };

export type Principal = SecretKeyPrincipal | AccessCodePrincipal | SessionPrincipal | AnonymousPrincipal;
