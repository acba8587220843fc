import type { TransactionRow, Trx } from "@/lib/db/types";

/**
 * The rail and charge a refund gives money back through: the processor charge that took it (rail_charges,
 * or a processor's inbound transfer, whose session is the charge's reference), else the sandbox in test mode
 * and the bare "live" rail for live money taken before processors (which no rail settles: docs/refunds.md).
 *  - a merchant refund: the attempt that paid the transaction;
 *  - an automatic refund of a charge (card, bank payment, USSD): that attempt (`sourceId`);
 *  - an automatic refund of a transfer: the inbound transfer (`sourceId`).
 */
export async function chargeOfMoney(
  trx: Trx,
  input: {
    tx: TransactionRow;
    source: string | null;
    sourceId: string | null;
    type: "merchant" | "automatic";
  },
): Promise<{ rail: string; chargeReference: string | null }> {
  const fallback = { rail: input.tx.mode === "test" ? "sandbox" : "live", chargeReference: null };
  if (input.type === "automatic" && input.source === "bank_transfer" && input.sourceId) {
    const transfer = await trx
      .selectFrom("inbound_transfers")
      .select(["rail", "session_id"])
      .where("id", "=", input.sourceId)
      .executeTakeFirst();
    if (transfer && !transfer.rail.startsWith("sandbox")) {
      return { rail: transfer.rail, chargeReference: transfer.session_id };
    }
    return fallback;
  }
  const attemptId =
    input.type === "automatic"
      ? input.sourceId
      : ((
          await trx
            .selectFrom("charge_attempts")
            .select("id")
            .where("transaction_id", "=", input.tx.id)
            .where("status", "=", "success")
            .executeTakeFirst()
        )?.id ?? null);
  if (!attemptId) return fallback;
  const charge = await trx
    .selectFrom("rail_charges")
    .select(["rail", "rail_reference"])
    .where("attempt_id", "=", attemptId)
    .executeTakeFirst();
  return charge ? { rail: charge.rail, chargeReference: charge.rail_reference } : fallback;
}
