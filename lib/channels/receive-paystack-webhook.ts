import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import type { Channel } from "@/lib/payments/channel-list";
import { minorFromJson, paystackCall } from "@/lib/rails/paystack/client";
import { deploymentKey, keySeal, PROCESSOR, paystackKeyFor } from "@/lib/rails/paystack/keys";
import { PAYSTACK_REFERENCE } from "@/lib/rails/paystack/references";
import {
  BankTransferRejectedData,
  ChargeData,
  ChargeSuccessData,
  RefundEventData,
  WebhookEvent,
} from "@/lib/rails/paystack/shapes";
import { webhookAddressAllowed } from "@/lib/rails/paystack/webhook-addresses";
import { scheduleRefund } from "@/lib/refunds/settle-refund";
import { pepper } from "@/lib/security/pepper";
import { unseal } from "@/lib/security/seal";
import { sha256Hex } from "@/lib/security/tokens";
import { receiveInboundTransfer } from "./receive-inbound-transfer";
import { receiveProcessorCharge } from "./receive-processor-charge";

/**
 * POST /v1/rails/paystack/webhook (docs/go-live.md "Paystack's webhooks"). In order:
 *  1. the sender's address, when PAYSTACK_WEBHOOK_ALLOWED_IPS is set (403 `address_not_allowed`);
 *  2. whose key signed it. Several merchants may connect their own Paystack accounts, and Paystack signs with
 *     the secret key of the account the event is about, so the key is found from the event, never chosen by
 *     the sender: the charge it names (its reference is one we gave Paystack: rail_charges) → the key that
 *     charge was made with; an event naming no charge of ours → the connection named in the address
 *     (`?connection=psc_…`, the address the console shows) → else the deployment's default key of the
 *     event's domain. No key: 401 `invalid_signature`;
 *  3. `x-paystack-signature`: the hex HMAC-SHA512 of the raw body with that key, compared in constant time
 *     (401 `invalid_signature` when missing or wrong);
 *  4. an event older than PAYSTACK_WEBHOOK_MAX_AGE_SECONDS: 400 `stale_event`;
 *  5. an event already acted on (processor_events, a unique key per event): answered, not acted on again;
 *  6. the event itself, through the same paths as the sandbox: a transfer through receiveInboundTransfer
 *     (wrong amounts, late money, duplicates as always), a card, bank or USSD charge through
 *     receiveProcessorCharge (credited once, or refunded), a refund's news by asking Paystack where it stands.
 * Anything not ours (another integration's charge, an event we do not use) is acknowledged and ignored, so
 * Paystack stops sending it.
 */
type Signer = {
  secretKey: string;
  /** The merchant and mode whose key it is (null: a deployment key, used for no charge of ours). */
  owner: { merchantId: string; mode: Mode } | null;
  mode: Mode;
};

type Charge = {
  rail_reference: string;
  attempt_id: string;
  transaction_id: string;
  merchant_id: string;
  mode: Mode;
  channel: string;
  key_source: string;
  currency: string;
};

/** The reference an event names: a charge's (charge.success), a refund's charge (refund.*), a dispute's. */
function namedReference(data: Record<string, unknown>): string | undefined {
  const direct = data.reference ?? data.transaction_reference;
  if (typeof direct === "string") return direct;
  const nested = (data.transaction as { reference?: unknown } | undefined)?.reference;
  return typeof nested === "string" ? nested : undefined;
}

async function chargeOf(reference: string | undefined): Promise<Charge | undefined> {
  if (!reference || !PAYSTACK_REFERENCE.test(reference)) return undefined;
  return db()
    .selectFrom("rail_charges")
    .select([
      "rail_reference",
      "attempt_id",
      "transaction_id",
      "merchant_id",
      "mode",
      "channel",
      "key_source",
      "currency",
    ])
    .where("rail_reference", "=", reference)
    .where("rail", "=", PROCESSOR)
    .executeTakeFirst();
}

async function signerOf(input: {
  charge: Charge | undefined;
  connection: string | undefined;
  domain: Mode;
}): Promise<Signer | undefined> {
  if (input.charge) {
    const { merchant_id: merchantId, mode } = input.charge;
    const key = await paystackKeyFor({
      merchantId,
      mode,
      source: input.charge.key_source === "merchant" ? "merchant" : "deployment",
    });
    return key && { secretKey: key.secretKey, owner: { merchantId, mode }, mode };
  }
  if (input.connection) {
    const row = await db()
      .selectFrom("processor_connections")
      .select(["merchant_id", "mode", "secret_sealed"])
      .where("id", "=", input.connection)
      .where("processor", "=", PROCESSOR)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      secretKey: unseal(await pepper(), row.secret_sealed, keySeal(row.merchant_id, row.mode)),
      owner: { merchantId: row.merchant_id, mode: row.mode },
      mode: row.mode,
    };
  }
  const key = deploymentKey(input.domain);
  return key ? { secretKey: key, owner: null, mode: input.domain } : undefined;
}

function signatureMatches(secretKey: string, rawBody: string, signature: string): boolean {
  const expected = createHmac("sha512", secretKey).update(rawBody, "utf8").digest();
  if (!/^[0-9a-f]{128}$/i.test(signature)) return false;
  const given = Buffer.from(signature, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** When the event happened, where it says so (a charge's payment time); null for events that carry none. */
function eventTime(data: Record<string, unknown>): number | null {
  for (const field of ["paid_at", "paidAt", "created_at", "createdAt"]) {
    const value = data[field];
    if (typeof value === "string") {
      const at = Date.parse(value);
      if (Number.isFinite(at)) return at;
    }
  }
  return null;
}

export type WebhookResult = { received: true; event: string; duplicate: boolean; outcome: string };

export async function receivePaystackWebhook(input: {
  rawBody: string;
  body: Record<string, unknown>;
  signature: string | null;
  clientAddress: string;
  connection?: string;
}): Promise<WebhookResult> {
  if (!webhookAddressAllowed(input.clientAddress, env().PAYSTACK_WEBHOOK_ALLOWED_IPS)) {
    throw new AppError(
      "address_not_allowed",
      "Paystack webhooks are accepted only from the addresses of PAYSTACK_WEBHOOK_ALLOWED_IPS.",
    );
  }
  if (!input.signature) {
    throw new AppError(
      "invalid_signature",
      "x-paystack-signature is missing: only Paystack's signed events are accepted.",
    );
  }
  const parsed = WebhookEvent.safeParse(input.body);
  if (!parsed.success) {
    throw new AppError("validation_error", "body must be a Paystack event: {event: string, data: object}.");
  }
  const { event, data } = parsed.data;
  // Charge events carry their domain at the top; bank.transfer.rejected only in its customer.
  const said = data.domain ?? (data.customer as { domain?: unknown } | undefined)?.domain;
  const domain: Mode = said === "live" ? "live" : "test";
  const charge = await chargeOf(namedReference(data));
  const signer = await signerOf({ charge, connection: input.connection, domain });
  if (!signer || !signatureMatches(signer.secretKey, input.rawBody, input.signature)) {
    throw new AppError(
      "invalid_signature",
      "x-paystack-signature is not the HMAC-SHA512 of this body with the Paystack key of the account it is about.",
    );
  }
  const at = eventTime(data);
  const maxAge = env().PAYSTACK_WEBHOOK_MAX_AGE_SECONDS;
  if (at !== null && at < Date.now() - maxAge * 1000) {
    throw new AppError(
      "stale_event",
      `This Paystack event is older than ${maxAge} seconds; it is not acted on.`,
    );
  }
  const key =
    event === "charge.success" && typeof data.id === "number"
      ? `paystack:charge.success:${data.id}`
      : `paystack:${event}:${sha256Hex(input.rawBody)}`;
  const seen = await db()
    .selectFrom("processor_events")
    .select("outcome")
    .where("event_key", "=", key)
    .executeTakeFirst();
  if (seen) return { received: true, event, duplicate: true, outcome: seen.outcome };

  const outcome = await act(event, data, { charge, signer, domain, eventKey: key });
  await db()
    .insertInto("processor_events")
    .values({
      event_key: key,
      rail: PROCESSOR,
      event,
      reference: charge?.rail_reference ?? null,
      outcome,
      received_at: Date.now(),
    })
    .onConflict((oc) => oc.column("event_key").doNothing())
    .execute();
  // Remembered as long as an event can be acted on at all: older ones are refused as stale anyway.
  await db()
    .deleteFrom("processor_events")
    .where("received_at", "<", Date.now() - maxAge * 1000 - 86_400_000)
    .execute();
  log.info("paystack event", { event, outcome, reference: charge?.rail_reference });
  return { received: true, event, duplicate: false, outcome };
}

async function act(
  event: string,
  data: Record<string, unknown>,
  ctx: { charge: Charge | undefined; signer: Signer; domain: Mode; eventKey: string },
): Promise<string> {
  const { charge } = ctx;
  if (charge && charge.mode !== ctx.domain) return "mode_mismatch";
  if (event === "charge.success") {
    if (!charge) return "not_ours";
    const success = ChargeSuccessData.safeParse(data);
    const amount = success.success ? minorFromJson(success.data.amount) : null;
    if (!success.success || amount === null) return "malformed";
    await db()
      .updateTable("rail_charges")
      .set({ rail_id: String(success.data.id) })
      .where("rail_reference", "=", charge.rail_reference)
      .execute();
    if (success.data.currency !== charge.currency) {
      log.error("paystack charge in another currency", { reference: charge.rail_reference });
      return "currency_mismatch";
    }
    if (charge.channel === "bank_transfer") {
      const result = await receiveInboundTransfer({
        rail: PROCESSOR,
        sessionId: charge.rail_reference,
        accountNumber: "",
        amountMinor: amount,
        attemptId: charge.attempt_id,
      });
      return result.outcome;
    }
    return receiveProcessorCharge({
      attemptId: charge.attempt_id,
      transactionId: charge.transaction_id,
      channel: charge.channel as Channel,
      amountMinor: amount,
    });
  }
  if (event === "bank.transfer.rejected") return transferRejected(data, ctx);
  if (event.startsWith("refund.")) {
    const refund = RefundEventData.safeParse(data);
    if (!refund.success || !charge) return "not_ours";
    // The event says something moved; Paystack's own record of each refund (GET /refund/{id}) decides.
    const pending = await db()
      .selectFrom("refunds")
      .select(["id"])
      .where("charge_reference", "=", charge.rail_reference)
      .where("status", "=", "pending")
      .execute();
    for (const { id } of pending) scheduleRefund(id, Date.now());
    return pending.length > 0 ? "refunds_checked" : "no_pending_refund";
  }
  return "ignored";
}

/**
 * bank.transfer.rejected: Paystack refused a transfer to one of its temporary accounts (the wrong amount, a
 * late or second transfer) and returns the money to the sender itself. The event names Paystack's id of the
 * charge, not its reference: the charge is found by that id (known from an earlier answer) or by asking
 * Paystack (GET /transaction/{id}) with the key that signed. It is recorded through the inbound path like any
 * transfer (a mismatch shows on the checkout), with its refund recorded as done by Paystack: never asked again.
 */
async function transferRejected(
  data: Record<string, unknown>,
  ctx: { signer: Signer; domain: Mode; eventKey: string },
): Promise<string> {
  const parsed = BankTransferRejectedData.safeParse(data);
  if (!parsed.success) return "malformed";
  const { transaction_id: id, amount } = parsed.data.bank_transfer;
  let charge = await db()
    .selectFrom("rail_charges")
    .select(["rail_reference", "attempt_id", "merchant_id", "mode", "channel", "key_source"])
    .where("rail", "=", PROCESSOR)
    .where("rail_id", "=", id)
    .executeTakeFirst();
  if (!charge) {
    const answer = await paystackCall(ctx.signer.secretKey, { method: "GET", path: `/transaction/${id}` });
    const found =
      answer.kind === "answer" && answer.body?.status ? ChargeData.safeParse(answer.body.data) : null;
    const reference = found?.success ? found.data.reference : undefined;
    charge = reference
      ? await db()
          .selectFrom("rail_charges")
          .select(["rail_reference", "attempt_id", "merchant_id", "mode", "channel", "key_source"])
          .where("rail_reference", "=", reference)
          .where("rail", "=", PROCESSOR)
          .executeTakeFirst()
      : undefined;
  }
  if (charge?.channel !== "bank_transfer") return "not_ours";
  // The key that signed must be the one of this charge's account: another account cannot report on it.
  const owner = ctx.signer.owner;
  const sameAccount =
    charge.key_source === "merchant"
      ? owner?.merchantId === charge.merchant_id && owner.mode === charge.mode
      : owner === null && ctx.signer.mode === charge.mode;
  if (!sameAccount || charge.mode !== ctx.domain) return "not_ours";
  const result = await receiveInboundTransfer({
    rail: PROCESSOR,
    sessionId: `rejected:${ctx.eventKey}`,
    accountNumber: "",
    amountMinor: BigInt(amount),
    attemptId: charge.attempt_id,
    returnedByRail: true,
  });
  return `rejected_${result.outcome}`;
}
