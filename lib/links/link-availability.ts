import { isAppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { publicLink } from "./find-link";
import { type UnavailableKey, unavailableKey } from "./present";
import { linkTaken } from "./usage";

/**
 * Why a link cannot take a payment now (deactivated, expired, used up), or null when it can or is unknown: for
 * a page to word a `payment_link_unavailable` in the customer's language.
 */
export async function linkAvailability(slug: string): Promise<UnavailableKey | null> {
  try {
    const link = await publicLink(db(), { slug, mode: deploymentMode() });
    const now = Date.now();
    return unavailableKey(link, await linkTaken(db(), link.id, now), now);
  } catch (err) {
    if (isAppError(err) && err.code === "payment_link_not_found") return null;
    throw err;
  }
}
