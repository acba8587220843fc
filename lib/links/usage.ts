import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * How many payments hold a place on a link: paid ones, and ones still open: not finished, and the checkout
 * not expired or a bank transfer window still open (money may still arrive and be credited). Abandoned and
 * failed ones give their place back, so a usage limit counts real payments.
 */
export async function linkUsage(
  executor: Kysely<Database>,
  linkId: string,
  now = Date.now(),
): Promise<number> {
  const row = await executor
    .selectFrom("transactions")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("payment_link_id", "=", linkId)
    .where((eb) =>
      eb.or([
        eb("status", "=", "success"),
        eb.and([
          eb("status", "not in", ["failed", "abandoned"]),
          eb.or([
            eb("access_expires_at", ">", now),
            eb.exists(
              eb
                .selectFrom("virtual_accounts")
                .select("virtual_accounts.id")
                .whereRef("virtual_accounts.transaction_id", "=", "transactions.id")
                .where("virtual_accounts.expires_at", ">", now),
            ),
          ]),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
