import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount } from "./amount";
import { CURRENCY_CODES } from "./currencies";
import {
  feeScheduleFor,
  formatPercent,
  mergeFeeOverrides,
  parseCurrencyFees,
  parseFeeAmount,
  parsePercent,
  presentFeeSettings,
  readFeeOverrides,
} from "./fee-settings";
import { applyFeeRule, defaultFeeSchedule } from "./fees";

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
