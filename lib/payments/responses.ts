import { z } from "zod";
import { Money, Reference, Timestamp } from "@/lib/core/schemas";
import { AuthorizationResponse } from "@/lib/customers/responses";
import { ChannelName, CurrencyCode, TransactionStatus } from "./vocabulary";

/** `data` of initialize and of a payment link's pay: docs/api.md "Transaction session" (presentSession). */
export const SessionResponse = z
  .object({
    reference: Reference,
    accessCode: z.string().meta({ example: "Xk3Pq9Lm2Nb7Vc4Zr8Ts" }),
    checkoutUrl: z.url().meta({ example: "https://pay.example.com/pay/Xk3Pq9Lm2Nb7Vc4Zr8Ts" }),
    amount: Money,
    cardFee: Money,
    transferFee: Money,
    cardTotal: Money,
    transferTotal: Money,
    currency: CurrencyCode,
    merchantBearsCost: z.boolean(),
    channels: z.array(ChannelName),
    status: TransactionStatus,
    distribution: z.record(z.string(), z.number()).optional(),
  })
  .meta({ id: "TransactionSession" });

/** `data` of server verify and each row of the transactions list: docs/api.md "Verified transaction" (presentVerified). */
export const VerifiedResponse = z
  .object({
    id: z.string(),
    reference: Reference,
    amount: Money,
    total: Money.nullable(),
    amountSettled: Money.nullable(),
    currency: CurrencyCode,
    status: TransactionStatus,
    channel: ChannelName.nullable(),
    fees: Money.nullable(),
    merchantBearsCost: z.boolean(),
    paidAt: Timestamp.nullable(),
    amountRefunded: Money.meta({ description: "Refunded to the customer so far (refunds not failed)." }),
    metadata: z.record(z.string(), z.unknown()),
    customer: z.object({
      code: z.string().nullable().meta({
        description: "The customer of the payment's email (null without an email).",
        example: "CUS_4GM7QX2LP9ZR8TN3VB6K",
      }),
      email: z.string().nullable(),
      name: z.string().nullable(),
    }),
    authorization: AuthorizationResponse.nullable().meta({
      description:
        "The saved card this payment saved (initialize's `saveCard`, with the customer's consent) or charged (POST /v1/payment/charge-authorization); null otherwise.",
    }),
    createdAt: Timestamp,
  })
  .meta({ id: "VerifiedTransaction" });

/** `data` of checkout verify (presentCheckoutRecord and verifyCheckout). */
export const CheckoutRecordResponse = z
  .object({
    reference: Reference,
    amount: Money,
    total: Money.nullable(),
    currency: CurrencyCode,
    status: TransactionStatus,
    channel: ChannelName.nullable(),
    fees: Money.nullable(),
    paidAt: Timestamp.nullable(),
    amountMismatch: z
      .object({
        expected: Money,
        received: Money.meta({ description: "The sum of the transfers to the account so far." }),
        due: Money.meta({
          description: "What is still to send to the same account to complete the payment.",
        }),
      })
      .optional(),
    /** What a card or bank payment waits for from the customer (a PIN, an OTP, the bank's page…). */
    action: z
      .object({
        channel: z.enum(["card", "bank_payment"]),
        step: z.enum(["pin", "otp", "phone", "birthday", "address", "redirect"]),
        message: z.string(),
        url: z.string().optional(),
      })
      .optional(),
    transfer: z
      .object({
        accountNumber: z.string(),
        amount: Money,
        expiresAt: Timestamp,
        expiresInSeconds: z.number().int(),
      })
      .optional(),
  })
  .meta({ id: "CheckoutRecord" });

export const TransactionListResponse = z.object({
  transactions: z.array(VerifiedResponse),
  nextCursor: z.string().nullable(),
});

export const BankListResponse = z.array(
  z.object({ code: z.string().meta({ example: "057" }), name: z.string().meta({ example: "Zenith Bank" }) }),
);
