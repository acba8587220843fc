"use server";

import { refresh } from "next/cache";
import { headers } from "next/headers";
import { setCheckoutLocale } from "@/lib/checkout/set-checkout-locale";
import { clientAddressOf } from "@/lib/http/client-address";
import { isAppError } from "@/lib/http/errors";
import { isLocale } from "@/lib/i18n/locales";

/**
 * The checkout's language menu: keep the customer's pick on the payment and render the page again in place
 * (client state, the selected tab and the account shown, stays). An unknown code or language changes nothing.
 */
export async function chooseCheckoutLanguage(form: FormData): Promise<void> {
  const accessCode = String(form.get("accessCode") ?? "");
  const locale = form.get("lang");
  if (!isLocale(locale)) return;
  try {
    await setCheckoutLocale({ accessCode, locale, clientAddress: clientAddressOf(await headers()) });
  } catch (err) {
    if (!isAppError(err)) throw err;
    return;
  }
  refresh();
}
