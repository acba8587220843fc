import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { presentLink } from "./present";
import { usageByLink } from "./usage-by-link";

/** GET /merchants/payment-links: the merchant's links in a mode, newest first. */
export async function listPaymentLinks(input: {
  merchantId: string;
  mode: Mode;
  limit: number;
  active?: "true" | "false";
}) {
  let query = db()
    .selectFrom("payment_links")
    .selectAll()
    .where("merchant_id", "=", input.merchantId)
    .where("mode", "=", input.mode);
  if (input.active) query = query.where("active", "=", input.active === "true" ? 1 : 0);
  const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(input.limit).execute();
  // The page's usage in one grouped query, not one count per link.
  const usage = await usageByLink(
    db(),
    rows.map((row) => row.id),
  );
  return rows.map((row) => presentLink(row, usage.get(row.id) ?? 0));
}
