import { describe, expect, it } from "vitest";
import { applyFeeRule, feeScheduleFor, presentRule } from "@/lib/money/fees";
import { type LinkPricing, quoteFees } from "./fee-notice";

const ngn = feeScheduleFor("NGN", null);
const pricing = (merchantBearsCost: boolean): LinkPricing => ({
  merchantBearsCost,
  groups: [
    { channels: ["card"], rule: presentRule(ngn.card, "NGN") },
    { channels: ["bank_transfer", "bank_payment", "ussd"], rule: presentRule(ngn.transfer, "NGN") },
  ],
});

describe("quoteFees", () => {
  it("says what each group of channels costs the customer, with the rules initialize charges", () => {
    expect(quoteFees(pricing(false), "18500", "NGN")).toEqual([
      { channels: ["card"], fee: "377.50", total: "18877.50" },
      { channels: ["bank_transfer", "bank_payment", "ussd"], fee: "185.00", total: "18685.00" },
    ]);
    // Below 2,500.00 the card's flat part is waived; the caps hold on large amounts.
    expect(quoteFees(pricing(false), "2000", "NGN")?.[0]).toMatchObject({ fee: "30.00", total: "2030.00" });
    expect(quoteFees(pricing(false), "500000", "NGN")).toEqual([
      { channels: ["card"], fee: "2000.00", total: "502000.00" },
      { channels: ["bank_transfer", "bank_payment", "ussd"], fee: "1000.00", total: "501000.00" },
    ]);
  });

  it("matches the fee schedule itself on many amounts", () => {
    for (const minor of [1n, 99n, 249_999n, 250_000n, 1_234_567n, 13_333_333n, 99_999_999n]) {
      const amount = `${minor / 100n}.${(minor % 100n).toString().padStart(2, "0")}`;
      const [card] = quoteFees(pricing(false), amount, "NGN") ?? [];
      const fee = applyFeeRule(minor, ngn.card);
      expect(card?.fee).toBe(`${fee / 100n}.${(fee % 100n).toString().padStart(2, "0")}`);
    }
  });

  it("adds nothing when the merchant bears the cost", () => {
    expect(quoteFees(pricing(true), "18500", "NGN")).toEqual([
      { channels: ["card"], fee: "0.00", total: "18500.00" },
      { channels: ["bank_transfer", "bank_payment", "ussd"], fee: "0.00", total: "18500.00" },
    ]);
  });

  it("has no quote for an amount that is not one yet", () => {
    expect(quoteFees(pricing(false), "", "NGN")).toBeNull();
    expect(quoteFees(pricing(false), "12,000", "NGN")).toBeNull();
    expect(quoteFees(pricing(false), "0", "NGN")).toBeNull();
  });
});
