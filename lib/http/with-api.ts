import type { z } from "zod";
import { assertSameOrigin } from "@/lib/console/origin";
import { sessionFromRequest } from "@/lib/console/session";
import type { Credential, EndpointContext, PrincipalFor } from "@/lib/core/endpoint";
import { AppError, type ErrorCode, isAppError } from "@/lib/core/errors";
import { metrics } from "@/lib/core/metrics";
import { assertPermitted } from "@/lib/core/permit";
import type { Principal } from "@/lib/core/principal";
import type { Permission } from "@/lib/core/roles";
import { parseOrThrow } from "@/lib/core/validation";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { authenticateSecretKey } from "@/lib/merchants/authenticate-secret-key";
import { authenticateSession } from "@/lib/merchants/authenticate-session";
import { authenticateAccessCode } from "@/lib/payments/authenticate-access-code";
import { pepper } from "@/lib/security/pepper";
import { keyedHash, newRequestId } from "@/lib/security/tokens";
import { readJsonBody } from "./body";
import { clientAddressOf } from "./client-address";
import { consoleFailureBody, failureBody, jsonResponse, successBody } from "./envelope";
import { checkIdempotencyKey, runIdempotent } from "./idempotency";
import { readQuery } from "./query";

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type ApiContext<A extends Credential, B, Q, P> = Omit<EndpointContext<A, B, Q, P>, "answerWith">;

/** What a handler returns: data for the success envelope, with 200 unless `status` says otherwise. */
export type ApiResult = { status?: number; data: unknown; headers?: Record<string, string> };

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

type Options<A extends Credential, B, Q, P> = {
  auth: A;
  body?: B;
  query?: Q;
  params?: P;
  /** Keep the body's exact text in `rawBody` (a signature over it is checked by the handler). */
  rawBody?: boolean;
  /**
   * The failure codes the endpoint declares (lib/core/endpoint.ts `declaredErrors`). With CHECK_DECLARED_ERRORS
   * (the test servers), a failure with any other code answers 500 `internal_error` and is logged as undeclared.
   */
  declared?: ReadonlySet<ErrorCode>;
  /** A session endpoint's permission (lib/core/roles.ts), checked before the request is read. */
  permission?: Permission;
};

function bearer(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

async function authenticate(kind: Credential, request: Request, clientAddress: string) {
  switch (kind) {
    case "secret_key":
      return authenticateSecretKey({ key: request.headers.get("x-api-key") ?? bearer(request) });
    case "session":
      return authenticateSession({ token: bearer(request) });
    case "access_code":
      return authenticateAccessCode({ accessCode: request.headers.get("x-access-code"), clientAddress });
    case "none":
      return { kind: "none" } as const;
  }
}

/** JSON with object keys sorted, so two bodies that mean the same hash the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Which door a request came through: the API's (a credential header), or the console's (its cookie). */
export type Door = "api" | "console";

type Shell = {
  door: Door;
  /** The failure codes the route declares; with CHECK_DECLARED_ERRORS any other answers 500 (see Options). */
  declared?: ReadonlySet<ErrorCode>;
};

type Served = { response: Response; merchantId?: string };

/**
 * The one try/catch of every JSON route, the API's and the console's (CONTRIBUTING.md "Routes are thin"): runs `work`, and
 * answers its response or its failure in the envelope (the console's carries a `validation_error`'s `fields`),
 * with an `x-request-id`, and logs the request. Handlers never catch.
 */
export async function respond(
  request: Request,
  shell: Shell,
  work: (requestId: string) => Promise<Served>,
): Promise<Response> {
  const started = performance.now();
  const requestId = newRequestId();
  const method = request.method.toUpperCase();
  const path = new URL(request.url).pathname;
  let errorCode: string | undefined;
  let merchantId: string | undefined;
  let response: Response;
  try {
    ({ response, merchantId } = await work(requestId));
  } catch (caught) {
    let err = caught;
    if (isAppError(err) && shell.declared && !shell.declared.has(err.code) && env().CHECK_DECLARED_ERRORS) {
      log.error("undeclared error code", { requestId, method, path, code: err.code });
      err = new Error(`${method} ${path} failed with ${err.code}, which its definition does not declare`);
    }
    if (isAppError(err)) {
      errorCode = err.code;
      if (err.code === "rate_limited") metrics().rateLimitRefusals.inc({ door: shell.door });
      response = jsonResponse(
        err.status,
        shell.door === "console"
          ? consoleFailureBody(err.code, err.message, err.fields)
          : failureBody(err.code, err.message),
        { ...err.headers, "x-request-id": requestId },
      );
    } else if (isDatabaseUnavailable(err)) {
      // The database is down or restarting: say so, and when to try again, instead of a 500.
      errorCode = "service_unavailable";
      log.warn("database unavailable", {
        requestId,
        method,
        path,
        error: err instanceof Error ? err.message : String(err),
      });
      response = jsonResponse(
        503,
        failureBody(
          "service_unavailable",
          `The service is briefly unavailable; try again in a few seconds. Request id ${requestId}.`,
        ),
        { "retry-after": "2", "x-request-id": requestId },
      );
    } else {
      errorCode = "internal_error";
      log.error(shell.door === "console" ? "unhandled console error" : "unhandled error", {
        requestId,
        method,
        path,
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      response = jsonResponse(
        500,
        failureBody(
          "internal_error",
          `Something went wrong on our side. Quote request id ${requestId} to support.`,
        ),
        { "x-request-id": requestId },
      );
    }
  }
  log.info("request", {
    requestId,
    method,
    path,
    status: response.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    merchantId,
    error: errorCode,
  });
  return response;
}

/** The principal of a request: its credential header, or on the console's door its session cookie. */
async function principalOf(
  kind: Credential,
  door: Door,
  request: Request,
  clientAddress: string,
): Promise<Principal> {
  if (door === "api" || kind !== "session") return authenticate(kind, request, clientAddress);
  // The console acts in the mode its switch shows (lib/console/cookies.ts), not the deployment's.
  const merchant = await sessionFromRequest(request);
  return { ...merchant.principal, mode: merchant.mode };
}

/**
 * The one wrapper every API route goes through, and the console's routes that are an API endpoint's
 * (`door: "console"`): authenticates, parses and validates body, query and path, applies `Idempotency-Key` on
 * POSTs, runs the handler, and turns its result or its error into the envelope (`respond`).
 * On the console's door mutations must be same-origin, the session is the cookie's (in the console's mode),
 * and a key is checked and handed to the verb (which records it) rather than replayed.
 */
export function withApi<
  A extends Credential,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(
  options: Options<A, B, Q, P> & { door?: Door },
  handler: (ctx: ApiContext<A, B, Q, P>) => Promise<ApiResult>,
): RouteHandler {
  const door = options.door ?? "api";
  return (request, context) =>
    respond(request, { door, declared: options.declared }, async (requestId) => {
      const method = request.method.toUpperCase();
      const url = new URL(request.url);
      const path = url.pathname;
      const clientAddress = clientAddressOf(request.headers);
      if (door === "console" && method !== "GET" && method !== "HEAD") assertSameOrigin(request.headers);
      const auth = (await principalOf(options.auth, door, request, clientAddress)) as PrincipalFor<A>;
      const merchantId = auth.kind !== "none" ? auth.merchantId : undefined;
      if (auth.kind === "session") assertPermitted(auth, options.permission);
      const hasBody = method === "POST" || method === "PUT" || method === "PATCH";
      const read = hasBody ? await readJsonBody(request) : undefined;
      const rawBody = read?.value;
      const body = (
        options.body ? parseOrThrow(options.body, rawBody ?? {}, "body") : undefined
      ) as Output<B>;
      // Most calls have no query string: skip building and walking an empty object.
      const rawQuery = url.search === "" ? {} : readQuery(url.search);
      const query = (options.query ? parseOrThrow(options.query, rawQuery, "query") : undefined) as Output<Q>;
      const params = (
        options.params ? parseOrThrow(options.params, await context.params, "path") : undefined
      ) as Output<P>;
      const idempotencyKey = request.headers.get("idempotency-key");
      const keyed = idempotencyKey !== null && method === "POST" && auth.kind !== "none";
      if (keyed) checkIdempotencyKey(idempotencyKey);
      // Keyed (HMAC with the pepper), never a plain SHA-256: a card body's hash with the stored brand,
      // last 4 and expiry would be a small brute force away from the PAN and CVV (docs/api.md).
      const replays = keyed && door === "api";
      const requestHash = replays ? keyedHash(await pepper(), canonicalJson(rawBody ?? {})) : null;
      const ctx: ApiContext<A, B, Q, P> = {
        auth,
        body,
        query,
        params,
        requestId,
        clientAddress,
        idempotencyKey: keyed ? idempotencyKey : null,
        idempotencyRequestHash: requestHash,
        rawBody: options.rawBody ? (read?.text ?? "") : "",
        headers: request.headers,
      };

      if (replays && idempotencyKey !== null && requestHash !== null) {
        const answer = await runIdempotent(
          {
            merchantId: auth.merchantId,
            mode: auth.mode,
            method,
            // A checkout's keys are its own: two customers of one merchant whose pages send the same key are
            // two charges, so an access code's scope is its transaction's resource, not the merchant's path.
            path: auth.kind === "access_code" ? `${path}#${auth.transactionId}` : path,
            key: idempotencyKey,
          },
          requestHash,
          async () => {
            const result = await handler(ctx);
            return { status: result.status ?? 200, body: successBody(result.data) };
          },
        );
        return {
          merchantId,
          response: jsonResponse(
            answer.status,
            answer.body,
            answer.replayed
              ? { "idempotent-replayed": "true", "x-request-id": requestId }
              : { "x-request-id": requestId },
          ),
        };
      }
      const result = await handler(ctx);
      return {
        merchantId,
        response: jsonResponse(result.status ?? 200, successBody(result.data), {
          ...result.headers,
          "x-request-id": requestId,
        }),
      };
    });
}

/** 405 for the methods a route does not serve, in the envelope (Next's own 405 has an empty body). */
export function methodsNotAllowed(...allowed: string[]) {
  const handler: RouteHandler = async (request) => {
    const response = jsonResponse(
      405,
      failureBody(
        "method_not_allowed",
        `${request.method} is not allowed here; use ${allowed.join(" or ")}.`,
      ),
      { allow: allowed.join(", ") },
    );
    response.headers.set("x-request-id", newRequestId());
    return response;
  };
  // OPTIONS answers what this route really serves (Next's automatic answer lists every method).
  const options: RouteHandler = async () =>
    new Response(null, {
      status: 204,
      headers: { allow: [...allowed, "OPTIONS"].join(", "), "x-request-id": newRequestId() },
    });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: options };
}

export { AppError };
