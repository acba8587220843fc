import { sql } from "kysely";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { findAuthorization } from "./find-authorization";
import { presentAuthorization } from "./present";

/**
 * Test mode's clock of one saved card (POST /v1/sandbox/clock/advance with `authorization`): its time moves
 * `seconds` forward, so a card whose expiry month ends within that time reads `expired` from now on, and a
 * charge of it is refused as one would be then. Nothing else's time moves. The caller checks test mode.
 */
export async function advanceAuthorizationClock(input: {
  merchantId: string;
  mode: Mode;
  code: string;
  seconds: number;
}) {
  const row = await findAuthorization(input);
  await db()
    .updateTable("card_authorizations")
    .set({ clock_offset_ms: sql`clock_offset_ms + ${input.seconds * 1000}`, updated_at: Date.now() })
    .where("id", "=", row.id)
    .execute();
  return presentAuthorization(await findAuthorization(input));
}
