"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIE, sessionCookieOptions } from "@/lib/console/cookies";
import { requireMerchant } from "@/lib/console/session";
import { switchMerchant } from "@/lib/merchants/memberships";

/**
 * The console's own account actions, as server actions (Next checks that they come from this site's pages):
 * forms that post without JavaScript and answer with a page.
 */
async function https(): Promise<boolean> {
  return (await headers()).get("x-forwarded-proto") === "https";
}

/** Switch to another merchant of the signed-in user: a session of that membership replaces this one. */
export async function switchMerchantAction(form: FormData): Promise<void> {
  const member = await requireMerchant();
  const merchantId = String(form.get("merchantId") ?? "");
  const signedIn = await switchMerchant({
    sessionId: member.principal.sessionId,
    userId: member.principal.userId,
    merchantId,
  });
  (await cookies()).set(
    SESSION_COOKIE,
    signedIn.accessToken,
    sessionCookieOptions(signedIn.expiresAt, await https()),
  );
  redirect("/dashboard");
}
