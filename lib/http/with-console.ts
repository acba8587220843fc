import type { z } from "zod";
import { assertSameOrigin, isHttps } from "@/lib/console/origin";
import { type ConsoleMerchant, sessionFromRequest } from "@/lib/console/session";
import { isAppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/validation";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { log } from "@/lib/log";
import { newRequestId } from "@/lib/security/tokens";
import { readJsonObject } from "./body";
import { clientAddressOf } from "./client-address";
import { consoleFailureBody, failureBody, jsonResponse, successBody } from "./envelope";

type Cookie = { name: string; value: string; options: Record<string, unknown> };

export type ConsoleResult = { status?: number; data: unknown; cookies?: Cookie[] };

type Ctx<S extends boolean, B> = {
  request: Request;
  merchant: S extends true ? ConsoleMerchant : null;
  body: B extends z.ZodType ? z.output<B> : undefined;
  clientAddress: string;
  https: boolean;
  params: Record<string, string>;
};

function serializeCookie({ name, value, options }: Cookie): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.path) parts.push(`Path=${options.path}`);
  if (options.expires instanceof Date) parts.push(`Expires=${options.expires.toUTCString()}`);
  if (typeof options.maxAge === "number") parts.push(`Max-Age=${options.maxAge}`);
  if (options.httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  if (options.sameSite) parts.push("SameSite=Lax");
  return parts.join("; ");
}

/**
 * The wrapper of the console's JSON route handlers under /dashboard/api: same-origin check on every
 * mutation, the cookie session when `session` is set, the API's zod schemas for bodies, and the API envelope
 * for answers and failures (never a 500 for a bad request). The domain work is the same `lib/` verbs the
 * /v1 routes call.
 */
export function withConsole<S extends boolean, B extends z.ZodType | undefined = undefined>(
  options: { session: S; body?: B },
  handler: (ctx: Ctx<S, B>) => Promise<ConsoleResult>,
) {
  return async (
    request: Request,
    context: { params: Promise<Record<string, string | string[] | undefined>> },
  ): Promise<Response> => {
    const requestId = newRequestId();
    const method = request.method.toUpperCase();
    try {
      if (method !== "GET" && method !== "HEAD") assertSameOrigin(request.headers);
      const merchant = (options.session ? await sessionFromRequest(request) : null) as Ctx<S, B>["merchant"];
      const raw = method === "GET" ? {} : await readJsonObject(request);
      const body = (options.body ? parseOrThrow(options.body, raw, "body") : undefined) as Ctx<S, B>["body"];
      const params = Object.fromEntries(
        Object.entries((await context.params) ?? {}).map(([k, v]) => [k, String(v)]),
      );
      const result = await handler({
        request,
        merchant,
        body,
        clientAddress: clientAddressOf(request.headers),
        https: isHttps(request),
        params,
      });
      const response = jsonResponse(result.status ?? 200, successBody(result.data), {
        "x-request-id": requestId,
      });
      for (const c of result.cookies ?? []) response.headers.append("set-cookie", serializeCookie(c));
      return response;
    } catch (err) {
      if (isAppError(err)) {
        return jsonResponse(err.status, consoleFailureBody(err.code, err.message, err.fields), {
          ...err.headers,
          "x-request-id": requestId,
        });
      }
      if (isDatabaseUnavailable(err)) {
        return jsonResponse(
          503,
          failureBody(
            "service_unavailable",
            "The service is briefly unavailable; try again in a few seconds.",
          ),
          { "retry-after": "2", "x-request-id": requestId },
        );
      }
      log.error("unhandled console error", {
        requestId,
        method,
        path: new URL(request.url).pathname,
        error: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
      });
      return jsonResponse(
        500,
        failureBody(
          "internal_error",
          `Something went wrong on our side. Quote request id ${requestId} to support.`,
        ),
        { "x-request-id": requestId },
      );
    }
  };
}
