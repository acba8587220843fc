import type { BankStep } from "@/lib/checkout/bank-steps";
import type { Bank, CheckoutRecord } from "@/lib/checkout/types";
import {
  ApiError,
  type BankPaymentResult,
  type CardResult,
  NETWORK_MESSAGE,
  type StepName,
  type UssdResult,
  type VirtualAccount,
} from "./api";

type Key = { idempotencyKey: string };

/**
 * The checkout API's calls as the pay page makes them: the access code in `x-access-code`, JSON envelopes.
 * Loaded with the first call (api.ts `checkoutApi`), never with the page's first screen.
 */
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
  bankStep: (code: string, step: BankStep, body: Record<string, string>, { idempotencyKey }: Key) =>
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
