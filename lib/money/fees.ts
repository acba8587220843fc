import { divideRoundHalfUp, formatAmount, parseAmount } from "./amount";
import { CURRENCY_CODES, type Currency, isCurrency, minorPerMajor } from "./currencies";

/**
 * The fee schedule, in one place (docs/api.md "Money"): the default rules per currency, a merchant's own rules
 * that replace them, how one rule charges an amount, and what the customer pays and the merchant receives.
 * Everything else (initialize, payment links, the console, settlement) only calls this module; nothing
 * outside it knows a rate, a cap or the rounding. Browser-safe: no database, no Node API (the payment link
 * page quotes fees with it).
 *
 * Money never touches a float: rates are basis points (1.5% = 150), flat parts, thresholds and caps are
 * minor units, all bigint, with one half-up rounding of the percentage part.
 */

// ---------------------------------------------------------------------------------------------------------
// The rules and how a fee is computed
// ---------------------------------------------------------------------------------------------------------

export type FeeRule = {
  basisPoints: bigint;
  /** Added to the percentage part... */
  flatMinor: bigint;
  /** ...unless the amount is below this. */
  flatWaivedBelowMinor: bigint;
  /** The fee never exceeds this; null means no cap. */
  capMinor: bigint | null;
};

export type FeeSchedule = {
  card: FeeRule;
  /** Bank transfer, bank payment and USSD share this rule (`transferFee`). */
  transfer: FeeRule;
};

export type Fees = { cardFeeMinor: bigint; transferFeeMinor: bigint };

/** Which rule charges a channel: card has its own; bank transfer, bank payment and USSD share `transfer`. */
export function feeRuleOf(channel: string): keyof FeeSchedule {
  return channel === "card" ? "card" : "transfer";
}

/** The fee a channel charges, of the fees fixed on a payment. */
export function channelFee(fees: Fees, channel: string): bigint {
  return feeRuleOf(channel) === "card" ? fees.cardFeeMinor : fees.transferFeeMinor;
}

/** The default schedule for a currency. */
export function defaultFeeSchedule(currency: Currency): FeeSchedule {
  const major = minorPerMajor(currency);
  if (currency === "NGN") {
    return {
      card: {
        basisPoints: 150n,
        flatMinor: 100n * major,
        flatWaivedBelowMinor: 2_500n * major,
        capMinor: 2_000n * major,
      },
      transfer: { basisPoints: 100n, flatMinor: 0n, flatWaivedBelowMinor: 0n, capMinor: 1_000n * major },
    };
  }
  return {
    card: { basisPoints: 390n, flatMinor: 0n, flatWaivedBelowMinor: 0n, capMinor: null },
    transfer: { basisPoints: 100n, flatMinor: 0n, flatWaivedBelowMinor: 0n, capMinor: null },
  };
}

/**
 * The fee one rule charges on an amount, in minor units. It never exceeds the amount itself: a merchant's
 * own rule may have a flat part larger than a small payment, and when the merchant bears the cost the
 * settlement (amount − fee) must not go below zero. The default schedule never reaches that bound.
 */
export function applyFeeRule(amountMinor: bigint, rule: FeeRule): bigint {
  const percentage = divideRoundHalfUp(amountMinor * rule.basisPoints, 10_000n);
  const flat = amountMinor < rule.flatWaivedBelowMinor ? 0n : rule.flatMinor;
  const fee = percentage + flat;
  const capped = rule.capMinor !== null && fee > rule.capMinor ? rule.capMinor : fee;
  return capped > amountMinor ? amountMinor : capped;
}

export function computeFees(amountMinor: bigint, schedule: FeeSchedule): Fees {
  return {
    cardFeeMinor: applyFeeRule(amountMinor, schedule.card),
    transferFeeMinor: applyFeeRule(amountMinor, schedule.transfer),
  };
}

/**
 * What the customer pays and what the merchant receives when a channel with `feeMinor` pays.
 * Customer bears the cost: total = amount + fee, settled = amount. Merchant bears it: total = amount,
 * settled = amount - fee.
 */
export function settle(amountMinor: bigint, feeMinor: bigint, merchantBearsCost: boolean) {
  return merchantBearsCost
    ? { totalMinor: amountMinor, amountSettledMinor: amountMinor - feeMinor }
    : { totalMinor: amountMinor + feeMinor, amountSettledMinor: amountMinor };
}

// ---------------------------------------------------------------------------------------------------------
// A merchant's own rules
// ---------------------------------------------------------------------------------------------------------

/**
 * A merchant's own fee schedule (docs/api.md: the default schedule is configurable per merchant). The
 * operator sets it (`npm run merchant:fees`), never the merchant. The card rule, the transfer rule or both
 * may be replaced, per currency; whatever is not replaced follows the default. Only the replacements are
 * stored (`merchants.fee_schedule`, JSON), in basis points and minor units as decimal strings, so the stored
 * form never holds a float either.
 */
export type FeeRuleInput = { percent: string; flat?: string; flatWaivedBelow?: string; cap?: string | null };
/** A currency's changes: a rule replaces that channel's, `null` restores its default, absent leaves it. */
export type CurrencyFeesInput = { card?: FeeRuleInput | null; transfer?: FeeRuleInput | null };

type StoredRule = { bps: string; flat: string; waivedBelow: string; cap: string | null };
type StoredCurrency = { card?: StoredRule; transfer?: StoredRule };
/** Parsed changes of one currency, as `CurrencyFeesInput` with the rules in their stored form. */
export type CurrencyFeeChanges = { card?: StoredRule | null; transfer?: StoredRule | null };
export type StoredFeeOverrides = Partial<Record<Currency, StoredCurrency>>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: string };

const PERCENT = /^(0|[1-9][0-9]?|100)(?:\.([0-9]{1,2}))?$/;

/** "1.5" → 150 basis points. At most two decimals (a basis point), from 0 to 100. */
export function parsePercent(input: string): ParseResult<bigint> {
  const match = PERCENT.exec(input);
  if (!match) {
    return {
      ok: false,
      reason: 'must be a percentage string from "0" to "100" with at most 2 decimals, such as "1.5"',
    };
  }
  const bps = BigInt(match[1] ?? "0") * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
  if (bps > 10_000n) return { ok: false, reason: 'must not exceed "100"' };
  return { ok: true, value: bps };
}

/** 150n → "1.50". */
export function formatPercent(bps: bigint): string {
  return `${bps / 100n}.${(bps % 100n).toString().padStart(2, "0")}`;
}

/** A fee's flat part or threshold: like an amount, but zero is allowed ("0" means none). */
export function parseFeeAmount(input: string, currency: Currency): ParseResult<bigint> {
  if (/^0(?:\.0+)?$/.test(input)) {
    const parsed = parseAmount(`1${input.slice(1)}`, currency); // same decimals rule as any amount
    return parsed.ok ? { ok: true, value: 0n } : { ok: false, reason: parsed.reason };
  }
  const parsed = parseAmount(input, currency);
  return parsed.ok ? { ok: true, value: parsed.minor } : { ok: false, reason: parsed.reason };
}

/**
 * Validate one currency's rules and turn them into their stored form, or name the first field that breaks a
 * rule (`card.cap`, with the reason).
 */
export function parseCurrencyFees(
  input: CurrencyFeesInput,
  currency: Currency,
): { ok: true; value: CurrencyFeeChanges } | { ok: false; field: string; reason: string } {
  const out: CurrencyFeeChanges = {};
  for (const channel of ["card", "transfer"] as const) {
    const rule = input[channel];
    if (rule === undefined) continue;
    if (rule === null) {
      out[channel] = null;
      continue;
    }
    const bps = parsePercent(rule.percent);
    if (!bps.ok) return { ok: false, field: `${channel}.percent`, reason: bps.reason };
    const flat = parseFeeAmount(rule.flat ?? "0", currency);
    if (!flat.ok) return { ok: false, field: `${channel}.flat`, reason: flat.reason };
    const waivedBelow = parseFeeAmount(rule.flatWaivedBelow ?? "0", currency);
    if (!waivedBelow.ok)
      return { ok: false, field: `${channel}.flatWaivedBelow`, reason: waivedBelow.reason };
    let cap: bigint | null = null;
    if (rule.cap !== undefined && rule.cap !== null) {
      const parsed = parseAmount(rule.cap, currency);
      if (!parsed.ok) return { ok: false, field: `${channel}.cap`, reason: parsed.reason };
      cap = parsed.minor;
    }
    out[channel] = {
      bps: bps.value.toString(),
      flat: flat.value.toString(),
      waivedBelow: waivedBelow.value.toString(),
      cap: cap === null ? null : cap.toString(),
    };
  }
  return { ok: true, value: out };
}

/** The stored overrides of a merchant (`merchants.fee_schedule`), or none. */
export function readFeeOverrides(stored: string | null): StoredFeeOverrides {
  if (!stored) return {};
  const parsed = JSON.parse(stored) as Record<string, StoredCurrency>;
  const out: StoredFeeOverrides = {};
  for (const [code, rules] of Object.entries(parsed)) if (isCurrency(code)) out[code] = rules;
  return out;
}

/**
 * Overrides after a change, which touches only what it names: a currency set to null goes back to the
 * default whole; otherwise each channel named is replaced (a rule) or restored (null), and the other kept.
 */
export function mergeFeeOverrides(
  current: StoredFeeOverrides,
  changes: Partial<Record<Currency, CurrencyFeeChanges | null>>,
): string | null {
  const next: StoredFeeOverrides = { ...current };
  for (const [code, rules] of Object.entries(changes) as [Currency, CurrencyFeeChanges | null][]) {
    const merged: StoredCurrency = { ...(rules === null ? {} : next[code]) };
    for (const channel of ["card", "transfer"] as const) {
      const rule = rules?.[channel];
      if (rule === null) delete merged[channel];
      else if (rule !== undefined) merged[channel] = rule;
    }
    if (merged.card || merged.transfer) next[code] = merged;
    else delete next[code];
  }
  return Object.keys(next).length > 0 ? JSON.stringify(next) : null;
}

function toRule(stored: StoredRule): FeeRule {
  return {
    basisPoints: BigInt(stored.bps),
    flatMinor: BigInt(stored.flat),
    flatWaivedBelowMinor: BigInt(stored.waivedBelow),
    capMinor: stored.cap === null ? null : BigInt(stored.cap),
  };
}

/** The schedule of `currency` with a merchant's own rules of that currency, where it has any. */
function scheduleWith(currency: Currency, own: StoredCurrency | undefined): FeeSchedule {
  const schedule = defaultFeeSchedule(currency);
  return {
    card: own?.card ? toRule(own.card) : schedule.card,
    transfer: own?.transfer ? toRule(own.transfer) : schedule.transfer,
  };
}

/** The schedule a merchant's payment in `currency` is charged by: its own rules where set, else the default. */
export function feeScheduleFor(currency: Currency, stored: string | null): FeeSchedule {
  if (!stored) return defaultFeeSchedule(currency);
  return scheduleWith(currency, readFeeOverrides(stored)[currency]);
}

/**
 * The fees a merchant's payment of `amountMinor` in `currency` is charged on each rule, by the merchant's own
 * rules (`merchants.fee_schedule`) where set. Initialize fixes them on the transaction: later changes to the
 * rules never reprice a payment already offered.
 */
export function feesFor(amountMinor: bigint, currency: Currency, stored: string | null): Fees {
  return computeFees(amountMinor, feeScheduleFor(currency, stored));
}

// ---------------------------------------------------------------------------------------------------------
// Rules as people see them
// ---------------------------------------------------------------------------------------------------------

/** A rule as the API and the pages show it: a percentage and major-unit decimal strings. */
export type ShownFeeRule = { percent: string; flat: string; flatWaivedBelow: string; cap: string | null };

export function presentRule(rule: FeeRule, currency: Currency): ShownFeeRule {
  return {
    percent: formatPercent(rule.basisPoints),
    flat: formatAmount(rule.flatMinor, currency),
    flatWaivedBelow: formatAmount(rule.flatWaivedBelowMinor, currency),
    cap: rule.capMinor === null ? null : formatAmount(rule.capMinor, currency),
  };
}

/**
 * A shown rule read back (the payment link page gets its rules as the API shows them and quotes fees in the
 * browser with them), or null when it is not one `presentRule` could have written.
 */
export function readShownRule(rule: ShownFeeRule, currency: Currency): FeeRule | null {
  const bps = parsePercent(rule.percent);
  const flat = parseFeeAmount(rule.flat, currency);
  const waived = parseFeeAmount(rule.flatWaivedBelow, currency);
  const cap = rule.cap === null ? null : parseFeeAmount(rule.cap, currency);
  if (!bps.ok || !flat.ok || !waived.ok || (cap && !cap.ok)) return null;
  return {
    basisPoints: bps.value,
    flatMinor: flat.value,
    flatWaivedBelowMinor: waived.value,
    capMinor: cap?.ok ? cap.value : null,
  };
}

const isZero = (shown: string) => /^0(?:\.0+)?$/.test(shown);

/** A shown rule in one line of English for the console: "1.50% + NGN 100.00 (waived below 2500.00) capped at NGN 2000.00". */
export function describeFeeRule(rule: ShownFeeRule, currency: string): string {
  const parts = [`${rule.percent}%`];
  if (!isZero(rule.flat)) {
    parts.push(`+ ${currency} ${rule.flat}`);
    if (!isZero(rule.flatWaivedBelow)) parts.push(`(waived below ${rule.flatWaivedBelow})`);
  }
  if (rule.cap !== null) parts.push(`capped at ${currency} ${rule.cap}`);
  return parts.join(" ");
}

/** Every currency's schedule as the merchant's payments are charged, and which currencies are its own. */
export function presentFeeSettings(stored: string | null) {
  const overrides = readFeeOverrides(stored);
  const fees = Object.fromEntries(
    CURRENCY_CODES.map((currency) => {
      const schedule = scheduleWith(currency, overrides[currency]);
      return [
        currency,
        { card: presentRule(schedule.card, currency), transfer: presentRule(schedule.transfer, currency) },
      ];
    }),
  ) as Record<Currency, { card: ShownFeeRule; transfer: ShownFeeRule }>;
  return { fees, customFees: CURRENCY_CODES.filter((c) => overrides[c] !== undefined) };
}
