import { AppError } from "@/lib/core/errors";
import { RailRefusal } from "@/lib/rails/errors";
import type {
  BankPaymentOutcome,
  CardOutcome,
  CardStatus,
  ChargeStep,
  KeySource,
  Rails,
  RefundStatus,
  ReusableCard,
  StepAnswer,
} from "@/lib/rails/types";
import { type Answer, type Call, type NoAnswer, paystackCall } from "./client";
import { paystackReference } from "./references";
import { ChargeData, type ChargeDataShape, RefundData } from "./shapes";

/**
 * The rails on Paystack's API (vendor/paystack.yaml; shapes the document lacks: shapes.ts), with one secret
 * key: the merchant's own connection or the deployment's default (lib/rails/rails-for.ts).
 *
 * A call's answer is read in three ways:
 *  - Paystack decided (an answer with a charge status, or a refusal with `status: false`): that decision;
 *  - the call cannot have reached Paystack (no connection made): nothing happened, the caller says so (502);
 *  - the answer was lost (a timeout, a 5xx, a connection cut): Paystack may have charged. A card asks again
 *    at once (GET /charge/{reference}, then GET /transaction/verify/{reference}); without an answer the
 *    attempt stays at the network (`pending`) for card reconciliation and Paystack's webhook to settle.
 * Every charge carries the attempt's own reference (references.ts), so nothing is ever charged twice.
 */
/** The USSD codes Paystack's USSD charge takes (the document's USSD.type): GTBank, UBA, Sterling, Zenith. */
export const USSD_TYPES = ["737", "919", "822", "966"] as const;

/** Paystack takes kobo for NGN; this connector charges NGN only (docs/go-live.md). */
const CURRENCIES = ["NGN"] as const;

export type PaystackKey = { secretKey: string; source: KeySource };

const STEP_OF: Record<string, ChargeStep> = {
  send_pin: "pin",
  send_otp: "otp",
  send_phone: "phone",
  send_birthday: "birthday",
  send_address: "address",
  open_url: "redirect",
};

const STEP_MESSAGE: Record<ChargeStep, string> = {
  pin: "Enter your card's PIN.",
  otp: "Enter the one-time password your bank sent you.",
  phone: "Enter the phone number registered with your bank.",
  birthday: "Enter your date of birth.",
  address: "Enter the billing address of your card.",
  redirect: "Continue on your bank's page to authorise the payment.",
};

/** A decline's words, as the checkout names them (lib/i18n: card.decline). */
export function declineReason(text: string | null | undefined): string {
  const t = text ?? "";
  if (/insufficient/i.test(t)) return "insufficient_funds";
  if (/\bpin\b/i.test(t)) return "invalid_pin";
  if (/otp|token/i.test(t)) return "invalid_otp";
  if (/expired/i.test(t)) return "expired_card";
  return "card_declined";
}

function charge(answer: Answer): ChargeDataShape | null {
  const parsed = ChargeData.safeParse(answer.body?.data);
  return parsed.success ? parsed.data : null;
}

/** The key was refused by Paystack itself: nothing was charged, and only the merchant can fix it. */
function keyRefused(): AppError {
  return new AppError(
    "processor_error",
    "Paystack refused the secret key of this merchant's connection (Invalid key); nothing was charged. The merchant must connect a valid key in Settings → Live payments.",
  );
}

function unreachable(): AppError {
  return new AppError("processor_error", "Paystack could not be reached; nothing was charged. Try again.");
}

/** Whether an answer is Paystack's decision, or a lost one (5xx, not Paystack's JSON). */
function decided(answer: Answer | NoAnswer): answer is Answer {
  return answer.kind === "answer" && answer.status < 500 && answer.body !== null;
}

/** A refusal that means "no charge of this reference" (GET /charge/{reference} of one Paystack never saw). */
function notFound(answer: Answer): boolean {
  return answer.status === 404 || (answer.status === 400 && answer.body?.status === false);
}

/** The card of a successful charge, kept only when Paystack says its authorization is reusable. */
function reusableOf(data: ChargeDataShape): { reusable?: ReusableCard } {
  const card = data.authorization;
  if (!card?.reusable || !card.authorization_code) return {};
  return { reusable: { token: card.authorization_code, bank: card.bank ?? null } };
}

function cardOutcomeOfData(data: ChargeDataShape, reference: string): CardOutcome {
  const status = data.status;
  if (status === "success") return { kind: "success", authorization: reference, ...reusableOf(data) };
  if (status === "failed" || status === "abandoned" || status === "reversed") {
    const message = data.message || data.gateway_response || "The card payment was declined.";
    return { kind: "failed", reason: declineReason(message), message };
  }
  const step = STEP_OF[status];
  if (step === "redirect") {
    if (!data.url) return { kind: "pending", authorization: reference, message: STEP_MESSAGE.redirect };
    return {
      kind: "action_required",
      step,
      authorization: reference,
      message: STEP_MESSAGE.redirect,
      url: data.url,
    };
  }
  if (step) {
    return {
      kind: "action_required",
      step,
      authorization: reference,
      message: data.display_text || STEP_MESSAGE[step],
    };
  }
  // pending, processing, ongoing, pay_offline, or a status this connector does not know: not decided yet.
  return {
    kind: "pending",
    authorization: reference,
    message: data.display_text || "The card payment is being processed.",
  };
}

function bankOutcomeOfData(data: ChargeDataShape): BankPaymentOutcome {
  const status = data.status;
  if (status === "success") return { kind: "success" };
  if (status === "failed" || status === "abandoned" || status === "reversed") {
    const message = data.message || data.gateway_response || "The bank did not take the payment.";
    return { kind: "failed", reason: "declined_by_bank", message };
  }
  const step = STEP_OF[status];
  if (step === "redirect" && data.url)
    return { kind: "action_required", step, message: STEP_MESSAGE.redirect, url: data.url };
  if (step === "otp" || step === "birthday" || step === "phone" || step === "pin")
    return { kind: "action_required", step, message: data.display_text || STEP_MESSAGE[step] };
  return {
    kind: "waiting",
    message: data.display_text || "Approve the payment in your bank's app or on your phone.",
  };
}

function stepCall(reference: string, answer: StepAnswer): Call {
  switch (answer.step) {
    case "pin":
      return { method: "POST", path: "/charge/submit_pin", body: { pin: answer.pin, reference } };
    case "otp":
      return { method: "POST", path: "/charge/submit_otp", body: { otp: answer.otp, reference } };
    case "phone":
      return { method: "POST", path: "/charge/submit_phone", body: { phone: answer.phone, reference } };
    case "birthday":
      return {
        method: "POST",
        path: "/charge/submit_birthday",
        body: { birthday: answer.birthday, reference },
      };
    case "address":
      return {
        method: "POST",
        path: "/charge/submit_address",
        body: {
          address: answer.address,
          city: answer.city,
          state: answer.state,
          zip_code: answer.zipCode,
          reference,
        },
      };
  }
}

/** An email Paystack needs on every charge; the channel verbs refuse a charge without one before this. */
function emailOf(email: string | null): string {
  if (!email)
    throw new AppError(
      "email_required",
      "Payments through Paystack need the customer's email: pass email to initialize.",
    );
  return email;
}

export function paystackRails(key: PaystackKey): Rails {
  const call = (c: Call) => paystackCall(key.secretKey, c);

  /** Where a charge of ours stands at Paystack: its data, `unknown` (never received), or null (no answer). */
  async function lookUp(reference: string): Promise<ChargeDataShape | "unknown" | null> {
    const path = encodeURIComponent(reference);
    const pending = await call({ method: "GET", path: `/charge/${path}` });
    if (decided(pending)) {
      if (pending.status === 401) throw keyRefused();
      const data = pending.body?.status ? charge(pending) : null;
      if (data) return data;
      if (!notFound(pending)) return null;
    }
    const verify = await call({ method: "GET", path: `/transaction/verify/${path}` });
    if (!decided(verify)) return null;
    if (verify.status === 401) throw keyRefused();
    const data = verify.body?.status ? charge(verify) : null;
    if (data) return data;
    return notFound(verify) ? "unknown" : null;
  }

  async function cardStatus(reference: string): Promise<CardStatus> {
    const found = await lookUp(reference);
    if (found === "unknown") return { kind: "unknown" };
    if (found === null)
      return {
        kind: "pending",
        authorization: reference,
        message: "Paystack did not answer; asking again later.",
      };
    return cardOutcomeOfData(found, reference);
  }

  /** What a card call's answer means; a lost answer is asked about again at once. */
  async function cardOutcome(answer: Answer | NoAnswer, reference: string): Promise<CardOutcome> {
    if (answer.kind === "no_answer" && answer.sent === "no") throw unreachable();
    if (decided(answer)) {
      if (answer.status === 401) throw keyRefused();
      const data = charge(answer);
      if (data) return cardOutcomeOfData(data, reference);
      const message = answer.body?.message ?? "Paystack refused the card payment.";
      // A reference Paystack has seen means an earlier call of this attempt reached it: ask what it decided.
      if (!/duplicate/i.test(message)) return { kind: "failed", reason: declineReason(message), message };
    }
    // Lost: Paystack may still be working on it, so "not found" now is no proof. Left at the network, the
    // attempt is settled by Paystack's webhook or by card reconciliation (CARD_RECONCILE_SECONDS).
    const status = await cardStatus(reference);
    return status.kind === "unknown"
      ? {
          kind: "pending",
          authorization: reference,
          message: "The card payment is being confirmed with Paystack.",
        }
      : status;
  }

  async function bankOutcome(answer: Answer | NoAnswer, reference: string): Promise<BankPaymentOutcome> {
    if (answer.kind === "no_answer" && answer.sent === "no") throw unreachable();
    if (decided(answer)) {
      if (answer.status === 401) throw keyRefused();
      const data = charge(answer);
      if (data) return bankOutcomeOfData(data);
      const message = answer.body?.message ?? "Paystack refused the bank payment.";
      if (!/duplicate/i.test(message)) return { kind: "failed", reason: "declined_by_bank", message };
    }
    const found = await lookUp(reference);
    // Paystack answered the look-up and has no charge of this reference: nothing was asked of the bank.
    if (found === "unknown") throw unreachable();
    // Not even the look-up was answered: the bank may have been asked, so that is not said to the customer.
    if (found === null) {
      throw new AppError(
        "processor_error",
        "Paystack is not answering right now and could not say whether it received this bank payment. Try again in a few minutes.",
      );
    }
    return bankOutcomeOfData(found);
  }

  /** A charge whose answer must carry what the customer is shown (an account, a code): all or nothing. */
  async function mustCharge(body: Record<string, unknown>): Promise<ChargeDataShape> {
    const answer = await call({ method: "POST", path: "/charge", body });
    if (answer.kind === "no_answer") throw unreachable();
    if (answer.status === 401) throw keyRefused();
    // Paystack down (a 5xx): no account or code was shown, so nothing can be paid into it; asking again is safe.
    if (answer.status >= 500) {
      throw new AppError(
        "processor_error",
        `Paystack is not answering right now (HTTP ${answer.status}); nothing was charged. Try again in a few minutes.`,
      );
    }
    const data = answer.body?.status ? charge(answer) : null;
    if (!data) {
      const why = answer.body?.message ? `: ${answer.body.message}` : "";
      throw new AppError("processor_error", `Paystack did not take the payment${why}. Nothing was charged.`);
    }
    return data;
  }

  return {
    name: "paystack",
    keySource: key.source,
    chargeReference: ({ reference, attemptId }) => paystackReference(reference, attemptId),
    currencies: CURRENCIES,
    needsEmail: true,
    bankNeedsAccount: true,
    card: {
      async authorize({ attemptId, card, amountMinor, reference, email }) {
        const ref = paystackReference(reference, attemptId);
        const answer = await call({
          method: "POST",
          path: "/charge",
          body: {
            email: emailOf(email),
            amount: amountMinor,
            reference: ref,
            card: {
              number: card.number,
              cvv: card.cvv,
              expiry_month: String(card.expiryMonth).padStart(2, "0"),
              expiry_year: String(card.expiryYear),
            },
            metadata: { paygate_reference: reference },
          },
        });
        return cardOutcome(answer, ref);
      },
      async chargeAuthorization({ attemptId, token, amountMinor, currency, reference, email }) {
        const ref = paystackReference(reference, attemptId);
        const answer = await call({
          method: "POST",
          path: "/transaction/charge_authorization",
          body: {
            email,
            amount: amountMinor,
            authorization_code: token,
            reference: ref,
            currency,
            // The document types this one's metadata as stringified JSON (POST /charge takes an object).
            metadata: JSON.stringify({ paygate_reference: reference }),
          },
        });
        return cardOutcome(answer, ref);
      },
      async submitStep({ authorization, answer }) {
        return cardOutcome(await call(stepCall(authorization, answer)), authorization);
      },
      async cardStatus({ attemptId, reference }) {
        return cardStatus(paystackReference(reference, attemptId));
      },
    },
    transfer: {
      async issueVirtualAccount({ reference, attemptId, amountMinor, email, expiresAt }) {
        const data = await mustCharge({
          email: emailOf(email),
          amount: amountMinor,
          reference: paystackReference(reference, attemptId),
          bank_transfer: { account_expires_at: new Date(expiresAt).toISOString() },
          metadata: { paygate_reference: reference },
        });
        const closes = data.account_expires_at ? Date.parse(data.account_expires_at) : Number.NaN;
        if (
          data.status !== "pending_bank_transfer" ||
          !data.account_number ||
          !/^\d{10}$/.test(data.account_number)
        ) {
          throw new AppError(
            "processor_error",
            "Paystack did not give an account to transfer to; nothing was charged.",
          );
        }
        return {
          accountNumber: data.account_number,
          bankName: data.bank?.name ?? "Paystack",
          accountName: data.account_name ?? "Paystack",
          ...(Number.isFinite(closes) && { expiresAt: closes }),
        };
      },
    },
    bankPayment: {
      async requestAuthorization({ reference, attemptId, bankCode, accountNumber, amountMinor, email }) {
        if (!accountNumber) {
          throw new AppError(
            "validation_error",
            "accountNumber is required: this bank payment debits the customer's account (10 digits).",
          );
        }
        const ref = paystackReference(reference, attemptId);
        const answer = await call({
          method: "POST",
          path: "/charge",
          body: {
            email: emailOf(email),
            amount: amountMinor,
            reference: ref,
            bank: { code: bankCode, account_number: accountNumber },
            metadata: { paygate_reference: reference },
          },
        });
        return { requestId: ref, outcome: await bankOutcome(answer, ref) };
      },
      async submitStep({ requestId, answer }) {
        return bankOutcome(await call(stepCall(requestId, answer)), requestId);
      },
      async paymentStatus({ requestId }) {
        const found = await lookUp(requestId);
        if (found === "unknown") return { kind: "unknown" };
        if (found === null)
          return { kind: "waiting", message: "Paystack did not answer; asking again later." };
        return bankOutcomeOfData(found);
      },
    },
    ussd: {
      async createCode({ reference, attemptId, ussdShortCode, amountMinor, email }) {
        const type = ussdShortCode.replace(/[*#]/g, "");
        if (!(USSD_TYPES as readonly string[]).includes(type)) {
          throw new AppError(
            "validation_error",
            `bankCode: USSD through Paystack works with Guaranty Trust Bank (*737#), United Bank for Africa (*919#), Sterling Bank (*822#) and Zenith Bank (*966#); choose one of those.`,
          );
        }
        const data = await mustCharge({
          email: emailOf(email),
          amount: amountMinor,
          reference: paystackReference(reference, attemptId),
          ussd: { type },
          metadata: { paygate_reference: reference },
        });
        if (!data.ussd_code)
          throw new AppError("processor_error", "Paystack did not give a USSD code; nothing was charged.");
        return { ussdCode: data.ussd_code };
      },
    },
    refunds: {
      async refund({ refundId, amountMinor, chargeReference, createdAt }) {
        if (!chargeReference)
          throw new RailRefusal("charge_unknown", "No Paystack charge is recorded for this money.");
        // Asked before by a process that died before recording the answer? Paystack keeps our refund id in
        // merchant_note; a refund found there is the one, never a second.
        const earlier = await findRefund(refundId, createdAt);
        if (earlier) return { railReference: earlier };
        const answer = await call({
          method: "POST",
          path: "/refund",
          body: { transaction: chargeReference, amount: amountMinor, merchant_note: refundId },
        });
        if (answer.kind === "no_answer")
          throw new Error(`Paystack refund call had no answer (${answer.error})`);
        if (answer.status === 401) throw keyRefused();
        if (answer.status >= 500 || answer.body === null)
          throw new Error(`Paystack refund call answered ${answer.status}`);
        const parsed = answer.body.status ? RefundData.safeParse(answer.body.data) : null;
        if (!parsed?.success) {
          throw new RailRefusal(
            "refused_by_processor",
            answer.body.message ?? "Paystack refused the refund.",
          );
        }
        return { railReference: String(parsed.data.id) };
      },
      async refundStatus({ railReference }): Promise<RefundStatus> {
        const answer = await call({ method: "GET", path: `/refund/${encodeURIComponent(railReference)}` });
        if (!decided(answer)) return { status: "pending" };
        if (answer.status === 401) throw keyRefused();
        const parsed = answer.body?.status ? RefundData.safeParse(answer.body.data) : null;
        if (!parsed?.success) return { status: "pending" };
        if (parsed.data.status === "processed") return { status: "processed" };
        if (parsed.data.status === "failed") return { status: "failed", reason: "failed_at_processor" };
        return { status: "pending" };
      },
    },
  };

  /** The id of a refund already asked for under `refundId` (its merchant_note), looking from just before it. */
  async function findRefund(refundId: string, createdAt: number): Promise<string | null> {
    const from = new Date(createdAt - 3_600_000).toISOString();
    for (let page = 1; page <= 5; page++) {
      const answer = await call({
        method: "GET",
        path: "/refund",
        query: { perPage: "100", page: String(page), from },
      });
      if (answer.kind === "no_answer" || answer.status >= 500)
        throw new Error("Paystack did not answer the refund list");
      if (answer.status === 401) throw keyRefused();
      const list = Array.isArray(answer.body?.data) ? (answer.body.data as unknown[]) : [];
      for (const item of list) {
        const parsed = RefundData.safeParse(item);
        if (parsed.success && parsed.data.merchant_note === refundId) return String(parsed.data.id);
      }
      if (list.length < 100) return null;
    }
    return null;
  }
}

/** GET /balance once with a key (connecting it): true when Paystack takes it, false when it refuses it. */
export async function paystackKeyWorks(secretKey: string): Promise<boolean> {
  const answer = await paystackCall(secretKey, { method: "GET", path: "/balance" });
  if (answer.kind === "no_answer" || answer.status >= 500 || answer.body === null) {
    throw new AppError(
      "processor_error",
      "Paystack could not be reached to check the key; nothing was saved. Try again.",
    );
  }
  return answer.status === 200 && answer.body.status === true;
}
