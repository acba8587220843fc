import type { Kysely } from "kysely";
import type { Database, Mode } from "@/lib/db/schema";

/** The merchant's webhook endpoint of one mode (there is at most one), if set. */
export function findEndpoint(executor: Kysely<Database>, merchantId: string, mode: Mode) {
  return executor
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .executeTakeFirst();
}
