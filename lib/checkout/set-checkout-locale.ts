import { db } from "@/lib/db/client";
import type { Locale } from "@/lib/i18n/locales";
import { authenticateAccessCode } from "@/lib/payments/authenticate-access-code";

/**
 * The customer picked a language in the checkout's menu: it is kept on the payment, so a reload, another
 * tab or the return from a bank app shows the same language. The access code is the credential, checked
 * (and rate limited) as the checkout API checks it.
 */
export async function setCheckoutLocale(input: {
  accessCode: string;
  clientAddress: string;
  locale: Locale;
}): Promise<void> {
  const { transactionId } = await authenticateAccessCode(input);
  await db()
    .updateTable("transactions")
    .set({ locale: input.locale })
    .where("id", "=", transactionId)
    .execute();
}
