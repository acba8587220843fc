import { randomUUID } from "node:crypto";
import { PaygateError } from "./errors.js";

/** How one call is sent: its idempotency key, its time budget and its retries. */
export type CallOptions = {
  /** Sent as `Idempotency-Key` on a POST; one is generated per call when not given, the same on every retry. */
  idempotencyKey?: string;
  /** Milliseconds one HTTP attempt may take before it is abandoned (and retried). Default: the client's. */
  timeoutMs?: number;
  /** Retries after the first attempt on a network error, a timeout, 429, 5xx or `idempotency_in_progress`. */
  maxRetries?: number;
  /** Cancels the call, retries included. */
  signal?: AbortSignal;
  /** The checkout's access code, for the `/payment/checkout/...` calls. */
  accessCode?: string;
};

export type RetryPolicy = {
  timeoutMs: number;
  maxRetries: number;
  /** First backoff; each retry doubles it, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the failure is thrown instead. */
  maxRetryAfterMs: number;
  fetch: typeof fetch;
  /** Called before each retry (tests and logs). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; request: Request }) => void;
};

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Retry-After in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function backoffMs(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * A fetch for one call: adds the Idempotency-Key of the call to a POST, abandons an attempt after
 * `timeoutMs`, and retries network errors, timeouts, 429, 5xx and a key still in flight, waiting as
 * Retry-After says or backing off exponentially with jitter. The answer it returns is the last one.
 */
export function callFetch(policy: RetryPolicy, call: CallOptions = {}): typeof fetch {
  const timeoutMs = call.timeoutMs ?? policy.timeoutMs;
  const maxRetries = call.maxRetries ?? policy.maxRetries;
  const idempotencyKey = call.idempotencyKey ?? randomUUID();
  return async (input, init) => {
    const original = new Request(input, init);
    if (original.method === "POST" && !original.headers.has("idempotency-key"))
      original.headers.set("idempotency-key", idempotencyKey);
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
      const request = new Request(original.clone(), { signal });
      let reason: string;
      let wait: number | null = null;
      try {
        const response = await policy.fetch(request);
        if (!(await retryable(response))) return response;
        reason = `status ${response.status}`;
        wait = retryAfterMs(response.headers.get("retry-after"));
        if (attempt >= maxRetries || (wait !== null && wait > policy.maxRetryAfterMs)) return response;
        await response.body?.cancel().catch(() => {});
      } catch (err) {
        if (call.signal?.aborted) throw call.signal.reason ?? err;
        const timedOut = timeout.aborted;
        if (attempt >= maxRetries) {
          throw new PaygateError({
            status: 0,
            code: timedOut ? "timeout" : "network_error",
            message: timedOut
              ? `${original.method} ${new URL(original.url).pathname}: no answer within ${timeoutMs} ms (${attempt + 1} attempts)`
              : `${original.method} ${new URL(original.url).pathname}: ${(err as Error).message} (${attempt + 1} attempts)`,
            cause: err,
          });
        }
        reason = timedOut ? "timeout" : `network error: ${(err as Error).message}`;
      }
      const delayMs = wait ?? backoffMs(attempt, policy);
      policy.onRetry?.({ attempt: attempt + 1, delayMs, reason, request: original });
      await sleep(delayMs, call.signal);
    }
  };
}

async function retryable(response: Response): Promise<boolean> {
  if (RETRY_STATUSES.has(response.status)) return true;
  if (response.status !== 409) return false;
  // The same Idempotency-Key is still being worked on: its answer will be there shortly.
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: string } | null;
  return body?.error === "idempotency_in_progress";
}
