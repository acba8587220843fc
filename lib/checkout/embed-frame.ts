import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { parseEmbedOrigins } from "@/lib/merchants/embed-origins";
import { ACCESS_CODE_PATTERN } from "@/lib/payments/authenticate-access-code";

const CHECKOUT = /^\/pay\/([^/]+)\/?$/;

/** The embedded checkout's address: `/pay/<accessCode>?embed=1&origin=<the framing page's origin>`. */
export const EMBED_PARAM = "embed";
export const ORIGIN_PARAM = "origin";

export type EmbedFrame = {
  /** The origin of the page that framed the checkout, as it named itself: the one its messages go to. */
  origin: string;
  /** Every origin the merchant allows (the page's `frame-ancestors`). */
  ancestors: string[];
};

/**
 * Whether a checkout address asks to be framed by an origin its merchant allows (lib/merchants/embed-origins.ts):
 * the frame's origins then, or null (an address that does not ask, an unknown code, an origin not on the
 * merchant's list: the page is then framed nowhere). proxy.ts asks for every checkout page request carrying
 * `embed=1`; the page itself learns the answer from the proxy (the `x-embed-origin` request header).
 */
export async function embedFrame(input: {
  pathname: string;
  search: URLSearchParams;
}): Promise<EmbedFrame | null> {
  if (input.search.get(EMBED_PARAM) !== "1") return null;
  const origin = input.search.get(ORIGIN_PARAM);
  const checkout = CHECKOUT.exec(input.pathname);
  if (!origin || !checkout) return null;
  let accessCode: string;
  try {
    accessCode = decodeURIComponent(checkout[1] ?? "");
  } catch {
    return null;
  }
  if (!ACCESS_CODE_PATTERN.test(accessCode)) return null;
  const row = await db()
    .selectFrom("transactions")
    .innerJoin("merchants", "merchants.id", "transactions.merchant_id")
    .select(["merchants.embed_origins", "transactions.mode"])
    .where("transactions.access_code", "=", accessCode)
    .executeTakeFirst();
  if (!row || row.mode !== deploymentMode()) return null;
  const ancestors = parseEmbedOrigins(row.embed_origins);
  // Exactly as stored (normalized on the way in): the page's own origin, as a browser writes it.
  return ancestors.includes(origin) ? { origin, ancestors } : null;
}
