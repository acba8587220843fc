import { db } from "@/lib/db/client";

/** End a session: its token stops working at once. */
export async function logoutMerchant(input: { sessionId: string }) {
  await db()
    .updateTable("merchant_sessions")
    .set({ revoked_at: Date.now() })
    .where("id", "=", input.sessionId)
    .where("revoked_at", "is", null)
    .execute();
  return { signedOut: true };
}
