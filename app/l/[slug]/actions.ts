"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isAppError } from "@/lib/core/errors";
import { clientAddressOf } from "@/lib/http/client-address";
import { isLocale } from "@/lib/i18n/locales";
import { payPaymentLink } from "@/lib/links/pay-payment-link";
import { PayLinkBody } from "@/lib/links/schemas";

/**
 * The payment link's form when the browser posts it itself (before the page's code runs, or with JavaScript
 * off): the same verb as POST /v1/merchants/payment-links/{slug}/pay, then on to checkout in the page's
 * language; when it cannot start, back to the link with a problem code the page words (never text from the
 * request).
 */
export async function payLinkForm(form: FormData): Promise<void> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim() : "";
  };
  const slug = text("slug");
  const lang = text("lang");
  const language = isLocale(lang) && lang !== "en" ? lang : null;
  const answers: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (name.startsWith("field:") && typeof value === "string" && value.trim())
      answers[name.slice("field:".length)] = value.trim();
  }
  const body = PayLinkBody.safeParse({
    ...(text("amount") && { amount: text("amount") }),
    email: text("email") || null,
    ...(text("customerName") && { customerName: text("customerName") }),
    fields: answers,
  });
  let problem = "validation_error";
  if (body.success) {
    try {
      const session = await payPaymentLink({
        slug,
        ...body.data,
        clientAddress: clientAddressOf(await headers()),
      });
      const url = new URL(session.checkoutUrl);
      if (language) url.searchParams.set("lang", language);
      redirect(url.toString());
    } catch (err) {
      if (!isAppError(err)) throw err;
      problem = err.code;
    }
  }
  const query = new URLSearchParams({ problem, ...(language && { lang: language }) });
  redirect(`/l/${encodeURIComponent(slug)}?${query}`);
}
