import type { z } from "zod";
import type {
  BankPaymentResponse,
  CardChargeResponse,
  UssdResponse,
  VirtualAccountResponse,
} from "@/lib/channels/responses";

/** The checkout API as the pay page calls it (api-calls.ts), its failure and its answers' types. */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

export const NETWORK_MESSAGE = "We could not reach the payment service. Check your connection and try again.";

/**
 * A fresh `Idempotency-Key` for one charge attempt. getRandomValues, not randomUUID: the latter exists only
 * in secure contexts, and a tester may open checkout over plain http on a LAN address.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `chk_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The answers' types come from the API's own response schemas (types only: nothing of zod reaches the bundle). */
export type CardResult = z.output<typeof CardChargeResponse>;
export type VirtualAccount = z.output<typeof VirtualAccountResponse>;
export type BankPaymentResult = z.output<typeof BankPaymentResponse>;
export type UssdResult = z.output<typeof UssdResponse>;

/** The steps a charge may ask the customer for (lib/rails/types.ts ChargeStep). */
export type StepName = "pin" | "otp" | "phone" | "birthday" | "address" | "redirect";
export type ChargeAction = { step: StepName; message: string; url?: string };

type Calls = typeof import("./api-calls").checkoutApi;

/** The calls' module, fetched while the page is idle (checkout.tsx) or by the first call. */
export const loadCalls = () =>
  import("./api-calls").catch(() => {
    throw new ApiError("network_error", NETWORK_MESSAGE, 0);
  });

/**
 * The checkout API's calls (api-calls.ts), each loading that module the first time: the page's first screen
 * shows and hydrates without them, and a call is made by a tap long after the page is idle.
 */
export const checkoutApi = new Proxy({} as Calls, {
  get:
    (_, name: keyof Calls) =>
    (...args: unknown[]) =>
      loadCalls().then((m) => (m.checkoutApi[name] as (...a: unknown[]) => Promise<unknown>)(...args)),
});
