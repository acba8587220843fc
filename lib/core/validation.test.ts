import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, invalidField } from "./errors";
import { formatPath, parseOrThrow } from "./validation";

function messageOf(schema: z.ZodType, value: unknown): string {
  try {
    parseOrThrow(schema, value, "body");
  } catch (err) {
    if (err instanceof AppError) {
      expect(err.code).toBe("validation_error");
      expect(err.status).toBe(400);
      return err.message;
    }
    throw err;
  }
  throw new Error("expected a validation error");
}

describe("validation messages", () => {
  const schema = z.strictObject({
    amount: z.string(),
    items: z.array(z.strictObject({ qty: z.number() })).optional(),
  });

  it("name the field and the rule", () => {
    expect(messageOf(schema, {})).toBe("amount is required.");
    expect(messageOf(schema, { amount: 5 })).toBe("amount must be a string (got number).");
    expect(messageOf(schema, { amount: "1", items: [{ qty: "2" }] })).toBe(
      "items[0].qty must be a number (got string).",
    );
    expect(messageOf(schema, { amount: "1", extra: 1 })).toBe('body has unknown field "extra".');
    expect(messageOf(z.strictObject({ m: z.record(z.string(), z.unknown()) }), { m: [] })).toBe(
      "m must be an object (got an array).",
    );
  });

  it("never name back a card number sent as a field name: its last 4 only", () => {
    expect(messageOf(schema, { amount: "1", "4242424242424242": "x" })).toBe(
      'body has unknown field "************4242".',
    );
    expect(messageOf(schema, { amount: "1", card_4242424242: 1 })).toBe(
      'body has unknown field "card_4242424242".',
    );
  });

  it("formats paths", () => {
    expect(formatPath(["metadata", "items", 2, "sku"])).toBe("metadata.items[2].sku");
    expect(formatPath([])).toBe("");
  });
});

describe("a validation failure's fields", () => {
  const schema = z.strictObject({
    title: z.string().trim().min(1, "must not be empty"),
    amount: z.string(),
    items: z.array(z.strictObject({ qty: z.number() })).optional(),
  });

  function fieldsOf(value: unknown) {
    try {
      parseOrThrow(schema, value, "body");
    } catch (err) {
      if (err instanceof AppError) return err.fields;
    }
    throw new Error("expected a validation_error");
  }

  it("are one entry per sentence of the message, by path and rule", () => {
    expect(fieldsOf({ title: " " })).toEqual([
      { field: "title", rule: "too_small", message: "title must not be empty" },
      { field: "amount", rule: "required", message: "amount is required" },
    ]);
    expect(fieldsOf({ title: "t", amount: 5, items: [{ qty: "2" }] })).toEqual([
      { field: "amount", rule: "invalid_type", message: "amount must be a string (got number)" },
      { field: "items[0].qty", rule: "invalid_type", message: "items[0].qty must be a number (got string)" },
    ]);
    expect(fieldsOf({ title: "t", amount: "1", extra: 1 })).toEqual([
      { field: "body", rule: "unrecognized_keys", message: 'body has unknown field "extra"' },
    ]);
  });

  it("name one field for a rule a verb checks itself (invalidField)", () => {
    const err = invalidField("expiresAt", "in_the_past", "expiresAt must be in the future");
    expect(err.code).toBe("validation_error");
    expect(err.status).toBe(400);
    expect(err.message).toBe("expiresAt must be in the future.");
    expect(err.fields).toEqual([
      { field: "expiresAt", rule: "in_the_past", message: "expiresAt must be in the future" },
    ]);
  });
});
