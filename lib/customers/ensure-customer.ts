import type { Kysely } from "kysely";
import type { Database, Mode } from "@/lib/db/schema";
import { newCustomerCode } from "./codes";
import { emailKey } from "./email-key";

/**
 * The customer of `email` for a merchant and mode, made on first use, and its code. One per email: the insert
 * meets the unique (merchant, mode, email as compared) when another request, process or instance made it
 * first, and then that one is read, so two first payments of a new email at once share one customer.
 * Runs on the caller's executor (a database transaction, or the pool).
 */
export async function ensureCustomer(
  executor: Kysely<Database>,
  input: { merchantId: string; mode: Mode; email: string; name?: string | null; at?: number },
): Promise<string> {
  const key = emailKey(input.email);
  const find = () =>
    executor
      .selectFrom("customers")
      .select("id")
      .where("merchant_id", "=", input.merchantId)
      .where("mode", "=", input.mode)
      .where("email_key", "=", key)
      .executeTakeFirst();
  // A customer who comes back (the common case) costs one read.
  const known = await find();
  if (known) return known.id;
  const now = input.at ?? Date.now();
  await executor
    .insertInto("customers")
    .values({
      id: newCustomerCode(),
      merchant_id: input.merchantId,
      mode: input.mode,
      email: input.email.trim(),
      email_key: key,
      name: input.name ?? null,
      phone: null,
      metadata: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(["merchant_id", "mode", "email_key"]).doNothing())
    .execute();
  const made = await find();
  if (!made) throw new Error("the customer of an email was neither found nor made");
  return made.id;
}
