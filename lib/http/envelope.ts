import type { ErrorCode, FieldIssue } from "@/lib/core/errors";

/** The success envelope (docs/api.md). */
export type SuccessBody<T> = { status: "success"; data: T };
/** The failure envelope (docs/api.md). */
export type FailureBody = { status: "failed"; error: ErrorCode; message: string };

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function successBody<T>(data: T): SuccessBody<T> {
  return { status: "success", data };
}

export function failureBody(error: ErrorCode, message: string): FailureBody {
  return { status: "failed", error, message };
}

/**
 * The console's own failure envelope (/dashboard/api): the API's, plus a `validation_error`'s failing fields
 * (`fields: [{field, rule, message}]`) for its forms to show beside their controls. The /v1 envelope has no
 * `fields` (docs/api.md "Errors").
 */
export type ConsoleFailureBody = FailureBody & { fields?: FieldIssue[] };

export function consoleFailureBody(
  error: ErrorCode,
  message: string,
  fields: readonly FieldIssue[] = [],
): ConsoleFailureBody {
  return { ...failureBody(error, message), ...(fields.length > 0 && { fields: [...fields] }) };
}
