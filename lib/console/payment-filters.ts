import { z } from "zod";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { CHANNELS } from "@/lib/payments/channel-list";
import type { TransactionFilters } from "@/lib/payments/list-transactions";
import { TRANSACTION_STATUSES } from "@/lib/payments/status";

const empty = (v: unknown) => (v === "" ? undefined : v);
const day = z.preprocess(
  empty,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-01-31")
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "must be a real date")
    .optional(),
);

/**
 * The payments list's filters as they travel in the page's address and the CSV export's; like every query of
 * the API, an unknown parameter is refused (lib/console/console-query.ts reads them).
 */
export const PaymentFiltersQuery = z.strictObject({
  status: z.preprocess(
    empty,
    z.enum(TRANSACTION_STATUSES, { message: "must be a payment status" }).optional(),
  ),
  channel: z.preprocess(empty, z.enum(CHANNELS, { message: "must be a channel" }).optional()),
  currency: z.preprocess(empty, z.enum(CURRENCY_CODES, { message: "must be a currency" }).optional()),
  from: day,
  to: day,
  q: z.preprocess(empty, z.string().trim().max(200, "must be at most 200 characters").optional()),
  cursor: z.preprocess(empty, z.string().max(200).optional()),
});

export type PaymentFilters = z.output<typeof PaymentFiltersQuery>;

/** The filters as the list verb takes them: `to` is inclusive of its whole day (UTC). */
export function toTransactionFilters(f: PaymentFilters): TransactionFilters {
  return {
    status: f.status,
    channel: f.channel,
    currency: f.currency,
    from: f.from ? Date.parse(`${f.from}T00:00:00Z`) : undefined,
    to: f.to ? Date.parse(`${f.to}T00:00:00Z`) + 24 * 60 * 60 * 1000 : undefined,
    search: f.q,
  };
}

/** The filters (not the cursor) as a query string, for links that keep them. */
export function filterQuery(f: PaymentFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of ["status", "channel", "currency", "from", "to", "q"] as const) {
    const v = f[key];
    if (v) params.set(key, v);
  }
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}
