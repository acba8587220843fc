import type { Kysely } from "kysely";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";
import type { KeySource } from "@/lib/rails/types";
import { loadedPepper, pepper } from "@/lib/security/pepper";
import { type SealOptions, unseal } from "@/lib/security/seal";
import type { PaystackKey } from "./connector";

/**
 * Whose Paystack key pays a merchant's charges (docs/go-live.md): the merchant's own connection of the mode
 * (console: Settings → Live payments), else the deployment's default for the mode (PAYSTACK_SECRET_KEY_LIVE
 * or _TEST), else none. A charge records which of the two took it (rail_charges.key_source), so its next
 * steps, its webhook and its refunds use that one, whatever was connected since.
 */
export const PROCESSOR = "paystack";

/** How a connection's key is sealed at rest: its own derived key, bound to the merchant, mode and processor. */
export function keySeal(merchantId: string, mode: Mode): SealOptions {
  return { purpose: "processor-secret-key", context: `${merchantId}:${mode}:${PROCESSOR}` };
}

export function deploymentKey(mode: Mode): string | undefined {
  return mode === "live" ? env().PAYSTACK_SECRET_KEY_LIVE : env().PAYSTACK_SECRET_KEY_TEST;
}

/**
 * The merchant's own connection of `mode` (its id and key), if any. Inside a database transaction, pass it as
 * `executor` (on SQLite the transaction holds the one connection; on PostgreSQL it saves a pool checkout).
 */
export async function merchantConnection(
  merchantId: string,
  mode: Mode,
  executor: Kysely<Database> = db(),
): Promise<{ id: string; secretKey: string } | undefined> {
  const row = await executor
    .selectFrom("processor_connections")
    .select(["id", "secret_sealed"])
    .where("merchant_id", "=", merchantId)
    .where("mode", "=", mode)
    .where("processor", "=", PROCESSOR)
    .executeTakeFirst();
  if (!row) return undefined;
  const peppered = loadedPepper() ?? (await pepper());
  return { id: row.id, secretKey: unseal(peppered, row.secret_sealed, keySeal(merchantId, mode)) };
}

/**
 * The key for `source` (or, without one, the one a new charge uses: the merchant's, else the deployment's).
 * Undefined when there is none: the merchant removed its connection, or the deployment has no default.
 */
export async function paystackKeyFor(
  input: { merchantId: string; mode: Mode; source?: KeySource },
  executor: Kysely<Database> = db(),
): Promise<PaystackKey | undefined> {
  if (input.source !== "deployment") {
    const own = await merchantConnection(input.merchantId, input.mode, executor);
    if (own) return { secretKey: own.secretKey, source: "merchant" };
    if (input.source === "merchant") return undefined;
  }
  const fallback = deploymentKey(input.mode);
  return fallback ? { secretKey: fallback, source: "deployment" } : undefined;
}
