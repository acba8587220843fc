// A bare node:http server doing the database work of initialize and verify with the same domain code as the
// Next routes, but without Next: the "what would the same work cost without the framework" reference of
// `npm run bench`. Started by bench/api.ts as `node --import tsx bench/bare-server.ts` with DATABASE_URL set
// to a fresh SQLite file (and PORT, or any free port); it migrates, signs up one merchant and prints one line
//   {"benchReady":true,"port":<port>,"secretKey":"sk_test_..."}
// on stdout when it listens. Not part of the service.
//
//   POST /v1/payment/initialize       authenticateSecretKey + InitializeBody (zod) + initializePayment
//   GET  /v1/payment/verify/:ref      authenticateSecretKey + ReferenceParams (zod) + verifyPayment
//
// Unlike withApi it skips the request id, the Web Request/Response objects, the idempotency path and the
// request log line (LOG_LEVEL=error filters that one out in the Next server too).
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { AppError, isAppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/validation";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { authenticateSecretKey } from "@/lib/merchants/authenticate-secret-key";
import { signupMerchant } from "@/lib/merchants/signup-merchant";
import { initializePayment } from "@/lib/payments/initialize-payment";
import { InitializeBody, ReferenceParams } from "@/lib/payments/schemas";
import { verifyPayment } from "@/lib/payments/verify-payment";

const MAX_BODY_BYTES = 64 * 1024;
const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
const VERIFY_PATH = /^\/v1\/payment\/verify\/([^/?#]+)$/;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...JSON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new AppError("payload_too_large", "The body must not exceed 64 KiB."));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (size === 0) return resolve({});
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        reject(new AppError("invalid_json", "The body is not valid JSON."));
      }
    });
    req.on("error", reject);
  });
}

function apiKey(req: IncomingMessage): string | null {
  const header = req.headers["x-api-key"];
  return typeof header === "string" ? header : null;
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? "/").split("?", 1)[0] ?? "/";
  if (req.method === "POST" && path === "/v1/payment/initialize") {
    const auth = await authenticateSecretKey({ key: apiKey(req) });
    const body = parseOrThrow(InitializeBody, await readJson(req), "body");
    const data = await initializePayment({ merchantId: auth.merchantId, mode: auth.mode, payment: body });
    return send(res, 201, { status: "success", data });
  }
  const verify = req.method === "GET" ? VERIFY_PATH.exec(path) : null;
  if (verify) {
    const auth = await authenticateSecretKey({ key: apiKey(req) });
    const params = parseOrThrow(ReferenceParams, { reference: decodeURIComponent(verify[1] ?? "") }, "path");
    const data = await verifyPayment({
      merchantId: auth.merchantId,
      mode: auth.mode,
      reference: params.reference,
    });
    return send(res, 200, { status: "success", data });
  }
  if (req.method === "GET" && path === "/v1/ping")
    return send(res, 200, { status: "success", data: { ok: true } });
  throw new AppError("route_not_found", `No route ${req.method} ${path}.`);
}

async function main() {
  const { db } = database();
  await migrateToLatest(db);
  const merchant = await signupMerchant({
    businessName: "Bare Bench Store",
    email: "bare-bench@example.com",
    password: randomBytes(12).toString("base64url"),
    clientAddress: null,
  });

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return;
      if (isAppError(err)) {
        send(res, err.status, { status: "failed", error: err.code, message: err.message }, err.headers);
      } else {
        console.error(JSON.stringify({ level: "error", msg: "bare handler failed", error: String(err) }));
        send(res, 500, { status: "failed", error: "internal_error", message: "Something went wrong." });
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    process.stdout.write(
      `${JSON.stringify({ benchReady: true, port, secretKey: merchant.keys.test.secretKey })}\n`,
    );
  });

  // A clean exit on SIGTERM, so `--cpu-prof` (BENCH_CPU_PROF=1) gets to write its profile.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
      setTimeout(() => process.exit(0), 2_000).unref();
    });
  }
}

main().catch((err: unknown) => {
  console.error(
    `bare server failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exit(1);
});
