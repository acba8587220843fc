import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";
import { loadedPepper, pepper } from "@/lib/security/pepper";
import { unseal } from "@/lib/security/seal";
import { authorizationStatus } from "./authorization-status";
import { findAuthorization } from "./find-authorization";
import { tokenSeal } from "./token-seal";

/**
 * A saved card about to be charged: the merchant's own in this mode (404 `authorization_not_found`
 * otherwise), active (409 `authorization_inactive` once deactivated or past its card's expiry, by its clock),
 * with its customer's email and its rail token opened. The token never leaves the server.
 */
export async function authorizationForCharge(
  input: { merchantId: string; mode: Mode; code: string },
  executor: Kysely<Database> = db(),
) {
  const row = await findAuthorization(input, executor);
  const status = authorizationStatus(row);
  if (status !== "active") {
    throw new AppError(
      "authorization_inactive",
      status === "expired"
        ? `authorizationCode: the saved card ${row.id} has expired (${String(row.exp_month).padStart(2, "0")}/${row.exp_year}); the customer must pay with a card again to save a new one.`
        : `authorizationCode: the saved card ${row.id} was deactivated and can no longer be charged.`,
    );
  }
  const customer = await executor
    .selectFrom("customers")
    .select(["id", "email", "name"])
    .where("id", "=", row.customer_id)
    .executeTakeFirstOrThrow();
  const peppered = loadedPepper() ?? (await pepper());
  const token = unseal(
    peppered,
    row.token_sealed,
    tokenSeal({ authorizationId: row.id, merchantId: row.merchant_id, mode: row.mode }),
  );
  return { row, customer, token };
}
