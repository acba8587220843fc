import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHarness, freshDatabase, startApp } from "./helpers/webhook-harness";

/**
 * What one client can hold of an instance (server.mjs): a connection that sends its headers slowly is answered
 * 408 and closed once HEADERS_TIMEOUT_SECONDS have passed, each time within about a second of it; and past
 * MAX_CONNECTIONS open connections a new one is closed at once, while the ones held are still served.
 */
afterAll(() => cleanupHarness(), 60_000);

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Resolves with how long after `since` the server closed `socket`, and what it sent before. */
function closed(socket: Socket, since: number): Promise<{ afterMs: number; received: string }> {
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString("latin1");
  });
  return new Promise((resolve) => {
    socket.on("close", () => resolve({ afterMs: Date.now() - since, received }));
  });
}

describe("server.mjs bounds what a client holds", () => {
  it("a client sending its headers a byte a second is answered 408 and closed at HEADERS_TIMEOUT_SECONDS, every time", async () => {
    const db = await freshDatabase("sqlite");
    const app = await startApp({
      name: "slow-headers",
      databaseUrl: db.url,
      env: { WEB_CONCURRENCY: "1", HEADERS_TIMEOUT_SECONDS: "2", REQUEST_TIMEOUT_SECONDS: "4" },
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        // Staggered, so they fall at different points of the server's checking interval.
        await new Promise((r) => setTimeout(r, i * 230));
        const socket = await open(app.port);
        const started = Date.now();
        const done = closed(socket, started);
        socket.write("GET /v1/ping HTTP/1.1\r\nHost: x\r\nX-Slow: ");
        const drip = setInterval(() => {
          if (!socket.destroyed) socket.write("a");
        }, 1000);
        const result = await done;
        clearInterval(drip);
        return result;
      }),
    );
    for (const { afterMs, received } of results) {
      expect(afterMs).toBeGreaterThanOrEqual(1_900);
      expect(afterMs).toBeLessThan(4_500);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect(received).toContain('"error":"request_timeout"');
    }
  }, 60_000);

  it("past MAX_CONNECTIONS a new connection is closed at once, and those held are still served", async () => {
    const db = await freshDatabase("sqlite");
    const app = await startApp({
      name: "max-connections",
      databaseUrl: db.url,
      env: { WEB_CONCURRENCY: "1", MAX_CONNECTIONS: "3" },
    });
    const held = await Promise.all([open(app.port), open(app.port), open(app.port)]);
    const extra = await open(app.port);
    const started = Date.now();
    const { afterMs } = await closed(extra, started);
    expect(afterMs).toBeLessThan(2_000);
    // One of the held connections still gets its answer.
    const [first] = held;
    if (!first) throw new Error("no connection");
    const answer = new Promise<string>((resolve) => {
      let text = "";
      first.on("data", (chunk) => {
        text += chunk.toString("latin1");
        if (text.includes("\r\n\r\n")) resolve(text);
      });
    });
    first.write("GET /v1/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    for (const socket of held) socket.destroy();
  }, 60_000);
});
