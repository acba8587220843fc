import type { z } from "zod";
import type {
  BankPaymentResponse,
  CardChargeResponse,
  UssdResponse,
  VirtualAccountResponse,
} from "@/lib/channels/responses";
import type { Bank, CheckoutRecord } from "@/lib/checkout/types";

/** The checkout API as the pay page calls it: the access code in `x-access-code`, JSON envelopes. */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

const NETWORK_MESSAGE = "We could not reach the payment service. Check your connection and try again.";

/**
 * A fresh `Idempotency-Key` for one charge attempt. getRandomValues, not randomUUID: the latter exists only
 * in secure contexts, and a tester may open checkout over plain http on a LAN address.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `chk_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function call<T>(
  accessCode: string,
  path: string,
  init: { method: "GET" } | { method: "POST"; body?: unknown; idempotencyKey?: string },
): Promise<T> {
  const headers: Record<string, string> = { "x-access-code": accessCode, accept: "application/json" };
  let body: string | undefined;
  if (init.method === "POST") {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.body ?? {});
    if (init.idempotencyKey) headers["idempotency-key"] = init.idempotencyKey;
  }
  let res: Response;
  try {
    res = await fetch(`/v1/payment/checkout/${path}`, {
      method: init.method,
      headers,
      body,
      cache: "no-store",
      credentials: "omit",
    });
  } catch {
    throw new ApiError("network_error", NETWORK_MESSAGE, 0);
  }
  const json = (await res.json().catch(() => null)) as {
    status?: string;
    data?: T;
    error?: string;
    message?: string;
  } | null;
  if (!res.ok || json?.status !== "success") {
    throw new ApiError(json?.error ?? "network_error", json?.message ?? NETWORK_MESSAGE, res.status);
  }
  return json.data as T;
}

/** The answers' types come from the API's own response schemas (types only: nothing of zod reaches the bundle). */
export type CardResult = z.output<typeof CardChargeResponse>;
export type VirtualAccount = z.output<typeof VirtualAccountResponse>;
export type BankPaymentResult = z.output<typeof BankPaymentResponse>;
export type UssdResult = z.output<typeof UssdResponse>;

type Key = { idempotencyKey: string };

/** The steps a charge may ask the customer for (lib/rails/types.ts ChargeStep). */
export type StepName = "pin" | "otp" | "phone" | "birthday" | "address" | "redirect";
export type ChargeAction = { step: StepName; message: string; url?: string };

export const checkoutApi = {
  verify: (code: string) => call<CheckoutRecord>(code, "verify", { method: "GET" }),
  banks: (code: string) => call<Bank[]>(code, "banks", { method: "GET" }),
  card: (
    code: string,
    card: { number: string; expiryMonth: number; expiryYear: number; cvv: string },
    { idempotencyKey }: Key,
  ) => call<CardResult>(code, "charge/card", { method: "POST", body: card, idempotencyKey }),
  otp: (code: string, otp: string, { idempotencyKey }: Key) =>
    call<CardResult>(code, "charge/card/otp", { method: "POST", body: { otp }, idempotencyKey }),
  /** A step the card's network asked for: pin, phone, birthday, address (otp has its own call above). */
  cardStep: (code: string, step: StepName, body: Record<string, string>, { idempotencyKey }: Key) =>
    call<CardResult>(code, `charge/card/${step}`, { method: "POST", body, idempotencyKey }),
  cardCheck: (code: string, { idempotencyKey }: Key) =>
    call<CardResult>(code, "charge/card/check", { method: "POST", idempotencyKey }),
  bankStep: (code: string, step: "otp" | "birthday", body: Record<string, string>, { idempotencyKey }: Key) =>
    call<BankPaymentResult>(code, `charge/bank-payment/${step}`, { method: "POST", body, idempotencyKey }),
  bankCheck: (code: string, { idempotencyKey }: Key) =>
    call<BankPaymentResult>(code, "charge/bank-payment/check", { method: "POST", idempotencyKey }),
  bankTransfer: (code: string, { idempotencyKey }: Key) =>
    call<VirtualAccount>(code, "charge/bank-transfer", { method: "POST", idempotencyKey }),
  bankPayment: (code: string, body: { bankCode: string; accountNumber?: string }, { idempotencyKey }: Key) =>
    call<BankPaymentResult>(code, "charge/bank-payment", { method: "POST", body, idempotencyKey }),
  ussd: (code: string, body: { phoneNumber: string; bankCode: string }, { idempotencyKey }: Key) =>
    call<UssdResult>(code, "charge/ussd", { method: "POST", body, idempotencyKey }),
  cancel: (code: string, { idempotencyKey }: Key) =>
    call<{ status: string }>(code, "cancel", { method: "POST", idempotencyKey }),
  // Test mode only: the page's sandbox doors (no secret key in the browser).
  sandboxTransfer: (code: string, amount: string | undefined, { idempotencyKey }: Key) =>
    call<{ outcome: string }>(code, "sandbox/transfer", {
      method: "POST",
      body: amount === undefined ? {} : { amount },
      idempotencyKey,
    }),
  sandboxAuthorize: (code: string, decision: "approve" | "decline", { idempotencyKey }: Key) =>
    call<{ status: string }>(code, "sandbox/authorize", {
      method: "POST",
      body: { decision },
      idempotencyKey,
    }),
  simulate: (code: string, scenario: "success" | "failed" | "abandoned", { idempotencyKey }: Key) =>
    call<{ status: string }>(code, "charge/bank-transfer/simulate", {
      method: "POST",
      body: { scenario },
      idempotencyKey,
    }),
};
