import { env } from "@/lib/env";
import { Envelope } from "./shapes";

/**
 * One call to Paystack's API (PAYSTACK_BASE_URL): `Authorization: Bearer <secret key>`, JSON both ways, a
 * timeout (PAYSTACK_TIMEOUT_MS). Amounts go out as JSON integers written from bigints digit for digit (no
 * float ever holds one) and come back as JSON integers read only when they are safe integers. Nothing here
 * logs: a body may hold card data and the header holds the key.
 */
export type Answer = {
  kind: "answer";
  /** The HTTP status. */
  status: number;
  /** The envelope, or null when the body was not Paystack's JSON (a proxy's error page, say). */
  body: { status: boolean; message?: string; data?: unknown } | null;
};

/**
 * No answer came back. `sent: "no"` when the request cannot have reached Paystack (no connection was made),
 * `"maybe"` when it may have (a timeout, a connection cut mid-way): Paystack may have acted on it.
 */
export type NoAnswer = { kind: "no_answer"; sent: "no" | "maybe"; error: string };

export type Call = {
  method: "GET" | "POST";
  /** A path of the document, with its parameters filled in: `/charge/submit_otp`, `/refund/123`. */
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
};

/** JSON with bigints written as integers (JSON.stringify refuses them; a Number could round them). */
export function encodeJson(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(encodeJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}:${encodeJson(v)}`);
    }
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A JSON integer read back as a bigint; null when it is not a whole number within 2^53 (never rounded). */
export function minorFromJson(value: unknown): bigint | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^-?\d{1,18}$/.test(value)) return BigInt(value);
  return null;
}

/** Errors of a connection that was never made: the request cannot have reached Paystack. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function causeCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let i = 0; i < 4 && current; i++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export async function paystackCall(secretKey: string, call: Call): Promise<Answer | NoAnswer> {
  const url = new URL(`${env().PAYSTACK_BASE_URL}${call.path}`);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await fetch(url, {
      method: call.method,
      headers: {
        authorization: `Bearer ${secretKey}`,
        accept: "application/json",
        ...(call.body && { "content-type": "application/json" }),
      },
      body: call.body ? encodeJson(call.body) : undefined,
      signal: AbortSignal.timeout(env().PAYSTACK_TIMEOUT_MS),
      redirect: "error",
    });
  } catch (err) {
    const code = causeCode(err);
    return {
      kind: "no_answer",
      sent: code && NOT_SENT.has(code) ? "no" : "maybe",
      error: code ?? (err instanceof Error ? err.name : "error"),
    };
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    return { kind: "no_answer", sent: "maybe", error: causeCode(err) ?? "body_cut" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "answer", status: res.status, body: null };
  }
  const parsed = Envelope.safeParse(json);
  return { kind: "answer", status: res.status, body: parsed.success ? parsed.data : null };
}
