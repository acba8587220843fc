import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { database, db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";

/** The merchant's link by slug in a mode, or 404 `payment_link_not_found`. */
export async function merchantLink(input: { merchantId: string; mode: Mode; slug: string }) {
  const row = await db()
    .selectFrom("payment_links")
    .selectAll()
    .where("slug", "=", input.slug)
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode)
    .executeTakeFirst();
  if (!row) throw new AppError("payment_link_not_found", `No payment link ${input.slug}.`);
  return row;
}

/** A link by slug for the public pages, in this deployment's mode; `lock` takes its row lock (PostgreSQL). */
export async function publicLink(
  executor: Kysely<Database>,
  input: { slug: string; mode: Mode; lock?: boolean },
) {
  let query = executor
    .selectFrom("payment_links")
    .selectAll()
    .where("slug", "=", input.slug)
    .where("mode", "=", input.mode);
  if (input.lock && database().dialect === "postgres") query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError("payment_link_not_found", `No payment link ${input.slug}.`);
  return row;
}
