"use server";

import { redirect } from "next/navigation";
import { createDemoPayment, DEMO_PRODUCTS, demoKey } from "@/lib/checkout/demo-store";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function back(error: string): never {
  redirect(`/demo?error=${encodeURIComponent(error)}`);
}

/** The demo store's "Pay" button: create the payment server-side with the secret key, then go to checkout. */
export async function startDemoCheckout(form: FormData): Promise<void> {
  const key = await demoKey();
  if (!key.ok) back("The demo store has no merchant key yet; see the instructions on this page.");
  const product = DEMO_PRODUCTS.find((p) => p.id === form.get("product"));
  if (!product) back("Choose a product.");
  const email = String(form.get("email") ?? "").trim();
  if (!EMAIL.test(email) || email.length > 254) back("Enter a valid email address.");
  const name = String(form.get("name") ?? "")
    .trim()
    .slice(0, 200);
  const created = await createDemoPayment({
    secretKey: key.secretKey,
    product,
    email,
    ...(name && { customerName: name }),
  });
  if (!created.ok) back(created.message);
  redirect(created.checkoutUrl);
}
