import type { z } from "zod";
import type { FieldIssue } from "@/lib/core/errors";
import { validationFailure } from "@/lib/core/validation";

/** The console's own JSON routes (/dashboard/api), as its client components call them: cookie, envelope. */

export class ConsoleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
    /** A `validation_error`'s failing fields, as the console's routes answer them (lib/http/envelope.ts). */
    readonly fields: readonly FieldIssue[] = [],
  ) {
    super(message);
  }
}

const NETWORK_MESSAGE = "Could not reach Paygate. Check your connection and try again.";

export async function consoleCall<T>(
  method: "GET" | "POST" | "PUT" | "PATCH",
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/dashboard/api/${path}`, {
      method,
      headers: {
        accept: "application/json",
        ...(method !== "GET" && { "content-type": "application/json" }),
        ...headers,
      },
      body: method === "GET" ? undefined : JSON.stringify(body ?? {}),
      cache: "no-store",
      credentials: "same-origin",
    });
  } catch {
    throw new ConsoleError("network_error", NETWORK_MESSAGE, 0);
  }
  const json = (await res.json().catch(() => null)) as {
    status?: string;
    data?: T;
    error?: string;
    message?: string;
    fields?: FieldIssue[];
  } | null;
  if (!res.ok || json?.status !== "success") {
    if (res.status === 401 && json?.error === "invalid_session" && !path.startsWith("auth/")) {
      // The session ended (expired or signed out elsewhere): sign in again, then come back here.
      const next = window.location.pathname + window.location.search;
      window.location.assign(`/dashboard/login?expired=1&next=${encodeURIComponent(next)}`);
    }
    throw new ConsoleError(
      json?.error ?? "network_error",
      json?.message ?? NETWORK_MESSAGE,
      res.status,
      Array.isArray(json?.fields) ? json.fields : [],
    );
  }
  return json.data as T;
}

/**
 * A body checked in the browser with the route's own schema before it is sent (and returned as it was, for
 * the route to parse again): a failure is the same `validation_error` with the same fields the route would
 * answer, and nothing is sent. `more` adds failures
 * the schema cannot see alone (an amount in the chosen currency's decimals).
 */
export function checkBody<B>(schema: z.ZodType, body: B, more: FieldIssue[] = []): B {
  const result = schema.safeParse(body);
  const issues = result.success ? [] : [...validationFailure(result.error.issues, "body").fields];
  for (const extra of more) if (!issues.some((i) => i.field === extra.field)) issues.push(extra);
  if (issues.length > 0 || !result.success) {
    throw new ConsoleError("validation_error", `${issues.map((i) => i.message).join("; ")}.`, 400, issues);
  }
  return body;
}

/** A fresh `Idempotency-Key` (128 random bits; getRandomValues works on plain-HTTP origins too). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export function messageOf(err: unknown): string {
  return err instanceof ConsoleError ? err.message : NETWORK_MESSAGE;
}

/**
 * A failure split per form control: each failing field the route named (`fields`, by path) goes beside the
 * control it belongs to (its first path segment: `metadata.fields[0].label` belongs to `metadata`); what no
 * control of this form shows stays one message for the form.
 */
export function fieldErrors(
  err: unknown,
  controls: readonly string[],
): { byField: Record<string, string>; rest: string | null } {
  if (!(err instanceof ConsoleError) || err.code !== "validation_error" || err.fields.length === 0)
    return { byField: {}, rest: err ? messageOf(err) : null };
  return splitByControl(err.fields, controls);
}

/** Field failures by the control they belong to; the rest as one sentence. */
export function splitByControl(
  issues: readonly FieldIssue[],
  controls: readonly string[],
): { byField: Record<string, string>; rest: string | null } {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of issues) {
    const control = controls.find((c) => controlOf(issue.field) === c || issue.field === c);
    if (control && !byField[control]) byField[control] = `${issue.message}.`;
    else if (!control) rest.push(issue.message);
  }
  return { byField, rest: rest.length ? `${rest.join("; ")}.` : null };
}

/** A field path's first segment: "metadata.fields[0].label" -> "metadata". */
function controlOf(path: string): string {
  return /^[^.[]+/.exec(path)?.[0] ?? path;
}
