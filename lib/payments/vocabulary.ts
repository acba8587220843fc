import { z } from "zod";
import { CURRENCY_CODES } from "@/lib/money/currencies";
import { CHANNELS } from "./channel-list";
import { TRANSACTION_STATUSES } from "./status";

/** The payment vocabulary as the API's answer schemas name it (one schema each in the OpenAPI document). */

export const CurrencyCode = z.enum(CURRENCY_CODES).meta({ id: "Currency", example: "NGN" });

export const ChannelName = z.enum(CHANNELS).meta({ id: "Channel", example: "card" });

export const TransactionStatus = z
  .enum(TRANSACTION_STATUSES)
  .meta({ id: "TransactionStatus", example: "pending" });
