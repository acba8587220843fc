"use server";

import { refresh } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { setCheckoutLocale } from "@/lib/checkout/set-checkout-locale";
import { submitCheckoutForm } from "@/lib/checkout/submit-checkout-form";
import { isAppError } from "@/lib/core/errors";
import { clientAddressOf } from "@/lib/http/client-address";
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

/**
 * A checkout form the browser posted itself (before the page's code ran, or with JavaScript off): the same
 * verb as the page's own request (lib/checkout/submit-checkout-form.ts), then the page again, showing the
 * step it led to (303 See Other, so a reload does not post twice).
 */
export async function submitCheckout(form: FormData): Promise<void> {
  const { channel, problem } = await submitCheckoutForm({
    form,
    clientAddress: clientAddressOf(await headers()),
  });
  const query = new URLSearchParams();
  const lang = form.get("lang");
  if (isLocale(lang)) query.set("lang", lang);
  if (channel) query.set("channel", channel);
  if (problem) query.set("problem", problem);
  // An embedded checkout stays embedded (proxy.ts frames it only for an origin its merchant lists).
  const embedOrigin = form.get("embedOrigin");
  if (typeof embedOrigin === "string" && embedOrigin.length <= 200) {
    query.set("embed", "1");
    query.set("origin", embedOrigin);
  }
  const accessCode = encodeURIComponent(String(form.get("accessCode") ?? ""));
  redirect(`/pay/${accessCode}${query.size ? `?${query}` : ""}`);
}
