import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/db/schema";
import { transition } from "@/lib/payments/state-machine";
import { assertTestMode } from "@/lib/payments/test-mode";
import { railsFor } from "@/lib/rails/rails-for";
import { randomString } from "@/lib/security/tokens";
import { assertNoCardInFlight } from "./assert-no-card-in-flight";
import { ensureVirtualAccount } from "./ensure-virtual-account";
import { heldOnAccount, releaseHeldTransfers } from "./held-transfers";
import { openForBankTransfer } from "./open-for-bank-transfer";
import { receiveInboundTransfer, sandboxRail } from "./receive-inbound-transfer";

export type Scenario = "success" | "failed" | "abandoned";

/**
 * POST /payment/checkout/charge/bank-transfer/simulate (test mode only). `success` issues (or reuses) the
 * sandbox virtual account and funds it with what is still due on it through the same inbound path as a real
 * transfer; `failed` and `abandoned` end the transaction so. Every scenario simulates a bank transfer, so each
 * is refused where one could not happen: a finished transaction (409 `invalid_state`), one that does not
 * offer bank transfer (400 `channel_unavailable`) or has no email (400 `email_required`).
 */
export async function simulateBankTransfer(input: { principal: AccessCodePrincipal; scenario: Scenario }) {
  assertTestMode(input.principal.mode);
  if ((await railsFor(input.principal)).name !== "sandbox") {
    throw new AppError(
      "invalid_state",
      "This payment goes through Paystack's test mode, not the sandbox: pay it with Paystack's own test accounts.",
    );
  }
  if (input.scenario === "success") {
    const { tx, va, due } = await db()
      .transaction()
      .execute(async (trx) => {
        const issued = await ensureVirtualAccount(trx, input.principal);
        // What is still due: transfers of too little held on the account add up with this one.
        const held = await heldOnAccount(trx, issued.tx.id, issued.va.account_number);
        return { ...issued, due: toMinor(issued.va.expected_minor) - held };
      });
    const result = await receiveInboundTransfer({
      rail: sandboxRail(tx.merchant_id),
      sessionId: `sim_${randomString(24)}`,
      accountNumber: va.account_number,
      amountMinor: due,
    });
    const after = await db()
      .selectFrom("transactions")
      .select("status")
      .where("id", "=", tx.id)
      .executeTakeFirstOrThrow();
    return {
      reference: tx.reference,
      scenario: input.scenario,
      status: after.status,
      outcome: result.outcome,
    };
  }
  const scenario = input.scenario;
  const tx = await db()
    .transaction()
    .execute(async (trx) => {
      // Not a payment: a checkout whose link place has lapsed may still fail or be abandoned.
      const row = await openForBankTransfer(trx, input.principal, { paying: false });
      await assertNoCardInFlight(trx, row.id, `simulate ${scenario}`);
      await releaseHeldTransfers(trx, row);
      return transition(trx, row, scenario);
    });
  return { reference: tx.reference, scenario, status: tx.status };
}
