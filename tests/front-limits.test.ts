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

/**
 * REQUEST_TIMEOUT_SECONDS bounds the whole request, body included, on every route (docs/deploy.md): headers
 * announcing a body that then arrives a byte a second are answered 408 `request_timeout` and the connection
 * closed at the deadline when the route reads its body (sign-in, sign-up, Paystack's webhook on production, a
 * console form), and a route that answered before reading it has its connection closed at the deadline too. Each server here has a 3 s deadline of its own, so nothing waits 30 s.
 */
describe("server.mjs bounds a request's body by REQUEST_TIMEOUT_SECONDS", () => {
  const DEADLINE_SECONDS = 3;
  const limits = {
    WEB_CONCURRENCY: "1",
    HEADERS_TIMEOUT_SECONDS: "2",
    REQUEST_TIMEOUT_SECONDS: String(DEADLINE_SECONDS),
  };

  /** Sends the head of a request announcing 60 000 bytes of body, then one byte a second. */
  async function trickle(port: number, path: string, contentType = "application/json") {
    const socket = await open(port);
    const started = Date.now();
    const done = closed(socket, started);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\nContent-Length: 60000\r\nX-Forwarded-For: 10.9.${Math.floor(Math.random() * 250)}.7\r\n\r\n{`,
    );
    const drip = setInterval(() => {
      if (!socket.destroyed) socket.write(" ");
    }, 1000);
    const result = await done;
    clearInterval(drip);
    return result;
  }

  function expectTimedOut({ afterMs, received }: { afterMs: number; received: string }) {
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received.toLowerCase()).toContain("connection: close");
    expect(received).toContain('"error":"request_timeout"');
    // At the deadline: not before it, and long before the body could have arrived (60 000 s).
    expect(afterMs).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 500);
    expect(afterMs).toBeLessThan(20_000);
  }

  it("on staging: sign-in, sign-up, a payment's initialize, the console's sign-in and its form post", async () => {
    const db = await freshDatabase("sqlite");
    const app = await startApp({ name: "slow-body", databaseUrl: db.url, env: limits });
    const [early, ...results] = await Promise.all([
      trickle(app.port, "/v1/payment/initialize"),
      trickle(app.port, "/v1/merchants/auth/login"),
      trickle(app.port, "/v1/merchants/auth/signup"),
      trickle(app.port, "/dashboard/api/auth/login"),
      trickle(app.port, "/dashboard/login", "multipart/form-data; boundary=----x"),
    ]);
    for (const result of results) expectTimedOut(result);
    // Initialize refuses a call without a key before reading its body: that answer goes out at once, and the
    // rest of the body may still not trickle in for ever: the connection is closed at the deadline.
    if (!early) throw new Error("no answer");
    expect(early.received).toMatch(/^HTTP\/1\.1 401 /);
    expect(early.afterMs).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 500);
    expect(early.afterMs).toBeLessThan(20_000);
    // Nothing of it reached the log as a failure of ours.
    expect(app.output()).not.toMatch(/"level":"error"/);
    expect(app.output()).not.toMatch(/unhandled|Error: aborted|ECONNRESET/);
    // The server still serves.
    expect(await ping(await open(app.port))).toMatch(/^HTTP\/1\.1 200 /);
  }, 90_000);

  it("on production: Paystack's webhook and sign-in", async () => {
    const db = await freshDatabase("sqlite");
    const app = await startApp({
      name: "slow-body-production",
      databaseUrl: db.url,
      env: { ...limits, PAYMENTS_ENV: "production" },
    });
    const results = await Promise.all([
      trickle(app.port, "/v1/rails/paystack/webhook"),
      trickle(app.port, "/v1/merchants/auth/login"),
    ]);
    for (const result of results) expectTimedOut(result);
    expect(app.output()).not.toMatch(/"level":"error"/);
  }, 90_000);
});
