import type { Mode } from "@/lib/db/schema";
import { presentPaystackConnection } from "./paystack-connection";

/** GET /v1/merchants/paystack?mode=: the merchant's Paystack connection of a mode (never its key). */
export async function getPaystackConnection(input: { merchantId: string; mode: Mode }) {
  return presentPaystackConnection(input.merchantId, input.mode);
}
