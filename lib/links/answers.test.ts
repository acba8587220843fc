import { describe, expect, it } from "vitest";
import { answerIssues, linkAmount } from "./answers";
import type { FormFieldInput } from "./schemas";

const FIELDS: FormFieldInput[] = [
  { name: "size", label: "Size", type: "select", required: true, options: ["S", "M"] },
  { name: "phone", label: "Phone", type: "phone", required: false },
  { name: "guests", label: "Guests", type: "number", required: false },
  { name: "contact", label: "Contact", type: "email", required: false },
];

describe("a payment link's answers", () => {
  it("pass cleaned when every prompt is answered by its rule", () => {
    expect(answerIssues(FIELDS, { size: " M ", guests: 3, phone: "+234 803 000 0000" })).toEqual({
      answers: { size: "M", guests: "3", phone: "+234 803 000 0000" },
      issues: [],
    });
  });

  it("fail by prompt and rule, every failing prompt at once", () => {
    const { issues } = answerIssues(FIELDS, { phone: "abc", guests: "1e3", contact: "no", extra: "x" });
    expect(issues.map((i) => [i.field, i.rule])).toEqual([
      ["fields", "unrecognized_keys"],
      ["fields.size", "required"],
      ["fields.phone", "invalid_phone"],
      ["fields.guests", "invalid_number"],
      ["fields.contact", "invalid_email"],
    ]);
    expect(issues[1]?.message).toBe("fields.size (Size) is required");
    expect(answerIssues(FIELDS, { size: "XL" }).issues).toEqual([
      { field: "fields.size", rule: "invalid_option", message: 'fields.size (Size) must be one of "S", "M"' },
    ]);
  });
});

describe("a payment link's amount", () => {
  const open = { fixedMinor: null, minMinor: 100000n, maxMinor: 5000000n };

  it("is the link's own when fixed, and one sent must be that amount", () => {
    const fixed = { fixedMinor: 1850000n, minMinor: null, maxMinor: null };
    expect(linkAmount(undefined, fixed, "NGN")).toEqual({ ok: true, minor: 1850000n });
    expect(linkAmount("18500.00", fixed, "NGN")).toEqual({ ok: true, minor: 1850000n });
    expect(linkAmount("100", fixed, "NGN")).toMatchObject({ ok: false, issue: { rule: "fixed_amount" } });
  });

  it("is the customer's within the link's bounds, in exact minor units", () => {
    expect(linkAmount("2500.50", open, "NGN")).toEqual({ ok: true, minor: 250050n });
    const rule = (sent: string | undefined) => {
      const r = linkAmount(sent, open, "NGN");
      return r.ok ? "ok" : r.issue.rule;
    };
    expect(rule(undefined)).toBe("required");
    expect(rule("")).toBe("required");
    expect(rule("12,000")).toBe("invalid_format");
    expect(rule("1000.001")).toBe("too_many_decimals");
    expect(rule("0")).toBe("not_positive");
    expect(rule("999.99")).toBe("min_amount");
    expect(rule("1000")).toBe("ok");
    expect(rule("50000.00")).toBe("ok");
    expect(rule("50000.01")).toBe("max_amount");
    expect(linkAmount("999.99", open, "NGN")).toMatchObject({
      issue: { field: "amount", message: "amount must be at least 1000.00" },
    });
  });
});
