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
