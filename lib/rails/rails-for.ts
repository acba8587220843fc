import type { Kysely } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Database, Mode } from "@/lib/db/schema";
import { paystackRails } from "./paystack/connector";
import { paystackKeyFor } from "./paystack/keys";
import { sandboxRails } from "./sandbox";
import type { KeySource, Rails } from "./types";

/**
 * The rails a new charge of a merchant goes through (docs/rails.md): Paystack with the merchant's own key or
 * the deployment's default for the mode; without either, the sandbox in test mode, and in live mode a 409
 * `live_not_connected` that says what to do (nothing is charged, and nothing pretends to be).
 * Reads the database: inside a database transaction pass it as `executor` (on SQLite the transaction holds
 * the one connection; on PostgreSQL a second checkout per request would queue behind the row locks).
 */
export async function railsFor(
  input: { merchantId: string; mode: Mode },
  executor: Kysely<Database> = db(),
): Promise<Rails> {
  const key = await paystackKeyFor({ merchantId: input.merchantId, mode: input.mode }, executor);
  if (key) return paystackRails(key);
  if (input.mode === "test") return sandboxRails;
  throw new AppError(
    "live_not_connected",
    "Live payments are not connected for this merchant: the merchant must connect its Paystack secret key in the console (Settings → Live payments) before live payments can be taken.",
  );
}

/**
 * The rails of a charge already made: the processor recorded with it (`rail_charges`, with whose key), or
 * the sandbox for an attempt that never reached a processor. A charge whose key is gone (the merchant
 * removed its connection) cannot be continued: 409 `live_not_connected`.
 */
export async function railsOfCharge(input: {
  merchantId: string;
  mode: Mode;
  charge: { rail: string; key_source: string } | undefined;
}): Promise<Rails> {
  if (!input.charge) return sandboxRails;
  const key = await paystackKeyFor({
    merchantId: input.merchantId,
    mode: input.mode,
    source: input.charge.key_source as KeySource,
  });
  if (!key) {
    throw new AppError(
      "live_not_connected",
      "The Paystack key this payment was made with is no longer connected; the merchant must connect it again in Settings → Live payments.",
    );
  }
  return paystackRails(key);
}

/** The rails of an attempt (see railsOfCharge). Reads the database: not inside a database transaction. */
export async function railsOfAttempt(input: {
  attemptId: string;
  merchantId: string;
  mode: Mode;
}): Promise<Rails> {
  const charge = await db()
    .selectFrom("rail_charges")
    .select(["rail", "key_source"])
    .where("attempt_id", "=", input.attemptId)
    .executeTakeFirst();
  return railsOfCharge({ ...input, charge });
}

/**
 * The rails of a saved card: the rail that saved it, with the key it was saved under (a card saved through a
 * processor is that processor's, whatever the merchant connects since; one saved on the sandbox stays there).
 * 409 `live_not_connected` when that key is gone.
 */
export async function railsOfSavedCard(input: {
  merchantId: string;
  mode: Mode;
  rail: string;
  keySource: string | null;
}): Promise<Rails> {
  if (input.rail === sandboxRails.name) return sandboxRails;
  return railsOfCharge({
    merchantId: input.merchantId,
    mode: input.mode,
    charge: { rail: input.rail, key_source: input.keySource ?? "deployment" },
  });
}
