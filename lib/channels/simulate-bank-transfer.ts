import { db } from "@/lib/db/client";
import { toMinor } from "@/lib/db/schema";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { assertOpen, lockTransaction, transition } from "@/lib/payments/state-machine";
import { randomString } from "@/lib/security/tokens";
import { ensureVirtualAccount } from "./charge-bank-transfer";
import { receiveInboundTransfer } from "./receive-inbound-transfer";
import { assertTestMode } from "./test-mode";

export type Scenario = "success" | "failed" | "abandoned";

/**
 * POST /payment/checkout/charge/bank-transfer/simulate (test mode only). `success` issues (or reuses) the
 * sandbox virtual account and funds it with the exact amount through the same inbound path as a real
 * transfer; `failed` and `abandoned` end the transaction so.
 */
export async function simulateBankTransfer(input: { principal: AccessCodePrincipal; scenario: Scenario }) {
  assertTestMode(input.principal.mode);
  if (input.scenario === "success") {
    const { tx, va } = await db()
      .transaction()
      .execute((trx) => ensureVirtualAccount(trx, input.principal));
    const result = await receiveInboundTransfer({
      rail: "sandbox",
      sessionId: `sim_${randomString(24)}`,
      accountNumber: va.account_number,
      amountMinor: toMinor(va.expected_minor),
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
      const row = await lockTransaction(trx, input.principal.transactionId);
      assertOpen(row, `simulate ${scenario}`);
      return transition(trx, row, scenario);
    });
  return { reference: tx.reference, scenario, status: tx.status };
}
