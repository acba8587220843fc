import { type AuditContext, recordAudit } from "@/lib/audit/record";
import { assertServedMode } from "@/lib/core/assert-served-mode";
import { AppError, invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { isUniqueViolation } from "@/lib/db/errors";
import type { Mode } from "@/lib/db/schema";
import { parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { type Channel, channelServes, parseChannels, serializeChannels } from "@/lib/payments/channel-list";
import { randomString } from "@/lib/security/tokens";
import { presentLink } from "./present";
import type { FormFieldInput } from "./schemas";
import { newSlug } from "./slug";

export type CreateLinkInput = {
  title: string;
  description?: string | null;
  amount?: string | null;
  minAmount?: string | null;
  maxAmount?: string | null;
  currency: Currency;
  channels?: Channel[];
  redirectUrl?: string | null;
  feeBearer: "customer" | "merchant";
  metadata?: { fields: FormFieldInput[] } | null;
  expiresAt?: string | null;
  usageLimit?: number | null;
  active: boolean;
};

function amountOrThrow(field: string, value: string | null | undefined, currency: Currency): bigint | null {
  if (value === null || value === undefined) return null;
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) throw invalidField(field, parsed.rule, `${field} ${parsed.reason}`);
  return parsed.minor;
}

/**
 * POST /merchants/payment-links: a link for the session's merchant and this deployment's mode. Either a fixed
 * `amount`, or a customer-entered amount optionally bounded by `minAmount`/`maxAmount`. Channels default to
 * the merchant's enabled ones and may only narrow them.
 */
export async function createPaymentLink(input: {
  merchantId: string;
  mode: Mode;
  link: CreateLinkInput;
  audit?: AuditContext;
}) {
  assertServedMode(input.mode);
  const l = input.link;
  const amount = amountOrThrow("amount", l.amount, l.currency);
  const min = amountOrThrow("minAmount", l.minAmount, l.currency);
  const max = amountOrThrow("maxAmount", l.maxAmount, l.currency);
  if (amount !== null && (min !== null || max !== null)) {
    throw invalidField(
      min !== null ? "minAmount" : "maxAmount",
      "fixed_amount",
      "minAmount and maxAmount are only for links without a fixed amount",
    );
  }
  if (min !== null && max !== null && min > max)
    throw invalidField("minAmount", "above_max", "minAmount must not exceed maxAmount");
  const expiresAt = l.expiresAt ? Date.parse(l.expiresAt) : null;
  if (expiresAt !== null && expiresAt <= Date.now())
    throw invalidField("expiresAt", "in_the_past", "expiresAt must be in the future");

  const merchant = await db()
    .selectFrom("merchants")
    .select("channels")
    .where("id", "=", input.merchantId)
    .executeTakeFirst();
  if (!merchant) throw new AppError("invalid_session", "The merchant of this session no longer exists.");
  const enabled = parseChannels(merchant.channels);
  const channels = l.channels ?? enabled;
  const off = channels.filter((c) => !enabled.includes(c));
  if (off.length > 0) {
    throw invalidField(
      "channels",
      "not_enabled",
      `channels ${off.join(", ")} ${off.length > 1 ? "are" : "is"} not enabled for this merchant (PUT /v1/merchants/settings)`,
    );
  }
  if (!channels.some((c) => channelServes(c, l.currency))) {
    // As initialize says it; naming the field only when the caller sent it.
    throw l.channels
      ? invalidField(
          "channels",
          "currency",
          `channels ${channels.join(", ")} cannot take ${l.currency} payments (no ${l.currency} bank offers USSD)`,
        )
      : new AppError(
          "channel_unavailable",
          `None of the enabled channels (${channels.join(", ")}) takes ${l.currency} payments.`,
        );
  }

  const now = Date.now();
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = {
      id: `plink_${randomString(24)}`,
      merchant_id: input.merchantId,
      mode: input.mode,
      slug: newSlug(l.title),
      title: l.title,
      description: l.description || null,
      amount_minor: amount,
      min_amount_minor: min,
      max_amount_minor: max,
      currency: l.currency,
      channels: serializeChannels(channels),
      redirect_url: l.redirectUrl ?? null,
      fee_bearer: l.feeBearer,
      fields: JSON.stringify(l.metadata?.fields ?? []),
      active: l.active ? 1 : 0,
      expires_at: expiresAt,
      usage_limit: l.usageLimit ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto("payment_links").values(row).execute();
          if (input.audit) await recordAudit(trx, input.audit, "link.create", row.slug, now);
        });
      return presentLink(row, 0);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err; // a slug collision: draw another suffix
    }
  }
  throw new AppError("internal_error", "Could not find a free slug for the link.");
}
