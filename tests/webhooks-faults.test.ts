import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { EVENT_TYPES } from "@/lib/webhooks/event-types";
import {
  asMerchant,
  cleanupHarness,
  dbKinds,
  freshDatabase,
  initializePayment,
  merchantWithWebhook,
  onServer,
  payByCard,
  type Received,
  simulate,
  sleep,
  startApp,
  startReceiver,
  startWorker,
  verifyWebhook,
  waitFor,
} from "./helpers/webhook-harness";

/**
 * The events whose data is the transaction's own payload alone (refund.* carry the refund, emitted by settling
 * one; checkout.awaiting_transfer and checkout.amount_mismatch add the account and the amounts; subscription.*
 * and invoice.* carry the subscription and its invoice, as the document says), so the bulk below is what the
 * domain sends.
 */
const PAYMENT_EVENT_TYPES = EVENT_TYPES.filter(
  (t) =>
    !t.startsWith("refund.") &&
    !t.startsWith("subscription.") &&
    !t.startsWith("invoice.") &&
    t !== "checkout.awaiting_transfer" &&
    t !== "checkout.amount_mismatch",
);

/**
 * Webhook delivery under faults, each test on its own database with its own server processes:
 * a server killed with `kill -9` before or while delivering, and two relays (`npm run worker` processes)
 * racing over 1,000 due events. Nothing may be lost; nothing may be sent twice at once.
 */

afterAll(() => cleanupHarness(), 60_000);

const count = (text: string, needle: string) => text.split(needle).length - 1;

async function paySimulated(m: Awaited<ReturnType<typeof merchantWithWebhook>>) {
  const init = await initializePayment(m, { amount: "2000", email: "crash@example.com" });
  const done = await simulate(m, init.accessCode, "success");
  expect(done.status).toBe("success");
  return init.reference;
}

describe.concurrent.each(dbKinds)("webhook delivery under faults on %s", (kind) => {
  it("a payment completed just before kill -9 is delivered after the restart, once per event", async () => {
    const db = await freshDatabase(kind);
    const sql = openDatabase(db.url).db;
    try {
      const receiver = await startReceiver();
      // No relay in this process: the payment commits, its events wait in the outbox.
      const first = await startApp({
        name: `kill9-${kind}-1`,
        databaseUrl: db.url,
        env: { WEBHOOK_RELAY: "0" },
      });
      const m = await merchantWithWebhook(first.url, receiver.url);
      const reference = await paySimulated(m);
      // More payments racing the kill: whatever committed before it must be delivered, nothing else.
      const racing = Array.from({ length: 20 }, () => paySimulated(m).catch(() => null));
      await sleep(150);
      await first.kill9();
      expect((await first.exited).signal).toBe("SIGKILL");
      await Promise.all(racing);
      expect(receiver.requests).toEqual([]);

      const queued = await sql.selectFrom("events").select(["id", "type", "reference"]).execute();
      expect(
        queued
          .filter((e) => e.reference === reference)
          .map((e) => e.type)
          .sort(),
      ).toEqual(["checkout.awaiting_transfer", "checkout.completed", "payment.completed"]);
      // Every committed success has its events in the outbox (same transaction as the state change).
      const paid = await sql
        .selectFrom("transactions")
        .select("reference")
        .where("merchant_id", "=", m.id)
        .where("status", "=", "success")
        .execute();
      for (const { reference: ref } of paid) {
        expect(queued.filter((e) => e.reference === ref && e.type === "payment.completed")).toHaveLength(1);
      }

      const second = await startApp({ name: `kill9-${kind}-2`, databaseUrl: db.url });
      await receiver.waitForCount(queued.length, 30_000);
      await sleep(1_000);
      expect(receiver.requests).toHaveLength(queued.length);
      expect(receiver.requests.map((r) => r.id).sort()).toEqual(queued.map((e) => e.id).sort());
      for (const r of receiver.requests) expect(verifyWebhook(r, m.secret)).toEqual(r.json);
      const after = onServer(m, second.url);
      await waitFor("no event left undelivered", async () => {
        const res = await asMerchant(after).get("/v1/merchants/events?delivered=false");
        return res.status === 200 && res.body.data.events.length === 0;
      });
      await second.stop();
      await receiver.close();
    } finally {
      await sql.destroy();
      await db.drop();
    }
  });

  it("kill -9 while a delivery is in flight: held until its lock runs out, then sent again (same webhook-id)", async () => {
    const db = await freshDatabase(kind);
    const sql = openDatabase(db.url).db;
    try {
      const receiver = await startReceiver(() => "hang");
      const first = await startApp({ name: `inflight-${kind}-1`, databaseUrl: db.url });
      const m = await merchantWithWebhook(first.url, receiver.url, ["payment.completed"]);
      const init = await initializePayment(m, { amount: "1500", email: "p@example.com" });
      await payByCard(m, init.accessCode);
      const [sent] = (await receiver.waitForCount(1)) as [Received];
      await first.kill9();

      const [row] = await sql
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("event_id", "=", sent.id)
        .execute();
      expect(row?.status).toBe("sending");
      expect(Number(row?.locked_until)).toBeGreaterThan(Date.now());

      receiver.respond(() => ({ status: 200, body: "ok" }));
      const second = await startApp({ name: `inflight-${kind}-2`, databaseUrl: db.url });
      // The lock stands: a relay never sends an attempt another may still be sending.
      await sleep(1_000);
      expect(receiver.requests).toHaveLength(1);
      // Move time past the lock (twice WEBHOOK_TIMEOUT_MS, at least that + 5 s): the attempt is reclaimed.
      await sql
        .updateTable("webhook_deliveries")
        .set({ locked_until: Date.now() - 1 })
        .where("id", "=", row?.id as string)
        .execute();
      const [, again] = (await receiver.waitForCount(2, 20_000)) as [Received, Received];
      expect(again.id).toBe(sent.id);
      expect(again.raw.equals(sent.raw)).toBe(true);
      expect(verifyWebhook(again, m.secret)).toEqual(sent.json);
      const delivered = await waitFor("the event to be marked delivered", async () => {
        const e = await sql.selectFrom("events").selectAll().where("id", "=", sent.id).executeTakeFirst();
        return e?.delivered_at ? e : undefined;
      });
      expect(delivered.delivered_at).not.toBeNull();
      await sleep(500);
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.overlaps).toEqual([]);
      await second.stop();
      await receiver.close();
    } finally {
      await sql.destroy();
      await db.drop();
    }
  });

  it("two relays drain 1,000 events: every one delivered, none sent twice at once, no attempt sent twice", async () => {
    const db = await freshDatabase(kind);
    const sql = openDatabase(db.url).db;
    try {
      // About one event in ten fails its first attempt (retried 1 s later); every answer takes 2-12 ms.
      const failsFirst = (id: string) => (createHash("sha256").update(id).digest()[0] as number) < 26;
      const receiver = await startReceiver((req, r) => {
        const attempt = r.byId(req.id).length;
        const delayMs = 2 + Math.floor(Math.random() * 10);
        return failsFirst(req.id) && attempt === 1
          ? { status: 500, body: "first try fails", delayMs }
          : { status: 200, body: "ok", delayMs };
      });
      const schedule = { WEBHOOK_RETRY_SCHEDULE: "1,1" };
      // The API server runs no relay: only the two workers deliver.
      const api = await startApp({
        name: `relays-${kind}-api`,
        databaseUrl: db.url,
        env: { WEBHOOK_RELAY: "0", ...schedule },
      });
      const m = await merchantWithWebhook(api.url, receiver.url);
      // 30 events from 10 real payments over HTTP, queued before the workers start...
      for (let i = 0; i < 10; i++) await paySimulated(m);
      const workers = await Promise.all(
        [1, 2].map((n) =>
          startWorker({
            name: `relays-${kind}-worker${n}`,
            databaseUrl: db.url,
            env: { ...schedule, LOG_LEVEL: "info" },
          }),
        ),
      );
      // ...940 written to the outbox in-process through the domain code (emitEvent, as a state change does),
      // in one database transaction so both relays find them due at the same moment...
      const templates = await sql
        .selectFrom("transactions")
        .selectAll()
        .where("merchant_id", "=", m.id)
        .execute();
      expect(templates).toHaveLength(10);
      await sql.transaction().execute(async (trx) => {
        for (let i = 0; i < 940; i++) {
          const tx = templates[i % templates.length] as (typeof templates)[number];
          await emitEvent(
            trx,
            tx,
            PAYMENT_EVENT_TYPES[i % PAYMENT_EVENT_TYPES.length] as (typeof EVENT_TYPES)[number],
            `bulk-${i}`,
          );
        }
      });
      // ...and 30 more from payments made while they drain.
      for (let i = 0; i < 10; i++) await paySimulated(m);

      const all = await sql.selectFrom("events").select("id").where("merchant_id", "=", m.id).execute();
      expect(all).toHaveLength(1_000);
      const ids = all.map((e) => e.id);
      await waitFor(
        "every event to be answered 200",
        () => {
          const ok = new Set(receiver.requests.filter((r) => r.answered === 200).map((r) => r.id));
          return ids.every((id) => ok.has(id));
        },
        60_000,
        100,
      );
      await waitFor(
        "every attempt to be finished",
        async () => {
          const open = await sql
            .selectFrom("webhook_deliveries")
            .select("id")
            .where("status", "in", ["pending", "sending"])
            .execute();
          const undelivered = await sql
            .selectFrom("events")
            .select("id")
            .where("delivered_at", "is", null)
            .execute();
          return open.length === 0 && undelivered.length === 0;
        },
        20_000,
        100,
      );
      await sleep(300);

      // Never two requests for one webhook-id in flight at once.
      expect(receiver.overlaps.map((r) => r.id)).toEqual([]);
      // Each attempt row was sent exactly once: requests per event = its finished attempts, and one 200 each.
      const attempts = await sql
        .selectFrom("webhook_deliveries")
        .select(["event_id", "status", "attempt"])
        .execute();
      const rowsPerEvent = new Map<string, number>();
      for (const a of attempts) rowsPerEvent.set(a.event_id, (rowsPerEvent.get(a.event_id) ?? 0) + 1);
      const sentPerEvent = new Map<string, Received[]>();
      for (const r of receiver.requests) sentPerEvent.set(r.id, [...(sentPerEvent.get(r.id) ?? []), r]);
      expect(sentPerEvent.size).toBe(1_000);
      const mismatched = ids.filter((id) => (sentPerEvent.get(id)?.length ?? 0) !== rowsPerEvent.get(id));
      expect(mismatched).toEqual([]);
      for (const id of ids) {
        const sent = sentPerEvent.get(id) as Received[];
        expect(sent.map((r) => r.answered)).toEqual(failsFirst(id) ? [500, 200] : [200]);
      }
      expect(attempts.filter((a) => a.status === "succeeded")).toHaveLength(1_000);
      expect(attempts.filter((a) => a.status === "failed")).toHaveLength(ids.filter(failsFirst).length);
      for (const r of receiver.requests.slice(0, 50)) expect(verifyWebhook(r, m.secret)).toEqual(r.json);

      // Both relays took part, and each success was recorded by exactly one of them.
      const deliveredBy = workers.map((w) => count(w.output(), '"msg":"webhook delivered"'));
      expect(deliveredBy.every((n) => n > 0)).toBe(true);
      expect(deliveredBy.reduce((a, b) => a + b, 0)).toBe(1_000);
      expect(count(api.output(), '"msg":"webhook delivered"')).toBe(0);
      console.log(
        `[${kind}] 1,000 events: worker1 delivered ${deliveredBy[0]}, worker2 ${deliveredBy[1]}; ` +
          `${ids.filter(failsFirst).length} retried; max in flight ${receiver.maxInFlight()}`,
      );
      await Promise.all([...workers.map((w) => w.stop()), api.stop()]);
      await receiver.close();
    } finally {
      await sql.destroy();
      await db.drop();
    }
  }, 120_000);
});
