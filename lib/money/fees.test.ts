import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount } from "./amount";
import { CURRENCY_CODES, type Currency, maxAmountMinor } from "./currencies";
import {
  applyFeeRule,
  channelFee,
  computeFees,
  defaultFeeSchedule,
  describeFeeRule,
  type FeeRule,
  feeRuleOf,
  feeScheduleFor,
  feesFor,
  formatPercent,
  mergeFeeOverrides,
  parseCurrencyFees,
  parseFeeAmount,
  parsePercent,
  presentFeeSettings,
  presentRule,
  readFeeOverrides,
  readShownRule,
  settle,
} from "./fees";

const RUNS = { numRuns: 300 };

/** Major-unit text -> minor units, failing the test if the fixture itself is not a valid amount. */
function m(text: string, currency: Currency = "NGN"): bigint {
  const r = parseAmount(text, currency);
  if (!r.ok) throw new Error(`bad fixture ${text}: ${r.reason}`);
  return r.minor;
}

function cardFee(amount: string, currency: Currency = "NGN"): string {
  return formatAmount(computeFees(m(amount, currency), defaultFeeSchedule(currency)).cardFeeMinor, currency);
}

function transferFee(amount: string, currency: Currency = "NGN"): string {
  return formatAmount(
    computeFees(m(amount, currency), defaultFeeSchedule(currency)).transferFeeMinor,
    currency,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Independent reference: the contract's schedule written out as fractions of the amount (per-mille / per-cent
// rather than basis points), with half-up rounding done by quotient and remainder. Minor units throughout.
// ---------------------------------------------------------------------------------------------------------

/** round-half-up(num / den) for num >= 0, via quotient and remainder. */
function halfUp(num: bigint, den: bigint): bigint {
  const q = num / den;
  return (num % den) * 2n >= den ? q + 1n : q;
}

function referenceCardFee(amount: bigint, currency: Currency): bigint {
  if (currency !== "NGN") return halfUp(amount * 39n, 1_000n); // 3.9%, no cap
  const percentage = halfUp(amount * 15n, 1_000n); // 1.5%
  const flat = amount >= 2_500n * 100n ? 100n * 100n : 0n; // 100.00 unless below 2,500.00
  const fee = percentage + flat;
  const cap = 2_000n * 100n;
  return fee < cap ? fee : cap;
}

function referenceTransferFee(amount: bigint, currency: Currency): bigint {
  const percentage = halfUp(amount, 100n); // 1.0%
  if (currency !== "NGN") return percentage;
  const cap = 1_000n * 100n;
  return percentage < cap ? percentage : cap;
}

/** The same rule as applyFeeRule, written independently, for arbitrary (merchant-configured) rules. */
function referenceRule(amount: bigint, rule: FeeRule): bigint {
  const exact = amount * rule.basisPoints; // in 1/10,000 of a minor unit
  let fee = exact / 10_000n;
  if ((exact % 10_000n) * 2n >= 10_000n) fee += 1n;
  if (!(amount < rule.flatWaivedBelowMinor)) fee += rule.flatMinor;
  if (rule.capMinor !== null && fee > rule.capMinor) fee = rule.capMinor;
  // A fee is never more than the payment it is charged on (settlement never below zero).
  return fee > amount ? amount : fee;
}

const currencyArb = fc.constantFrom(...CURRENCY_CODES);
/** An amount in [1, max] for the currency, biased towards the small and the schedule's edges. */
const amountFor = (currency: Currency) =>
  fc.oneof(
    fc.bigInt({ min: 1n, max: maxAmountMinor(currency) }),
    fc.bigInt({ min: 1n, max: 100_000n }),
    fc.bigInt({ min: 240_000n, max: 260_000n }),
    fc.bigInt({ min: 12_666_000n, max: 12_668_000n }),
    fc.bigInt({ min: 9_999_000n, max: 10_001_000n }),
  );
const currencyAndAmount = currencyArb.chain((currency) =>
  amountFor(currency).map((amount) => ({ currency, amount })),
);

describe("default schedule", () => {
  it("NGN: card 1.5% + 100.00 waived below 2,500.00 capped at 2,000.00; transfer 1.0% capped at 1,000.00", () => {
    expect(defaultFeeSchedule("NGN")).toEqual({
      card: { basisPoints: 150n, flatMinor: 10_000n, flatWaivedBelowMinor: 250_000n, capMinor: 200_000n },
      transfer: { basisPoints: 100n, flatMinor: 0n, flatWaivedBelowMinor: 0n, capMinor: 100_000n },
    });
  });

  it.each(["USD", "GHS", "KES", "ZAR", "XOF"] as const)("%s: card 3.9%% and transfer 1.0%%, no cap", (c) => {
    const s = defaultFeeSchedule(c);
    expect(s.card.basisPoints).toBe(390n);
    expect(s.card.flatMinor).toBe(0n);
    expect(s.card.capMinor).toBeNull();
    expect(s.transfer.basisPoints).toBe(100n);
    expect(s.transfer.flatMinor).toBe(0n);
    expect(s.transfer.capMinor).toBeNull();
  });
});

describe("NGN card fee", () => {
  it("waives the 100.00 flat part below 2,500.00 and charges it from 2,500.00", () => {
    expect(cardFee("2499.99")).toBe("37.50"); // 37.49985 -> 37.50, no flat
    expect(cardFee("2500.00")).toBe("137.50"); // 37.50 + 100.00
    expect(cardFee("2500.01")).toBe("137.50"); // 37.50015 -> 37.50, + 100.00
    expect(cardFee("2499")).toBe("37.49"); // 37.485 -> 37.49
    expect(cardFee("1000")).toBe("15.00");
    expect(cardFee("5000")).toBe("175.00");
  });

  it("reaches the 2,000.00 cap around 126,666.67 and never exceeds it", () => {
    // 1.5% * a + 100 = 2000 at a = 126,666.666...; half-up rounding of the 1.5% part (to the kobo)
    // already reaches 1,900.00 at 126,666.34, and the uncapped fee first exceeds 2,000.00 at 126,667.00.
    expect(cardFee("126666.32")).toBe("1999.99"); // 1899.9948 -> 1899.99
    expect(cardFee("126666.33")).toBe("1999.99"); // 1899.99495 -> 1899.99
    expect(cardFee("126666.34")).toBe("2000.00"); // 1899.9951 -> 1900.00
    expect(cardFee("126666.66")).toBe("2000.00");
    expect(cardFee("126666.67")).toBe("2000.00"); // 1900.00005 -> 1900.00: exactly at the cap
    expect(cardFee("126666.99")).toBe("2000.00"); // 1900.004850 -> 1900.00: still uncapped, equal
    expect(cardFee("126667.00")).toBe("2000.00"); // 1900.005 -> 1900.01 + 100 = 2000.01 -> capped
    expect(cardFee("126667.01")).toBe("2000.00");
    expect(cardFee("1000000")).toBe("2000.00");
    expect(cardFee("100000000.00")).toBe("2000.00");
  });

  it("the cap is what holds the fee at 2,000.00 just above the crossing", () => {
    const uncapped: FeeRule = { ...defaultFeeSchedule("NGN").card, capMinor: null };
    expect(applyFeeRule(m("126666.67"), uncapped)).toBe(200_000n);
    expect(applyFeeRule(m("126667.00"), uncapped)).toBe(200_001n);
    expect(applyFeeRule(m("126667.00"), defaultFeeSchedule("NGN").card)).toBe(200_000n);
    expect(applyFeeRule(m("1000000"), uncapped)).toBe(1_510_000n);
  });

  it("rounds the percentage part half up to the kobo", () => {
    expect(cardFee("1.00")).toBe("0.02"); // 0.015 -> 0.02
    expect(cardFee("0.99")).toBe("0.01"); // 0.01485 -> 0.01
    expect(cardFee("0.34")).toBe("0.01"); // 0.0051 -> 0.01
    expect(cardFee("0.33")).toBe("0.00"); // 0.00495 -> 0.00
    expect(cardFee("0.01")).toBe("0.00");
    expect(cardFee("3.00")).toBe("0.05"); // 0.045 -> 0.05
  });
});

describe("NGN transfer fee", () => {
  it("is 1.0% capped at 1,000.00 with the edge at 100,000.00", () => {
    expect(transferFee("99999.00")).toBe("999.99");
    expect(transferFee("99999.49")).toBe("999.99"); // 999.9949 -> 999.99
    expect(transferFee("99999.50")).toBe("1000.00"); // 999.995 -> 1000.00
    expect(transferFee("99999.99")).toBe("1000.00");
    expect(transferFee("100000.00")).toBe("1000.00"); // exactly the cap
    expect(transferFee("100000.49")).toBe("1000.00"); // 1000.0049 -> 1000.00
    expect(transferFee("100000.50")).toBe("1000.00"); // 1000.005 -> 1000.01 -> capped
    expect(transferFee("100000.01")).toBe("1000.00");
    expect(transferFee("100000000.00")).toBe("1000.00");
    expect(transferFee("5000")).toBe("50.00");
  });

  it("the cap is what holds the fee at 1,000.00 above 100,000.00", () => {
    const uncapped: FeeRule = { ...defaultFeeSchedule("NGN").transfer, capMinor: null };
    expect(applyFeeRule(m("100000.50"), uncapped)).toBe(100_001n);
    expect(applyFeeRule(m("200000"), uncapped)).toBe(200_000n);
  });

  it("rounds an exact half minor unit up", () => {
    expect(transferFee("0.50")).toBe("0.01"); // 0.005 -> 0.01
    expect(transferFee("0.49")).toBe("0.00"); // 0.0049 -> 0.00
    expect(transferFee("1.50")).toBe("0.02"); // 0.015 -> 0.02
    expect(transferFee("1.49")).toBe("0.01");
    expect(transferFee("2.50")).toBe("0.03"); // 0.025 -> 0.03 (half up, not half even)
    expect(transferFee("1234.50")).toBe("12.35"); // 12.345 -> 12.35
    expect(transferFee("1234.49")).toBe("12.34");
    expect(transferFee("0.01")).toBe("0.00");
  });
});

describe("other currencies", () => {
  it.each(["USD", "GHS", "KES", "ZAR"] as const)("%s card 3.9%%, transfer 1.0%%, no cap", (c) => {
    expect(cardFee("100.00", c)).toBe("3.90");
    expect(cardFee("5.00", c)).toBe("0.20"); // 0.195 -> 0.20
    expect(cardFee("12.82", c)).toBe("0.50"); // 0.49998 -> 0.50
    expect(cardFee("0.12", c)).toBe("0.00"); // 0.00468 -> 0.00
    expect(cardFee("0.13", c)).toBe("0.01"); // 0.00507 -> 0.01
    expect(cardFee("2499.99", c)).toBe("97.50"); // 97.499610 -> 97.50, no flat part
    expect(cardFee("2500.00", c)).toBe("97.50");
    expect(cardFee("126667.00", c)).toBe("4940.01"); // 4940.013 -> no cap
    expect(cardFee("100000000.00", c)).toBe("3900000.00");
    expect(transferFee("0.50", c)).toBe("0.01");
    expect(transferFee("100000.50", c)).toBe("1000.01"); // no cap
    expect(transferFee("100000000.00", c)).toBe("1000000.00");
  });

  it("XOF (no minor digits) rounds to the whole franc", () => {
    expect(cardFee("1000", "XOF")).toBe("39");
    expect(cardFee("13", "XOF")).toBe("1"); // 0.507 -> 1
    expect(cardFee("12", "XOF")).toBe("0"); // 0.468 -> 0
    expect(transferFee("50", "XOF")).toBe("1"); // 0.5 -> 1
    expect(transferFee("49", "XOF")).toBe("0");
    expect(transferFee("150", "XOF")).toBe("2"); // 1.5 -> 2
  });
});

describe("settle", () => {
  it("customer bears the cost: the customer pays amount + fee, the merchant gets the amount", () => {
    expect(settle(500_000n, 17_500n, false)).toEqual({ totalMinor: 517_500n, amountSettledMinor: 500_000n });
  });

  it("merchant bears the cost: the customer pays the amount, the merchant gets amount - fee", () => {
    expect(settle(500_000n, 17_500n, true)).toEqual({ totalMinor: 500_000n, amountSettledMinor: 482_500n });
  });

  it("a zero fee changes nothing either way", () => {
    expect(settle(1n, 0n, false)).toEqual({ totalMinor: 1n, amountSettledMinor: 1n });
    expect(settle(1n, 0n, true)).toEqual({ totalMinor: 1n, amountSettledMinor: 1n });
  });

  it("holds for any amount and fee (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 10n }),
        fc.bigInt({ min: 0n, max: 10n ** 8n }),
        (amount, fee) => {
          const customer = settle(amount, fee, false);
          expect(customer.totalMinor).toBe(amount + fee);
          expect(customer.amountSettledMinor).toBe(amount);
          const merchant = settle(amount, fee, true);
          expect(merchant.totalMinor).toBe(amount);
          expect(merchant.amountSettledMinor).toBe(amount - fee);
          // Either way the fee is the gap between what is paid and what is settled.
          expect(customer.totalMinor - customer.amountSettledMinor).toBe(fee);
          expect(merchant.totalMinor - merchant.amountSettledMinor).toBe(fee);
        },
      ),
      RUNS,
    );
  });

  it("with the default schedule the merchant never settles a negative amount (property)", () => {
    fc.assert(
      fc.property(currencyAndAmount, ({ currency, amount }) => {
        const fees = computeFees(amount, defaultFeeSchedule(currency));
        for (const fee of [fees.cardFeeMinor, fees.transferFeeMinor]) {
          expect(settle(amount, fee, true).amountSettledMinor).toBeGreaterThanOrEqual(0n);
        }
      }),
      RUNS,
    );
  });
});

describe("fee properties", () => {
  it("default fees equal an independent bigint reference computation", () => {
    fc.assert(
      fc.property(currencyAndAmount, ({ currency, amount }) => {
        const fees = computeFees(amount, defaultFeeSchedule(currency));
        expect(fees.cardFeeMinor).toBe(referenceCardFee(amount, currency));
        expect(fees.transferFeeMinor).toBe(referenceTransferFee(amount, currency));
      }),
      { numRuns: 500 },
    );
  });

  it("the reference agrees on every kobo around the NGN edges", () => {
    const s = defaultFeeSchedule("NGN");
    const edges = [1n, 250_000n, 12_666_667n, 10_000_000n, 12_666_700n];
    for (const edge of edges) {
      for (let a = edge - 60n; a <= edge + 60n; a++) {
        if (a < 1n) continue;
        expect(applyFeeRule(a, s.card)).toBe(referenceCardFee(a, "NGN"));
        expect(applyFeeRule(a, s.transfer)).toBe(referenceTransferFee(a, "NGN"));
      }
    }
  });

  it("fees are never negative", () => {
    fc.assert(
      fc.property(currencyAndAmount, ({ currency, amount }) => {
        const fees = computeFees(amount, defaultFeeSchedule(currency));
        expect(fees.cardFeeMinor).toBeGreaterThanOrEqual(0n);
        expect(fees.transferFeeMinor).toBeGreaterThanOrEqual(0n);
      }),
      RUNS,
    );
  });

  it("NGN card fee is always <= 2,000.00 and NGN transfer fee <= 1,000.00", () => {
    fc.assert(
      fc.property(amountFor("NGN"), (amount) => {
        const fees = computeFees(amount, defaultFeeSchedule("NGN"));
        expect(fees.cardFeeMinor).toBeLessThanOrEqual(200_000n);
        expect(fees.transferFeeMinor).toBeLessThanOrEqual(100_000n);
      }),
      RUNS,
    );
  });

  it("a capped rule never charges more than its cap (arbitrary rules)", () => {
    const rule = fc.record({
      basisPoints: fc.bigInt({ min: 0n, max: 10_000n }),
      flatMinor: fc.bigInt({ min: 0n, max: 1_000_000n }),
      flatWaivedBelowMinor: fc.bigInt({ min: 0n, max: 10n ** 10n }),
      capMinor: fc.bigInt({ min: 0n, max: 10n ** 8n }),
    });
    fc.assert(
      fc.property(rule, fc.bigInt({ min: 1n, max: 10n ** 10n }), (r, amount) => {
        const fee = applyFeeRule(amount, r);
        expect(fee).toBeGreaterThanOrEqual(0n);
        expect(fee).toBeLessThanOrEqual(r.capMinor);
      }),
      RUNS,
    );
  });

  it("applyFeeRule equals the independent reference for arbitrary merchant-configured rules", () => {
    const rule: fc.Arbitrary<FeeRule> = fc.record({
      basisPoints: fc.bigInt({ min: 0n, max: 10_000n }),
      flatMinor: fc.bigInt({ min: 0n, max: 1_000_000n }),
      flatWaivedBelowMinor: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 10n ** 10n })),
      capMinor: fc.option(fc.bigInt({ min: 0n, max: 10n ** 9n }), { nil: null }),
    });
    fc.assert(
      fc.property(rule, fc.bigInt({ min: 1n, max: 10n ** 10n }), (r, amount) => {
        expect(applyFeeRule(amount, r)).toBe(referenceRule(amount, r));
      }),
      { numRuns: 500 },
    );
  });

  it("the transfer fee is monotonic non-decreasing in the amount", () => {
    const pair = currencyArb.chain((currency) =>
      amountFor(currency).chain((a) =>
        fc.bigInt({ min: a, max: maxAmountMinor(currency) }).map((b) => ({ currency, a, b })),
      ),
    );
    fc.assert(
      fc.property(pair, ({ currency, a, b }) => {
        const rule = defaultFeeSchedule(currency).transfer;
        expect(applyFeeRule(a, rule)).toBeLessThanOrEqual(applyFeeRule(b, rule));
      }),
      RUNS,
    );
  });

  it("the transfer and card fees never decrease by one minor unit step (property)", () => {
    fc.assert(
      fc.property(currencyAndAmount, ({ currency, amount }) => {
        if (amount >= maxAmountMinor(currency)) return;
        const s = defaultFeeSchedule(currency);
        expect(applyFeeRule(amount, s.transfer)).toBeLessThanOrEqual(applyFeeRule(amount + 1n, s.transfer));
        expect(applyFeeRule(amount, s.card)).toBeLessThanOrEqual(applyFeeRule(amount + 1n, s.card));
      }),
      RUNS,
    );
  });

  it("computeFees applies the card rule and the transfer rule of the schedule it is given", () => {
    const schedule = {
      card: { basisPoints: 200n, flatMinor: 5n, flatWaivedBelowMinor: 0n, capMinor: null },
      transfer: { basisPoints: 50n, flatMinor: 0n, flatWaivedBelowMinor: 0n, capMinor: 3n },
    };
    expect(computeFees(10_000n, schedule)).toEqual({ cardFeeMinor: 205n, transferFeeMinor: 3n });
    expect(computeFees(100n, schedule)).toEqual({ cardFeeMinor: 7n, transferFeeMinor: 1n }); // 0.5 -> 1
  });
});

describe("a merchant's own fee schedule", () => {
  it("reads percentages to the basis point, from 0 to 100, and writes them back with two decimals", () => {
    expect(parsePercent("1.5")).toEqual({ ok: true, value: 150n });
    expect(parsePercent("0")).toEqual({ ok: true, value: 0n });
    expect(parsePercent("100")).toEqual({ ok: true, value: 10_000n });
    expect(parsePercent("2.75")).toEqual({ ok: true, value: 275n });
    for (const bad of ["1.505", "-1", "100.01", "101", "1e2", " 1", "01.5", "1.", ".5", "", "1,5"]) {
      expect(parsePercent(bad).ok, bad).toBe(false);
    }
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000n }), (bps) => {
        expect(parsePercent(formatPercent(bps))).toEqual({ ok: true, value: bps });
      }),
    );
  });

  it("takes zero for flat parts and thresholds, with the currency's decimals", () => {
    expect(parseFeeAmount("0", "NGN")).toEqual({ ok: true, value: 0n });
    expect(parseFeeAmount("0.00", "NGN")).toEqual({ ok: true, value: 0n });
    expect(parseFeeAmount("0.000", "NGN").ok).toBe(false);
    expect(parseFeeAmount("0.0", "XOF").ok).toBe(false);
    expect(parseFeeAmount("50.5", "NGN")).toEqual({ ok: true, value: 5050n });
    expect(parseFeeAmount("-1", "NGN").ok).toBe(false);
  });

  it("names the field and the rule of the first mistake", () => {
    expect(parseCurrencyFees({ card: { percent: "1.5", cap: "0" } }, "NGN")).toEqual({
      ok: false,
      field: "card.cap",
      reason: "must be greater than zero",
    });
    expect(parseCurrencyFees({ transfer: { percent: "1", flat: "1.001" } }, "USD")).toMatchObject({
      ok: false,
      field: "transfer.flat",
      reason: "must have at most 2 decimals for USD",
    });
    expect(parseCurrencyFees({ card: { percent: "150" } }, "NGN")).toMatchObject({
      ok: false,
      field: "card.percent",
    });
  });

  it("charges by the merchant's rules where set and by the default elsewhere", () => {
    const parsed = parseCurrencyFees(
      { card: { percent: "2.5", flat: "50.00", flatWaivedBelow: "1000.00", cap: "5000.00" } },
      "NGN",
    );
    if (!parsed.ok) throw new Error("expected valid rules");
    const stored = mergeFeeOverrides({}, { NGN: parsed.value });
    const ngn = feeScheduleFor("NGN", stored);
    expect(applyFeeRule(1_000_000n, ngn.card)).toBe(30_000n); // 2.5% of 10,000.00 + 50.00
    expect(applyFeeRule(99_999n, ngn.card)).toBe(2_500n); // 999.99: 2.5% (rounded half up), flat waived
    expect(applyFeeRule(10_000_000_00n, ngn.card)).toBe(500_000n); // capped at 5,000.00
    expect(ngn.transfer).toEqual(defaultFeeSchedule("NGN").transfer);
    expect(feeScheduleFor("USD", stored)).toEqual(defaultFeeSchedule("USD"));

    // Other currencies are kept when one changes; null restores a currency's default.
    const usd = parseCurrencyFees({ transfer: { percent: "0.5", cap: null } }, "USD");
    if (!usd.ok) throw new Error("expected valid rules");
    const both = mergeFeeOverrides(readFeeOverrides(stored), { USD: usd.value });
    expect(Object.keys(readFeeOverrides(both)).sort()).toEqual(["NGN", "USD"]);
    expect(mergeFeeOverrides(readFeeOverrides(both), { NGN: null, USD: null })).toBeNull();

    const shown = presentFeeSettings(both);
    expect(shown.customFees).toEqual(["NGN", "USD"]);
    expect(shown.fees.NGN.card).toEqual({
      percent: "2.50",
      flat: "50.00",
      flatWaivedBelow: "1000.00",
      cap: "5000.00",
    });
    expect(shown.fees.USD.transfer).toEqual({
      percent: "0.50",
      flat: "0.00",
      flatWaivedBelow: "0.00",
      cap: null,
    });
    expect(Object.keys(shown.fees)).toEqual(CURRENCY_CODES);
  });

  it("never charges more than the cap, nor a fee outside [0, amount × percent + flat], for any rules", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        fc.option(fc.bigInt({ min: 1n, max: 10_000_000n })),
        fc.bigInt({ min: 1n, max: 10_000_000_000n }),
        (bps, flat, waived, cap, amount) => {
          const parsed = parseCurrencyFees(
            {
              card: {
                percent: formatPercent(bps),
                flat: formatAmount(flat, "NGN"),
                flatWaivedBelow: formatAmount(waived, "NGN"),
                cap: cap === null ? null : formatAmount(cap, "NGN"),
              },
            },
            "NGN",
          );
          if (!parsed.ok) throw new Error(`valid rules refused: ${JSON.stringify(parsed)}`);
          const rule = feeScheduleFor("NGN", mergeFeeOverrides({}, { NGN: parsed.value })).card;
          expect(rule).toEqual({
            basisPoints: bps,
            flatMinor: flat,
            flatWaivedBelowMinor: waived,
            capMinor: cap,
          });
          const fee = applyFeeRule(amount, rule);
          expect(fee >= 0n).toBe(true);
          // Never more than the payment: a merchant bearing the cost never settles below zero.
          expect(fee <= amount).toBe(true);
          if (cap !== null) expect(fee <= cap).toBe(true);
          expect(fee <= (amount * bps + 9_999n) / 10_000n + flat).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("charges at most the payment itself, whatever the rule, so the merchant's settlement is never negative", () => {
    const parsed = parseCurrencyFees({ card: { percent: "100", flat: "5000.00" } }, "NGN");
    if (!parsed.ok) throw new Error("expected valid rules");
    const card = feeScheduleFor("NGN", mergeFeeOverrides({}, { NGN: parsed.value })).card;
    expect(applyFeeRule(1_000n, card)).toBe(1_000n); // 10.00: 10.00 + 5,000.00 would be 5,010.00
    expect(applyFeeRule(1n, card)).toBe(1n);
  });
});

describe("the fees of a payment", () => {
  it("card has its own rule; bank transfer, bank payment and USSD share the transfer rule", () => {
    expect(feeRuleOf("card")).toBe("card");
    for (const channel of ["bank_transfer", "bank_payment", "ussd"])
      expect(feeRuleOf(channel)).toBe("transfer");
    const fees = { cardFeeMinor: 17_500n, transferFeeMinor: 5_000n };
    expect(channelFee(fees, "card")).toBe(17_500n);
    expect(channelFee(fees, "bank_transfer")).toBe(5_000n);
    expect(channelFee(fees, "ussd")).toBe(5_000n);
  });

  it("a merchant without rules of its own pays the default schedule; one with rules pays its own", () => {
    expect(feesFor(500_000n, "NGN", null)).toEqual({ cardFeeMinor: 17_500n, transferFeeMinor: 5_000n });
    const parsed = parseCurrencyFees({ transfer: { percent: "0.5", cap: "20.00" } }, "NGN");
    if (!parsed.ok) throw new Error("expected valid rules");
    const stored = mergeFeeOverrides({}, { NGN: parsed.value });
    // 5,000.00: the card rule is still the default (1.5% + 100.00); transfer 0.5% = 25.00, capped at 20.00.
    expect(feesFor(500_000n, "NGN", stored)).toEqual({ cardFeeMinor: 17_500n, transferFeeMinor: 2_000n });
    // Another currency of the same merchant keeps the default.
    expect(feesFor(10_000n, "USD", stored)).toEqual(computeFees(10_000n, defaultFeeSchedule("USD")));
  });
});

describe("rules as people see them", () => {
  it("a shown rule reads back to the rule it shows, in every currency (property)", () => {
    // Any rule the operator can set: amounts within the currency's largest amount (parseAmount's bound).
    const currencyAndRule = currencyArb.chain((currency) =>
      fc
        .record({
          basisPoints: fc.bigInt({ min: 0n, max: 10_000n }),
          flatMinor: fc.bigInt({ min: 0n, max: maxAmountMinor(currency) }),
          flatWaivedBelowMinor: fc.bigInt({ min: 0n, max: maxAmountMinor(currency) }),
          capMinor: fc.option(fc.bigInt({ min: 1n, max: maxAmountMinor(currency) }), { nil: null }),
        })
        .map((rule): { currency: Currency; rule: FeeRule } => ({ currency, rule })),
    );
    fc.assert(
      fc.property(currencyAndRule, ({ currency, rule }) => {
        expect(readShownRule(presentRule(rule, currency), currency)).toEqual(rule);
      }),
      RUNS,
    );
  });

  it("a shown rule that is not one is refused", () => {
    const good = presentRule(defaultFeeSchedule("NGN").card, "NGN");
    expect(readShownRule({ ...good, percent: "1.505" }, "NGN")).toBeNull();
    expect(readShownRule({ ...good, flat: "abc" }, "NGN")).toBeNull();
    expect(readShownRule({ ...good, cap: "1.001" }, "NGN")).toBeNull();
    expect(readShownRule({ ...good, flatWaivedBelow: "0.5" }, "XOF")).toBeNull();
  });

  it("describes a rule in one line: the flat part only when there is one, its threshold, the cap", () => {
    const ngn = defaultFeeSchedule("NGN");
    expect(describeFeeRule(presentRule(ngn.card, "NGN"), "NGN")).toBe(
      "1.50% + NGN 100.00 (waived below 2500.00) capped at NGN 2000.00",
    );
    expect(describeFeeRule(presentRule(ngn.transfer, "NGN"), "NGN")).toBe("1.00% capped at NGN 1000.00");
    expect(describeFeeRule(presentRule(defaultFeeSchedule("USD").card, "USD"), "USD")).toBe("3.90%");
    expect(describeFeeRule({ percent: "2.00", flat: "50", flatWaivedBelow: "0", cap: null }, "XOF")).toBe(
      "2.00% + XOF 50",
    );
  });
});
