import { randomInt } from "node:crypto";
import { db } from "@/lib/db/client";
import { toMillis } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { randomString } from "@/lib/security/tokens";
import { nubanCheckDigit } from "./nuban";
import type { CardOutcome, CardStatus, Rails, ReusableCard } from "./types";

/**
 * Test-mode rails. They behave like the real thing from the service's side (accounts, authorisations, codes)
 * and are driven by test cards (docs/testing.md) and the sandbox doors (`/v1/sandbox/*`, simulate).
 */
export const SANDBOX_BANK = { code: "999", name: "Paygate Sandbox Bank" } as const;

const TEST_CARDS: Record<string, CardOutcome> = {
  "4242424242424242": { kind: "success", authorization: "" },
  /** A second card for one customer (Mastercard). */
  "5555555555554444": { kind: "success", authorization: "" },
  /** Saved, then every charge of its authorization is declined. */
  "4000000000000341": { kind: "success", authorization: "" },
  /** Saved, then every charge of its authorization asks for the OTP. */
  "4000002760003184": { kind: "success", authorization: "" },
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
  "4000000000003063": {
    kind: "action_required",
    step: "redirect",
    authorization: "",
    message: "Confirm the payment on your bank's page.",
  },
};

/**
 * The sandbox bank's 3-D Secure page for an authorisation (app/pay/sandbox/bank): the attempt and the
 * authorisation in its address are what a real network's page address carries, and nothing else opens it.
 */
export function sandboxBankPageUrl(attemptId: string, authorization: string): string {
  const query = new URLSearchParams({ attempt: attemptId, authorization });
  return `${env().PUBLIC_BASE_URL}/pay/sandbox/bank?${query}`;
}
export const SANDBOX_OTP = "123456";

/** How a charge of a saved test card is answered (docs/testing.md "Saved cards"). */
type SavedBehaviour = "succeeds" | "declines" | "asks_otp";
const SAVED_BEHAVIOUR: Record<string, SavedBehaviour> = {
  "4000000000000341": "declines",
  "4000002760003184": "asks_otp",
};

/** The reusable card of an authorisation the sandbox keeps a token for (asked to save), else none. */
async function reusableOf(authorization: string): Promise<{ reusable?: ReusableCard }> {
  const token = await db()
    .selectFrom("sandbox_card_tokens")
    .select("token")
    .where("token", "=", authorization)
    .executeTakeFirst();
  return token ? { reusable: { token: token.token, bank: SANDBOX_BANK.name } } : {};
}

/** How long the sandbox network waits for an OTP or a confirmation on its bank page. */
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
    async authorize({ attemptId, card, saveCard }) {
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
      // Asked to keep the card: its token is this authorisation, charged later as its test card says.
      if (saveCard) {
        await db()
          .insertInto("sandbox_card_tokens")
          .values({
            token: authorization,
            behaviour: SAVED_BEHAVIOUR[card.number] ?? "succeeds",
            created_at: Date.now(),
          })
          .execute();
      }
      if (outcome.kind === "action_required") {
        // Kept in the database like a real network's state: the OTP may reach another process or instance.
        await db()
          .insertInto("sandbox_card_otps")
          .values({ authorization, expires_at: Date.now() + OTP_TTL_MS })
          .execute();
        return decided(attemptId, {
          ...outcome,
          authorization,
          ...(outcome.step === "redirect" && { url: sandboxBankPageUrl(attemptId, authorization) }),
        });
      }
      return decided(attemptId, {
        kind: "success",
        authorization,
        ...(saveCard && (await reusableOf(authorization))),
      });
    },
    async chargeAuthorization({ attemptId, token }) {
      const saved = await db()
        .selectFrom("sandbox_card_tokens")
        .select("behaviour")
        .where("token", "=", token)
        .executeTakeFirst();
      if (!saved) {
        return decided(attemptId, {
          kind: "failed",
          reason: "authorization_unknown",
          message: "The sandbox card network has no such saved card.",
        });
      }
      if (saved.behaviour === "declines") {
        return decided(attemptId, {
          kind: "failed",
          reason: "card_declined",
          message: "The card was declined by the issuer.",
        });
      }
      if (saved.behaviour === "asks_otp") {
        const authorization = `auth_${randomString(24)}`;
        await db()
          .insertInto("sandbox_card_otps")
          .values({ authorization, expires_at: Date.now() + OTP_TTL_MS })
          .execute();
        return decided(attemptId, {
          kind: "action_required",
          step: "otp",
          authorization,
          message: "Enter the one-time password sent to your phone.",
        });
      }
      return decided(attemptId, { kind: "success", authorization: token });
    },
    async submitStep({ attemptId, authorization, answer }) {
      // A 3-D Secure authorisation waits for the bank's page, never for an answer sent here.
      if (answer.step !== "otp") {
        return decided(attemptId, {
          kind: "failed",
          reason: "step_unsupported",
          message: "The sandbox card network only asks for a one-time password.",
        });
      }
      // The right OTP is taken once: a second one for the same authorisation finds nothing waiting. A wrong
      // one leaves it waiting, as an issuer does: the network asks for the OTP again (the service counts the
      // tries, lib/channels/retry-otp.ts).
      const right = answer.otp === SANDBOX_OTP;
      const waiting = right
        ? await db()
            .deleteFrom("sandbox_card_otps")
            .where("authorization", "=", authorization)
            .returning("expires_at")
            .executeTakeFirst()
        : await db()
            .selectFrom("sandbox_card_otps")
            .select("expires_at")
            .where("authorization", "=", authorization)
            .executeTakeFirst();
      if (!waiting || toMillis(waiting.expires_at) < Date.now()) {
        return decided(attemptId, {
          kind: "failed",
          reason: "otp_expired",
          message: "The one-time password expired; pay again.",
        });
      }
      if (!right)
        return decided(attemptId, {
          kind: "action_required",
          step: "otp",
          authorization,
          message: "The one-time password is wrong; enter the code again.",
        });
      return decided(attemptId, { kind: "success", authorization, ...(await reusableOf(authorization)) });
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

/**
 * The customer's answer on the sandbox bank's 3-D Secure page: the network decides (approve: the charge
 * succeeds; decline: `card_declined`), once. Returns the attempt it decided, or null when nothing waits for
 * that authorisation (answered already, expired, or an address that is not one of the sandbox's).
 */
export async function answerSandboxBankPage(input: {
  attemptId: string;
  authorization: string;
  decision: "approve" | "decline";
}): Promise<string | null> {
  const waiting = await db()
    .selectFrom("sandbox_card_charges")
    .select("outcome")
    .where("attempt_id", "=", input.attemptId)
    .executeTakeFirst();
  const outcome = waiting ? storedOutcome(waiting.outcome) : null;
  if (outcome?.kind !== "action_required" || outcome.step !== "redirect") return null;
  if (outcome.authorization !== input.authorization) return null;
  // Taken once, as an OTP is: a second answer (another tab, a replay) finds nothing waiting.
  const taken = await db()
    .deleteFrom("sandbox_card_otps")
    .where("authorization", "=", input.authorization)
    .returning("expires_at")
    .executeTakeFirst();
  if (!taken) return null;
  if (toMillis(taken.expires_at) < Date.now()) {
    await decided(input.attemptId, {
      kind: "failed",
      reason: "authentication_expired",
      message: "The bank's confirmation expired; pay again.",
    });
    return input.attemptId;
  }
  await decided(
    input.attemptId,
    input.decision === "approve"
      ? { kind: "success", authorization: input.authorization, ...(await reusableOf(input.authorization)) }
      : { kind: "failed", reason: "card_declined", message: "The bank declined the payment on its page." },
  );
  return input.attemptId;
}
