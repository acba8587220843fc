import { divideRoundHalfUp } from "./amount";
import { type Currency, minorPerMajor } from "./currencies";

/**
 * The fee schedule (docs/api.md). Rates are basis points (1.5% = 150), flat parts and caps are minor units,
 * so every computation is integer arithmetic with one half-up rounding of the percentage part.
 */
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
