import type { Selectable } from "kysely";
import type { AuthorizationRow } from "@/lib/customers/authorization-status";
import { presentAuthorization } from "@/lib/customers/present";
import { type TransactionsTable, toMillis, toMinor } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { formatAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { settle } from "@/lib/money/fees";
import { channelServes, parseChannels } from "./channel-list";

/** Row -> API shapes. Every amount leaves as a string with exactly the currency's minor digits. */
type Row = Selectable<TransactionsTable>;

const money = (value: Row["amount_minor"] | null, currency: Currency) =>
  value === null ? null : formatAmount(toMinor(value), currency);
const iso = (value: Row["paid_at"]) => (value === null ? null : new Date(toMillis(value)).toISOString());

/** The hosted checkout's address for an access code, under `base` (this deployment's, PUBLIC_BASE_URL, by default). */
export function checkoutUrl(accessCode: string, base = env().PUBLIC_BASE_URL): string {
  return `${base}/pay/${accessCode}`;
}

function distribution(row: Row, currency: Currency): Record<string, number> | undefined {
  if (!row.distribution) return undefined;
  const minor = JSON.parse(row.distribution) as Record<string, string>;
  // The API types distribution values as numbers; the decimal string is exact, Number() only renders it.
  return Object.fromEntries(
    Object.entries(minor).map(([k, v]) => [k, Number(formatAmount(BigInt(v), currency))]),
  );
}

/**
 * docs/api.md "Transaction session": the data of initialize. `base`: the address the checkout URL is under
 * (this deployment's by default; the OpenAPI document's examples pass a fixed example host).
 */
export function presentSession(row: Row, base?: string) {
  const currency = row.currency as Currency;
  const amount = toMinor(row.amount_minor);
  const bears = row.merchant_bears_cost === 1;
  const cardFee = toMinor(row.card_fee_minor);
  const transferFee = toMinor(row.transfer_fee_minor);
  const dist = distribution(row, currency);
  return {
    reference: row.reference,
    accessCode: row.access_code,
    checkoutUrl: checkoutUrl(row.access_code, base),
    amount: formatAmount(amount, currency),
    cardFee: formatAmount(cardFee, currency),
    transferFee: formatAmount(transferFee, currency),
    cardTotal: formatAmount(settle(amount, cardFee, bears).totalMinor, currency),
    transferTotal: formatAmount(settle(amount, transferFee, bears).totalMinor, currency),
    currency,
    merchantBearsCost: bears,
    // Stored channels a payment made before USSD was limited to its countries may still name (see channelServes).
    channels: parseChannels(row.channels).filter((c) => channelServes(c, row.currency)),
    status: row.status,
    ...(dist && { distribution: dist }),
  };
}

/** The columns `presentVerified` reads: verify selects just these (fewer values to copy out of SQLite). */
export const VERIFIED_COLUMNS = [
  "id",
  "reference",
  "amount_minor",
  "total_minor",
  "amount_settled_minor",
  "currency",
  "status",
  "channel",
  "fees_minor",
  "merchant_bears_cost",
  "paid_at",
  "metadata",
  "email",
  "customer_name",
  "created_at",
  "amount_refunded_minor",
  "customer_id",
  "authorization_id",
] as const satisfies readonly (keyof Row)[];

/**
 * docs/api.md "Verified transaction": the data of server verify. Fields that only exist once paid are null
 * before. `authorization` is the saved card the payment saved or charged (its row, read by the caller).
 */
export function presentVerified(
  row: Pick<Row, (typeof VERIFIED_COLUMNS)[number]>,
  authorization: AuthorizationRow | null = null,
) {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    reference: row.reference,
    amount: formatAmount(toMinor(row.amount_minor), currency),
    total: money(row.total_minor, currency),
    amountSettled: money(row.amount_settled_minor, currency),
    currency,
    status: row.status,
    channel: row.channel,
    fees: money(row.fees_minor, currency),
    merchantBearsCost: row.merchant_bears_cost === 1,
    paidAt: iso(row.paid_at),
    metadata: row.metadata ? (JSON.parse(row.metadata) as Record<string, unknown>) : {},
    customer: { code: row.customer_id, email: row.email, name: row.customer_name },
    // The saved card this payment saved (with the customer's consent) or charged with the customer away.
    authorization:
      authorization && authorization.id === row.authorization_id ? presentAuthorization(authorization) : null,
    createdAt: new Date(toMillis(row.created_at)).toISOString(),
    // Merchant refunds not failed (docs/refunds.md); `status` stays `success`: the payment happened.
    amountRefunded: formatAmount(toMinor(row.amount_refunded_minor), currency),
  };
}

/** docs/api.md "Checkout verification record": the data of checkout verify. */
export function presentCheckoutRecord(row: Row) {
  const currency = row.currency as Currency;
  return {
    reference: row.reference,
    amount: formatAmount(toMinor(row.amount_minor), currency),
    total: money(row.total_minor, currency),
    currency,
    status: row.status,
    channel: row.channel,
    fees: money(row.fees_minor, currency),
    paidAt: iso(row.paid_at),
    // While the open virtual account has received too little (docs/states.md): the sum so far and the rest.
    ...(row.status === "awaiting_transfer" &&
      row.mismatch_expected_minor !== null &&
      row.mismatch_received_minor !== null && {
        amountMismatch: mismatch(
          toMinor(row.mismatch_expected_minor),
          toMinor(row.mismatch_received_minor),
          currency,
        ),
      }),
  };
}

/** An account's expected amount, what it has received and what is still due (none once it has all). */
function mismatch(expected: bigint, received: bigint, currency: Currency) {
  return {
    expected: formatAmount(expected, currency),
    received: formatAmount(received, currency),
    due: formatAmount(received < expected ? expected - received : 0n, currency),
  };
}
