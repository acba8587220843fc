import type { ErrorCode } from "@/lib/core/errors";

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
