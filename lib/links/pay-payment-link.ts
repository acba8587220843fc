import { AppError, invalidField } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { toMillis, toMinor } from "@/lib/db/schema";
import type { Trx } from "@/lib/db/types";
import { deploymentMode, env } from "@/lib/env";
import { type Currency, isCurrency } from "@/lib/money/currencies";
import { parseChannels } from "@/lib/payments/channel-list";
import { initializePayment } from "@/lib/payments/initialize-payment";
import { pepper } from "@/lib/security/pepper";
import { addressSubject } from "@/lib/security/rate-limit";
import { keyedHash } from "@/lib/security/tokens";
import { answerIssues, linkAmount } from "./answers";
import { publicLink } from "./find-link";
import { holdsPlace } from "./holds-place";
import { linkFields, unavailableReason } from "./present";
import type { FormFieldInput } from "./schemas";
import { linkTaken, linkUsage } from "./usage";

/** Check the customer's answers against the link's form: known names, required ones present, right types. */
export function checkAnswers(
  fields: FormFieldInput[],
  answers: Record<string, string | number>,
): Record<string, string> {
  const checked = answerIssues(fields, answers);
  const first = checked.issues[0];
  if (first) throw invalidField(first.field, first.rule, first.message);
  return checked.answers;
}

/**
 * POST /merchants/payment-links/{slug}/pay (public): check the link is usable (active, not expired, under its
 * usage limit: the link row is locked so concurrent customers cannot overrun it), the amount rule and the
 * form, then initialize a transaction for the link's merchant and mode with its channels and fee bearer.
 * The answers are kept in the transaction's metadata.
 *
 * On a link with a usage limit a place is taken for good only by a payment under way or paid
 * (lib/links/holds-place.ts): renewed by each charge, held while a transfer, bank-app, USSD or OTP step waits;
 * cancelling gives it back at once. A checkout nobody has started paying holds its place only
 * PAYMENT_LINK_PLACE_SECONDS (5 minutes), and only lent: a customer who starts paying while the link is
 * otherwise full is handed it (lib/links/hand-over-place.ts). So the link is used up only by places taken
 * for good. One client address may hold PAYMENT_LINK_PLACES_PER_ADDRESS (1) unpaid place of a link (429
 * `rate_limited` beyond, with `Retry-After` until it lapses), and a new checkout gets a place at all only
 * while its address would hold fewer than the link has left: the last free place is held by nobody, it goes
 * to whoever starts paying first. A checkout started without a place takes one when its payment starts. The
 * checkout itself lives PAYMENT_LINK_HOLD_SECONDS (30 minutes).
 */
export async function payPaymentLink(input: {
  slug: string;
  amount?: string | null;
  email?: string | null;
  customerName?: string | null;
  fields?: Record<string, string | number> | null;
  clientAddress: string;
}) {
  const mode = deploymentMode();
  const holder = keyedHash(
    await pepper(),
    JSON.stringify(["link-holder", addressSubject(input.clientAddress)]),
  );
  return db()
    .transaction()
    .execute(async (trx) => {
      const link = await publicLink(trx, { slug: input.slug, mode, lock: true });
      const now = Date.now();
      // Used up only by places taken for good: an idle checkout's place is lent, never a reason to refuse.
      const taken = link.usage_limit === null ? 0 : await linkTaken(trx, link.id, now);
      const reason = unavailableReason(link, taken, now);
      if (reason) throw new AppError("payment_link_unavailable", reason);
      let placed = false;
      if (link.usage_limit !== null) {
        const mine = await assertAddressMayHold(trx, link.id, holder, now);
        // A place now only if one is unoccupied and this address, with it, still holds fewer unpaid places
        // than the link has left: the last free place is nobody's to hold idle (it goes to whoever pays).
        placed =
          (await linkUsage(trx, link.id, now)) < link.usage_limit && mine + 1 < link.usage_limit - taken;
      }
      const currency: Currency = isCurrency(link.currency) ? link.currency : "NGN";

      const amount = linkAmount(
        input.amount,
        {
          fixedMinor: link.amount_minor === null ? null : toMinor(link.amount_minor),
          minMinor: link.min_amount_minor === null ? null : toMinor(link.min_amount_minor),
          maxMinor: link.max_amount_minor === null ? null : toMinor(link.max_amount_minor),
        },
        currency,
      );
      if (!amount.ok) throw invalidField(amount.issue.field, amount.issue.rule, amount.issue.message);
      const amountMinor = amount.minor;
      const answers = checkAnswers(linkFields(link), input.fields ?? {});

      return initializePayment({
        trx,
        merchantId: link.merchant_id,
        mode: link.mode,
        paymentLinkId: link.id,
        channels: parseChannels(link.channels),
        // On a link with a usage limit, an unpaid checkout lives half an hour, not a day, and holds its
        // place only minutes unless a payment is under way.
        accessTtlSeconds:
          link.usage_limit === null
            ? undefined
            : Math.min(env().PAYMENT_LINK_HOLD_SECONDS, env().ACCESS_CODE_TTL_SECONDS),
        // Without a place (`until` now, already over) the checkout takes one when its payment starts.
        linkPlace:
          link.usage_limit === null
            ? undefined
            : { until: placed ? now + env().PAYMENT_LINK_PLACE_SECONDS * 1000 : now, holder },
        payment: {
          amountMinor,
          currency,
          email: input.email ?? undefined,
          customerName: input.customerName ?? undefined,
          callbackUrl: link.redirect_url ?? undefined,
          saveCard: undefined,
          plan: undefined,
          description: link.title,
          // The link's start page adds its language to the checkout address (?lang=) instead.
          locale: undefined,
          metadata: { paymentLink: { id: link.id, slug: link.slug, title: link.title }, fields: answers },
          distributionMinor: undefined,
          merchantBearsCost: link.fee_bearer === "merchant",
        },
      });
    });
}

/**
 * Refuse a start (429 `rate_limited`) from an address that already holds PAYMENT_LINK_PLACES_PER_ADDRESS
 * unpaid places on the link; `Retry-After` says when the first of them lapses. Paid places do not count: a
 * family buying tickets one after another from one home is never refused.
 */
async function assertAddressMayHold(trx: Trx, linkId: string, holder: string, now: number): Promise<number> {
  const held = await trx
    .selectFrom("transactions")
    .select(["status", "access_expires_at", "link_place_until"])
    .where("payment_link_id", "=", linkId)
    .where("link_holder", "=", holder)
    .where("status", "!=", "success")
    .where((eb) => holdsPlace(eb, now))
    .execute();
  if (held.length < env().PAYMENT_LINK_PLACES_PER_ADDRESS) return held.length;
  const lapses = Math.min(
    ...held.map((t) =>
      t.status === "pending" && t.link_place_until !== null
        ? toMillis(t.link_place_until)
        : toMillis(t.access_expires_at),
    ),
  );
  throw new AppError(
    "rate_limited",
    `This address already holds ${held.length} unpaid places on this payment link; pay for or cancel one of those checkouts, or wait until one lapses.`,
    { "retry-after": String(Math.max(1, Math.ceil((lapses - now) / 1000))) },
  );
}
