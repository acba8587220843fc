import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { deploymentMode } from "@/lib/env";
import { reserve } from "@/lib/security/rate-limit";

export const ACCESS_CODE_PATTERN = /^[0-9A-Za-z]{22,64}$/;

/** The transaction of a code this deployment knows, or 401 `invalid_access_code`. */
async function knownCode(accessCode: string) {
  const row = ACCESS_CODE_PATTERN.test(accessCode)
    ? await db()
        .selectFrom("transactions")
        .select(["id", "reference", "merchant_id", "mode", "access_expires_at"])
        .where("access_code", "=", accessCode)
        .executeTakeFirst()
    : undefined;
  if (!row || row.mode !== deploymentMode()) {
    throw new AppError("invalid_access_code", "The access code is not valid: it is unknown.");
  }
  return row;
}

/**
 * Resolve an access code (`x-access-code`) to its transaction, or throw 401 `invalid_access_code`.
 * Unknown codes from one client address are rate limited (429), so codes cannot be guessed at speed: every
 * lookup holds a token of the address's budget (`reserve`) and a known code gives it back, so guesses sent
 * in parallel are counted too.
 */
export async function authenticateAccessCode({
  accessCode,
  clientAddress,
}: {
  accessCode: string | null;
  clientAddress: string;
}): Promise<AccessCodePrincipal> {
  if (!accessCode)
    throw new AppError(
      "invalid_access_code",
      "No access code: send the accessCode from initialize in the x-access-code header.",
    );
  const permit = await reserve("access_code", clientAddress);
  let row: Awaited<ReturnType<typeof knownCode>>;
  try {
    row = await knownCode(accessCode);
    // A known code is no guess, even an expired one: its request goes back to the budget.
    permit.refund();
  } finally {
    await permit.settle();
  }
  if (Number(row.access_expires_at) <= Date.now()) {
    throw new AppError("invalid_access_code", "The access code has expired; start a new payment.");
  }
  return {
    kind: "access_code",
    merchantId: row.merchant_id,
    mode: row.mode,
    transactionId: row.id,
    reference: row.reference,
  };
}
