import { db } from "@/lib/db/client";
import type { AccessCodePrincipal } from "@/lib/http/principal";
import { ensureVirtualAccount } from "./ensure-virtual-account";
import { presentVirtualAccount } from "./present-virtual-account";

/** POST /payment/checkout/charge/bank-transfer */
export async function chargeBankTransfer(input: { principal: AccessCodePrincipal }) {
  const { tx, va } = await db()
    .transaction()
    .execute((trx) => ensureVirtualAccount(trx, input.principal));
  return presentVirtualAccount(tx, va);
}
