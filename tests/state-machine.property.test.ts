import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccessCodePrincipal, SecretKeyPrincipal } from "@/lib/core/principal";
import {
  checkInvariants,
  duplicateRecords,
  misfiledTransfers,
  TERMINAL,
  type TerminalSnapshot,
} from "./helpers/property-invariants";

/**
 * Property test of the transaction state machine (docs/api.md, docs/states.md, docs/testing.md), in-process against the real
 * domain code and a real database: SQLite always (a fresh temp file), PostgreSQL too when TEST_DATABASE_URL
 * names a server (a fresh database on it, dropped afterwards).
 *
 * Each run initializes 1-3 transactions (some with the merchant bearing the fees, some without an email) and
 * plays a random sequence of customer, bank and sandbox actions on them, merchant refunds (all, part, too
 * much) and the rail settling refunds (processed or failed), some of them concurrently; and charges of the
 * merchant's saved test cards with the customer away (docs/customers.md: a success, a decline, one asking for
 * the OTP that the customer then answers right or wrong), with idempotency keys and references the run
 * reuses, and raced with one key, one reference or each their own (each such payment joins the run's
 * transactions, and must hold exactly one card attempt). After every
 * step the invariants of tests/helpers/property-invariants.ts are checked against the database (never credited
 * twice, never leaves a terminal state, money conserved, fees and totals per the contract, one outbox event per
 * terminal change, received = credited + refunded + refunds pending + transfers held on an open window,
 * nothing held on a finished transaction, never more refunded than refundable, one event per settled refund),
 * and every sequential step's answer is checked against what the contract says it must be (transfers to
 * one account add up inside its window: `topUp` sends too little, then the rest). At the end, the sweep's
 * part for ended windows runs and must leave nothing held on them.
 *
 * PROP_RUNS (runs per database) and PROP_SEED reproduce or deepen a run.
 */

// The domain reads these on first use: set them before any lib module is imported (all imports below are dynamic).
const tempDir = mkdtempSync(join(tmpdir(), "paygate-prop-"));
const ENV_KEYS = [
  "DATABASE_URL",
  "APP_SECRET",
  "SANDBOX_CARD_DELAY_MS",
  "SANDBOX_REFUND_DELAY_MS",
  "LOG_LEVEL",
  "SEED_DEMO",
] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
process.env.DATABASE_URL = `file:${join(tempDir, "paygate.db")}`;
process.env.APP_SECRET = "property-test-secret-0123456789abcdefghijklmnopqrstuvwxyz";
// A little card-network latency, so transfers and approvals land while a card is at the network.
process.env.SANDBOX_CARD_DELAY_MS = "2";
// Refunds settle only when a step settles them (processed or failed), never on a timer mid-run.
process.env.SANDBOX_REFUND_DELAY_MS = "3600000";
process.env.LOG_LEVEL = "error";
process.env.SEED_DEMO = "0";

const RUNS = { sqlite: 200, postgres: 80 };

async function loadDomain() {
  const [
    client,
    migrate,
    signup,
    initialize,
    schemas,
    card,
    cardOtp,
    bankTransfer,
    inbound,
    simulate,
    bankPayment,
    ussd,
    authorize,
    cancel,
    errors,
    refunds,
    settlement,
    heldTransfers,
    chargeAuthorization,
    channelSchemas,
  ] = await Promise.all([
    import("@/lib/db/client"),
    import("@/lib/db/migrate"),
    import("@/lib/merchants/signup-merchant"),
    import("@/lib/payments/initialize-payment"),
    import("@/lib/payments/schemas"),
    import("@/lib/channels/charge-card"),
    import("@/lib/channels/submit-card-otp"),
    import("@/lib/channels/charge-bank-transfer"),
    import("@/lib/channels/receive-inbound-transfer"),
    import("@/lib/channels/simulate-bank-transfer"),
    import("@/lib/channels/charge-bank-payment"),
    import("@/lib/channels/charge-ussd"),
    import("@/lib/channels/sandbox-authorize"),
    import("@/lib/channels/cancel-checkout"),
    import("@/lib/core/errors"),
    import("@/lib/refunds/create-refund"),
    import("@/lib/refunds/settle-refund"),
    import("@/lib/channels/held-transfers"),
    import("@/lib/channels/charge-authorization"),
    import("@/lib/channels/schemas"),
  ]);
  return {
    openDatabase: client.openDatabase,
    database: client.database,
    migrateToLatest: migrate.migrateToLatest,
    signupMerchant: signup.signupMerchant,
    initializePayment: initialize.initializePayment,
    InitializeBody: schemas.InitializeBody,
    chargeCard: card.chargeCard,
    submitCardOtp: cardOtp.submitCardOtp,
    chargeBankTransfer: bankTransfer.chargeBankTransfer,
    receiveInboundTransfer: inbound.receiveInboundTransfer,
    simulateBankTransfer: simulate.simulateBankTransfer,
    chargeBankPayment: bankPayment.chargeBankPayment,
    chargeUssd: ussd.chargeUssd,
    sandboxAuthorize: authorize.sandboxAuthorize,
    cancelCheckout: cancel.cancelCheckout,
    AppError: errors.AppError,
    createRefund: refunds.createRefund,
    settleRefund: settlement.settleRefund,
    releaseExpiredHolds: heldTransfers.releaseExpiredHolds,
    chargeAuthorization: chargeAuthorization.chargeAuthorization,
    ChargeAuthorizationBody: channelSchemas.ChargeAuthorizationBody,
  };
}
type Domain = Awaited<ReturnType<typeof loadDomain>>;
type Handle = ReturnType<Domain["openDatabase"]>;
const globalDb = globalThis as unknown as { __paygateDb?: Handle };

// ---------------------------------------------------------------------------------------------------------
// The model: transactions and operations

type TxSpec = { amountMinor: bigint; merchantBearsCost: boolean; email: boolean };

type CardKind = "success" | "declined" | "insufficient" | "unknown" | "otp";
const CARDS: Record<CardKind, string> = {
  success: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  unknown: "4111111111111111",
  otp: "4000000000003220",
};

/** What one operation does; `tx` picks a transaction of the run (modulo their number). */
type Step =
  | { kind: "card"; tx: number; card: CardKind }
  | { kind: "otp"; tx: number; right: boolean }
  | { kind: "bankTransfer"; tx: number }
  /** An inbound transfer to the latest (or an older) virtual account of the transaction. */
  | {
      kind: "transfer";
      tx: number;
      /** The account's amount; a little less or more; a third of it; or what is still due on it. */
      amount: "exact" | "under" | "over" | "part" | "rest";
      account: "latest" | number;
    }
  /**
   * Too little, then the rest (plus `over` more) to the latest account, one after the other: the transfers
   * add up (docs/states.md). Asks for an account first when none is open.
   */
  | { kind: "topUp"; tx: number; over: boolean }
  /** The same bank notification again (an earlier sessionId, account and amount). */
  | { kind: "repeat"; pick: number }
  /** Move the transaction's virtual accounts' windows into the past. */
  | { kind: "expire"; tx: number }
  /** Expire, then the exact amount to the latest account. */
  | { kind: "expiredTransfer"; tx: number }
  | { kind: "simulate"; tx: number; scenario: "success" | "failed" | "abandoned" }
  | { kind: "bankPayment"; tx: number }
  | { kind: "ussd"; tx: number }
  | { kind: "authorize"; tx: number; decision: "approve" | "decline" }
  | { kind: "cancel"; tx: number }
  /** A merchant refund: all that is refundable (no amount), a part of it, or one minor unit too much. */
  | { kind: "refund"; tx: number; amount: "all" | "part" | "over" }
  /** The rail settles a pending refund (merchant or automatic) of the run, picked by index. */
  | { kind: "settleRefund"; pick: number; outcome: "processed" | "failed" }
  /** Several actions on one transaction at once. */
  | { kind: "concurrent"; tx: number; ops: SubOp[] }
  /**
   * A merchant's charge of a saved card with the customer away (POST /v1/payment/charge-authorization), with
   * an idempotency key and/or a reference of a few the run reuses, or neither.
   */
  | { kind: "chargeSaved"; card: SavedKind; amount: number; key: number | null; ref: number | null }
  /** The customer answers the OTP of a saved card's charge waiting for one, on the hosted page. */
  | { kind: "savedOtp"; pick: number; right: boolean }
  /** Several charges of a saved card at once: one key, one reference, or each its own. */
  | { kind: "chargeSavedRace"; card: SavedKind; copies: number; same: "key" | "ref" | "none" };

/** The saved-card test cards: charges succeed, are declined, or ask for the OTP (docs/testing.md). */
type SavedKind = "success" | "declines" | "otp";
const SAVED_CARDS: Record<SavedKind, string> = {
  success: "4242424242424242",
  declines: "4000000000000341",
  otp: "4000002760003184",
};
const SAVED_AMOUNTS = [500n, 250_000n, 1_234_567n];

type SubOp =
  | "cardSuccess"
  | "cardOtp"
  | "exactTransfer"
  | "burst"
  | "simulateSuccess"
  | "simulateFailed"
  | "approve"
  | "decline"
  | "otpRight"
  | "bankTransfer"
  | "bankPayment"
  | "ussd"
  | "cancel"
  | "refundPart"
  | "refundAll";

const txIndex = fc.nat({ max: 2 });

const amountArb = fc.oneof(
  fc.constantFrom(1n, 100n, 249_999n, 250_000n, 250_001n, 6_666_667n, 13_333_334n, 10_000_000_000n),
  fc.bigInt({ min: 1n, max: 500_000n }),
  fc.bigInt({ min: 1n, max: 10_000_000_000n }),
);

const txSpecArb: fc.Arbitrary<TxSpec> = fc.record({
  amountMinor: amountArb,
  merchantBearsCost: fc.boolean(),
  email: fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 }),
});

const subOpArb: fc.Arbitrary<SubOp> = fc.constantFrom(
  "cardSuccess",
  "cardOtp",
  "exactTransfer",
  "burst",
  "simulateSuccess",
  "simulateFailed",
  "approve",
  "decline",
  "otpRight",
  "bankTransfer",
  "bankPayment",
  "ussd",
  "cancel",
  "refundPart",
  "refundAll",
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("card" as const),
      tx: txIndex,
      card: fc.constantFrom<CardKind>("success", "declined", "insufficient", "unknown", "otp", "otp"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("otp" as const), tx: txIndex, right: fc.boolean() }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("bankTransfer" as const), tx: txIndex }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      tx: txIndex,
      amount: fc.constantFrom(
        "exact" as const,
        "exact" as const,
        "under" as const,
        "over" as const,
        "part" as const,
        "part" as const,
        "rest" as const,
      ),
      account: fc.oneof(
        { arbitrary: fc.constant("latest" as const), weight: 4 },
        { arbitrary: fc.nat({ max: 3 }), weight: 1 },
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("topUp" as const), tx: txIndex, over: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("repeat" as const), pick: fc.nat({ max: 20 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expire" as const), tx: txIndex }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("expiredTransfer" as const), tx: txIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("simulate" as const),
      tx: txIndex,
      scenario: fc.constantFrom(
        "success" as const,
        "success" as const,
        "failed" as const,
        "abandoned" as const,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("bankPayment" as const), tx: txIndex }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("ussd" as const), tx: txIndex }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("authorize" as const),
      tx: txIndex,
      decision: fc.constantFrom("approve" as const, "decline" as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), tx: txIndex }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("refund" as const),
      tx: txIndex,
      amount: fc.constantFrom("all" as const, "part" as const, "part" as const, "over" as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("settleRefund" as const),
      pick: fc.nat({ max: 20 }),
      outcome: fc.constantFrom("processed" as const, "failed" as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("concurrent" as const),
      tx: txIndex,
      ops: fc.array(subOpArb, { minLength: 2, maxLength: 4 }),
    }),
  },
);

const savedKindArb = fc.constantFrom<SavedKind>("success", "success", "declines", "otp");
const savedSteps: Array<{ weight: number; arbitrary: fc.Arbitrary<Step> }> = [
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("chargeSaved" as const),
      card: savedKindArb,
      amount: fc.nat({ max: 2 }),
      key: fc.option(fc.nat({ max: 2 }), { nil: null }),
      ref: fc.option(fc.nat({ max: 2 }), { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("savedOtp" as const),
      pick: fc.nat({ max: 5 }),
      right: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("chargeSavedRace" as const),
      card: savedKindArb,
      copies: fc.integer({ min: 2, max: 4 }),
      same: fc.constantFrom("key" as const, "ref" as const, "none" as const),
    }),
  },
];
const anyStepArb: fc.Arbitrary<Step> = fc.oneof({ weight: 5, arbitrary: stepArb }, ...savedSteps);

const scenarioArb = fc.record({
  txs: fc.array(txSpecArb, { minLength: 1, maxLength: 3 }),
  steps: fc.array(anyStepArb, { minLength: 1, maxLength: 25, size: "max" }),
});
type Scenario = { txs: TxSpec[]; steps: Step[] };

// ---------------------------------------------------------------------------------------------------------
// Running a scenario

type TxHandle = { id: string; reference: string; spec: TxSpec; principal: AccessCodePrincipal };
type Sent = { sessionId: string; accountNumber: string; amountMinor: bigint; outcome: string };
/** What an operation answered: its value, or the code of the AppError it was refused with. */
type Answer = { ok: true; value: Record<string, unknown> } | { ok: false; code: string; message: string };

const cardDetails = (kind: CardKind) => ({
  number: CARDS[kind],
  expiryMonth: 12,
  expiryYear: new Date().getUTCFullYear() + 2,
  cvv: "123",
});

/** docs/api.md: no amount, a refund's included, exceeds 100,000,000.00. */
const MAX_AMOUNT_MINOR = 10_000_000_000n;

const formatMinor = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;

let sessionSeq = 0;
const freshSession = () => `prop_${process.pid}_${Date.now()}_${++sessionSeq}`;

class Violation extends Error {}

/** How often each step kind ran and what the transactions ended as (printed after each database's runs). */
const stats = new Map<string, number>();
const count = (key: string) => stats.set(key, (stats.get(key) ?? 0) + 1);
/** Soft findings (not contract violations): the first trace of each, printed with the stats. */
const observations = new Map<string, string>();

function makeRunner(d: Domain, merchantId: string, keyPrincipal: SecretKeyPrincipal) {
  const db = () => d.database().db;

  /** The merchant's saved test cards (saved once, each on a checkout of its own with saveCard required). */
  let saved: Promise<Record<SavedKind, string>> | undefined;
  function savedCards() {
    saved ??= (async () => {
      const codes = {} as Record<SavedKind, string>;
      for (const kind of Object.keys(SAVED_CARDS) as SavedKind[]) {
        const payment = d.InitializeBody.parse({
          amount: "100",
          email: "saver@example.com",
          saveCard: "required",
        });
        const session = await d.initializePayment({ merchantId, mode: "test", payment });
        const row = await db()
          .selectFrom("transactions")
          .select("id")
          .where("reference", "=", session.reference)
          .executeTakeFirstOrThrow();
        await d.chargeCard({
          principal: {
            kind: "access_code",
            merchantId,
            mode: "test",
            transactionId: row.id,
            reference: session.reference,
          },
          card: { ...cardDetails("success"), number: SAVED_CARDS[kind] },
          clientAddress: "10.0.0.1",
        });
        const paid = await db()
          .selectFrom("transactions")
          .select("authorization_id")
          .where("id", "=", row.id)
          .executeTakeFirstOrThrow();
        if (!paid.authorization_id) throw new Error(`the ${kind} test card was not saved`);
        codes[kind] = paid.authorization_id;
      }
      return codes;
    })();
    return saved;
  }

  async function answer(fn: () => Promise<unknown>): Promise<Answer> {
    try {
      return { ok: true, value: (await fn()) as Record<string, unknown> };
    } catch (err) {
      // A refusal is an expected outcome; anything else (a crash, a constraint error, a deadlock) is a failure.
      if (err instanceof d.AppError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
  }

  async function snapshot(tx: TxHandle) {
    const row = await db()
      .selectFrom("transactions")
      .select(["status", "amount_minor", "amount_refunded_minor", "refund_credit_minor"])
      .where("id", "=", tx.id)
      .executeTakeFirstOrThrow();
    const vas = await db()
      .selectFrom("virtual_accounts")
      .select(["account_number", "expected_minor", "expires_at", "created_at"])
      .where("transaction_id", "=", tx.id)
      .orderBy("created_at", "asc")
      .execute();
    const attempts = await db()
      .selectFrom("charge_attempts")
      .select(["status", "channel"])
      .where("transaction_id", "=", tx.id)
      .execute();
    // Transfers of too little held on an account, adding up toward its amount (docs/states.md).
    const held = await db()
      .selectFrom("inbound_transfers")
      .select(["account_number", "amount_minor"])
      .where("transaction_id", "=", tx.id)
      .where("partial", "=", "held")
      .execute();
    const heldOn = (account: string) =>
      held.filter((h) => h.account_number === account).reduce((a, h) => a + BigInt(h.amount_minor), 0n);
    return {
      status: row.status,
      open: !TERMINAL.has(row.status),
      // What the merchant may still refund (docs/refunds.md), computed here from the columns.
      refundable:
        (row.status === "success" ? BigInt(row.amount_minor) : 0n) +
        BigInt(row.refund_credit_minor) -
        BigInt(row.amount_refunded_minor),
      vas: vas.map((v) => ({
        accountNumber: v.account_number,
        expectedMinor: BigInt(v.expected_minor),
        expired: Number(v.expires_at) <= Date.now(),
        heldMinor: heldOn(v.account_number),
      })),
      awaitingOtp: attempts.some((a) => a.status === "awaiting_otp"),
      awaitingAuthorization: attempts.some(
        (a) => a.status === "awaiting_bank_authorization" || a.status === "awaiting_ussd",
      ),
    };
  }

  async function createTransactions(specs: TxSpec[]): Promise<TxHandle[]> {
    const out: TxHandle[] = [];
    for (const spec of specs) {
      const payment = d.InitializeBody.parse({
        amount: formatMinor(spec.amountMinor),
        ...(spec.email && { email: "payer@example.com" }),
        merchantBearsCost: spec.merchantBearsCost,
      });
      const session = await d.initializePayment({ merchantId, mode: "test", payment });
      const row = await db()
        .selectFrom("transactions")
        .select(["id"])
        .where("reference", "=", session.reference)
        .executeTakeFirstOrThrow();
      out.push({
        id: row.id,
        reference: session.reference,
        spec,
        principal: {
          kind: "access_code",
          merchantId,
          mode: "test",
          transactionId: row.id,
          reference: session.reference,
        },
      });
    }
    return out;
  }

  let playSeq = 0;
  async function play(scenario: Scenario) {
    const txs = await createTransactions(scenario.txs);
    const observed = new Map<string, TerminalSnapshot>();
    const run = `${process.pid}X${Date.now()}X${++playSeq}`;
    /** The charges of saved cards made in this run, by reference; what each key and reference was first used for. */
    const charged = new Map<string, { id: string; accessCode: string; card: SavedKind }>();
    const keyUse = new Map<string, { hash: string; reference: string }>();
    const refUse = new Map<string, { card: SavedKind; amount: bigint }>();
    const sent: Sent[] = [];
    const trace: string[] = [];
    const pickTx = (i: number) => txs[i % txs.length] as TxHandle;

    const fail = (msg: string): never => {
      throw new Violation(`${msg}\n  trace:\n    ${trace.join("\n    ")}`);
    };
    const expectRefused = (a: Answer, code: string, what: string) => {
      if (a.ok || a.code !== code) fail(`${what}: expected ${code}, got ${JSON.stringify(a, bigintJson)}`);
    };
    const expectValue = (a: Answer, what: string, check: (v: Record<string, unknown>) => boolean) => {
      if (!a.ok || !check(a.value)) fail(`${what}: unexpected answer ${JSON.stringify(a, bigintJson)}`);
    };

    const transfer = async (accountNumber: string, amountMinor: bigint, sessionId = freshSession()) => {
      const a = await answer(() =>
        d.receiveInboundTransfer({ rail: "sandbox", sessionId, accountNumber, amountMinor }),
      );
      if (a.ok && a.value.replayed === false)
        sent.push({ sessionId, accountNumber, amountMinor, outcome: String(a.value.outcome) });
      return a;
    };

    /**
     * The outcome the contract prescribes for a transfer to `va` of a transaction in `status`: inside the
     * window transfers add up, and the one that reaches the account's amount completes the payment.
     */
    const expectedOutcome = (
      status: string,
      va: { expectedMinor: bigint; expired: boolean; heldMinor: bigint },
      amountMinor: bigint,
    ) => {
      if (status === "success") return "duplicate_payment";
      if (TERMINAL.has(status) || va.expired) return "late_payment";
      return va.heldMinor + amountMinor >= va.expectedMinor ? "credited" : "amount_mismatch";
    };

    const expireAccounts = (tx: TxHandle) =>
      db()
        .updateTable("virtual_accounts")
        .set({ expires_at: Date.now() - 1000 })
        .where("transaction_id", "=", tx.id)
        .execute();

    const status = async (tx: TxHandle) =>
      (
        await db()
          .selectFrom("transactions")
          .select("status")
          .where("id", "=", tx.id)
          .executeTakeFirstOrThrow()
      ).status;

    /** One charge of a saved card; its payment joins the run's transactions (the invariants cover it). */
    async function chargeSaved(
      card: SavedKind,
      amountMinor: bigint,
      key: string | null,
      reference: string | null,
    ) {
      const codes = await savedCards();
      const hash = JSON.stringify([card, String(amountMinor), reference]);
      const a = await answer(() =>
        d.chargeAuthorization({
          merchantId,
          mode: "test",
          charge: d.ChargeAuthorizationBody.parse({
            authorizationCode: codes[card],
            amount: formatMinor(amountMinor),
            ...(reference && { reference }),
          }),
          idempotency: key ? { key, requestHash: hash } : null,
        }),
      );
      if (a.ok) {
        const ref = String(a.value.reference);
        if (!charged.has(ref)) {
          const row = await db()
            .selectFrom("transactions")
            .select(["id", "access_code"])
            .where("reference", "=", ref)
            .executeTakeFirstOrThrow();
          charged.set(ref, { id: row.id, accessCode: row.access_code, card });
        }
      }
      return { a, hash };
    }

    /** What a new charge of each saved card answers. */
    const FRESH: Record<SavedKind, (v: Record<string, unknown>) => boolean> = {
      success: (v) => v.status === "success",
      declines: (v) => v.status === "failed" && v.reason === "card_declined",
      otp: (v) => v.status === "requires_action" && typeof v.checkoutUrl === "string",
    };

    async function runSaved(
      step: Extract<Step, { kind: "chargeSaved" | "savedOtp" | "chargeSavedRace" }>,
      label: string,
    ) {
      if (step.kind === "chargeSaved") {
        const amountMinor = SAVED_AMOUNTS[step.amount % SAVED_AMOUNTS.length] as bigint;
        const key = step.key === null ? null : `${run}k${step.key}`;
        const reference = step.ref === null ? null : `PAY_TXN_${run}R${step.ref}`;
        const knownKey = key ? keyUse.get(key) : undefined;
        const knownRef = reference ? refUse.get(reference) : undefined;
        const { a, hash } = await chargeSaved(step.card, amountMinor, key, reference);
        trace.push(`${label} -> ${show(a)}${a.ok ? ` ${a.value.reference}` : ""}`);
        if (knownKey) {
          if (knownKey.hash !== hash)
            expectRefused(a, "idempotency_key_reused", "a key used with another body");
          else expectValue(a, "a key used again", (v) => v.reference === knownKey.reference);
          return;
        }
        if (reference && knownRef) {
          if (knownRef.card !== step.card || knownRef.amount !== amountMinor)
            expectRefused(a, "reference_in_use", "a reference used for another charge");
          else expectValue(a, "a reference used again", (v) => v.reference === reference);
          return;
        }
        expectValue(a, `a new charge of the ${step.card} card`, FRESH[step.card]);
        if (a.ok) {
          if (key) keyUse.set(key, { hash, reference: String(a.value.reference) });
          refUse.set(String(a.value.reference), { card: step.card, amount: amountMinor });
        }
        return;
      }
      if (step.kind === "savedOtp") {
        const waiting: Array<[string, { id: string; accessCode: string }]> = [];
        for (const [ref, c] of charged) {
          const attempt = await db()
            .selectFrom("charge_attempts")
            .select("status")
            .where("transaction_id", "=", c.id)
            .executeTakeFirst();
          // Waiting for its OTP: the bank's first ask (awaiting_action), or again after a wrong one (awaiting_otp).
          if (attempt?.status === "awaiting_action" || attempt?.status === "awaiting_otp")
            waiting.push([ref, c]);
        }
        const target = waiting.length > 0 ? waiting[step.pick % waiting.length] : undefined;
        if (!target) {
          trace.push(`${label} -> skipped (no saved card's charge waits for an OTP)`);
          return;
        }
        const [reference, c] = target;
        const a = await answer(() =>
          d.submitCardOtp({
            principal: { kind: "access_code", merchantId, mode: "test", transactionId: c.id, reference },
            otp: step.right ? "123456" : "654321",
          }),
        );
        trace.push(`${label} ${reference} -> ${show(a)}`);
        if (step.right) expectValue(a, "the right OTP of a saved card", (v) => v.status === "success");
        // A wrong one with tries left is typed again (the card kept); the third fails the charge.
        else
          expectValue(
            a,
            "a wrong OTP of a saved card",
            (v) => v.status === "failed" || (v.status === "awaiting_otp" && v.reason === "invalid_otp"),
          );
        const after = await status({ id: c.id } as TxHandle);
        // Right: paid. Wrong with tries left: the payment still pending (the wait is the attempt's); the third: failed.
        const expected = step.right
          ? "success"
          : a.ok && a.value.status === "awaiting_otp"
            ? "pending"
            : "failed";
        if (after !== expected) fail(`a saved card's charge answered by OTP is ${after}, not ${expected}`);
        return;
      }
      // Several at once: one key (and one body), one reference, or each its own.
      const n = ++sessionSeq;
      const key = step.same === "key" ? `${run}race${n}` : null;
      const reference = step.same === "ref" ? `PAY_TXN_${run}Race${n}` : null;
      const amountMinor = SAVED_AMOUNTS[n % SAVED_AMOUNTS.length] as bigint;
      const results = await Promise.all(
        Array.from({ length: step.copies }, () => chargeSaved(step.card, amountMinor, key, reference)),
      );
      trace.push(
        `${label} -> ${results.map((r) => `${show(r.a)}${r.a.ok ? ` ${r.a.value.reference}` : ""}`).join(" | ")}`,
      );
      for (const r of results) if (!r.a.ok) fail(`a racing charge was refused: ${r.a.code} ${r.a.message}`);
      const references = new Set(results.map((r) => (r.a.ok ? String(r.a.value.reference) : "")));
      const want = step.same === "none" ? step.copies : 1;
      if (references.size !== want)
        fail(`${step.copies} racing charges (${step.same}) made ${references.size} payments`);
      for (const reference of references) {
        const rows = await db()
          .selectFrom("transactions")
          .innerJoin("charge_attempts", "charge_attempts.transaction_id", "transactions.id")
          .select("charge_attempts.id")
          .where("transactions.reference", "=", reference)
          .execute();
        if (rows.length !== 1) fail(`the payment ${reference} has ${rows.length} card attempts`);
        refUse.set(reference, { card: step.card, amount: amountMinor });
      }
      if (key)
        keyUse.set(key, {
          hash: JSON.stringify([step.card, String(amountMinor), null]),
          reference: [...references][0] as string,
        });
    }

    async function runStep(step: Step, index: number) {
      const label = `#${index} ${JSON.stringify(step)}`;
      if (step.kind === "chargeSaved" || step.kind === "savedOtp" || step.kind === "chargeSavedRace") {
        await runSaved(step, label);
        return;
      }
      if (step.kind === "repeat") {
        const first = sent.length > 0 ? sent[step.pick % sent.length] : undefined;
        if (!first) {
          trace.push(`${label} -> skipped (nothing sent yet)`);
          return;
        }
        const a = await transfer(first.accountNumber, first.amountMinor, first.sessionId);
        trace.push(`${label} -> ${show(a)}`);
        expectValue(
          a,
          "the same notification again",
          (v) => v.replayed === true && v.outcome === first.outcome,
        );
        const rows = await db()
          .selectFrom("inbound_transfers")
          .select("id")
          .where("rail", "=", "sandbox")
          .where("session_id", "=", first.sessionId)
          .execute();
        if (rows.length !== 1) fail(`a repeated notification is recorded ${rows.length} times`);
        return;
      }

      if (step.kind === "settleRefund") {
        const pending = await db()
          .selectFrom("refunds")
          .select(["id", "type", "amount_minor"])
          .where(
            "transaction_id",
            "in",
            txs.map((t) => t.id),
          )
          .where("status", "=", "pending")
          .orderBy("created_at")
          .orderBy("id")
          .execute();
        const target = pending.length > 0 ? pending[step.pick % pending.length] : undefined;
        if (!target) {
          trace.push(`${label} -> skipped (no pending refund)`);
          return;
        }
        const settled = await d.settleRefund(
          target.id,
          step.outcome === "processed"
            ? { status: "processed" }
            : { status: "failed", reason: "sandbox_failed" },
        );
        trace.push(`${label} -> ${target.type} ${target.amount_minor} ${settled?.status}`);
        if (settled?.status !== step.outcome)
          fail(`a pending refund settled ${step.outcome} is ${settled?.status}`);
        const again = await d.settleRefund(target.id, { status: "processed" });
        if (again?.status !== step.outcome) fail(`a settled refund changed again to ${again?.status}`);
        return;
      }

      const tx = pickTx(step.tx);
      const pre = await snapshot(tx);
      const closed = !pre.open;
      let a: Answer | undefined;

      switch (step.kind) {
        case "card": {
          a = await answer(() => d.chargeCard({ principal: tx.principal, card: cardDetails(step.card) }));
          trace.push(`${label} [${pre.status}] -> ${show(a)}`);
          if (closed) expectRefused(a, "invalid_state", "a card charge on a finished transaction");
          else if (step.card === "success") expectValue(a, "a good card", (v) => v.status === "success");
          else if (step.card === "otp") expectValue(a, "an OTP card", (v) => v.status === "awaiting_otp");
          else {
            const reason = {
              declined: "card_declined",
              insufficient: "insufficient_funds",
              unknown: "test_card_unknown",
            }[step.card];
            expectValue(a, "a bad card", (v) => v.status === "failed" && v.reason === reason);
          }
          break;
        }
        case "otp": {
          a = await answer(() =>
            d.submitCardOtp({ principal: tx.principal, otp: step.right ? "123456" : "654321" }),
          );
          trace.push(`${label} [${pre.status}${pre.awaitingOtp ? ", otp waiting" : ""}] -> ${show(a)}`);
          // Nothing waits: 409, `step_already_answered` when an OTP of this payment went through before.
          if (closed || !pre.awaitingOtp) {
            if (a.ok || (a.code !== "invalid_state" && a.code !== "step_already_answered"))
              fail(`an OTP with nothing waiting for it: got ${JSON.stringify(a, bigintJson)}`);
          } else if (step.right) expectValue(a, "the right OTP", (v) => v.status === "success");
          // A wrong one is typed again while tries are left (the card kept), and fails the third time.
          else
            expectValue(
              a,
              "a wrong OTP",
              (v) => (v.status === "failed" || v.status === "awaiting_otp") && v.reason === "invalid_otp",
            );
          break;
        }
        case "bankTransfer": {
          a = await answer(() => d.chargeBankTransfer({ principal: tx.principal }));
          trace.push(`${label} [${pre.status}] -> ${show(a)}`);
          const open = pre.vas.find((v) => !v.expired);
          if (closed) expectRefused(a, "invalid_state", "a bank transfer on a finished transaction");
          else if (!tx.spec.email) expectRefused(a, "email_required", "a bank transfer without an email");
          else
            expectValue(
              a,
              "a bank transfer request",
              (v) =>
                v.status === "awaiting_transfer" &&
                (open === undefined || v.accountNumber === open.accountNumber) &&
                (open !== undefined || !pre.vas.some((x) => x.accountNumber === v.accountNumber)),
            );
          break;
        }
        case "transfer":
        case "expiredTransfer": {
          if (step.kind === "expiredTransfer") await expireAccounts(tx);
          const vas =
            step.kind === "expiredTransfer" ? pre.vas.map((v) => ({ ...v, expired: true })) : pre.vas;
          const va =
            step.kind === "transfer" && step.account !== "latest"
              ? vas[step.account % Math.max(1, vas.length)]
              : vas.at(-1);
          if (!va) {
            // No account issued yet: the money goes to an account nobody owns.
            a = await transfer("0000000000", 100_000n);
            trace.push(`${label} [${pre.status}, no account] -> ${show(a)}`);
            expectValue(a, "a transfer to an unknown account", (v) => v.outcome === "unknown_account");
            break;
          }
          const kind = step.kind === "transfer" ? step.amount : "exact";
          const due = va.expectedMinor - va.heldMinor;
          const amount =
            kind === "exact"
              ? va.expectedMinor
              : kind === "rest"
                ? due > 0n
                  ? due
                  : va.expectedMinor
                : kind === "part"
                  ? va.expectedMinor / 3n > 0n
                    ? va.expectedMinor / 3n
                    : 1n
                  : kind === "over" || va.expectedMinor === 1n
                    ? va.expectedMinor + 1n + (va.expectedMinor % 97n)
                    : va.expectedMinor - 1n - ((va.expectedMinor - 2n) % 97n);
          a = await transfer(va.accountNumber, amount);
          const want = expectedOutcome(pre.status, va, amount);
          trace.push(`${label} [${pre.status}${va.expired ? ", expired" : ""}] -> ${show(a)}`);
          expectValue(a, `a transfer (want ${want})`, (v) => v.outcome === want && v.replayed === false);
          count(`transfer ${want}${va.heldMinor > 0n ? " on a sum already held" : ""}`);
          const post = await status(tx);
          if (want === "credited" && post !== "success") fail(`credited, but status is ${post}`);
          if (want === "amount_mismatch" && post !== "awaiting_transfer")
            fail(`amount mismatch, but status is ${post}`);
          break;
        }
        case "topUp": {
          if (pre.open && tx.spec.email && !pre.vas.some((v) => !v.expired))
            await answer(() => d.chargeBankTransfer({ principal: tx.principal }));
          const before = await snapshot(tx);
          const va = before.vas.at(-1);
          if (!before.open || !va || va.expired) {
            trace.push(`${label} [${before.status}] -> skipped (no open account)`);
            break;
          }
          const due = va.expectedMinor - va.heldMinor;
          const part = due > 3n ? due / 3n : 0n;
          if (part === 0n) {
            trace.push(`${label} [${before.status}] -> skipped (${due} due)`);
            break;
          }
          const first = await transfer(va.accountNumber, part);
          const wantFirst = expectedOutcome(before.status, va, part);
          trace.push(`${label} part ${part} of ${due} due [${before.status}] -> ${show(first)}`);
          expectValue(first, `a part (want ${wantFirst})`, (v) => v.outcome === wantFirst);
          count(`topUp part ${wantFirst}`);
          const mid = await snapshot(tx);
          const now = mid.vas.find((v) => v.accountNumber === va.accountNumber);
          if (!now) fail("the account disappeared");
          const rest = (now?.expectedMinor ?? 0n) - (now?.heldMinor ?? 0n) + (step.over ? 7n : 0n);
          if (rest <= 0n) break;
          const second = await transfer(va.accountNumber, rest);
          const wantSecond = expectedOutcome(mid.status, now as (typeof mid.vas)[number], rest);
          trace.push(`${label} rest ${rest} [${mid.status}] -> ${show(second)}`);
          expectValue(second, `the rest (want ${wantSecond})`, (v) => v.outcome === wantSecond);
          count(`topUp rest ${wantSecond}${step.over ? " with 7 over" : ""}`);
          if (wantSecond === "credited" && (await status(tx)) !== "success")
            fail("the rest arrived in the window but the payment did not complete");
          break;
        }
        case "expire": {
          await expireAccounts(tx);
          trace.push(`${label} [${pre.status}] -> expired ${pre.vas.length} account(s)`);
          break;
        }
        case "simulate": {
          a = await answer(() =>
            d.simulateBankTransfer({ principal: tx.principal, scenario: step.scenario }),
          );
          trace.push(`${label} [${pre.status}] -> ${show(a)}`);
          if (closed) expectRefused(a, "invalid_state", "simulate on a finished transaction");
          // Every scenario simulates a bank transfer, which needs the customer's email.
          else if (!tx.spec.email)
            expectRefused(a, "email_required", `simulate ${step.scenario} without an email`);
          else if (step.scenario === "success")
            expectValue(a, "simulate success", (v) => v.status === "success" && v.outcome === "credited");
          else expectValue(a, `simulate ${step.scenario}`, (v) => v.status === step.scenario);
          break;
        }
        case "bankPayment":
        case "ussd": {
          a = await answer(() =>
            step.kind === "ussd"
              ? d.chargeUssd({ principal: tx.principal, phoneNumber: "08031234567" })
              : d.chargeBankPayment({ principal: tx.principal, bankCode: "058" }),
          );
          trace.push(`${label} [${pre.status}] -> ${show(a)}`);
          const want = step.kind === "ussd" ? "awaiting_ussd" : "awaiting_bank_authorization";
          if (closed) expectRefused(a, "invalid_state", `${step.kind} on a finished transaction`);
          else expectValue(a, step.kind, (v) => v.status === want);
          break;
        }
        case "authorize": {
          a = await answer(() =>
            d.sandboxAuthorize({ principal: keyPrincipal, reference: tx.reference, decision: step.decision }),
          );
          trace.push(`${label} [${pre.status}${pre.awaitingAuthorization ? ", waiting" : ""}] -> ${show(a)}`);
          if (closed || !pre.awaitingAuthorization)
            expectRefused(a, "invalid_state", `${step.decision} with nothing waiting`);
          else if (step.decision === "approve") expectValue(a, "approve", (v) => v.status === "success");
          else expectValue(a, "decline", (v) => !TERMINAL.has(String(v.status)));
          break;
        }
        case "cancel": {
          a = await answer(() => d.cancelCheckout({ principal: tx.principal }));
          trace.push(`${label} [${pre.status}] -> ${show(a)}`);
          if (closed) expectRefused(a, "invalid_state", "cancel on a finished transaction");
          else expectValue(a, "cancel", (v) => v.status === "abandoned");
          break;
        }
        case "refund": {
          const part = pre.refundable > 2n ? pre.refundable / 3n : 1n;
          const amountMinor =
            step.amount === "all" ? undefined : step.amount === "part" ? part : pre.refundable + 1n;
          a = await answer(() =>
            d.createRefund({
              merchantId: keyPrincipal.merchantId,
              mode: "test",
              reference: tx.reference,
              ...(amountMinor !== undefined && { amount: formatMinor(amountMinor) }),
            }),
          );
          trace.push(`${label} [${pre.status}, refundable ${pre.refundable}] -> ${show(a)}`);
          const want = amountMinor ?? pre.refundable;
          if (amountMinor !== undefined && amountMinor > MAX_AMOUNT_MINOR)
            expectRefused(a, "validation_error", "an amount over the upper bound of an amount");
          else if (pre.status !== "success" && pre.refundable <= 0n)
            expectRefused(a, "invalid_state", "a refund of a payment that is not successful");
          else if (pre.refundable <= 0n || want > pre.refundable)
            expectRefused(a, "refund_exceeds_available", "a refund of more than is refundable");
          else
            expectValue(
              a,
              "a refund",
              (v) => v.status === "pending" && v.type === "merchant" && v.amount === formatMinor(want),
            );
          break;
        }
        case "concurrent":
          await runConcurrent(step, tx, pre, label);
          break;
      }
    }

    async function runConcurrent(
      step: Extract<Step, { kind: "concurrent" }>,
      tx: TxHandle,
      pre: Awaited<ReturnType<typeof snapshot>>,
      label: string,
    ) {
      const needsAccount = step.ops.some((o) => o === "exactTransfer" || o === "burst");
      let vas = pre.vas;
      if (needsAccount && pre.open && tx.spec.email && !vas.some((v) => !v.expired)) {
        await answer(() => d.chargeBankTransfer({ principal: tx.principal }));
        vas = (await snapshot(tx)).vas;
      }
      const va = vas.at(-1);
      const burstSession = freshSession();
      const burstCopies = 3;
      const runs: Array<{ op: SubOp; run: () => Promise<Answer> }> = [];
      for (const op of step.ops) {
        const p = tx.principal;
        switch (op) {
          case "cardSuccess":
          case "cardOtp":
            runs.push({
              op,
              run: () =>
                answer(() =>
                  d.chargeCard({ principal: p, card: cardDetails(op === "cardOtp" ? "otp" : "success") }),
                ),
            });
            break;
          case "exactTransfer":
            runs.push({
              op,
              run: () => transfer(va?.accountNumber ?? "0000000000", va?.expectedMinor ?? 100_000n),
            });
            break;
          case "burst":
            for (let i = 0; i < burstCopies; i++)
              runs.push({
                op,
                run: () =>
                  transfer(va?.accountNumber ?? "0000000000", va?.expectedMinor ?? 100_000n, burstSession),
              });
            break;
          case "simulateSuccess":
          case "simulateFailed":
            runs.push({
              op,
              run: () =>
                answer(() =>
                  d.simulateBankTransfer({
                    principal: p,
                    scenario: op === "simulateFailed" ? "failed" : "success",
                  }),
                ),
            });
            break;
          case "approve":
          case "decline":
            runs.push({
              op,
              run: () =>
                answer(() =>
                  d.sandboxAuthorize({ principal: keyPrincipal, reference: tx.reference, decision: op }),
                ),
            });
            break;
          case "otpRight":
            runs.push({ op, run: () => answer(() => d.submitCardOtp({ principal: p, otp: "123456" })) });
            break;
          case "bankTransfer":
            runs.push({ op, run: () => answer(() => d.chargeBankTransfer({ principal: p })) });
            break;
          case "bankPayment":
            runs.push({
              op,
              run: () => answer(() => d.chargeBankPayment({ principal: p, bankCode: "058" })),
            });
            break;
          case "ussd":
            runs.push({
              op,
              run: () => answer(() => d.chargeUssd({ principal: p, phoneNumber: "08031234567" })),
            });
            break;
          case "cancel":
            runs.push({ op, run: () => answer(() => d.cancelCheckout({ principal: p })) });
            break;
          case "refundPart":
          case "refundAll":
            runs.push({
              op,
              run: () =>
                answer(() =>
                  d.createRefund({
                    merchantId: keyPrincipal.merchantId,
                    mode: "test",
                    reference: tx.reference,
                    ...(op === "refundPart" && {
                      amount: formatMinor(pre.refundable > 2n ? pre.refundable / 2n : 1n),
                    }),
                  }),
                ),
            });
            break;
        }
      }
      const answers = await Promise.all(runs.map((r) => r.run()));
      trace.push(
        `${label} [${pre.status}${va ? (va.expired ? ", account expired" : ", account open") : ", no account"}] -> ${runs
          .map((r, i) => `${r.op}:${show(answers[i] as Answer)}`)
          .join(" | ")}`,
      );

      // At most one of them may have been told it paid the transaction (a refund is not a payment).
      const paid = answers.filter(
        (a, i) =>
          a.ok &&
          runs[i]?.op !== "refundPart" &&
          runs[i]?.op !== "refundAll" &&
          (a.value.outcome === "credited"
            ? a.value.replayed !== true
            : runs[i]?.op !== "simulateSuccess" && a.value.status === "success"),
      );
      if (paid.length > 1) fail(`${paid.length} concurrent operations were told they paid the transaction`);

      // The same notification several times at once: recorded once, one answer for all.
      if (step.ops.includes("burst")) {
        const burst = answers.filter((_, i) => runs[i]?.op === "burst");
        const outcomes = new Set(burst.map((a) => (a.ok ? String(a.value.outcome) : `refused ${a.code}`)));
        const fresh = burst.filter((a) => a.ok && a.value.replayed === false).length;
        const rows = await db()
          .selectFrom("inbound_transfers")
          .select("id")
          .where("session_id", "=", burstSession)
          .execute();
        if (outcomes.size !== 1 || fresh !== 1 || rows.length !== 1)
          fail(
            `identical notifications: outcomes ${[...outcomes]}, ${fresh} processed, ${rows.length} recorded`,
          );
      }

      // An exact transfer into an open window of an open transaction must leave it paid (by something),
      // unless the same burst of actions also ended it another way.
      const endsOtherwise = step.ops.some((o) => o === "cancel" || o === "simulateFailed");
      const exactIn = step.ops.some((o) => o === "exactTransfer" || o === "burst");
      if (pre.open && exactIn && va && !va.expired && !endsOtherwise) {
        const post = await status(tx);
        if (post !== "success") fail(`an exact transfer arrived in its window but the status is ${post}`);
      }
    }

    const ids = txs.map((t) => t.id);
    // The run's transactions: those it started, and the charges of saved cards it made.
    const allIds = () => [...ids, ...[...charged.values()].map((c) => c.id)];
    const verify = async (after: string) => {
      const problems = await checkInvariants(db(), allIds(), observed, (_id, finding) => {
        count(`observed ${finding}`);
        if (!observations.has(finding)) observations.set(finding, trace.join("\n    "));
      });
      if (problems.length > 0) fail(`invariant violated after ${after}:\n  ${problems.join("\n  ")}`);
    };

    await verify("initialize");
    for (const [i, step] of scenario.steps.entries()) {
      await runStep(step, i);
      count(`step ${step.kind}`);
      await verify(`step #${i}`);
    }
    const misfiled = await misfiledTransfers(db(), allIds());
    if (misfiled.length > 0) fail(`invariant violated at the end:\n  ${misfiled.join("\n  ")}`);
    // The sweep's part for ended windows: nothing stays held on an account whose window has ended.
    await d.releaseExpiredHolds(Date.now(), 1_000);
    const stillHeld = await db()
      .selectFrom("inbound_transfers as t")
      .innerJoin("virtual_accounts as va", "va.account_number", "t.account_number")
      .select(["t.session_id", "va.expires_at"])
      .where("t.transaction_id", "in", ids)
      .where("t.partial", "=", "held")
      .where("va.expires_at", "<=", Date.now())
      .execute();
    if (stillHeld.length > 0)
      fail(`held on ended windows after the sweep: ${stillHeld.map((h) => h.session_id).join(", ")}`);
    await verify("the sweep of ended windows");
    const finals = await db()
      .selectFrom("transactions")
      .select(["status", "channel", "merchant_initiated"])
      .where("id", "in", allIds())
      .execute();
    for (const f of finals)
      count(
        `final ${f.status}${f.channel ? ` by ${f.channel}` : ""}${f.merchant_initiated ? " (saved card)" : ""}`,
      );
  }

  return { play };
}

function bigintJson(_key: string, value: unknown) {
  return typeof value === "bigint" ? value.toString() : value;
}

function show(a: Answer): string {
  if (!a.ok) return `refused ${a.code}`;
  const v = a.value;
  const parts = [v.status, v.outcome, v.reason, v.replayed ? "replayed" : undefined].filter(
    (x) => x !== undefined,
  );
  return parts.join("/");
}

// ---------------------------------------------------------------------------------------------------------
// Databases

type Target = { name: "sqlite" | "postgres"; url: () => Promise<string>; runs: number };

let pgCleanup: (() => Promise<void>) | undefined;

async function freshPostgres(adminUrl: string): Promise<string> {
  // The prefix of tests/setup/servers.ts, whose start-up drops such databases left by runs that were killed.
  const name = `paygate_test_${Date.now()}_${process.pid}_prop`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  pgCleanup = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const runsFor = (fallback: number) => (process.env.PROP_RUNS ? Number(process.env.PROP_RUNS) : fallback);
const targets: Target[] = [
  { name: "sqlite", url: async () => process.env.DATABASE_URL as string, runs: runsFor(RUNS.sqlite) },
];
const adminUrl = process.env.TEST_DATABASE_URL;
if (adminUrl)
  targets.push({ name: "postgres", url: () => freshPostgres(adminUrl), runs: runsFor(RUNS.postgres) });

async function closeDatabase() {
  const handle = globalDb.__paygateDb;
  globalDb.__paygateDb = undefined;
  if (!handle) return;
  await handle.db.destroy();
  // pg's pool.end() resolves before its sockets have closed; let them go before the database is dropped.
  if (handle.dialect === "postgres") await new Promise((r) => setTimeout(r, 250));
}

describe("transaction state machine (property, in-process)", () => {
  let d: Domain;

  beforeAll(async () => {
    d = await loadDomain();
  });

  afterAll(async () => {
    await closeDatabase();
    if (pgCleanup) await pgCleanup();
    rmSync(tempDir, { recursive: true, force: true });
    // Leave the worker's environment as found (a later file in this worker may spawn servers with it).
    for (const k of ENV_KEYS) {
      if (savedEnv[k] === undefined) delete process.env[k];
      else process.env[k] = savedEnv[k];
    }
  });

  for (const target of targets) {
    it(`never credits twice, never leaves a terminal state and conserves money on ${target.name}`, async () => {
      await closeDatabase();
      globalDb.__paygateDb = d.openDatabase(await target.url());
      await d.migrateToLatest(d.database().db);

      const { merchant } = await d.signupMerchant({
        businessName: "Property Test Ltd",
        email: `prop-${Date.now()}-${process.pid}@example.com`,
        password: "correct horse battery staple",
        clientAddress: null,
      });
      const key = await d
        .database()
        .db.selectFrom("api_keys")
        .select("id")
        .where("merchant_id", "=", merchant.id)
        .where("mode", "=", "test")
        .executeTakeFirstOrThrow();
      const keyPrincipal: SecretKeyPrincipal = {
        kind: "secret_key",
        merchantId: merchant.id,
        mode: "test",
        keyId: key.id,
        keyLast4: "0000",
        merchant: {
          channels: JSON.stringify(["card", "bank_transfer", "bank_payment", "ussd"]),
          merchantBearsCost: false,
          feeSchedule: null,
        },
      };
      const runner = makeRunner(d, merchant.id, keyPrincipal);

      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(scenarioArb, (scenario) => runner.play(scenario)),
        {
          numRuns: target.runs,
          ...(process.env.PROP_SEED && { seed: Number(process.env.PROP_SEED) }),
        },
      );
      console.info(
        `[property] ${target.name}: ${target.runs} runs in ${Date.now() - started} ms; ${[...stats.entries()]
          .sort()
          .map(([k, n]) => `${k}: ${n}`)
          .join(", ")}`,
      );
      for (const [key, example] of observations)
        console.info(`[property] observed: ${key}; e.g.\n    ${example}`);
      stats.clear();
      observations.clear();

      // The whole database agrees too: no refund recorded twice, no notification recorded twice.
      expect(await duplicateRecords(d.database().db)).toEqual([]);
    }, 300_000);
  }
});
