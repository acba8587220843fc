// The service's process: Next.js behind a small node:http front that records the caller's address.
// Next's own server keeps a client-sent X-Forwarded-For as the client address, which would let anyone
// dodge the per-address rate limits; here the socket's address is used unless TRUST_PROXY is set.
//
// With WEB_CONCURRENCY above 1 (default: one per core) this file is also the cluster's primary: it forks that
// many workers, each running the front and Next on the same port (node:cluster shares the listening socket),
// restarts one that dies, and on SIGTERM asks each to finish what it holds before it exits. Everything that
// must hold across requests (budgets, idempotency, claims) lives in the database, so workers share nothing
// else. See docs/deploy.md.
import { AsyncLocalStorage } from "node:async_hooks";
import cluster from "node:cluster";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { availableParallelism } from "node:os";
import { join, relative } from "node:path";

/** A setting refused before anything starts, in the words lib/env.ts uses for the others. */
function refuseConfig(name, rule, value) {
  process.stderr.write(
    `\nThe service cannot start.\nInvalid configuration:\n  ${name}: ${rule} (got ${JSON.stringify(value)})\n\n`,
  );
  process.exit(1);
}

function wholeNumber(name, fallback, min, max) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    refuseConfig(name, `must be a whole number from ${min} to ${max}`, raw);
  return value;
}

// lib/env.ts checks every setting once Next has loaded, but these are needed first: refuse bad ones the same
// way (listen() would throw a RangeError with a stack).
const port = wholeNumber("PORT", 3000, 1, 65535);
const workers = wholeNumber("WEB_CONCURRENCY", availableParallelism(), 1, 64);
const graceSeconds = wholeNumber("SHUTDOWN_GRACE_SECONDS", 10, 0, 600);
// A client has this long to send a request's headers, and then its whole request, before its connection is
// closed (a slow-header client holds a socket for nothing); checked every second, so the bound is kept to
// within a second rather than Node's 30 s sweep.
const headersTimeoutSeconds = wholeNumber("HEADERS_TIMEOUT_SECONDS", 10, 1, 300);
const requestTimeoutSeconds = wholeNumber("REQUEST_TIMEOUT_SECONDS", 30, 1, 600);
if (requestTimeoutSeconds < headersTimeoutSeconds)
  refuseConfig("REQUEST_TIMEOUT_SECONDS", "must be at least HEADERS_TIMEOUT_SECONDS", requestTimeoutSeconds);
// Connections this instance holds open at once, shared out between its workers; past it a new connection is
// closed at once. The proxy in front (docs/deploy.md) queues and limits clients before that.
const maxConnections = wholeNumber("MAX_CONNECTIONS", 2048, 1, 1_000_000);
// Each worker holds at least one connection, so fewer than one a worker could not be kept to.
if (workers > 1 && maxConnections < workers)
  refuseConfig(
    "MAX_CONNECTIONS",
    `must be at least WEB_CONCURRENCY (${workers}): each worker holds at least one connection`,
    maxConnections,
  );
// Every so many seconds each serving process logs its memory (resident set, V8 heap), for an operator watching a
// process's footprint over time (npm run bench:soak reads it too). 0: never.
const memoryLogSeconds = wholeNumber("MEMORY_LOG_SECONDS", 0, 0, 86_400);
const hostname = process.env.HOSTNAME || "0.0.0.0";

function logLine(level, msg, fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, pid: process.pid, ...fields });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

// A secret the service's processes share (workers inherit the primary's environment), which proxy.ts puts on a
// request Next sends to itself for a rewrite, so the front can tell that request from a client's.
const FRONT_SECRET = "PAYGATE_FRONT_SECRET";
const FRONT_SECRET_HEADER = "x-paygate-front";
process.env[FRONT_SECRET] ??= randomBytes(24).toString("base64url");

/** A worker's exit code after it said the port is taken (its primary adds nothing to that one line). */
const PORT_TAKEN = 3;

/** The one line a taken port gets (and a non-zero exit), instead of a stack: what happened and what to do. */
function portTaken(error) {
  const what =
    error.code === "EADDRINUSE"
      ? `Port ${port} is already in use on ${hostname} (another server, perhaps another Paygate, is listening there).`
      : error.code === "EACCES"
        ? `Port ${port} on ${hostname} needs privileges this process does not have.`
        : `Cannot listen on ${hostname}:${port}: ${error.message}`;
  process.stderr.write(
    `${what} Stop it, or choose another port: PORT=${port === 65535 ? 3001 : port + 1} npm start\n`,
  );
  process.exit(cluster.isWorker ? PORT_TAKEN : 1);
}

/** Whether this process can listen on the port: asked before minutes of start-up, not after. */
function checkPort() {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once("error", portTaken);
    probe.listen({ port, host: hostname, exclusive: true }, () => probe.close(resolve));
  });
}

/**
 * The build this service serves: the folder NEXT_DIST_DIR (default .next, a link to the build in service,
 * scripts/prepare.mjs) names as it starts. Its workers and Next are given that folder itself, so a newer build put
 * in place meanwhile never changes under them; the folder records this process while it serves it (`serving/`),
 * so no build is made into it. Never builds: without a build it says so and exits.
 */
function servedBuild() {
  const named = process.env.NEXT_DIST_DIR || ".next";
  let folder = null;
  try {
    folder = realpathSync(named);
  } catch {}
  if (!folder || !existsSync(join(folder, "BUILD_ID"))) {
    process.stderr.write(
      `There is no build to serve in ${named}: run \`npm run build\` first (or \`npm start\`, which builds when needed).\n`,
    );
    process.exit(1);
  }
  return relative(process.cwd(), folder) || ".";
}

function recordServing(folder) {
  const mark = join(folder, "serving", String(process.pid));
  try {
    mkdirSync(join(folder, "serving"), { recursive: true });
    writeFileSync(mark, "");
    process.on("exit", () => rmSync(mark, { force: true }));
  } catch {
    // A read-only build (a container image) is never rebuilt in place either.
  }
}

if (cluster.isPrimary) {
  process.env.NEXT_DIST_DIR = servedBuild();
  recordServing(process.env.NEXT_DIST_DIR);
  await checkPort();
}
if (cluster.isPrimary && workers > 1) {
  await runPrimary();
} else {
  await runServer();
}

/**
 * The primary: forks the workers and looks after them. The first worker starts alone, so that the database's
 * migrations and the demo merchant are made once, before the others start; then the rest start together.
 */
async function runPrimary() {
  // GET /v1/metrics, answered by whichever worker the connection reached, counts every worker: it asks this
  // process (lib/ops/scrape-metrics.ts), which asks each listening worker for its registry and sums them with
  // prom-client's aggregator. A worker still starting is not waited for; one that does not answer within 2 s is
  // left out of that scrape.
  const { AggregatorRegistry } = (await import("prom-client")).default;
  const listening = new Set();
  let collections = 0;
  function sumMetrics(worker, id) {
    const asked = [...listening].filter((w) => w.isConnected());
    const parts = [];
    const ask = `collect-${++collections}`;
    let waiting = asked.length;
    const reply = (answer) => worker.isConnected() && worker.send({ type: "paygate:metrics", id, ...answer });
    const done = () => {
      clearTimeout(timer);
      for (const w of asked) w.off("message", onPart);
      // Never let a scrape take the primary down: a failure is the scrape's (503), not the service's.
      Promise.resolve()
        .then(() => AggregatorRegistry.aggregate(parts).metrics())
        .then(
          (text) => reply({ text }),
          (error) => reply({ error: String(error?.message ?? error) }),
        );
    };
    const timer = setTimeout(done, 2_000);
    function onPart(message) {
      if (message?.type !== "paygate:metrics:part" || message.ask !== ask) return;
      parts.push(message.metrics);
      if (--waiting === 0) done();
    }
    for (const w of asked) {
      w.on("message", onPart);
      w.send({ type: "paygate:metrics:collect", ask });
    }
    if (waiting === 0) done();
  }
  let stopping = false;
  let everListened = false;
  /** Restart delay after a worker dies: doubles while workers keep dying young, up to 30 s. */
  let restartDelayMs = 1_000;

  function fork(index) {
    const worker = cluster.fork({ PAYGATE_WORKER_INDEX: String(index) });
    const bornAt = Date.now();
    worker.on("message", (message) => {
      if (message?.type === "paygate:metrics") sumMetrics(worker, message.id);
    });
    worker.once("listening", () => listening.add(worker));
    worker.once("exit", () => listening.delete(worker));
    worker.once("listening", () => {
      if (!everListened) {
        everListened = true;
        for (let i = 2; i <= workers; i++) fork(i);
        logLine("info", "cluster listening", { url: `http://${hostname}:${port}`, workers });
      }
    });
    worker.once("exit", (code, signal) => {
      if (stopping) return;
      if (!everListened) {
        // The first worker could not start (its message says why): the service cannot either. A port taken
        // under it (PORT_TAKEN) has said so in its one line already.
        if (code !== PORT_TAKEN)
          logLine("error", "the first worker could not start; stopping", { code, signal });
        process.exit(code || 1);
      }
      if (Date.now() - bornAt > 60_000) restartDelayMs = 1_000;
      logLine("error", "worker exited; starting another", {
        worker: index,
        code,
        signal,
        restartInMs: restartDelayMs,
      });
      setTimeout(() => {
        if (!stopping) fork(index);
      }, restartDelayMs).unref();
      restartDelayMs = Math.min(restartDelayMs * 2, 30_000);
    });
  }

  function stop(signal) {
    if (stopping) return;
    stopping = true;
    logLine("info", "stopping workers", { signal });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    // Each worker exits on its own within its grace period; this is the backstop.
    setTimeout(
      () => {
        logLine("warn", "workers still running after the grace period; exiting");
        process.exit(0);
      },
      (graceSeconds + 5) * 1000,
    ).unref();
    const check = () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    };
    cluster.on("exit", check);
    check();
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));

  fork(1);
}

/**
 * This process's share of MAX_CONNECTIONS: all of it for a lone server; in a cluster an equal share each, the
 * remainder one apiece to the first workers, so the shares add up to MAX_CONNECTIONS and never more. (A
 * restarted worker keeps its index, and its share.)
 */
function connectionShare() {
  if (!cluster.isWorker) return maxConnections;
  const index = Number(process.env.PAYGATE_WORKER_INDEX);
  const base = Math.floor(maxConnections / workers);
  return base + (Number.isInteger(index) && index >= 1 && index <= maxConnections % workers ? 1 : 0);
}

/** One server: the front, Next, and graceful shutdown. */
async function runServer() {
  const { default: next } = await import("next");
  const trustProxy = process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true";
  const CLIENT_ADDRESS_HEADER = "x-paygate-client-address";
  // Tells the app (lib/http/client-address.ts), in this process only, that this front sets the header above on
  // every request, so it may be trusted; under a bare `next start` it is not.
  globalThis[Symbol.for("paygate.front")] = true;

  const frontSecret = Buffer.from(process.env[FRONT_SECRET] ?? "");
  function fromNext(req) {
    const sent = req.headers[FRONT_SECRET_HEADER];
    delete req.headers[FRONT_SECRET_HEADER];
    if (typeof sent !== "string" || frontSecret.length === 0) return false;
    const given = Buffer.from(sent);
    return given.length === frontSecret.length && timingSafeEqual(given, frontSecret);
  }

  function clientAddress(req) {
    if (trustProxy) {
      const forwarded = req.headers["x-forwarded-for"];
      const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",");
      const last = hops
        .map((h) => h.trim())
        .filter(Boolean)
        .at(-1);
      if (last) return last.slice(0, 100);
    }
    return req.socket.remoteAddress ?? "unknown";
  }

  // Requests Next would answer with an empty or text body (it never reaches the app's envelope code) are
  // answered here in the API's envelope. Codes match lib/core/errors.ts.
  const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

  function requestId() {
    return `req_${randomBytes(15).toString("base64url").replace(/[-_]/g, "0").slice(0, 20)}`;
  }

  function envelope(status, error, message, id = requestId()) {
    const body = JSON.stringify({ status: "failed", error, message });
    return {
      status,
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
        "x-request-id": id,
      },
    };
  }

  function refuse(res, answer) {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  }

  /** Why Next should not see this request, or null. */
  function precheck(req) {
    if (!METHODS.has(req.method ?? "")) {
      return envelope(
        405,
        "method_not_allowed",
        `${String(req.method).slice(0, 20)} is not an HTTP method this service serves.`,
      );
    }
    const path = (req.url ?? "/").split("?")[0];
    try {
      decodeURIComponent(path);
    } catch {
      return envelope(400, "validation_error", "path must be valid percent-encoded UTF-8.");
    }
    return null;
  }

  const app = next({ dev: false, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Next runs instrumentation.ts (lib/boot.ts: migrations, the demo merchant, the background jobs) during
  // prepare without always waiting for it; listen only once boot has finished (it registers the lifecycle).
  const bootDeadline = Date.now() + 120_000;
  while (!globalThis[Symbol.for("paygate.lifecycle")]) {
    if (Date.now() > bootDeadline) {
      logLine("error", "start-up did not finish within 120 s");
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }

  // Each request runs with a label the app fills in with the endpoint serving it (lib/core/metrics.ts
  // labelRequest), read back here once the answer has gone: paygate_http_requests_total and its histogram.
  const requestLabels = new AsyncLocalStorage();
  globalThis[Symbol.for("paygate.request-label")] = requestLabels;
  const { register } = (await import("prom-client")).default;
  // A worker hands its registry to its primary, which sums the workers' for a scrape (runPrimary).
  if (cluster.isWorker)
    process.on("message", (message) => {
      if (message?.type !== "paygate:metrics:collect") return;
      register
        .getMetricsAsJSON()
        .then((metrics) => process.send?.({ type: "paygate:metrics:part", ask: message.ask, metrics }));
    });
  const requestsTotal = register.getSingleMetric("paygate_http_requests_total");
  const requestSeconds = register.getSingleMetric("paygate_http_request_duration_seconds");
  /** A request no endpoint named: by the kind of path, never the path itself (its values are unbounded). */
  function unlabelled(path) {
    if (path.startsWith("/_next/") || path === "/icon.svg" || path === "/robots.txt") return "asset";
    if (path.startsWith("/v1/")) return "api other";
    if (path.startsWith("/dashboard/api/")) return "console other";
    return "page";
  }
  function observe(req, res, label, started) {
    const endpoint = label.endpoint ?? unlabelled((req.url ?? "/").split("?")[0]);
    const method = METHODS.has(req.method ?? "") ? req.method : "other";
    const status = res.headersSent ? String(res.statusCode) : "aborted";
    requestsTotal?.inc({ endpoint, method, status });
    requestSeconds?.observe({ endpoint, method }, (performance.now() - started) / 1000);
  }

  /**
   * REQUEST_TIMEOUT_SECONDS over the whole request, its body included, on every route. Node's own
   * requestTimeout stops counting once the headers are in and the handler has run: a body announced with a
   * Content-Length and sent a byte a second kept its socket (and its share of MAX_CONNECTIONS) open for as
   * long as the client liked, even on routes that need no credential. So each request gets a deadline of its
   * own, from the first byte of it: a request still incomplete then is answered 408 `request_timeout`, with
   * `Connection: close`, and its socket is closed once that is written (at once if an answer had begun).
   * A request fully received is never cut: the deadline is the client's to meet, not the app's answer's.
   */
  const REQUEST_STARTED = Symbol("paygate.requestStarted");
  // The error the unfinished body fails with. Next buffers the body of a request its proxy (proxy.ts) sees
  // before the route runs, and logs any error of that body with a stack, except a DecodeError (its "the
  // request could not be read"), which it answers 400 instead (here: not at all, the 408 is already out).
  // lib/http/body.ts answers any failed read as a body that did not arrive whole.
  const { DecodeError } = await import("next/dist/shared/lib/utils.js");
  class BodyTimedOut extends DecodeError {
    constructor() {
      super(`the request did not arrive within REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds} s)`);
      this.name = "BodyTimedOut";
    }
  }
  function noteRequestStarts(socket) {
    // The first bytes of each request on the connection (kept-alive ones too): the clock starts there.
    socket.on("data", () => {
      socket[REQUEST_STARTED] ??= Date.now();
    });
  }
  function bodyDeadline(req, res) {
    const socket = req.socket;
    const startedAt = socket[REQUEST_STARTED] ?? Date.now();
    // Once this answer is written, the next request on the connection starts a clock of its own.
    res.once("finish", () => {
      socket[REQUEST_STARTED] = undefined;
    });
    if (req.complete) return;
    const timer = setTimeout(
      () => {
        if (req.complete || socket.destroyed) return;
        logLine("info", "request timed out", {
          method: req.method,
          path: String(req.url ?? "/")
            .split("?")[0]
            .slice(0, 200),
          receivedBytes: socket.bytesRead,
          seconds: requestTimeoutSeconds,
        });
        // The app stops waiting for the rest of the body: its read fails (lib/http/body.ts answers that as a
        // body that did not arrive whole), instead of waiting on a request whose socket is gone.
        const close = () => {
          socket.destroy();
          req.destroy(new BodyTimedOut());
        };
        if (res.headersSent) return close();
        const answer = envelope(408, "request_timeout", "The request did not arrive in time.");
        res.shouldKeepAlive = false;
        res.writeHead(answer.status, { ...answer.headers, connection: "close" });
        res.end(answer.body, close);
      },
      Math.max(0, startedAt + requestTimeoutSeconds * 1000 - Date.now()),
    );
    // Over once the whole body is in, or the connection is gone; an answer sent before the body ended (a 413)
    // leaves the clock running, so the rest of that body cannot trickle in for ever either.
    const done = () => clearTimeout(timer);
    req.once("end", done);
    req.once("close", done);
    res.once("finish", () => {
      if (req.complete) done();
    });
  }

  let draining = false;
  const server = createServer(
    {
      headersTimeout: headersTimeoutSeconds * 1000,
      requestTimeout: requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      const started = performance.now();
      const label = { endpoint: undefined };
      res.once("close", () => observe(req, res, label, started));
      // A request on a kept-alive connection while shutting down is served, and its connection then closed.
      if (draining) res.setHeader("connection", "close");
      bodyDeadline(req, res);
      const refusal = precheck(req);
      if (refusal) return refuse(res, refusal);
      // Next sends a request to itself to serve a proxy.ts rewrite (an unknown checkout's not-found page): it
      // carries the service's own secret, and keeps the client's address and the headers proxy.ts set. Any
      // other request gets its address from its socket, and x-page-url (set by proxy.ts for the hosted
      // pages, read by lib/checkout/request-locale.ts) and x-embed-origin (lib/checkout/embed-frame.ts) are
      // never taken from a client.
      if (!fromNext(req)) {
        req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req);
        delete req.headers["x-page-url"];
        delete req.headers["x-embed-origin"];
      }
      requestLabels
        .run(label, () => handle(req, res))
        .catch((err) => {
          const id = requestId();
          logLine("error", "request handler failed", { requestId: id, error: String(err?.message ?? err) });
          if (res.headersSent) {
            // Too late for an envelope: end the connection rather than leave the client waiting.
            res.destroy();
          } else {
            refuse(
              res,
              envelope(
                500,
                "internal_error",
                `Something went wrong on our side. Quote request id ${id} to support.`,
                id,
              ),
            );
          }
        });
    },
  );
  server.keepAliveTimeout = 65_000;
  // At most this process's share of MAX_CONNECTIONS open at once; one past it is closed as soon as it arrives.
  // Counted here rather than with server.maxConnections: in a cluster the primary accepts each connection and
  // hands it to a worker, and a worker that refuses one under maxConnections hands it back to the primary,
  // which offers it to the next worker, and so on: the client's connection would stay open, passed around,
  // instead of being closed.
  const connectionLimit = connectionShare();
  let connectionsOpen = 0;
  server.on("connection", (socket) => {
    if (connectionsOpen >= connectionLimit) {
      socket.destroy();
      return;
    }
    connectionsOpen++;
    socket.once("close", () => {
      connectionsOpen--;
    });
  });
  server.on("connection", noteRequestStarts);
  // Bytes Node's HTTP parser cannot read (bad header characters, conflicting lengths, huge headers).
  server.on("clientError", (err, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") return socket.destroy();
    // Garbage after a request on the same connection (a Content-Length shorter than the body): let the
    // app's answer to that request go out, then close, rather than write over it.
    const inFlight = socket._httpMessage;
    if (inFlight && !inFlight.writableFinished) {
      inFlight.shouldKeepAlive = false;
      inFlight.once("finish", () => socket.end());
      return;
    }
    const answer =
      err.code === "HPE_HEADER_OVERFLOW"
        ? envelope(431, "headers_too_large", "The request headers are too large.")
        : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? envelope(408, "request_timeout", "The request did not arrive in time.")
          : envelope(400, "bad_request", "The HTTP request is malformed.");
    const head = Object.entries({ ...answer.headers, connection: "close" })
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n");
    const reason =
      { 408: "Request Timeout", 431: "Request Header Fields Too Large" }[answer.status] ?? "Bad Request";
    socket.end(`HTTP/1.1 ${answer.status} ${reason}\r\n${head}\r\n\r\n${answer.body}`);
  });
  if (memoryLogSeconds > 0) {
    setInterval(() => {
      const m = process.memoryUsage();
      const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
      logLine("info", "memory", {
        rssMb: mb(m.rss),
        heapUsedMb: mb(m.heapUsed),
        heapTotalMb: mb(m.heapTotal),
        externalMb: mb(m.external),
      });
    }, memoryLogSeconds * 1000).unref();
  }
  // Taken since the check at start (checkPort), or under a cluster worker: the same one line.
  server.once("error", portTaken);
  server.listen(port, hostname, () => {
    logLine("info", "listening", {
      url: `http://${hostname}:${port}`,
      ...(cluster.isWorker && { worker: Number(process.env.PAYGATE_WORKER_INDEX) }),
    });
  });

  /**
   * SIGTERM (or SIGINT): stop accepting connections, let the requests in flight finish (their connections
   * then close), stop the background jobs once the work they hold is done (lib/jobs), close the database, exit 0.
   * Whatever is still running after SHUTDOWN_GRACE_SECONDS is cut off: a delivery left `sending` is claimed
   * again by another relay once its lock runs out, so nothing is lost.
   */
  let stopping = false;
  function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    draining = true;
    const started = Date.now();
    logLine("info", "shutting down", { signal, graceSeconds });
    const lifecycle = globalThis[Symbol.for("paygate.lifecycle")];
    const grace = setTimeout(() => {
      logLine("warn", "shutdown grace period over; exiting with work unfinished", { graceSeconds });
      process.exit(0);
    }, graceSeconds * 1000);
    grace.unref();
    const closed = new Promise((resolve) => server.close(resolve));
    // Kept-alive connections with no request in flight are closed now and as they become idle.
    server.closeIdleConnections();
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    Promise.all([closed, lifecycle?.drain()])
      .then(() => lifecycle?.close())
      .then(
        () => {
          logLine("info", "stopped", { ms: Date.now() - started });
          process.exit(0);
        },
        (err) => {
          logLine("error", "shutdown failed", { error: String(err?.message ?? err) });
          process.exit(1);
        },
      );
  }
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => shutdown(signal));
}
