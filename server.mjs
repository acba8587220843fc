// The service's process: Next.js behind a small node:http front that records the caller's address.
// Next's own server keeps a client-sent X-Forwarded-For as the client address, which would let anyone
// dodge the per-address rate limits; here the socket's address is used unless TRUST_PROXY is set.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import next from "next";

const port = Number(process.env.PORT || 3000);
// lib/env.ts checks every setting once Next has loaded, but the port is needed first: refuse a bad one the
// same way (listen() would throw a RangeError with a stack).
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  process.stderr.write(
    `\nThe service cannot start.\nInvalid configuration:\n  PORT: must be a whole number from 1 to 65535 (got ${JSON.stringify(process.env.PORT)})\n\n`,
  );
  process.exit(1);
}
const hostname = process.env.HOSTNAME || "0.0.0.0";
const trustProxy = process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true";
const CLIENT_ADDRESS_HEADER = "x-paygate-client-address";
// Tells the app (lib/http/client-address.ts), in this process only, that this front sets the header above on
// every request, so it may be trusted; under a bare `next start` it is not.
globalThis[Symbol.for("paygate.front")] = true;

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
// answered here in the API's envelope. Codes match lib/http/errors.ts.
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

const server = createServer((req, res) => {
  const refusal = precheck(req);
  if (refusal) return refuse(res, refusal);
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddress(req);
  handle(req, res).catch((err) => {
    const id = requestId();
    console.error(
      JSON.stringify({
        level: "error",
        msg: "request handler failed",
        requestId: id,
        error: String(err?.message ?? err),
      }),
    );
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
});
server.keepAliveTimeout = 65_000;
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
      : envelope(400, "bad_request", "The HTTP request is malformed.");
  const head = Object.entries({ ...answer.headers, connection: "close" })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n");
  const reason = answer.status === 431 ? "Request Header Fields Too Large" : "Bad Request";
  socket.end(`HTTP/1.1 ${answer.status} ${reason}\r\n${head}\r\n\r\n${answer.body}`);
});
server.listen(port, hostname, () => {
  console.log(JSON.stringify({ level: "info", msg: "listening", url: `http://${hostname}:${port}` }));
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}
