import type { z } from "zod";
import { assertSameOrigin, isHttps } from "@/lib/console/origin";
import { type ConsoleMerchant, sessionFromRequest } from "@/lib/console/session";
import { assertPermitted } from "@/lib/core/permit";
import type { Permission } from "@/lib/core/roles";
import { parseOrThrow } from "@/lib/core/validation";
import { readJsonObject } from "./body";
import { clientAddressOf } from "./client-address";
import { jsonResponse, successBody } from "./envelope";
import { respond } from "./with-api";

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
 * The wrapper of the console's own JSON route handlers under /dashboard/api (sign-in, sign-up, the mode switch,
 * and the routes that are no API endpoint): same-origin check on every mutation, the cookie session when
 * `session` is set, the API's zod schemas for bodies, and the console's envelope for answers and failures
 * (never a 500 for a bad request), through the API's one try/catch (`respond`, lib/http/with-api.ts). The
 * console's routes that are an API endpoint's are built from its definition instead (`consoleRoutes`,
 * lib/http/routes.ts). The domain work is the same `lib/` verbs the /v1 routes call.
 */
export function withConsole<S extends boolean, B extends z.ZodType | undefined = undefined>(
  options: { session: S; body?: B; permission?: S extends true ? Permission : never },
  handler: (ctx: Ctx<S, B>) => Promise<ConsoleResult>,
) {
  return (
    request: Request,
    context: { params: Promise<Record<string, string | string[] | undefined>> },
  ): Promise<Response> =>
    respond(request, { door: "console" }, async (requestId) => {
      const method = request.method.toUpperCase();
      if (method !== "GET" && method !== "HEAD") assertSameOrigin(request.headers);
      const merchant = (options.session ? await sessionFromRequest(request) : null) as Ctx<S, B>["merchant"];
      if (merchant) assertPermitted(merchant.principal, options.permission);
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
      return { response, merchantId: merchant?.merchantId };
    });
}
