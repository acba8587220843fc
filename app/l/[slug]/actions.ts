"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { type FieldIssue, isAppError } from "@/lib/core/errors";
import { validationFailure } from "@/lib/core/validation";
import { clientAddressOf } from "@/lib/http/client-address";
import { isLocale } from "@/lib/i18n/locales";
import { linkAvailability } from "@/lib/links/link-availability";
import { payPaymentLink } from "@/lib/links/pay-payment-link";
import type { UnavailableKey } from "@/lib/links/present";
import { PayLinkBody } from "@/lib/links/schemas";

/** What starting a payment through a link led to: the checkout, or the failure with its failing fields. */
export type LinkStart =
  | { ok: true; checkoutUrl: string }
  | {
      ok: false;
      error: string;
      fields: FieldIssue[];
      /** With `payment_link_unavailable`: why, when the link itself says (deactivated, expired, used up). */
      unavailable?: UnavailableKey | null;
    };

/**
 * Start paying through a link: the same verb as POST /v1/merchants/payment-links/{slug}/pay, answered with
 * the failing fields by path and rule (the page words them in the customer's language), not the API's English
 * sentences. The checkout address keeps the page's language.
 */
export async function startLinkPayment(slug: string, input: unknown, lang: string): Promise<LinkStart> {
  const body = PayLinkBody.safeParse(input);
  if (!body.success) {
    return {
      ok: false,
      error: "validation_error",
      fields: [...validationFailure(body.error.issues, "body").fields],
    };
  }
  try {
    const session = await payPaymentLink({
      slug,
      ...body.data,
      clientAddress: clientAddressOf(await headers()),
    });
    const url = new URL(session.checkoutUrl);
    if (isLocale(lang) && lang !== "en") url.searchParams.set("lang", lang);
    return { ok: true, checkoutUrl: url.toString() };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return {
      ok: false,
      error: err.code,
      fields: [...err.fields],
      ...(err.code === "payment_link_unavailable" && { unavailable: await linkAvailability(slug) }),
    };
  }
}

/**
 * The payment link's form when the browser posts it itself (before the page's code runs, or with JavaScript
 * off): startLinkPayment, then on to checkout; when it cannot start, back to the link with a problem code,
 * and for a refused answer the field and rule, that the page words itself (never text from the request).
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
  const started = await startLinkPayment(
    slug,
    {
      ...(text("amount") && { amount: text("amount") }),
      email: text("email") || null,
      ...(text("customerName") && { customerName: text("customerName") }),
      fields: answers,
    },
    lang,
  );
  if (started.ok) redirect(started.checkoutUrl);
  const issue = started.fields[0];
  const query = new URLSearchParams({
    problem: started.error,
    ...(issue && { field: issue.field, rule: issue.rule }),
    ...(language && { lang: language }),
  });
  redirect(`/l/${encodeURIComponent(slug)}?${query}`);
}
