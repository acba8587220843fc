import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { merchantLink } from "./find-link";
import { presentLink } from "./present";
import { linkUsage } from "./usage";

/** GET /merchants/payment-links/{slug} */
export async function getPaymentLink(input: { merchantId: string; mode: Mode; slug: string }) {
  const row = await merchantLink(input);
  return presentLink(row, await linkUsage(db(), row.id));
}
