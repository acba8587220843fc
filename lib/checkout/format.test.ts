import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountDifference, formatMoney, isZeroAmount } from "./format";

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
