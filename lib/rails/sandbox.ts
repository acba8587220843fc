import { randomInt } from "node:crypto";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { randomString } from "@/lib/security/tokens";
import { nubanCheckDigit } from "./nuban";
import type { CardOutcome, CardStatus, Rails } from "./types";

/**
 * Test-mode rails. They behave like the real thing from the service's side (accounts, authorisations, codes)
 * and are driven by test cards (docs/testing.md) and the sandbox doors (`/v1/sandbox/*`, simulate).
 */
export const SANDBOX_BANK = { code: "999", name: "Paygate Sandbox Bank" } as const;

const TEST_CARDS: Record<string, CardOutcome> = {
  "4242424242424242": { kind: "success", authorization: "" },
  "4000000000000002": {
    kind: "failed",
    reason: "card_declined",
    message: "The card was declined by the issuer.",
  },
  "4000000000009995": {
    kind: "failed",
    reason: "insufficient_funds",
    message: "The card has insufficient funds.",
  },
  "4000000000003220": {
    kind: "action_required",
    step: "otp",
    authorization: "",
    message: "Enter the one-time password sent to your phone.",
  },
};
export const SANDBOX_OTP = "123456";

/** How long the sandbox network waits for an OTP. */
const OTP_TTL_MS = 10 * 60_000;

async function networkDelay() {
  const ms = env().SANDBOX_CARD_DELAY_MS;
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The network decides first and keeps what it decided (as a real network does), then takes its time to
 * answer: a process that dies while waiting leaves the decision with the network, where `cardStatus` finds it.
 */
async function decided(attemptId: string, outcome: CardOutcome): Promise<CardOutcome> {
  const row = { outcome: JSON.stringify(outcome), created_at: Date.now() };
  await db()
    .insertInto("sandbox_card_charges")
    .values({ attempt_id: attemptId, ...row })
    .onConflict((oc) => oc.column("attempt_id").doUpdateSet(row))
    .execute();
  await networkDelay();
  return outcome;
}

/** An outcome the sandbox network stored, including those kept before steps had names ("otp_required"). */
function storedOutcome(json: string): CardOutcome {
  const parsed = JSON.parse(json) as
    | CardOutcome
    | { kind: "otp_required"; authorization: string; message: string };
  if (parsed.kind === "otp_required") return { ...parsed, kind: "action_required", step: "otp" };
  return parsed;
}

export const sandboxRails: Rails = {
  name: "sandbox",
  keySource: null,
  chargeReference: () => null,
  currencies: "any",
  needsEmail: false,
  bankNeedsAccount: false,
  transfer: {
    async issueVirtualAccount({ accountName }) {
      const serial = String(randomInt(0, 1_000_000_000)).padStart(9, "0");
      return {
        accountNumber: `${serial}${nubanCheckDigit(SANDBOX_BANK.code, serial)}`,
        bankName: SANDBOX_BANK.name,
        accountName,
      };
    },
  },
  card: {
    async authorize({ attemptId, card }) {
      const outcome = TEST_CARDS[card.number];
      if (!outcome) {
        return decided(attemptId, {
          kind: "failed",
          reason: "test_card_unknown",
          message: "In test mode only the test cards are accepted (4242 4242 4242 4242 succeeds).",
        });
      }
      if (outcome.kind === "failed") return decided(attemptId, outcome);
      const authorization = `auth_${randomString(24)}`;
      if (outcome.kind === "action_required") {
        // Kept in the database like a real network's state: the OTP may reach another process or instance.
        await db()
          .insertInto("sandbox_card_otps")
          .values({ authorization, expires_at: Date.now() + OTP_TTL_MS })
          .execute();
        return decided(attemptId, { ...outcome, authorization });
      }
      return decided(attemptId, { kind: "success", authorization });
    },
    async submitStep({ attemptId, authorization, answer }) {
      if (answer.step !== "otp") {
        return decided(attemptId, {
          kind: "failed",
          reason: "step_unsupported",
          message: "The sandbox card network only asks for a one-time password.",
        });
      }
      const otp = answer.otp;
      // Taken once: a second OTP for the same authorisation finds nothing waiting.
      const taken = await db()
        .deleteFrom("sandbox_card_otps")
        .where("authorization", "=", authorization)
        .returning("expires_at")
        .executeTakeFirst();
      if (!taken || toMillis(taken.expires_at) < Date.now()) {
        return decided(attemptId, {
          kind: "failed",
          reason: "otp_expired",
          message: "The one-time password expired; pay again.",
        });
      }
      if (otp !== SANDBOX_OTP)
        return decided(attemptId, {
          kind: "failed",
          reason: "invalid_otp",
          message: "The one-time password is wrong.",
        });
      return decided(attemptId, { kind: "success", authorization });
    },
    async cardStatus({ attemptId }): Promise<CardStatus> {
      const row = await db()
        .selectFrom("sandbox_card_charges")
        .select("outcome")
        .where("attempt_id", "=", attemptId)
        .executeTakeFirst();
      return row ? storedOutcome(row.outcome) : { kind: "unknown" };
    },
  },
  refunds: {
    async refund({ refundId }) {
      return { railReference: `sbx_${refundId}` };
    },
    async refundStatus({ refundId }) {
      // The sandbox bank returns the money SANDBOX_REFUND_DELAY_MS after it was asked (the refund's due time);
      // POST /v1/sandbox/refunds/{id} settles one at once, either way.
      const row = await db()
        .selectFrom("refunds")
        .select(["created_at"])
        .where("id", "=", refundId)
        .executeTakeFirst();
      if (!row) return { status: "failed", reason: "refund_unknown" };
      return toMillis(row.created_at) + env().SANDBOX_REFUND_DELAY_MS <= Date.now()
        ? { status: "processed" }
        : { status: "pending" };
    },
  },
  bankPayment: {
    async requestAuthorization({ bankCode }) {
      // The customer answers in the (sandbox) bank's app: POST /v1/sandbox/authorizations.
      return {
        requestId: `bpr_${randomString(24)}`,
        outcome: { kind: "waiting", message: `Approve the payment in your bank's app (bank ${bankCode}).` },
      };
    },
    async submitStep() {
      return {
        kind: "failed",
        reason: "step_unsupported",
        message: "The sandbox bank asks for no steps: approve or decline in its app.",
      };
    },
    async paymentStatus() {
      // The sandbox bank's answers arrive through POST /v1/sandbox/authorizations, never by asking.
      return { kind: "unknown" };
    },
  },
  ussd: {
    async createCode({ ussdShortCode }) {
      // *737*000*123456# : the bank's short code, the merchant-payment service, a one-time payment code.
      const base = ussdShortCode.replace(/#$/, "");
      return { ussdCode: `${base}*000*${String(randomInt(0, 1_000_000)).padStart(6, "0")}#` };
    },
  },
};
