import { db } from "@/lib/db/client";
import { keysetPage } from "@/lib/db/keyset";
import type { Mode } from "@/lib/db/schema";
import { presentLink } from "./present";
import { usageByLink } from "./usage-by-link";

/** GET /merchants/payment-links: the merchant's links in a mode, newest first, paged by an opaque cursor. */
export async function listPaymentLinks(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  active?: "true" | "false";
  cursor?: string;
}) {
  let query = db()
    .selectFrom("payment_links")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.active) query = query.where("active", "=", input.active === "true" ? 1 : 0);
  const { page, nextCursor } = await keysetPage(query, {
    cursor: input.cursor,
    idPattern: /^plink_[0-9A-Za-z]{24}$/,
    limit: input.limit,
  });
  // The page's usage in one grouped query, not one count per link.
  const usage = await usageByLink(
    db(),
    page.map((row) => row.id),
  );
  return { links: page.map((row) => presentLink(row, usage.get(row.id) ?? 0)), nextCursor };
}
