import type { Bank } from "@/lib/banks/banks";
import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import { db } from "@/lib/db/client";
import type { TransactionRow } from "@/lib/db/types";
import { lockTransaction, transition } from "@/lib/payments/state-machine";
import { isTerminal } from "@/lib/payments/status";
import { railsFor } from "@/lib/rails/rails-for";
import { sandboxRails } from "@/lib/rails/sandbox";
import type { Rails } from "@/lib/rails/types";
import { createAttempt, updateAttempt } from "./attempts";
import { bankFor } from "./bank-for";
import { openForCharge } from "./open-for-charge";
import { assertRailTakes, recordRailCharge } from "./record-rail-charge";
import { channelAmounts } from "./settlement";
import { supersedeWaiting } from "./supersede-waiting";

/** The bank used when the customer names none: the most widely used USSD bank in Nigeria. */
export const DEFAULT_USSD_BANK = "058";

type UssdInput = { principal: AccessCodePrincipal; phoneNumber: string; bankCode?: string };

function ussdBank(tx: TransactionRow, code: string | undefined): Bank & { ussd: string } {
  const bank = bankFor(tx, code ?? DEFAULT_USSD_BANK);
  if (!bank.ussd)
    throw new AppError(
      "validation_error",
      `bankCode ${bank.code} (${bank.name}) has no USSD service; choose another bank.`,
    );
  return bank as Bank & { ussd: string };
}

function answer(tx: TransactionRow, bank: Bank, ussdCode: string) {
  return {
    status: "awaiting_ussd",
    reference: tx.reference,
    ussdCode,
    dialUrl: `tel:${encodeURIComponent(ussdCode)}`,
    bankCode: bank.code,
    bankName: bank.name,
    message: `Dial ${ussdCode} on the phone registered with ${bank.name} and follow the prompts.`,
  };
}

/**
 * POST /payment/checkout/charge/ussd: a code the customer dials from the phone registered with the bank;
 * the transaction waits in `awaiting_ussd` until the customer approves (in test mode through
 * `POST /v1/sandbox/authorizations`; through a processor, its webhook reports the payment).
 */
export async function chargeUssd(input: UssdInput) {
  const done = await db()
    .transaction()
    .execute(async (trx) => {
      const tx = await openForCharge(trx, input.principal, "ussd");
      const bank = ussdBank(tx, input.bankCode);
      // Which rails, read on this transaction's connection: a processor's path goes on outside it.
      const rails = await railsFor(input.principal, trx);
      if (rails.name !== "sandbox") return { processor: rails };
      await supersedeWaiting(trx, tx.id, "ussd");
      const attemptId = await createAttempt(trx, tx, "ussd", "awaiting_ussd", {});
      const { ussdCode } = await sandboxRails.ussd.createCode({
        reference: tx.reference,
        attemptId,
        bankCode: bank.code,
        ussdShortCode: bank.ussd,
        phoneNumber: input.phoneNumber,
        amountMinor: channelAmounts(tx, "ussd").totalMinor,
        currency: tx.currency,
        email: tx.email,
      });
      await updateAttempt(trx, attemptId, {
        status: "awaiting_ussd",
        details: {
          bankCode: bank.code,
          bankName: bank.name,
          ussdCode,
          phoneLast4: input.phoneNumber.slice(-4),
        },
      });
      await transition(trx, tx, "awaiting_ussd");
      return { shown: answer(tx, bank, ussdCode) };
    });
  if ("processor" in done) return ussdThroughProcessor(input, done.processor as Rails);
  return done.shown;
}

/** Record the attempt and its reference, ask the processor for a code with no lock held, then show it. */
async function ussdThroughProcessor(input: UssdInput, rails: Rails) {
  const { tx, bank, attemptId } = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await openForCharge(trx, input.principal, "ussd");
      const found = ussdBank(row, input.bankCode);
      assertRailTakes(rails, row);
      await supersedeWaiting(trx, row.id, "ussd");
      const id = await createAttempt(trx, row, "ussd", "awaiting_ussd", {
        bankCode: found.code,
        bankName: found.name,
        phoneLast4: input.phoneNumber.slice(-4),
      });
      await recordRailCharge(trx, rails, {
        tx: row,
        attemptId: id,
        channel: "ussd",
        amountMinor: channelAmounts(row, "ussd").totalMinor,
      });
      return { tx: row, bank: found, attemptId: id };
    });
  let ussdCode: string;
  try {
    ({ ussdCode } = await rails.ussd.createCode({
      reference: tx.reference,
      attemptId,
      bankCode: bank.code,
      ussdShortCode: bank.ussd,
      phoneNumber: input.phoneNumber,
      amountMinor: channelAmounts(tx, "ussd").totalMinor,
      currency: tx.currency,
      email: tx.email,
    }));
  } catch (err) {
    await db()
      .transaction()
      .execute(async (trx) => {
        await lockTransaction(trx, tx.id);
        await updateAttempt(trx, attemptId, { status: "failed", failureReason: "processor_error" });
      });
    throw err;
  }
  const shown = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await lockTransaction(trx, tx.id);
      const attempt = await trx
        .selectFrom("charge_attempts")
        .select("status")
        .where("id", "=", attemptId)
        .executeTakeFirstOrThrow();
      if (attempt.status !== "awaiting_ussd" || isTerminal(row.status)) return row;
      await updateAttempt(trx, attemptId, {
        status: "awaiting_ussd",
        details: {
          bankCode: bank.code,
          bankName: bank.name,
          ussdCode,
          phoneLast4: input.phoneNumber.slice(-4),
        },
      });
      if (row.status !== "awaiting_ussd") await transition(trx, row, "awaiting_ussd");
      return null;
    });
  if (shown) {
    throw new AppError(
      "invalid_state",
      isTerminal(shown.status)
        ? `Cannot pay by USSD: transaction ${shown.reference} is already ${shown.status}.`
        : "This USSD request was replaced by a newer one.",
    );
  }
  return answer(tx, bank, ussdCode);
}
