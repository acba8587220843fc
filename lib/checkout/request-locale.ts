import { headers } from "next/headers";
import { cache } from "react";
import { DEFAULT_LOCALE, type Locale, resolveLocale } from "@/lib/i18n/locales";
import { checkoutLocale } from "./checkout-locale";

/** The pages that speak the customer's language (docs/checkout.md "Languages"); the rest is English. */
const HOSTED = /^\/(pay|l|demo|subscriptions)(\/|$)/;

/**
 * The language of this request's page, for the root layout's `<html lang>` and the page alike (one answer per
 * request: React's cache). The address comes from proxy.ts (`x-page-url`); on the checkout, the language kept
 * on the payment comes first.
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const requestHeaders = await headers();
  const address = requestHeaders.get("x-page-url");
  if (!address) return DEFAULT_LOCALE;
  const url = new URL(address, "http://page.invalid");
  if (!HOSTED.test(url.pathname)) return DEFAULT_LOCALE;
  const code = /^\/pay\/([^/]+)/.exec(url.pathname)?.[1];
  let stored: string | null = null;
  if (code) {
    try {
      stored = await checkoutLocale({ accessCode: decodeURIComponent(code) });
    } catch {
      // A malformed escape in the address: no stored language.
    }
  }
  return resolveLocale({
    stored,
    query: url.searchParams.get("lang"),
    acceptLanguage: requestHeaders.get("accept-language"),
  });
});
