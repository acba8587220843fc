import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";

/**
 * The language kept on the payment of `accessCode` (initialize's `locale`, or the customer's pick in the
 * page's menu), or null. A plain read for the page's `<html lang>`: the page itself checks the code (and
 * counts unknown ones against the rate limit) through loadCheckout.
 */
export async function checkoutLocale(input: { accessCode: string }): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(input.accessCode)) return null;
  const row = await db()
    .selectFrom("transactions")
    .select("locale")
    .where("access_code", "=", input.accessCode)
    .where("mode", "=", deploymentMode())
    .executeTakeFirst();
  return row?.locale ?? null;
}
