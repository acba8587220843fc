import { AppError } from "@/lib/core/errors";
import type { AccessCodePrincipal } from "@/lib/core/principal";
import type { TransactionRow, Trx } from "@/lib/db/types";
import { keepLinkPlace } from "@/lib/links/keep-link-place";
import { type Channel, channelServes, parseChannels } from "@/lib/payments/channel-list";
import { assertOpen, lockTransaction } from "@/lib/payments/state-machine";

const LABEL: Record<Channel, string> = {
  card: "card",
  bank_transfer: "bank transfer",
  bank_payment: "bank payment",
  ussd: "USSD",
};

/**
 * Lock the access code's transaction for a charge on `channel`: refuses a finished transaction (409
 * `invalid_state`), a channel not offered on it or unable to take its currency (400 `channel_unavailable`),
 * and a payment link checkout whose place has lapsed on a link now full (409 `payment_link_unavailable`).
 */
export async function openForCharge(
  trx: Trx,
  principal: AccessCodePrincipal,
  channel: Channel,
  { paying = true }: { paying?: boolean } = {},
): Promise<TransactionRow> {
  const tx = await lockTransaction(trx, principal.transactionId);
  assertOpen(tx, `pay by ${LABEL[channel]}`);
  if (!parseChannels(tx.channels).includes(channel)) {
    throw new AppError(
      "channel_unavailable",
      `Payment by ${LABEL[channel]} is not available for this transaction.`,
    );
  }
  // Initialize offers only channels that take the currency; a payment made before it did may still list one.
  if (!channelServes(channel, tx.currency)) {
    throw new AppError(
      "channel_unavailable",
      `Payment by ${LABEL[channel]} is not available for ${tx.currency} payments.`,
    );
  }
  // On a usage-limited payment link, a payment under way holds its place (or takes one again, if free).
  if (paying) await keepLinkPlace(trx, tx);
  return tx;
}
