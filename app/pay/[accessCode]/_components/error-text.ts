import type { CheckoutMessages } from "@/lib/i18n/messages/en";
import type { ApiError } from "./api";

/**
 * An API error as the customer reads it: the API's own message in English (it is written for them), and in
 * other languages the catalogue's words for the codes a customer meets, or a generic "try again".
 */
export function errorText(err: ApiError, t: CheckoutMessages, locale: string): string {
  if (locale === "en") return err.message;
  if (err.code === "network_error") return t.errors.network;
  return t.errors[err.code as keyof CheckoutMessages["errors"]] ?? t.errors.generic;
}
