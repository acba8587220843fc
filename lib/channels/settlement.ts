import { toMinor } from "@/lib/db/schema";
import type { TransactionRow } from "@/lib/db/types";
import { channelFee, settle } from "@/lib/money/fees";
import type { Channel } from "@/lib/payments/channel-list";

/** The fee a channel charges on this transaction, of the fees initialize fixed on it. */
export function channelFeeMinor(tx: TransactionRow, channel: Channel): bigint {
  return channelFee(
    { cardFeeMinor: toMinor(tx.card_fee_minor), transferFeeMinor: toMinor(tx.transfer_fee_minor) },
    channel,
  );
}

/** What the customer pays on a channel, and what the merchant receives. */
export function channelAmounts(tx: TransactionRow, channel: Channel) {
  const fee = channelFeeMinor(tx, channel);
  return { feeMinor: fee, ...settle(toMinor(tx.amount_minor), fee, tx.merchant_bears_cost === 1) };
}
