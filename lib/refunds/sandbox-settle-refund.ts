import { AppError } from "@/lib/core/errors";
import type { SecretKeyPrincipal } from "@/lib/core/principal";
import { assertTestMode } from "@/lib/payments/test-mode";
import { findRefund } from "./list-refunds";
import { presentRefund } from "./present";
import { settleRefund } from "./settle-refund";

/**
 * POST /sandbox/refunds/{id} (test mode): the sandbox bank settles a pending refund now, processed or failed,
 * through the same path as the rail's own answer.
 */
export async function sandboxSettleRefund(input: {
  principal: SecretKeyPrincipal;
  id: string;
  outcome: "processed" | "failed";
}) {
  assertTestMode(input.principal.mode);
  const refund = await findRefund({
    merchantId: input.principal.merchantId,
    mode: input.principal.mode,
    id: input.id,
  });
  if (refund.status !== "pending") {
    throw new AppError(
      "invalid_state",
      `Refund ${refund.id} is already ${refund.status}; only a pending one settles.`,
    );
  }
  const settled = await settleRefund(
    refund.id,
    input.outcome === "processed" ? { status: "processed" } : { status: "failed", reason: "sandbox_failed" },
  );
  if (!settled || settled.status !== input.outcome) {
    throw new AppError(
      "invalid_state",
      `Refund ${refund.id} is already ${settled?.status ?? "gone"}; only a pending one settles.`,
    );
  }
  return presentRefund(settled);
}
