import { db } from "@/lib/db/client";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { railsFor } from "@/lib/rails/rails-for";
import { ensureProcessorAccount } from "./ensure-processor-account";
import { ensureVirtualAccount } from "./ensure-virtual-account";
import { presentVirtualAccount } from "./present-virtual-account";

/** POST /payment/checkout/charge/bank-transfer: the sandbox's account, or a processor's (Paystack's). */
export async function chargeBankTransfer(input: { principal: AccessCodePrincipal }) {
  const rails = await railsFor(input.principal);
  if (rails.name !== "sandbox") return ensureProcessorAccount(input.principal, rails);
  const { tx, va } = await db()
    .transaction()
    .execute((trx) => ensureVirtualAccount(trx, input.principal));
  return presentVirtualAccount(tx, va);
}
