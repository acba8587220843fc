/** The console's own JSON routes (/dashboard/api), as its client components call them: cookie, envelope. */

export class ConsoleError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus: number,
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
  } | null;
  if (!res.ok || json?.status !== "success") {
    if (res.status === 401 && json?.error === "invalid_session" && !path.startsWith("auth/")) {
      // The session ended (expired or signed out elsewhere): sign in again, then come back here.
      const next = window.location.pathname + window.location.search;
      window.location.assign(`/dashboard/login?expired=1&next=${encodeURIComponent(next)}`);
    }
    throw new ConsoleError(json?.error ?? "network_error", json?.message ?? NETWORK_MESSAGE, res.status);
  }
  return json.data as T;
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
 * A validation message ("title must not be empty; amount is required") split per field: the API's messages
 * begin with the field they name, so each can be shown beside its control.
 */
export function fieldErrors(
  err: unknown,
  fields: readonly string[],
): { byField: Record<string, string>; rest: string | null } {
  if (!(err instanceof ConsoleError) || err.code !== "validation_error")
    return { byField: {}, rest: err ? messageOf(err) : null };
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of err.message.split("; ")) {
    const field = fields.find(
      (f) => part === f || part.startsWith(`${f} `) || part.startsWith(`${f}.`) || part.startsWith(`${f}[`),
    );
    if (field && !byField[field]) byField[field] = part;
    else rest.push(part);
  }
  return { byField, rest: rest.length ? rest.join("; ") : null };
}
