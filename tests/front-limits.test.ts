import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupHarness, freshDatabase, sleep, startApp, waitFor } from "./helpers/webhook-harness";

/**
 * What one client can hold of an instance (server.mjs): a connection that sends its headers slowly is answered
 * 408 and closed once HEADERS_TIMEOUT_SECONDS have passed, each time within about a second of it; and past
 * MAX_CONNECTIONS open connections a new one is closed at once, while the ones held are still served. With
 * several workers (WEB_CONCURRENCY) MAX_CONNECTIONS is the instance's, shared out between them.
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

/** Sends GET /v1/ping on `socket` (then closes it) and resolves with the answer's head. */
function ping(socket: Socket): Promise<string> {
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (text.includes("\r\n\r\n")) resolve(text);
    });
  });
  socket.write("GET /v1/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  return answer;
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
    expect(await ping(first)).toMatch(/^HTTP\/1\.1 200 /);
    for (const socket of held) socket.destroy();
  }, 60_000);

  it("with two workers the instance holds at most MAX_CONNECTIONS in all; past it a new one is closed at once, those held are served", async () => {
    const db = await freshDatabase("sqlite");
    const app = await startApp({
      name: "max-connections-cluster",
      databaseUrl: db.url,
      env: { WEB_CONCURRENCY: "2", MAX_CONNECTIONS: "5" },
    });
    // Both workers take connections (the cluster shares them out) once both listen.
    await waitFor("both workers to listen", () => app.output().match(/"msg":"listening"/g)?.length === 2);

    // Far more than the cap, one after another, so each worker is handed more than its share.
    const sockets: Array<{ socket: Socket; closed: boolean }> = [];
    for (let i = 0; i < 14; i++) {
      const entry = { socket: await open(app.port), closed: false };
      entry.socket.on("close", () => {
        entry.closed = true;
      });
      sockets.push(entry);
      await sleep(50);
    }
    await sleep(1_500);
    const held = sockets.filter((s) => !s.closed);
    // The instance as a whole: never more than MAX_CONNECTIONS. (The start-up check's kept-alive connection may
    // hold one of the five.)
    expect(held.length).toBeLessThanOrEqual(5);
    expect(held.length).toBeGreaterThanOrEqual(4);

    // While those are held, a new connection is closed at once, whichever worker it is handed to.
    for (let i = 0; i < 4; i++) {
      const extra = await open(app.port);
      const { afterMs } = await closed(extra, Date.now());
      expect(afterMs).toBeLessThan(2_000);
    }
    // And every held connection is still served.
    for (const { socket } of held) expect(await ping(socket)).toMatch(/^HTTP\/1\.1 200 /);
    for (const { socket } of sockets) socket.destroy();
  }, 60_000);

  it("refuses to start with fewer MAX_CONNECTIONS than workers, as it could not keep to them", async () => {
    const db = await freshDatabase("sqlite");
    await expect(
      startApp({
        name: "max-connections-refused",
        databaseUrl: db.url,
        env: { WEB_CONCURRENCY: "2", MAX_CONNECTIONS: "1" },
      }),
    ).rejects.toThrow(/MAX_CONNECTIONS: must be at least WEB_CONCURRENCY \(2\)/);
  }, 60_000);
});
