import { z } from "zod";
import { Money, Reference, Timestamp } from "@/lib/core/schemas";
import { AuthorizationResponse } from "@/lib/customers/responses";
import { ChannelName, CurrencyCode, TransactionStatus } from "@/lib/payments/vocabulary";

/** `data` of the bank transfer charge: docs/api.md "Virtual account" plus the exact amount (presentVirtualAccount). */
export const VirtualAccountResponse = z
  .object({
    status: z.literal("awaiting_transfer"),
    reference: Reference,
    accountNumber: z
      .string()
      .regex(/^\d{10}$/)
      .meta({ example: "9912345678" }),
    bankName: z.string().meta({ example: "Paygate Sandbox Bank" }),
    accountName: z.string().meta({ example: "Paygate / Demo Store" }),
    amount: Money,
    currency: CurrencyCode,
    expiresAt: Timestamp,
    expiresInSeconds: z.number().int().min(0),
  })
  .meta({ id: "VirtualAccount" });

const CardSummary = z.object({
  brand: z.string().meta({ example: "visa" }),
  last4: z.string().meta({ example: "4242" }),
});

/** A step the customer must answer: a PIN, OTP, phone, birthday, address, or the bank's page to open. */
export const ChargeAction = z
  .object({
    step: z.enum(["pin", "otp", "phone", "birthday", "address", "redirect"]),
    message: z.string(),
    /** `redirect`: the bank's page (3-D Secure, internet banking); the customer comes back to the checkout. */
    url: z.string().optional(),
  })
  .meta({ id: "ChargeAction" });

/** `data` of the card charge and of its steps. */
export const CardChargeResponse = z
  .discriminatedUnion("status", [
    z.object({
      reference: Reference,
      channel: z.literal("card"),
      card: CardSummary,
      status: z.literal("success"),
    }),
    z.object({
      reference: Reference,
      channel: z.literal("card"),
      card: CardSummary,
      status: z.literal("awaiting_otp"),
      message: z.string(),
      /** An OTP answer that was wrong, with tries left: the customer types it again (the card is kept). */
      reason: z.literal("invalid_otp").optional().meta({
        description: "Set when the one-time password sent was wrong and the customer may type it again.",
      }),
      otpTriesLeft: z.number().int().min(1).optional().meta({
        description: "With `reason`: how many more one-time passwords this card payment takes (of 3).",
      }),
    }),
    z.object({
      reference: Reference,
      channel: z.literal("card"),
      card: CardSummary,
      status: z.literal("awaiting_action"),
      action: ChargeAction,
    }),
    z.object({
      reference: Reference,
      channel: z.literal("card"),
      card: CardSummary,
      status: z.literal("processing"),
      message: z.string(),
    }),
    z.object({
      reference: Reference,
      channel: z.literal("card"),
      card: CardSummary,
      status: z.literal("failed"),
      reason: z.string().meta({ example: "card_declined" }),
      message: z.string(),
    }),
  ])
  .meta({ id: "CardCharge" });

/** `data` of the bank payment charge and its steps: the request waits for the customer, or is decided. */
export const BankPaymentResponse = z
  .discriminatedUnion("status", [
    z.object({
      status: z.literal("awaiting_bank_authorization"),
      reference: Reference,
      bankCode: z.string(),
      bankName: z.string(),
      message: z.string(),
      /** What the bank asks for first, where it asks for something (an OTP, a birthday, its page). */
      action: ChargeAction.optional(),
    }),
    z.object({
      status: z.literal("success"),
      reference: Reference,
      bankCode: z.string(),
      bankName: z.string(),
    }),
    z.object({
      status: z.literal("failed"),
      reference: Reference,
      bankCode: z.string(),
      bankName: z.string(),
      reason: z.string(),
      message: z.string(),
    }),
  ])
  .meta({ id: "BankPayment" });

/** `data` of the USSD charge: the code to dial. */
export const UssdResponse = z.object({
  status: z.literal("awaiting_ussd"),
  reference: Reference,
  ussdCode: z.string().meta({ example: "*966*000*123456#" }),
  dialUrl: z.string().meta({ example: "tel:*966*000*123456%23" }),
  bankCode: z.string(),
  bankName: z.string(),
  message: z.string(),
});

export const CancelResponse = z.object({ reference: Reference, status: TransactionStatus });

export const TransferOutcome = z
  .enum(["credited", "amount_mismatch", "duplicate_payment", "late_payment", "unknown_account"])
  .meta({ id: "TransferOutcome" });

/** `data` of an inbound transfer (sandbox): what became of it. */
export const InboundTransferResponse = z.object({
  outcome: TransferOutcome,
  reference: Reference.nullable(),
  sessionId: z.string(),
  replayed: z.boolean(),
  /** On the first report of a transfer to a known account: what arrived and what the account expected. */
  amount: Money.optional(),
  expected: Money.optional(),
  /**
   * `amount_mismatch` inside the window: what is still due on the account. Transfers to it add up; the one
   * that reaches the amount completes the payment.
   */
  due: Money.optional(),
  /** `credited` with more than was due: the excess, refunded automatically (reason `amount_mismatch`). */
  refunded: Money.optional(),
});

export const SimulateResponse = z.object({
  reference: Reference,
  scenario: z.enum(["success", "failed", "abandoned"]),
  status: TransactionStatus,
  outcome: TransferOutcome.optional(),
});

export const SandboxAuthorizationResponse = z.object({
  reference: Reference,
  decision: z.enum(["approve", "decline"]),
  channel: ChannelName,
  status: TransactionStatus,
});

/** `data` of POST /v1/payment/charge-authorization (presentAuthorizationCharge). */
export const ChargeAuthorizationResponse = z
  .strictObject({
    reference: Reference,
    status: z.enum(["success", "failed", "requires_action", "pending"]).meta({
      description:
        "`success`: paid. `failed`: declined, see `reason`; the payment is `failed`. `requires_action`: the bank asks the customer for a one-time password or its 3-D Secure page; the payment stays `pending` until the customer finishes it at `checkoutUrl` (payment.completed or payment.failed follow). `pending`: the card's network has not decided yet; the outcome comes as payment.completed or payment.failed, and on verify.",
    }),
    reason: z.string().optional().meta({
      description: "With `failed`: card_declined, insufficient_funds, expired_card, …",
      example: "card_declined",
    }),
    amount: Money,
    fees: Money.meta({ description: "The card fee, as for any card payment." }),
    total: Money.meta({
      description: "What the card is charged: amount plus the fee when the customer bears it.",
    }),
    currency: CurrencyCode,
    authorization: AuthorizationResponse,
    checkoutUrl: z.url().optional().meta({
      description:
        "With `requires_action`: the hosted page where the customer answers the bank (send it to them).",
    }),
    accessCode: z.string().optional(),
  })
  .meta({ id: "AuthorizationCharge" });
