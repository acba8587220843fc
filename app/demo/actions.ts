"use server";

import { redirect } from "next/navigation";
import { allowDemoStoreToEmbed, createDemoPayment, DEMO_PRODUCTS, demoKey } from "@/lib/checkout/demo-store";
import { isLocale } from "@/lib/i18n/locales";
import { messagesFor } from "@/lib/i18n/messages";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What the order form shows again after a problem: a key of the store's catalogue (`demo.errors`), the
 * payment service's message when it refused the store's own request, and what was typed.
 */
export type DemoFormState = {
  problem: "noKey" | "chooseProduct" | "email" | "notCreated" | "popupFailed" | null;
  detail: string | null;
  email: string;
  name: string;
  /** "Pay in a popup": the checkout to open over the store's page (demo-form.tsx). */
  popup: { accessCode: string } | null;
};

/**
 * The demo store's "Pay" buttons: create the payment server-side with the secret key, then go to checkout, or
 * ("Pay in a popup", `mode=popup`) answer its access code for the page to open the checkout over itself.
 */
export async function startDemoCheckout(_: DemoFormState, form: FormData): Promise<DemoFormState> {
  const chosen = form.get("lang");
  const locale = isLocale(chosen) ? chosen : null;
  const email = String(form.get("email") ?? "").trim();
  const name = String(form.get("name") ?? "")
    .trim()
    .slice(0, 200);
  const again = (problem: DemoFormState["problem"], detail: string | null = null): DemoFormState => ({
    problem,
    detail,
    email: email.slice(0, 254),
    name,
    popup: null,
  });
  const key = await demoKey();
  if (!key.ok) return again("noKey");
  const product = DEMO_PRODUCTS.find((p) => p.id === form.get("product"));
  if (!product) return again("chooseProduct");
  if (!EMAIL.test(email) || email.length > 254) return again("email");
  const created = await createDemoPayment({
    secretKey: key.secretKey,
    product,
    email,
    ...(name && { customerName: name }),
    ...(locale && { locale, productName: messagesFor(locale).demo.products[product.id] }),
  });
  if (!created.ok) return again("notCreated", created.message);
  if (form.get("mode") === "popup") {
    if (!(await allowDemoStoreToEmbed({ secretKey: key.secretKey }))) return again("popupFailed");
    return { ...again(null), popup: { accessCode: created.accessCode } };
  }
  redirect(created.checkoutUrl);
}
