"use server";

import { redirect } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { isLocale } from "@/lib/i18n/locales";
import { cancelFromManagePage } from "@/lib/subscriptions/cancel-from-manage-page";
import { payWithAnotherCard } from "@/lib/subscriptions/pay-with-another-card";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Back to the page with what happened (a code the page words in its language), in the page's language. */
function back(token: string, lang: string, done: string): never {
  const query = new URLSearchParams({ done, ...(isLocale(lang) && lang !== "en" ? { lang } : {}) });
  redirect(`/subscriptions/manage/${encodeURIComponent(token)}?${query}`);
}

/** "Pay with another card": on to the hosted checkout of the overdue invoice. */
export async function payWithAnotherCardForm(form: FormData): Promise<void> {
  const token = field(form, "token");
  const lang = field(form, "lang");
  let url: string;
  try {
    url = await payWithAnotherCard({ token, locale: isLocale(lang) ? lang : null });
  } catch (err) {
    if (!isAppError(err)) throw err;
    back(token, lang, "problem");
  }
  redirect(url);
}

/** "Cancel at the end of the period". */
export async function cancelAtPeriodEndForm(form: FormData): Promise<void> {
  const token = field(form, "token");
  const lang = field(form, "lang");
  try {
    await cancelFromManagePage(token);
  } catch (err) {
    if (!isAppError(err)) throw err;
    back(token, lang, "problem");
  }
  back(token, lang, "cancelled");
}
