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
