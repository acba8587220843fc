/**
 * npm run rails:smoke: the Paystack connector against Paystack's real test mode, one payment per channel and
 * a refund, printing each step (docs/rails.md "Smoke test"). For operators with a network, never in CI.
 *
 *   PAYSTACK_SECRET_KEY_TEST=sk_test_... npm run rails:smoke
 *
 * It calls the connector's rails directly (lib/rails/paystack/connector.ts), with no database and no app:
 * what it proves is that Paystack takes the requests the connector sends and that the connector reads
 * Paystack's answers. Paystack's test cards and accounts (https://paystack.com/docs/payments/test-payments/):
 * the card 4084 0840 8408 4081 (CVV 408) succeeds without a step; the Zenith Bank test account 0000000000
 * asks for a date of birth and the OTP 123456. Override with PAYSTACK_SMOKE_CARD, PAYSTACK_SMOKE_CVV,
 * PAYSTACK_SMOKE_BANK, PAYSTACK_SMOKE_ACCOUNT. PAYSTACK_SMOKE_WAIT_SECONDS (default 0) waits that long for the
 * transfer and USSD payments, which need someone to pay them; PAYSTACK_BASE_URL points it elsewhere (the
 * double: `npx tsx lib/rails/paystack/double/serve.ts`).
 */
import { randomUUID } from "node:crypto";
import { paystackCall } from "../lib/rails/paystack/client";
import { paystackKeyWorks, paystackRails } from "../lib/rails/paystack/connector";
import { ChargeData } from "../lib/rails/paystack/shapes";
import type { BankPaymentOutcome, CardOutcome, StepAnswer } from "../lib/rails/types";

const key = process.env.PAYSTACK_SECRET_KEY_TEST ?? "";
if (!/^sk_test_[0-9A-Za-z]+$/.test(key)) {
  console.error(
    "Set PAYSTACK_SECRET_KEY_TEST to a Paystack test secret key (sk_test_...). Live keys are refused.",
  );
  process.exit(2);
}
const base = process.env.PAYSTACK_BASE_URL ?? "https://api.paystack.co";
const waitSeconds = Number(process.env.PAYSTACK_SMOKE_WAIT_SECONDS ?? 0);
const email = process.env.PAYSTACK_SMOKE_EMAIL ?? "smoke@example.com";
const rails = paystackRails({ secretKey: key, source: "deployment" });
const run = `PAY_TXN_SMOKE${Date.now().toString(36).toUpperCase()}`;
/** What each step may be asked for, with Paystack's test values. */
const ANSWERS: Record<string, StepAnswer> = {
  pin: { step: "pin", pin: process.env.PAYSTACK_SMOKE_PIN ?? "1111" },
  otp: { step: "otp", otp: process.env.PAYSTACK_SMOKE_OTP ?? "123456" },
  phone: { step: "phone", phone: "08012345678" },
  birthday: { step: "birthday", birthday: "1995-12-23" },
  address: { step: "address", address: "140 N 2ND ST", city: "Stroudsburg", state: "PA", zipCode: "18360" },
};

let failures = 0;
const started = Date.now();
function say(mark: "•" | "✓" | "✗" | "…", text: string) {
  const at = ((Date.now() - started) / 1000).toFixed(1).padStart(5);
  console.log(`${at}s ${mark} ${text}`);
  if (mark === "✗") failures++;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function step(name: string, work: () => Promise<void>) {
  say("•", name);
  try {
    await work();
  } catch (err) {
    say("✗", `${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Answer each step a card asks for with Paystack's test values, until it is decided (or needs a person). */
async function followCard(first: CardOutcome, attemptId: string): Promise<CardOutcome> {
  let outcome = first;
  for (let i = 0; i < 6; i++) {
    if (outcome.kind === "action_required" && outcome.step !== "redirect") {
      say("…", `Paystack asks for: ${outcome.step} ("${outcome.message}")`);
      const answer = ANSWERS[outcome.step] as StepAnswer;
      outcome = await rails.card.submitStep({ attemptId, authorization: outcome.authorization, answer });
      continue;
    }
    if (outcome.kind === "action_required") say("…", `3-D Secure: open ${outcome.url} to finish`);
    if (outcome.kind === "pending" || outcome.kind === "action_required") {
      await sleep(10_000);
      const status = await rails.card.cardStatus({ attemptId, reference: run });
      if (status.kind === "unknown") throw new Error("Paystack does not know the charge");
      outcome = status;
      continue;
    }
    break;
  }
  return outcome;
}

async function followBank(first: BankPaymentOutcome, attemptId: string, requestId: string) {
  let outcome = first;
  for (let i = 0; i < 6 && outcome.kind === "action_required" && outcome.step !== "redirect"; i++) {
    say("…", `the bank asks for: ${outcome.step} ("${outcome.message}")`);
    outcome = await rails.bankPayment.submitStep({
      attemptId,
      requestId,
      answer: ANSWERS[outcome.step] as StepAnswer,
    });
  }
  return outcome;
}

/** A read of a charge straight from Paystack (not through the connector): its status and amount. */
async function charged(path: string): Promise<{ status: string; amount: number | undefined }> {
  const answer = await paystackCall(key, { method: "GET", path });
  if (answer.kind === "no_answer") throw new Error(`GET ${path}: no answer (${answer.error})`);
  const data = answer.body?.status ? ChargeData.safeParse(answer.body.data) : null;
  if (!data?.success) throw new Error(`GET ${path} answered ${answer.status} without a charge`);
  return { status: data.data.status, amount: data.data.amount };
}

async function waitFor(what: string, reference: string, attemptId: string) {
  if (waitSeconds <= 0) return say("…", `${what}: not waited for (PAYSTACK_SMOKE_WAIT_SECONDS=0)`);
  const until = Date.now() + waitSeconds * 1000;
  while (Date.now() < until) {
    const status = await rails.card.cardStatus({ attemptId, reference });
    if (status.kind === "success") return say("✓", `${what}: paid`);
    if (status.kind === "failed") return say("✗", `${what}: ${status.message}`);
    await sleep(5_000);
  }
  say("…", `${what}: not paid within ${waitSeconds}s`);
}

console.log(`rails:smoke against ${base} (Paystack test mode), run ${run}\n`);
let cardAttempt = "";

await step("the key: GET /balance", async () => {
  if (!(await paystackKeyWorks(key))) throw new Error("Paystack refused the key");
  say("✓", "Paystack takes the key");
});

await step("card: POST /charge with the test card, then each step Paystack asks for", async () => {
  cardAttempt = randomUUID();
  const now = new Date();
  const first = await rails.card.authorize({
    attemptId: cardAttempt,
    card: {
      number: process.env.PAYSTACK_SMOKE_CARD ?? "4084084084084081",
      cvv: process.env.PAYSTACK_SMOKE_CVV ?? "408",
      expiryMonth: 12,
      expiryYear: now.getUTCFullYear() + 2,
    },
    amountMinor: 10_000n,
    currency: "NGN",
    reference: run,
    email,
  });
  const outcome = await followCard(first, cardAttempt);
  if (outcome.kind !== "success")
    throw new Error(`the card ended ${outcome.kind}: ${JSON.stringify(outcome)}`);
  say("✓", `card charged NGN 100.00 (reference ${outcome.authorization})`);
  const again = await rails.card.cardStatus({ attemptId: cardAttempt, reference: run });
  if (again.kind !== "success") throw new Error(`the connector's look-up says ${again.kind}`);
  // Both of Paystack's reads of the charge, asked directly: the same status and amount, the amount charged.
  const [pending, verified] = await Promise.all([
    charged(`/charge/${encodeURIComponent(outcome.authorization)}`),
    charged(`/transaction/verify/${encodeURIComponent(outcome.authorization)}`),
  ]);
  if (pending.status !== verified.status || pending.amount !== verified.amount)
    throw new Error(
      `GET /charge/{reference} says ${pending.status} ${pending.amount}, /transaction/verify says ${verified.status} ${verified.amount}`,
    );
  if (verified.status !== "success" || verified.amount !== 10_000)
    throw new Error(`Paystack holds ${verified.status} of ${verified.amount} kobo, not success of 10000`);
  say("✓", "GET /charge/{reference} and /transaction/verify agree: success, 10000 kobo");
});

await step("bank transfer: a temporary account from POST /charge (bank_transfer)", async () => {
  const attemptId = randomUUID();
  const account = await rails.transfer.issueVirtualAccount({
    reference: run,
    attemptId,
    accountName: "Paygate smoke",
    amountMinor: 10_000n,
    currency: "NGN",
    email,
    expiresAt: Date.now() + 30 * 60_000,
  });
  say(
    "✓",
    `transfer NGN 100.00 to ${account.accountNumber} at ${account.bankName} (${account.accountName}), until ${account.expiresAt ? new Date(account.expiresAt).toISOString() : "?"}`,
  );
  await waitFor("the transfer", run, attemptId);
});

await step("bank payment: POST /charge (bank), then each step the bank asks for", async () => {
  const attemptId = randomUUID();
  const asked = await rails.bankPayment.requestAuthorization({
    reference: run,
    attemptId,
    bankCode: process.env.PAYSTACK_SMOKE_BANK ?? "057",
    accountNumber: process.env.PAYSTACK_SMOKE_ACCOUNT ?? "0000000000",
    amountMinor: 10_000n,
    currency: "NGN",
    email,
  });
  const outcome = await followBank(asked.outcome, attemptId, asked.requestId);
  if (outcome.kind === "failed") throw new Error(outcome.message);
  if (outcome.kind === "success") return say("✓", "bank payment charged NGN 100.00");
  say("✓", `bank payment waiting: ${outcome.kind === "waiting" ? outcome.message : `open ${outcome.url}`}`);
  await waitFor("the bank payment", run, attemptId);
});

await step("USSD: POST /charge (ussd 737)", async () => {
  const attemptId = randomUUID();
  const { ussdCode } = await rails.ussd.createCode({
    reference: run,
    attemptId,
    bankCode: "058",
    ussdShortCode: "*737#",
    phoneNumber: "08012345678",
    amountMinor: 10_000n,
    currency: "NGN",
    email,
  });
  say("✓", `dial ${ussdCode}`);
  await waitFor("the USSD payment", run, attemptId);
});

await step("refund: POST /refund of the card charge, then GET /refund/{id}", async () => {
  if (!cardAttempt) throw new Error("no card charge to refund");
  const refundId = `rfd_smoke${Date.now().toString(36)}`;
  const { railReference } = await rails.refunds.refund({
    refundId,
    amountMinor: 5_000n,
    currency: "NGN",
    reference: run,
    chargeReference: rails.chargeReference({ reference: run, attemptId: cardAttempt }),
    createdAt: Date.now(),
  });
  say("✓", `refund of NGN 50.00 asked: Paystack refund ${railReference}`);
  const again = await rails.refunds.refund({
    refundId,
    amountMinor: 5_000n,
    currency: "NGN",
    reference: run,
    chargeReference: rails.chargeReference({ reference: run, attemptId: cardAttempt }),
    createdAt: Date.now(),
  });
  if (again.railReference !== railReference)
    throw new Error(`asked again, Paystack made refund ${again.railReference}`);
  say("✓", "asked again with the same refund id: the same refund (merchant_note), not a second");
  const status = await rails.refunds.refundStatus({ refundId, railReference });
  say("✓", `GET /refund/${railReference}: ${status.status}`);
});

console.log(`\n${failures === 0 ? "rails:smoke passed" : `rails:smoke: ${failures} step(s) failed`}`);
process.exit(failures === 0 ? 0 : 1);
