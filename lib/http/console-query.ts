import { headers } from "next/headers";
import type { z } from "zod";
import { isAppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/validation";
import { readQuery } from "./query";

/**
 * The query string of a console route handler, by the API's rules: decoded and checked as withApi reads one
 * (lib/http/query.ts: valid percent-encoded UTF-8, no NUL), then `schema`. Throws 400 `validation_error`
 * naming the parameter and the rule.
 */
export function consoleRouteQuery<S extends z.ZodType>(schema: S, request: Request): z.output<S> {
  return parseOrThrow(schema, readQuery(new URL(request.url).search), "query");
}

/**
 * The query string of the console page being rendered, by the same rules: read from the address proxy.ts
 * passes on (`x-console-path`), as a route reads `request.url`, rather than from the page's `searchParams`,
 * so repeated and bracketed parameters are seen as the API sees them. (Next has decoded and encoded the
 * address again by then: bytes that were not UTF-8 arrive as U+FFFD, which readQuery refuses.) A page shows
 * the problem instead of its data.
 */
export async function consolePageQuery<S extends z.ZodType>(
  schema: S,
  options: { dropEmpty?: boolean } = {},
): Promise<{ ok: true; data: z.output<S> } | { ok: false; problem: string }> {
  const address = (await headers()).get("x-console-path") ?? "";
  const at = address.indexOf("?");
  try {
    const query = readQuery(at < 0 ? "" : address.slice(at));
    // A form's "any" choice arrives as an empty value: no filter.
    if (options.dropEmpty)
      for (const [name, value] of Object.entries(query)) if (value === "") delete query[name];
    return { ok: true, data: parseOrThrow(schema, query, "query") };
  } catch (err) {
    if (isAppError(err) && err.code === "validation_error") return { ok: false, problem: err.message };
    throw err;
  }
}
