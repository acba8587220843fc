import { describe, expect, it } from "vitest";
import { backFromBankPage } from "./back-from-bank-page";

describe("back from a bank's page", () => {
  it("lands on the checkout, with the refusal's reason when the bank refused", () => {
    expect(backFromBankPage("AC1", "card", { status: "success" })).toBe("/pay/AC1");
    expect(backFromBankPage("AC1", "card", { status: "awaiting_action" })).toBe("/pay/AC1");
    expect(backFromBankPage("AC1", "card", null)).toBe("/pay/AC1");
    expect(backFromBankPage("AC1", "card", { status: "failed", reason: "card_declined" })).toBe(
      "/pay/AC1?channel=card&problem=decline%3Acard_declined",
    );
    expect(backFromBankPage("AC1", "card", { status: "failed" })).toBe(
      "/pay/AC1?channel=card&problem=decline%3Aother",
    );
    expect(backFromBankPage("AC1", "bank_payment", { status: "failed", reason: "declined" })).toBe(
      "/pay/AC1?channel=bank_payment&problem=not_approved",
    );
    expect(backFromBankPage("AC1", "ussd", { status: "failed" })).toBe("/pay/AC1");
  });
});
