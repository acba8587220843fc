import { randomString } from "@/lib/security/tokens";

/** Crockford's base32 (no I, L, O, U): codes a person can read out on a support call without ambiguity. */
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A customer's code: `CUS_` + 20 base32 characters (100 bits). */
export function newCustomerCode(): string {
  return `CUS_${randomString(20, BASE32)}`;
}

/** A saved card's code, the only one merchants see (a rail's own token stays sealed on the server). */
export function newAuthorizationCode(): string {
  return `AUTH_${randomString(20, BASE32)}`;
}

/** What a customer code looks like (paths, queries, cursors check it before any lookup). */
export const CUSTOMER_CODE = /^CUS_[0-9A-Z]{20}$/;

/** What an authorization code looks like. */
export const AUTHORIZATION_CODE = /^AUTH_[0-9A-Z]{20}$/;
