"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auditContext } from "@/lib/audit/record";
import { requireMerchant } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { assertPermitted } from "@/lib/core/permit";
import { clientAddressOf } from "@/lib/http/client-address";
import { enableTwoFactor, setTwoFactorRequirement, setupTwoFactor } from "@/lib/merchants/two-factor";

/**
 * Your account's two-factor sign-in, as server actions answering with a page (useActionState): set up (the QR
 * code drawn on the server and the secret), enable with a code (the recovery codes, shown this once), and
 * the owner's switch. The same verbs as /v1/merchants/auth/2fa/*.
 */
export type TwoFactorState = {
  setup?: { secret: string; qrCode: string };
  recoveryCodes?: string[];
  error?: string;
};

export async function twoFactorAction(state: TwoFactorState, form: FormData): Promise<TwoFactorState> {
  const member = await requireMerchant();
  const address = clientAddressOf(await headers());
  try {
    if (form.get("step") === "setup") {
      const { secret, qrCode } = await setupTwoFactor({
        userId: member.principal.userId,
        email: member.principal.email,
      });
      return { setup: { secret, qrCode } };
    }
    const { recoveryCodes } = await enableTwoFactor({
      userId: member.principal.userId,
      code: String(form.get("code") ?? "").replace(/\s/g, ""),
      audit: auditContext({ ...member.principal, mode: member.mode }, address),
    });
    return { recoveryCodes };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { ...state, error: err.message };
  }
}

export async function requireTwoFactorAction(form: FormData): Promise<void> {
  const member = await requireMerchant();
  let error: string | null = null;
  try {
    assertPermitted(member.principal, "team.owners");
    await setTwoFactorRequirement({
      merchantId: member.merchantId,
      userId: member.principal.userId,
      required: form.get("required") === "on",
      audit: auditContext({ ...member.principal, mode: member.mode }, clientAddressOf(await headers())),
    });
  } catch (err) {
    if (!isAppError(err)) throw err;
    error = err.message;
  }
  redirect(error ? `/dashboard/account?error=${encodeURIComponent(error)}` : "/dashboard/account?saved=1");
}
