import type { z } from "zod";
import { AppError, type FieldIssue } from "./errors";

/** `metadata.items[2].sku` from a zod path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function describeInput(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "array";
  return typeof input;
}

/** One sentence per issue, each naming the field and the rule it broke. */
export function issueMessage(issue: z.core.$ZodIssue, where: string): string {
  const field = formatPath(issue.path);
  const subject = field ? `${field}` : where;
  switch (issue.code) {
    case "invalid_type": {
      // zod 4 leaves `input` off issues unless asked; its message always says what it received.
      const received =
        "input" in issue ? describeInput(issue.input) : /received (\w+)/.exec(issue.message)?.[1];
      if (received === "undefined") return `${subject} is required`;
      return `${subject} must be ${article(issue.expected)}${received ? ` (got ${received === "array" || received === "object" ? article(received) : received})` : ""}`;
    }
    case "unrecognized_keys":
      return `${field ? `${field} has` : `${where} has`} unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys
        .slice(0, 5)
        .map((k) => JSON.stringify(maskDigitRuns(k)))
        .join(", ")}`;
    default:
      return `${subject} ${lowerFirst(issue.message)}`;
  }
}

/** A key is named back as sent, except a run of 12+ digits (a card number sent as a key): its last 4 only. */
function maskDigitRuns(key: string): string {
  return key.replace(/\d{12,}/g, (run) => `${"*".repeat(run.length - 4)}${run.slice(-4)}`);
}

function article(expected: string): string {
  if (expected === "record") return "an object";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function lowerFirst(message: string): string {
  return message.length > 1 && /^[A-Z][a-z]/.test(message)
    ? message.charAt(0).toLowerCase() + message.slice(1)
    : message;
}

/** Parse with a schema or throw 400 `validation_error` naming each failing field and rule. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailure(result.error.issues, where);
}

/** The `validation_error` of zod issues: a sentence each (the first five), and each as a field entry. */
export function validationFailure(issues: readonly z.core.$ZodIssue[], where: string): AppError {
  const fields = issues.slice(0, 5).map((issue) => fieldIssue(issue, where));
  return new AppError("validation_error", `${fields.map((f) => f.message).join("; ")}.`, {}, fields);
}

/** One zod issue as a form field's failure: its path, the rule as a stable code, and its sentence. */
export function fieldIssue(issue: z.core.$ZodIssue, where: string): FieldIssue {
  const message = issueMessage(issue, where);
  const rule =
    issue.code === "invalid_type" && / is required$/.test(message)
      ? "required"
      : issue.code === "custom"
        ? String((issue.params as { rule?: unknown } | undefined)?.rule ?? "custom")
        : issue.code;
  return { field: formatPath(issue.path) || where, rule, message };
}
