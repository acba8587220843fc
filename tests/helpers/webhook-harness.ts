import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingHttpHeaders,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { startServer } from "../../scripts/lib/server-process";
import { ContractViolation, checkContract, checkWebhook } from "./contract";

/**
 * Fault-test harness for webhooks, free of vitest so bench/webhooks.ts uses it too:
 *  - fresh databases (a SQLite file in a temp folder, or a new PostgreSQL database on TEST_DATABASE_URL's
 *    server, dropped afterwards),
 *  - our own `node server.mjs` and `tsx scripts/worker.ts` processes with chosen env, which a test may
 *    kill -9 and restart,
 *  - a real HTTP receiver on 127.0.0.1 that records every request (headers, exact body bytes, arrival time),
 *    answers as told (any status and headers, hang, or be down), and tracks requests in flight per webhook-id.
 */

const ROOT = resolve(import.meta.dirname, "../..");
export const APP_SECRET = "webhook-harness-secret-0123456789abcdefghijklmnopqrstuvwxyz";

export type DbKind = "sqlite" | "postgres";

/** SQLite always; PostgreSQL when TEST_DATABASE_URL names a server to create databases on. */
export const dbKinds: DbKind[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Poll `check` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 20_000,
  everyMs = 25,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Databases

export type FreshDatabase = { kind: DbKind; url: string; drop: () => Promise<void> };

const dropLater: Array<() => Promise<void>> = [];

export async function freshDatabase(kind: DbKind): Promise<FreshDatabase> {
  if (kind === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "paygate-hooks-"));
    const drop = async () => rmSync(dir, { recursive: true, force: true });
    dropLater.push(drop);
    return { kind, url: `file:${join(dir, "paygate.db")}`, drop };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  // Same prefix as tests/setup/servers.ts, whose start-up drops such databases left by runs that died.
  const name = `paygate_test_${Date.now()}_${process.pid}_hooks_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  dropLater.push(drop);
  return { kind, url: url.toString(), drop };
}

// ---------------------------------------------------------------------------------------------------------
// Server and worker processes

export type Proc = {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Everything it printed so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** `kill -9`: no shutdown handler runs. */
  kill9: () => Promise<void>;
  /** SIGTERM, SIGKILL after 5 s. */
  stop: () => Promise<void>;
};

export type AppProc = Proc & {
  url: string;
  port: number;
  /** What it printed on stderr alone so far. */
  errorOutput: () => string;
};

const processes = new Set<Proc>();

function spawnProc(name: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  let size = 0;
  const collect = (d: Buffer) => {
    const s = d.toString();
    // Keep the whole output up to 8 MB (tests count delivery log lines of a worker).
    if (size < 8_000_000) chunks.push(s);
    size += s.length;
    if (process.env.TEST_SERVER_LOGS) process.stderr.write(`[${name}] ${s}`);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: Proc = {
    name,
    child,
    pid: child.pid as number,
    output: () => chunks.join(""),
    exited,
    kill9: async () => {
      if (alive()) process.kill(child.pid as number, "SIGKILL");
      await exited;
      processes.delete(proc);
    },
    stop: async () => {
      if (alive()) {
        child.kill("SIGTERM");
        const force = setTimeout(() => alive() && child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(force);
      }
      processes.delete(proc);
    },
  };
  processes.add(proc);
  return proc;
}

function baseEnv(databaseUrl: string, env: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    // One process per server unless a test asks for a cluster (`npm start` runs one worker per core).
    WEB_CONCURRENCY: "1",
    APP_SECRET,
    TRUST_PROXY: "1",
    SEED_DEMO: "0",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "info",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: process.env.NEXT_DIST_DIR || ".next",
    ...env,
  };
}

/** `node server.mjs` on `databaseUrl`; resolves once /v1/ping answers. */
export async function startApp(input: {
  name: string;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<AppProc> {
  const server = await startServer({
    name: input.name,
    env: baseEnv(input.databaseUrl, input.env ?? {}),
    // Keep the whole output up to 8 MB (tests count delivery log lines).
    keepOutput: 8_000_000,
    onOutput: (text) => {
      if (process.env.TEST_SERVER_LOGS) process.stderr.write(`[${input.name}] ${text}`);
    },
  });
  const proc: AppProc = {
    name: server.name,
    child: server.child,
    pid: server.pid,
    output: server.output,
    errorOutput: server.errorOutput,
    exited: server.exited,
    url: server.url,
    port: server.port,
    kill9: async () => {
      await server.kill9();
      processes.delete(proc);
    },
    stop: async () => {
      await server.stop();
      processes.delete(proc);
    },
  };
  processes.add(proc);
  return proc;
}

/** `scripts/worker.ts` (what `npm run worker` runs); resolves once it logs "worker running". */
export async function startWorker(input: {
  name: string;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<Proc> {
  // tsx as a loader in this one process: its CLI would run the worker as a child of its own, which a
  // `kill -9` of the CLI leaves running.
  const proc = spawnProc(
    input.name,
    ["--import", "tsx", "scripts/worker.ts"],
    baseEnv(input.databaseUrl, input.env ?? {}),
  );
  await waitFor(
    `${input.name} to start`,
    () => {
      if (proc.child.exitCode !== null) throw new Error(`${input.name} exited:\n${proc.output()}`);
      return proc.output().includes('"worker running"');
    },
    60_000,
    50,
  );
  return proc;
}

// ---------------------------------------------------------------------------------------------------------
// Receiver

export type Received = {
  seq: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The `webhook-id` header. */
  id: string;
  /** Exact body bytes. */
  raw: Buffer;
  text: string;
  /** Parsed body, or undefined if it is not JSON. */
  json: any;
  /** Date.now() when the request line and headers arrived. */
  at: number;
  /** performance.now() at the same moment (sub-millisecond, for the bench). */
  hr: number;
  /** What the receiver answered ("hang" or a status; "down" is never recorded: nothing arrives). */
  answered?: number | "hang";
  /** Whether the body is what the document's `webhooks` describe for its event (checkWebhook), once checked. */
  conforms: Promise<boolean>;
};

export type Reply =
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | "hang";

export type Behaviour = (req: Received, receiver: Receiver) => Reply;

export type Receiver = {
  url: string;
  port: number;
  requests: Received[];
  /** Requests whose webhook-id was already in flight when they arrived (must stay empty). */
  overlaps: Received[];
  /** Most requests in flight at once, over all ids. */
  maxInFlight: () => number;
  respond: (behaviour: Behaviour) => void;
  /** Stop listening and drop every connection: the endpoint is down (connection refused). */
  down: () => Promise<void>;
  /** Listen again on the same port. */
  up: () => Promise<void>;
  close: () => Promise<void>;
  byId: (id: string) => Received[];
  byEvent: (event: string) => Received[];
  /** The event types (sorted, once each) of the bodies received so far that passed checkWebhook. */
  conformingEvents: () => Promise<string[]>;
  waitForCount: (n: number, timeoutMs?: number, filter?: (r: Received) => boolean) => Promise<Received[]>;
};

const receivers = new Set<Receiver>();

export async function startReceiver(behaviour: Behaviour = () => ({ status: 200, body: "ok" })) {
  let current = behaviour;
  const requests: Received[] = [];
  const overlaps: Received[] = [];
  const inFlight = new Map<string, number>();
  let inFlightTotal = 0;
  let maxInFlight = 0;
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let seq = 0;

  const server: HttpServer = createHttpServer((req, res) => {
    const at = Date.now();
    const hr = performance.now();
    const id = String(req.headers["webhook-id"] ?? "");
    const count = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, count);
    inFlightTotal += 1;
    maxInFlight = Math.max(maxInFlight, inFlightTotal);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlightTotal -= 1;
      const left = (inFlight.get(id) ?? 1) - 1;
      if (left === 0) inFlight.delete(id);
      else inFlight.set(id, left);
    };
    res.on("finish", release);
    res.on("close", release);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      // Every delivered body is held to the document's `webhooks`; cleanupHarness fails the suite on a mismatch.
      const conforms = id
        ? checkWebhook(json).then(
            () => true,
            (err: Error) => {
              webhookViolations.push(err.message);
              return false;
            },
          )
        : Promise.resolve(false);
      const received: Received = {
        seq: seq++,
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        id,
        raw,
        text,
        json,
        at,
        hr,
        conforms,
      };
      if (count > 1) overlaps.push(received);
      requests.push(received);
      let reply: Reply;
      try {
        reply = current(received, receiver);
      } catch {
        reply = { status: 500, body: "receiver behaviour threw" };
      }
      if (reply === "hang") {
        received.answered = "hang";
        hanging.add(res);
        return;
      }
      received.answered = reply.status;
      const send = () => {
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        res.end(reply.body ?? "");
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1_000;

  let port = 0;
  const listen = () =>
    new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", fail);
        const address = server.address();
        if (typeof address === "object" && address) port = address.port;
        ok();
      });
    });
  const down = () =>
    new Promise<void>((ok) => {
      if (!server.listening) return ok();
      for (const r of hanging) r.destroy();
      hanging.clear();
      for (const s of sockets) s.destroy();
      server.close(() => ok());
    });
  await listen();

  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    overlaps,
    maxInFlight: () => maxInFlight,
    respond: (b) => {
      current = b;
    },
    down,
    up: listen,
    close: async () => {
      await down();
      receivers.delete(receiver);
    },
    byId: (id) => requests.filter((r) => r.id === id),
    byEvent: (event) => requests.filter((r) => r.json?.event === event),
    conformingEvents: async () => {
      const passed = await Promise.all(requests.map(async (r) => ((await r.conforms) ? r.json.event : [])));
      return [...new Set(passed.flat() as string[])].sort();
    },
    waitForCount: (n, timeoutMs = 20_000, filter = () => true) =>
      waitFor(
        `${n} webhook request(s) (have ${requests.filter(filter).length})`,
        () => {
          const got = requests.filter(filter);
          return got.length >= n ? got : undefined;
        },
        timeoutMs,
      ),
  };
  receivers.add(receiver);
  return receiver;
}

/** The Standard Webhooks headers of a received request, as `Webhook.verify` takes them. */
export function webhookHeaders(r: Received, signature?: string): Record<string, string> {
  return {
    "webhook-id": String(r.headers["webhook-id"] ?? ""),
    "webhook-timestamp": String(r.headers["webhook-timestamp"] ?? ""),
    "webhook-signature": signature ?? String(r.headers["webhook-signature"] ?? ""),
  };
}

/** Verify a received request's signature over its exact bytes; returns the parsed payload or throws. */
export function verifyWebhook(r: Received, secret: string, signature?: string): unknown {
  return new Webhook(secret).verify(r.text, webhookHeaders(r, signature));
}

// ---------------------------------------------------------------------------------------------------------
// API flows (plain fetch, so the bench can use them too)

export type Api = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string) {
  // A fresh client address per client (servers here trust X-Forwarded-For), so per-address limits never bite.
  const address = `10.${rand(256)}.${rand(256)}.${1 + rand(254)}`;
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        "x-forwarded-for": address,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    await checkContract(baseUrl, method, path, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
  return { baseUrl, call };
}

function rand(n: number) {
  return Math.floor(Math.random() * n);
}

export type HookMerchant = { id: string; accessToken: string; testKey: string; secret: string; api: Api };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Sign up a merchant and point its test-mode webhook at `url` (all events unless `events`). */
export async function merchantWithWebhook(baseUrl: string, url: string, events?: string[]) {
  const api = apiClient(baseUrl);
  const signup = await api.call("POST", "/v1/merchants/auth/signup", {
    businessName: "Hook Shop",
    email: `hooks-${Date.now()}-${Math.random().toString(36).slice(2, 10)}@example.com`,
    password: "correct horse battery staple",
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${signup.text}`);
  const d = signup.body.data;
  const put = await api.call(
    "PUT",
    "/v1/merchants/webhook",
    { mode: "test", url, ...(events ? { events } : {}) },
    bearer(d.accessToken),
  );
  if (put.status !== 200) throw new Error(`PUT webhook: ${put.status} ${put.text}`);
  const merchant: HookMerchant = {
    id: d.merchant.id,
    accessToken: d.accessToken,
    testKey: d.keys.test.secretKey,
    secret: put.body.data.secret,
    api,
  };
  return merchant;
}

/** The same merchant talking to another server process (e.g. after a restart on a new port). */
export function onServer(m: HookMerchant, baseUrl: string): HookMerchant {
  return { ...m, api: apiClient(baseUrl) };
}

export function asMerchant(m: HookMerchant) {
  return {
    get: (path: string) => m.api.call("GET", path, undefined, bearer(m.accessToken)),
    put: (path: string, body: unknown) => m.api.call("PUT", path, body, bearer(m.accessToken)),
    post: (path: string, body?: unknown) => m.api.call("POST", path, body, bearer(m.accessToken)),
  };
}

export async function initializePayment(m: HookMerchant, body: Record<string, unknown>) {
  const res = await m.api.call("POST", "/v1/payment/initialize", body, { "x-api-key": m.testKey });
  if (res.status !== 200 && res.status !== 201) throw new Error(`initialize: ${res.status} ${res.text}`);
  return res.body.data as { reference: string; accessCode: string };
}

/** Issue the virtual account of a transaction (emits checkout.awaiting_transfer). */
export async function requestBankTransfer(m: HookMerchant, accessCode: string) {
  const res = await m.api.call(
    "POST",
    "/v1/payment/checkout/charge/bank-transfer",
    {},
    { "x-access-code": accessCode },
  );
  if (res.status !== 200) throw new Error(`charge/bank-transfer: ${res.status} ${res.text}`);
  return res.body.data as { accountNumber: string; amount: string; reference: string };
}

/** POST /v1/sandbox/transfers: an inbound transfer as the bank rail reports it. */
export async function sandboxTransfer(m: HookMerchant, accountNumber: string, amount: string) {
  const res = await m.api.call(
    "POST",
    "/v1/sandbox/transfers",
    { accountNumber, amount },
    { "x-api-key": m.testKey },
  );
  if (res.status !== 200) throw new Error(`sandbox/transfers: ${res.status} ${res.text}`);
  return res.body.data as { outcome: string; reference: string };
}

export async function simulate(
  m: HookMerchant,
  accessCode: string,
  scenario: "success" | "failed" | "abandoned",
) {
  const res = await m.api.call(
    "POST",
    "/v1/payment/checkout/charge/bank-transfer/simulate",
    { scenario },
    { "x-access-code": accessCode },
  );
  if (res.status !== 200) throw new Error(`simulate ${scenario}: ${res.status} ${res.text}`);
  return res.body.data as { reference: string; status: string };
}

export async function payByCard(m: HookMerchant, accessCode: string, number = "4242424242424242") {
  const res = await m.api.call(
    "POST",
    "/v1/payment/checkout/charge/card",
    { number, expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: "123" },
    { "x-access-code": accessCode },
  );
  if (res.status !== 200) throw new Error(`charge/card: ${res.status} ${res.text}`);
  return res.body.data as { status: string };
}

/** POST /v1/refunds: refund `amount` of a paid payment (all that is refundable without one); pending. */
export async function refundPayment(m: HookMerchant, reference: string, amount?: string) {
  const res = await m.api.call(
    "POST",
    "/v1/refunds",
    { reference, ...(amount ? { amount } : {}) },
    { "x-api-key": m.testKey },
  );
  if (res.status !== 201) throw new Error(`refunds: ${res.status} ${res.text}`);
  return res.body.data as { id: string; amount: string; status: string };
}

/** POST /v1/sandbox/refunds/{id}: the sandbox rail settles a pending refund (refund.processed or refund.failed). */
export async function settleRefund(m: HookMerchant, id: string, outcome: "processed" | "failed") {
  const res = await m.api.call("POST", `/v1/sandbox/refunds/${id}`, { outcome }, { "x-api-key": m.testKey });
  if (res.status !== 200) throw new Error(`sandbox/refunds ${outcome}: ${res.status} ${res.text}`);
  return res.body.data as { id: string; status: string; failureReason: string | null };
}

// ---------------------------------------------------------------------------------------------------------
// Clean-up

/** Stop every process and receiver this harness started and drop every database it created. */
export async function cleanupHarness(): Promise<void> {
  await Promise.all([...processes].map((p) => p.kill9()));
  await Promise.all([...receivers].map((r) => r.close()));
  const drops = dropLater.splice(0);
  for (const drop of drops) await drop().catch(() => {});
  const violations = webhookViolations.splice(0);
  if (violations.length > 0) throw new ContractViolation(violations.join("\n"));
}

/** Webhook bodies the receivers got that the OpenAPI document does not describe (checkWebhook). */
const webhookViolations: string[] = [];

process.once("exit", () => {
  for (const p of processes) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
