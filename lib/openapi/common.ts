import { z } from "zod";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { CHANNELS } from "@/lib/payments/channel-list";
import { TRANSACTION_STATUSES } from "@/lib/payments/status";

/**
 * Building blocks of the response schemas (lib/<area>/responses.ts), which describe exactly what the
 * presenters answer: the OpenAPI document (lib/openapi/document.ts) is generated from them and from the
 * request schemas the routes validate with, and the test suites check every answer against that document.
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

export const CurrencyCode = z.enum(CURRENCY_CODES).meta({ id: "Currency", example: "NGN" });

export const ChannelName = z.enum(CHANNELS).meta({ id: "Channel", example: "card" });

export const TransactionStatus = z
  .enum(TRANSACTION_STATUSES)
  .meta({ id: "TransactionStatus", example: "pending" });

export const Reference = z
  .string()
  .regex(/^PAY_TXN_[A-Za-z0-9]+$/)
  .meta({ example: "PAY_TXN_8Q2M4K7ZP1XW3N5R6T9Y" });

export const ModeName = z.enum(["test", "live"]).meta({ id: "Mode", example: "test" });
