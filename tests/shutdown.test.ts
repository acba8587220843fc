import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import {
  cleanupHarness,
  freshDatabase,
  initializePayment,
  merchantWithWebhook,
  payByCard,
  startApp,
  startReceiver,
  verifyWebhook,
  waitFor,
} from "./helpers/webhook-harness";

/**
 * SIGTERM as an orchestrator sends it (docs/deploy.md): what the process holds when the signal arrives is
 * finished before it exits 0, within SHUTDOWN_GRACE_SECONDS. A webhook delivery at the receiver is answered and
 * recorded (not left `sending` for another relay to send again after its lock runs out), and the cluster's
 * primary (`npm start`'s several workers) lets every worker finish its requests in flight.
 * tests/instances.test.ts covers one worker's requests in flight on both databases.
 */
afterAll(() => cleanupHarness(), 60_000);

describe("SIGTERM", () => {
  it("a webhook delivery in flight is finished and recorded before the process exits 0", async () => {
    const db = await freshDatabase("sqlite");
    const sql = openDatabase(db.url).db;
    try {
      // The merchant's endpoint takes 1.5 s to answer: SIGTERM arrives while the relay waits for it.
      const receiver = await startReceiver(() => ({ status: 200, body: "ok", delayMs: 1_500 }));
      const app = await startApp({
        name: "sigterm-delivery",
        databaseUrl: db.url,
        env: { WEB_CONCURRENCY: "1", SHUTDOWN_GRACE_SECONDS: "10" },
      });
      const m = await merchantWithWebhook(app.url, receiver.url, ["payment.completed"]);
      const init = await initializePayment(m, { amount: "2500.00", email: "sigterm@example.com" });
      await payByCard(m, init.accessCode);
      const [arrived] = await receiver.waitForCount(1, 15_000);
      app.child.kill("SIGTERM");
      expect(await app.exited).toEqual({ code: 0, signal: null });

      expect(verifyWebhook(arrived as NonNullable<typeof arrived>, m.secret)).toMatchObject({
        event: "payment.completed",
        data: { reference: init.reference },
      });
      const deliveries = await sql
        .selectFrom("webhook_deliveries")
        .innerJoin("events", "events.id", "webhook_deliveries.event_id")
        .select([
          "webhook_deliveries.status",
          "webhook_deliveries.response_status",
          "webhook_deliveries.attempt",
        ])
        .where("events.reference", "=", init.reference)
        .where("events.type", "=", "payment.completed")
        .execute();
      expect(deliveries).toEqual([{ status: "succeeded", response_status: 200, attempt: 1 }]);
      expect(receiver.requests).toHaveLength(1);
      await receiver.close();
    } finally {
      await sql.destroy();
      await db.drop();
    }
  }, 60_000);

  it("the cluster primary lets each worker finish its requests in flight, then exits 0", async () => {
    const db = await freshDatabase("sqlite");
    try {
      const receiver = await startReceiver();
      const app = await startApp({
        name: "sigterm-cluster",
        databaseUrl: db.url,
        // Two workers behind the primary, as `npm start` runs on two cores; card charges take 400 ms at the
        // network, so the signal arrives while every one of them is in flight.
        env: { WEB_CONCURRENCY: "2", SANDBOX_CARD_DELAY_MS: "400", SHUTDOWN_GRACE_SECONDS: "10" },
      });
      const listening = () =>
        new Set([...app.output().matchAll(/"listening","pid":(\d+)/g)].map((x) => x[1]));
      await waitFor("both workers to listen", () => listening().size === 2, 30_000);
      const m = await merchantWithWebhook(app.url, receiver.url, ["payment.completed"]);
      const sessions = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          initializePayment(m, { amount: `${700 + i}.00`, email: "cluster@example.com" }),
        ),
      );
      const charges = sessions.map((s) => payByCard(m, s.accessCode));
      await new Promise((r) => setTimeout(r, 150));
      app.child.kill("SIGTERM");
      const answers = await Promise.all(charges);
      expect(answers.map((a) => a.status)).toEqual(sessions.map(() => "success"));
      expect(await app.exited).toEqual({ code: 0, signal: null });
      // Each worker was told to stop and finished before the primary exited.
      expect(app.output().match(/"msg":"shutting down"/g)).toHaveLength(2);
      await receiver.close();
    } finally {
      await db.drop();
    }
  }, 60_000);
});
