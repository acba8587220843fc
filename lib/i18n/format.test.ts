import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountDifference, formatMoney, isZeroAmount } from "./format";
import { clockInWords, formatDateTime } from "./format-details";

describe("amountDifference", () => {
  it("is the fee a customer pays on top of the price, exactly", () => {
    expect(amountDifference("5175.00", "5000.00")).toBe("175.00");
    expect(amountDifference("18877.50", "18500.00")).toBe("377.50");
    expect(amountDifference("5000.00", "5000.00")).toBe("0.00");
    expect(amountDifference("1000.5", "1000.05")).toBe("0.45");
    expect(amountDifference("500", "499")).toBe("1");
    expect(amountDifference("0.01", "0.00")).toBe("0.01");
  });

  it("never goes below zero", () => {
    expect(amountDifference("10.00", "12.00")).toBe("0.00");
  });

  it("agrees with integer arithmetic on minor units", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (amount, fee) => {
          const major = (minor: bigint) => `${minor / 100n}.${(minor % 100n).toString().padStart(2, "0")}`;
          expect(amountDifference(major(amount + fee), major(amount))).toBe(major(fee));
        },
      ),
    );
  });
});

describe("isZeroAmount", () => {
  it("knows zero in any number of decimals", () => {
    expect(isZeroAmount("0")).toBe(true);
    expect(isZeroAmount("0.00")).toBe(true);
    expect(isZeroAmount("0.01")).toBe(false);
    expect(isZeroAmount("10")).toBe(false);
  });
});

describe("formatMoney", () => {
  it("groups the whole part", () => {
    expect(formatMoney("18877.50", "NGN")).toBe("NGN 18,877.50");
  });
});

describe("formatting for the page's language", () => {
  it("formats amounts through Intl on the decimal string, XOF without minor digits", () => {
    expect(formatMoney("5075.50", "NGN")).toBe("NGN 5,075.50");
    expect(formatMoney("5075.50", "NGN", "fr").replace(/\s/g, " ")).toBe("5 075,50 NGN");
    expect(formatMoney("5075.50", "NGN", "yo").replace(/\s/g, " ")).toBe("NGN 5,075.50");
    expect(formatMoney("5000", "XOF", "fr").replace(/\s/g, " ")).toBe("5 000 XOF");
    // A decimal string is exact where a float would not be.
    expect(formatMoney("99999999.99", "NGN", "ha").replace(/\s/g, " ")).toBe("NGN 99,999,999.99");
  });

  it("says the countdown in the catalogue's words, plural by Intl.PluralRules", () => {
    const fr = {
      minute: { one: "{n} minute", other: "{n} minutes" },
      second: { one: "{n} seconde", other: "{n} secondes" },
    };
    expect(clockInWords(61, fr, "fr")).toBe("1 minute 1 seconde");
    expect(clockInWords(125, fr, "fr")).toBe("2 minutes 5 secondes");
    const yo = {
      minute: { one: "ìṣẹ́jú {n}", other: "ìṣẹ́jú {n}" },
      second: { one: "ìṣẹ́jú-àáyá {n}", other: "ìṣẹ́jú-àáyá {n}" },
    };
    expect(clockInWords(240, yo, "yo")).toBe("ìṣẹ́jú 4");
  });

  it("writes dates with the catalogue's month names where browsers have no data", () => {
    const months = ["Ṣẹ́r", "Èrè", "Ẹrẹ̀", "Ìgb", "Ẹ̀bi", "Òkú", "Agẹ", "Ògú", "Owe", "Ọ̀wà", "Bél", "Ọ̀pẹ"];
    expect(formatDateTime("2025-06-01T09:30:12.000Z", "yo", months, "UTC")).toBe("1 Òkú 2025, 09:30 UTC");
    expect(formatDateTime("2025-06-01T09:30:12.000Z", "fr", months, "UTC")).toContain("juin 2025");
  });
});
