import type { FieldIssue } from "@/lib/core/errors";
import { formatAmount, parseAmount } from "@/lib/money/amount";
import type { Currency } from "@/lib/money/currencies";
import { Email } from "@/lib/payments/schemas";
import type { FormFieldInput } from "./schemas";

/**
 * The rules of a payment link's form that depend on the link itself (its prompts, its amount bounds), in one
 * place for the server (lib/links/pay-payment-link.ts refuses with them) and the link page (it checks with
 * them before sending, and words each failure by its rule in the customer's language). Pure: no database.
 */

const PHONE = /^\+?[0-9][0-9 ()-]{5,18}[0-9]$/;
const NUMBER = /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,6})?$/;

/** The customer's answers to the link's prompts: the cleaned answers, or each failing prompt's issue. */
export function answerIssues(
  fields: readonly FormFieldInput[],
  answers: Record<string, string | number>,
): { answers: Record<string, string>; issues: FieldIssue[] } {
  const known = new Map(fields.map((f) => [f.name, f]));
  const unknown = Object.keys(answers).filter((k) => !known.has(k));
  const issues: FieldIssue[] = [];
  if (unknown.length > 0) {
    issues.push({
      field: "fields",
      rule: "unrecognized_keys",
      message: `fields has unknown field ${unknown.map((k) => JSON.stringify(k)).join(", ")}`,
    });
  }
  const out: Record<string, string> = {};
  for (const field of fields) {
    const raw = answers[field.name];
    const value = raw === undefined ? "" : String(raw).trim();
    const where = `fields.${field.name} (${field.label})`;
    const issue = (rule: string, sentence: string) =>
      issues.push({ field: `fields.${field.name}`, rule, message: `${where} ${sentence}` });
    if (value === "") {
      if (field.required) issue("required", "is required");
      continue;
    }
    if (field.type === "email" && !Email.safeParse(value).success)
      issue("invalid_email", "must be a valid email address");
    else if (field.type === "phone" && !PHONE.test(value)) issue("invalid_phone", "must be a phone number");
    else if (
      field.type === "number" &&
      !(typeof raw === "number" ? Number.isFinite(raw) : NUMBER.test(value))
    )
      issue("invalid_number", "must be a number");
    else if (field.type === "select" && !field.options?.includes(value))
      issue("invalid_option", `must be one of ${field.options?.map((o) => JSON.stringify(o)).join(", ")}`);
    else out[field.name] = value;
  }
  return { answers: out, issues };
}

/** A link's amount bounds, in minor units (null: none). */
export type AmountBounds = { fixedMinor: bigint | null; minMinor: bigint | null; maxMinor: bigint | null };

/**
 * The amount the customer sent for a link: the link's own when it has a fixed amount (one sent must be that
 * amount), or the customer's, which must be a valid amount within the link's bounds.
 */
export function linkAmount(
  sent: string | null | undefined,
  bounds: AmountBounds,
  currency: Currency,
): { ok: true; minor: bigint } | { ok: false; issue: FieldIssue } {
  const fail = (rule: string, message: string) => ({
    ok: false as const,
    issue: { field: "amount", rule, message },
  });
  if (bounds.fixedMinor !== null) {
    if (sent !== null && sent !== undefined) {
      const parsed = parseAmount(sent, currency);
      if (!parsed.ok || parsed.minor !== bounds.fixedMinor) {
        return fail(
          "fixed_amount",
          `amount must be left out: this link has the fixed amount ${formatAmount(bounds.fixedMinor, currency)}`,
        );
      }
    }
    return { ok: true, minor: bounds.fixedMinor };
  }
  if (sent === null || sent === undefined || sent === "")
    return fail("required", "amount is required: this link lets the customer enter the amount");
  const parsed = parseAmount(sent, currency);
  if (!parsed.ok) return fail(parsed.rule, `amount ${parsed.reason}`);
  if (bounds.minMinor !== null && parsed.minor < bounds.minMinor)
    return fail("min_amount", `amount must be at least ${formatAmount(bounds.minMinor, currency)}`);
  if (bounds.maxMinor !== null && parsed.minor > bounds.maxMinor)
    return fail("max_amount", `amount must be at most ${formatAmount(bounds.maxMinor, currency)}`);
  return { ok: true, minor: parsed.minor };
}
