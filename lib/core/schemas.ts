import { z } from "zod";

/**
 * Building blocks of the API's answer schemas that belong to no one area (lib/<area>/responses.ts describe
 * exactly what the presenters answer; the OpenAPI document is generated from them and from the request
 * schemas). The ones made of an area's own vocabulary live with it (lib/payments/vocabulary.ts).
 */

/** An amount as the API writes it: a decimal string with exactly the currency's minor digits, never a float. */
export const Money = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .meta({
    description: "Decimal string with the currency's minor digits (never a JSON number).",
    example: "5000.00",
  });

/**
 * What the document says of an amount a request sends (the routes parse it with lib/money/amount.ts, whose
 * messages name the rule): a decimal string in major units, at most the currency's minor digits.
 */
export const AMOUNT_INPUT_META = {
  description:
    'Decimal string in major units, never a JSON number: "5000", "5000.5" or "5000.50". At most the currency\'s minor digits (2 for NGN, USD, GHS, KES, ZAR; none for XOF), greater than zero, at most 100,000,000.00; no sign, exponent or separators.',
  pattern: "^(0|[1-9][0-9]*)(\\.[0-9]+)?$",
  example: "5000.00",
} as const;

/** An amount a request sends: a string of at most 40 characters, parsed and checked by its route. */
export const amountInput = <T extends z.ZodString>(schema: T): T => schema.meta(AMOUNT_INPUT_META);

export const Timestamp = z.iso
  .datetime()
  .meta({ description: "ISO 8601, UTC.", example: "2026-11-24T09:30:12.000Z" });

export const Reference = z
  .string()
  .regex(/^PAY_TXN_[A-Za-z0-9]+$/)
  .meta({ example: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y" });

export const ModeName = z.enum(["test", "live"]).meta({ id: "Mode", example: "test" });

/** A request's `mode` (a key roll, a webhook endpoint, a processor connection). */
export const ModeSchema = z.enum(["test", "live"], { message: 'must be "test" or "live"' });

/** Request building blocks several areas share (initialize, customers, payment links). */

export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_METADATA_DEPTH = 8;

/** Depth of a JSON value, walked iteratively so no input can exhaust the stack. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node !== null && typeof node === "object") {
      const next = depth + 1;
      if (next > max) max = next;
      if (max > 64) return max;
      for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, next]);
    }
  }
  return max;
}

export const Metadata = z
  .record(z.string().max(100, "keys must be at most 100 characters"), z.unknown())
  // abort: the size check below must never stringify a value too deep to stringify.
  .refine((v) => jsonDepth(v) <= MAX_METADATA_DEPTH, {
    message: `must be at most ${MAX_METADATA_DEPTH} levels deep`,
    abort: true,
  })
  .refine(
    (v) => new TextEncoder().encode(JSON.stringify(v)).length <= MAX_METADATA_BYTES,
    `must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
  );

export const Email = z
  .email({ message: "must be a valid email address" })
  .max(254, "must be at most 254 characters");

export const CustomerName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters");
