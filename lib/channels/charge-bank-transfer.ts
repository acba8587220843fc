import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import { railsFor } from "@/lib/rails/rails-for";
import type { Rails } from "@/lib/rails/types";
import { ensureProcessorAccount } from "./ensure-processor-account";
import { ensureVirtualAccount } from "./ensure-virtual-account";
import { presentVirtualAccount } from "./present-virtual-account";

/**
 * POST /payment/checkout/charge/bank-transfer: the sandbox's account, or a processor's (Paystack's). Which
 * rails is read in the sandbox path's own database transaction: one connection per request, however many
 * requests queue on the transaction's row lock.
 */
export async function chargeBankTransfer(input: { principal: AccessCodePrincipal }) {
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const rails = await railsFor(input.principal, trx);
      if (rails.name !== "sandbox") return { processor: rails };
      const { tx, va } = await ensureVirtualAccount(trx, input.principal);
      return { shown: presentVirtualAccount(tx, va) };
    });
  if ("processor" in done) return ensureProcessorAccount(input.principal, done.processor as Rails);
  return done.shown;
}
