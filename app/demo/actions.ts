"use server";

import { redirect } from "next/navigation";
import { createDemoPayment, DEMO_PRODUCTS, demoKey } from "@/lib/checkout/demo-store";
import { isLocale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Back to the store with a problem: a catalogue key (`demo.errors`) or the API's own message. */
function back(error: string, lang: string | null): never {
  redirect(`/demo?error=${encodeURIComponent(error)}${lang ? `&lang=${lang}` : ""}`);
}

/** The demo store's "Pay" button: create the payment server-side with the secret key, then go to checkout. */
export async function startDemoCheckout(form: FormData): Promise<void> {
  const chosen = form.get("lang");
  const locale = isLocale(chosen) ? chosen : null;
  const key = await demoKey();
  if (!key.ok) back("noKey", locale);
  const product = DEMO_PRODUCTS.find((p) => p.id === form.get("product"));
  if (!product) back("chooseProduct", locale);
  const email = String(form.get("email") ?? "").trim();
  if (!EMAIL.test(email) || email.length > 254) back("email", locale);
  const name = String(form.get("name") ?? "")
    .trim()
    .slice(0, 200);
  const created = await createDemoPayment({
    secretKey: key.secretKey,
    product,
    email,
    ...(name && { customerName: name }),
    ...(locale && { locale, productName: messagesFor(locale).demo.products[product.id] }),
  });
  if (!created.ok) back(created.message, locale);
  redirect(created.checkoutUrl);
}
