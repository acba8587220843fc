import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { publicLink } from "./find-link";
import { presentDisplay } from "./present";
import { linkTaken } from "./usage";

/** GET /merchants/payment-links/{slug}/display (public): what the start page shows. */
export async function displayPaymentLink(input: { slug: string }) {
  const row = await publicLink(db(), { slug: input.slug, mode: deploymentMode() });
  const merchant = await db()
    .selectFrom("merchants")
    .select(["business_name", "brand_color", "logo_url", "channels", "fee_schedule"])
    .where("id", "=", row.merchant_id)
    .executeTakeFirstOrThrow();
  return presentDisplay(row, await linkTaken(db(), row.id), merchant);
}
