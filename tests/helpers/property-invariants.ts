import type { Kysely } from "kysely";
import type { Database } from "@/lib/db/schema";

/**
 * Invariants of the transaction state machine (docs/api.md, docs/states.md), checked by reading the database directly.
 * Free of lib/ runtime imports (types only), so the property test can set its environment before any domain
 * module loads.
 */
type Db = Kysely<Database>;
type Int = number | string | bigint;

export const TERMINAL: ReadonlySet<string> = new Set(["success", "failed", "abandoned"]);

const big = (v: Int): bigint => (typeof v === "bigint" ? v : BigInt(v));
const bigOrNull = (v: Int | null): bigint | null => (v === null ? null : big(v));
const str = (v: Int | null): string | null => (v === null ? null : String(big(v)));

/** What a terminal transaction looked like when first seen terminal: none of it may change afterwards. */
export type TerminalSnapshot = {
  status: string;
  channel: string | null;
  fees: string | null;
  total: string | null;
  settled: string | null;
  paidAt: string | null;
};

/** a * bps / 10000 rounded half-up, for a non-negative amount. */
function bpsHalfUp(amountMinor: bigint, bps: bigint): bigint {
  return (amountMinor * bps * 2n + 10_000n) / 20_000n;
}

/**
 * The default NGN fee schedule of docs/api.md, computed here independently of lib/money:
 * card 1.5% + 100.00 (the 100.00 waived below 2,500.00), capped at 2,000.00; transfer 1.0% capped at 1,000.00.
 */
export function contractFeesNgn(amountMinor: bigint): { card: bigint; transfer: bigint } {
  let card = bpsHalfUp(amountMinor, 150n) + (amountMinor < 250_000n ? 0n : 10_000n);
  if (card > 200_000n) card = 200_000n;
  let transfer = bpsHalfUp(amountMinor, 100n);
  if (transfer > 100_000n) transfer = 100_000n;
  return { card, transfer };
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/**
 * Check every invariant for the given transactions. `observed` remembers each transaction's first terminal
 * state (updated here). Returns the violations found, empty when all hold.
 */
export async function checkInvariants(
  db: Db,
  transactionIds: string[],
  observed: Map<string, TerminalSnapshot>,
  /** Told of soft findings that break no contract rule (an open transaction whose status hides a request). */
  note: (transactionId: string, finding: string) => void = () => {},
): Promise<string[]> {
  const problems: string[] = [];
  const bad = (txId: string, msg: string) => problems.push(`[tx ${txId.slice(0, 8)}] ${msg}`);

  const txs = await db.selectFrom("transactions").selectAll().where("id", "in", transactionIds).execute();
  const attempts = await db
    .selectFrom("charge_attempts")
    .selectAll()
    .where("transaction_id", "in", transactionIds)
    .execute();
  const vas = await db
    .selectFrom("virtual_accounts")
    .selectAll()
    .where("transaction_id", "in", transactionIds)
    .execute();
  const inbound = await db
    .selectFrom("inbound_transfers")
    .selectAll()
    .where("transaction_id", "in", transactionIds)
    .execute();
  const allRefunds = await db
    .selectFrom("refunds")
    .selectAll()
    .where("transaction_id", "in", transactionIds)
    .execute();
  // Automatic refunds: money received that was never credited; each has one source (a transfer or an attempt).
  const refunds = allRefunds
    .filter((r) => r.type === "automatic")
    .map((r) => ({ ...r, source_id: r.source_id ?? "" }));
  // Through the (merchant, mode, created_at) index: the events table grows with every run.
  const first = txs[0];
  const events = first
    ? await db
        .selectFrom("events")
        .select(["type", "reference"])
        .where("merchant_id", "=", first.merchant_id)
        .where("mode", "=", first.mode)
        .where("created_at", ">=", Math.min(...txs.map((t) => Number(t.created_at))))
        .where(
          "reference",
          "in",
          txs.map((t) => t.reference),
        )
        .execute()
    : [];

  // Every refund has a unique source (a duplicate would be a double refund); see also duplicateRefundSources.
  const seen = new Set<string>();
  for (const r of refunds) {
    if (seen.has(r.source_id)) problems.push(`automatic refund source_id ${r.source_id} appears twice`);
    seen.add(r.source_id);
  }

  if (txs.length !== transactionIds.length) problems.push("a transaction row disappeared");

  for (const tx of txs) {
    const id = tx.id;
    const amount = big(tx.amount_minor);
    const bears = tx.merchant_bears_cost === 1;
    const mine = attempts.filter((a) => a.transaction_id === id);
    const myVas = vas.filter((v) => v.transaction_id === id);
    const myAccounts = new Set(myVas.map((v) => v.account_number));
    const myInbound = inbound.filter((t) => t.transaction_id === id);
    const myRefunds = refunds.filter((r) => r.transaction_id === id);
    const myAllRefunds = allRefunds.filter((r) => r.transaction_id === id);
    const myMerchantRefunds = myAllRefunds.filter((r) => r.type === "merchant");
    const myEvents = events.filter((e) => e.reference === tx.reference);
    const success = tx.status === "success";

    // Fees were computed per the contract's schedule at initialize.
    if (tx.currency === "NGN") {
      const fees = contractFeesNgn(amount);
      if (big(tx.card_fee_minor) !== fees.card)
        bad(id, `card_fee_minor ${tx.card_fee_minor} != contract ${fees.card} for amount ${amount}`);
      if (big(tx.transfer_fee_minor) !== fees.transfer)
        bad(
          id,
          `transfer_fee_minor ${tx.transfer_fee_minor} != contract ${fees.transfer} for amount ${amount}`,
        );
    }

    // --- never credited twice. Transfers to one account add up (docs/states.md): the payment is credited by
    // the transfer that completed the sum, with the ones held on that account before it.
    const successAttempts = mine.filter((a) => a.status === "success");
    const credited = myInbound.filter((t) => t.outcome === "credited" || t.partial === "credited");
    const held = myInbound.filter((t) => t.partial === "held");
    if (success && successAttempts.length !== 1)
      bad(id, `status success but ${successAttempts.length} successful charge attempts`);
    if (!success && successAttempts.length !== 0)
      bad(id, `status ${tx.status} but ${successAttempts.length} successful charge attempts`);
    if (credited.filter((t) => t.outcome === "credited").length > 1)
      bad(id, `${credited.filter((t) => t.outcome === "credited").length} transfers completed the payment`);
    if (new Set(credited.map((t) => t.account_number)).size > 1)
      bad(id, "transfers to two accounts were credited");
    if (credited.length > 0 && !success) bad(id, `a transfer was credited but status is ${tx.status}`);
    for (const t of myInbound) {
      if (t.partial !== null && t.outcome !== "amount_mismatch")
        bad(id, `transfer ${t.session_id} answered ${t.outcome} is marked partial ${t.partial}`);
      if (
        t.outcome === "credited" &&
        credited.some((c) => c.partial === "credited" && c.account_number !== t.account_number)
      )
        bad(id, `transfer ${t.session_id} completed a sum held on another account`);
    }
    // Held money only while the payment can still complete.
    if (held.length > 0 && TERMINAL.has(tx.status))
      bad(id, `${held.length} transfers still held on a ${tx.status} transaction`);
    const nonTransferSuccess = successAttempts.filter((a) => a.channel !== "bank_transfer");
    if (credited.length > 0 && nonTransferSuccess.length > 0)
      bad(id, `credited by a transfer AND by a ${nonTransferSuccess[0]?.channel} attempt`);
    for (const t of myInbound) {
      if (!myAccounts.has(t.account_number))
        bad(
          id,
          `inbound transfer ${t.session_id} to account ${t.account_number} is filed under this transaction`,
        );
    }

    // --- what success recorded
    if (success) {
      const attempt = successAttempts[0];
      const channel = tx.channel;
      if (attempt && attempt.channel !== channel)
        bad(id, `channel ${channel} but the successful attempt is ${attempt.channel}`);
      if (channel === "bank_transfer") {
        const completing = credited.filter((t) => t.outcome === "credited").length;
        if (completing !== 1) bad(id, `paid by bank_transfer with ${completing} transfers completing it`);
        const va = myVas.find((v) => v.account_number === credited[0]?.account_number);
        if (credited[0] && va && attempt && va.attempt_id !== attempt.id)
          bad(id, "the successful attempt is not the credited virtual account's attempt");
      } else if (credited.length !== 0) bad(id, `paid by ${channel} but a transfer was credited too`);
      const fee = big(channel === "card" ? tx.card_fee_minor : tx.transfer_fee_minor);
      const expectedTotal = bears ? amount : amount + fee;
      const expectedSettled = bears ? amount - fee : amount;
      if (bigOrNull(tx.fees_minor) !== fee) bad(id, `fees_minor ${tx.fees_minor} != ${channel} fee ${fee}`);
      if (bigOrNull(tx.total_minor) !== expectedTotal)
        bad(id, `total_minor ${tx.total_minor} != ${expectedTotal} (merchantBearsCost=${bears})`);
      if (bigOrNull(tx.amount_settled_minor) !== expectedSettled)
        bad(id, `amount_settled_minor ${tx.amount_settled_minor} != ${expectedSettled}`);
      if (tx.paid_at === null) bad(id, "success without paid_at");
      if (channel !== "bank_transfer" && attempt && bigOrNull(attempt.captured_minor) !== expectedTotal)
        bad(
          id,
          `the paying ${channel} attempt captured ${attempt.captured_minor}, not the total ${expectedTotal}`,
        );
      if (channel === "bank_transfer") {
        // The credited transfers make the total; what they sent over it went back as one refund.
        const creditedSum = sum(credited.map((t) => big(t.amount_minor)));
        const excess = sum(
          myRefunds.filter((r) => credited.some((t) => t.id === r.source_id)).map((r) => big(r.amount_minor)),
        );
        if (creditedSum - excess !== expectedTotal)
          bad(id, `credited transfers of ${creditedSum} less ${excess} refunded != total ${expectedTotal}`);
      }
    } else {
      for (const col of [
        "channel",
        "fees_minor",
        "total_minor",
        "amount_settled_minor",
        "paid_at",
      ] as const) {
        if (tx[col] !== null) bad(id, `status ${tx.status} but ${col} = ${tx[col]}`);
      }
    }

    // --- money is conserved, in aggregate and per source (docs/refunds.md): received = credited + refunded +
    // refunds pending, where credited is the total once paid, less merchant refunds not failed, plus automatic
    // refunds that failed (that money came back to the merchant)
    const inSum = sum(myInbound.map((t) => big(t.amount_minor)));
    const capturedSum = sum(mine.map((a) => (a.captured_minor === null ? 0n : big(a.captured_minor))));
    const byStatus = (list: typeof myAllRefunds, status: string) =>
      sum(list.filter((r) => r.status === status).map((r) => big(r.amount_minor)));
    const merchantNotFailed =
      byStatus(myMerchantRefunds, "pending") + byStatus(myMerchantRefunds, "processed");
    const automaticFailed = byStatus(myRefunds, "failed");
    if (big(tx.amount_refunded_minor) !== merchantNotFailed)
      bad(
        id,
        `amount_refunded_minor ${tx.amount_refunded_minor} != merchant refunds not failed ${merchantNotFailed}`,
      );
    if (big(tx.refund_credit_minor) !== automaticFailed)
      bad(id, `refund_credit_minor ${tx.refund_credit_minor} != automatic refunds failed ${automaticFailed}`);
    const creditedTotal =
      (success ? big(tx.total_minor ?? 0) : 0n) + big(tx.refund_credit_minor) - big(tx.amount_refunded_minor);
    const refunded = byStatus(myAllRefunds, "processed");
    const pendingRefunds = byStatus(myAllRefunds, "pending");
    const heldSum = sum(held.map((t) => big(t.amount_minor)));
    if (inSum + capturedSum !== creditedTotal + refunded + pendingRefunds + heldSum)
      bad(
        id,
        `money not conserved: transfers ${inSum} + captured ${capturedSum} != credited ${creditedTotal} + refunded ${refunded} + pending ${pendingRefunds} + held ${heldSum}`,
      );
    // Never more refunded than was paid (the amount; fees are not returned) and came back from failed refunds.
    const refundable = (success ? amount : 0n) + big(tx.refund_credit_minor) - big(tx.amount_refunded_minor);
    if (refundable < 0n) bad(id, `refunds exceed what was refundable by ${-refundable}`);
    for (const r of myAllRefunds) {
      if (r.status === "pending" && r.processed_at !== null)
        bad(id, `pending refund ${r.id} has processed_at`);
      if (r.status !== "pending" && r.processed_at === null)
        bad(id, `${r.status} refund ${r.id} without processed_at`);
    }
    const sources = new Map<string, bigint>();
    for (const t of myInbound) {
      const r = myRefunds.filter((x) => x.source_id === t.id);
      if (t.outcome === "credited") {
        // Only the excess of the transfer that completed the sum goes back, as amount_mismatch.
        if (
          r.length > 1 ||
          (r[0] && (r[0].reason !== "amount_mismatch" || big(r[0].amount_minor) > big(t.amount_minor)))
        )
          bad(
            id,
            `credited transfer ${t.session_id} has refunds ${r.map((x) => `${x.amount_minor} ${x.reason}`).join(", ")}`,
          );
      } else if (t.partial === "held" || t.partial === "credited") {
        if (r.length !== 0) bad(id, `${t.partial} transfer ${t.session_id} also has a refund due`);
      } else {
        if (r.length !== 1) bad(id, `${t.outcome} transfer ${t.session_id} has ${r.length} refunds due`);
        else if (big(r[0]?.amount_minor ?? 0) !== big(t.amount_minor) || r[0]?.reason !== t.outcome)
          bad(id, `refund of transfer ${t.session_id} is ${r[0]?.amount_minor} ${r[0]?.reason}`);
      }
      sources.set(t.id, big(t.amount_minor));
    }
    for (const a of mine) {
      if (a.captured_minor === null) continue;
      const r = myRefunds.filter((x) => x.source_id === a.id);
      if (a.status === "success") {
        if (r.length !== 0) bad(id, `paying ${a.channel} attempt also has a refund due`);
      } else if (a.status === "refunded") {
        if (r.length !== 1 || big(r[0]?.amount_minor ?? 0) !== big(a.captured_minor))
          bad(id, `refunded ${a.channel} attempt has refunds ${r.map((x) => x.amount_minor).join(",")}`);
      } else {
        bad(id, `${a.channel} attempt captured ${a.captured_minor} but is ${a.status}`);
      }
      sources.set(a.id, big(a.captured_minor));
    }
    for (const r of myRefunds) {
      if (!sources.has(r.source_id)) bad(id, `refund due ${r.id} has no source on this transaction`);
    }

    // --- the outbox: one event per terminal state change
    const count = (type: string) => myEvents.filter((e) => e.type === type).length;
    if (count("payment.completed") !== (success ? 1 : 0))
      bad(id, `${count("payment.completed")} payment.completed events, status ${tx.status}`);
    if (count("payment.failed") !== (tx.status === "failed" ? 1 : 0))
      bad(id, `${count("payment.failed")} payment.failed events, status ${tx.status}`);
    if (count("checkout.completed") !== (TERMINAL.has(tx.status) ? 1 : 0))
      bad(id, `${count("checkout.completed")} checkout.completed events, status ${tx.status}`);
    for (const [type, status] of [
      ["refund.processed", "processed"],
      ["refund.failed", "failed"],
    ] as const) {
      const settled = myAllRefunds.filter((r) => r.status === status).length;
      if (count(type) !== settled) bad(id, `${count(type)} ${type} events for ${settled} ${status} refunds`);
    }

    // --- soft: `pending` while a request of another channel still waits (it can still pay)
    if (tx.status === "pending") {
      const waiting = mine
        .filter((a) => ["awaiting_otp", "awaiting_bank_authorization", "awaiting_ussd"].includes(a.status))
        .map((a) => a.status);
      if (myVas.some((v) => Number(v.expires_at) > Date.now())) waiting.push("an open virtual account");
      if (waiting.length > 0) note(id, `status pending while ${[...new Set(waiting)].sort().join(" + ")}`);
    }

    // --- never leaves a terminal state
    const now: TerminalSnapshot = {
      status: tx.status,
      channel: tx.channel,
      fees: str(tx.fees_minor),
      total: str(tx.total_minor),
      settled: str(tx.amount_settled_minor),
      paidAt: str(tx.paid_at),
    };
    const before = observed.get(id);
    if (before) {
      if (JSON.stringify(before) !== JSON.stringify(now))
        bad(id, `left its terminal state: was ${JSON.stringify(before)}, now ${JSON.stringify(now)}`);
    } else if (TERMINAL.has(tx.status)) {
      observed.set(id, now);
    }
  }
  return problems;
}

/**
 * Every transfer to one of these transactions' accounts is filed under the account's transaction (once per run:
 * inbound_transfers.account_number has no index).
 */
export async function misfiledTransfers(db: Db, transactionIds: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom("inbound_transfers as t")
    .innerJoin("virtual_accounts as va", "va.account_number", "t.account_number")
    .select(["t.session_id", "t.transaction_id", "va.transaction_id as owner"])
    .where("va.transaction_id", "in", transactionIds)
    .execute();
  return rows
    .filter((r) => r.transaction_id !== r.owner)
    .map(
      (r) =>
        `inbound transfer ${r.session_id} to an account of ${r.owner} is filed under ${r.transaction_id}`,
    );
}

/** Whole-database check: automatic refunds recorded twice for one source, and notifications recorded twice. */
export async function duplicateRecords(db: Db): Promise<string[]> {
  const refunds = await db
    .selectFrom("refunds")
    .select(["source_id", (eb) => eb.fn.countAll<Int>().as("n")])
    .where("source_id", "is not", null)
    .groupBy("source_id")
    .having((eb) => eb.fn.countAll(), ">", 1)
    .execute();
  const transfers = await db
    .selectFrom("inbound_transfers")
    .select(["rail", "session_id", (eb) => eb.fn.countAll<Int>().as("n")])
    .groupBy(["rail", "session_id"])
    .having((eb) => eb.fn.countAll(), ">", 1)
    .execute();
  return [
    ...refunds.map((r) => `automatic refund source_id ${r.source_id} appears ${r.n} times`),
    ...transfers.map((t) => `inbound transfer ${t.rail}/${t.session_id} recorded ${t.n} times`),
  ];
}
