import { AppError, isAppError } from "@/lib/core/errors";

/** Largest request body accepted (docs/api.md). */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Read a request body as a JSON object, refusing (in this order) bodies over 64 KiB (413), bodies that are not
 * declared JSON (415), and text that is not UTF-8 JSON or not an object (400 invalid_json). An empty body is
 * `{}` whatever its type, so endpoints without a body can be called without one.
 */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  return (await readJsonBody(request)).value;
}

/**
 * readJsonObject, with the body's exact text too: what a signature over the raw body (a processor's webhook)
 * is checked against. The text of an empty body is "".
 */
export async function readJsonBody(
  request: Request,
): Promise<{ value: Record<string, unknown>; text: string }> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const bytes = await readLimited(request);
  if (bytes.length === 0) return { value: {}, text: "" };
  const contentType = request.headers.get("content-type") ?? "";
  if (!JSON_TYPE.test(contentType.trim())) {
    throw new AppError(
      "unsupported_media_type",
      `Content-Type must be application/json for a request with a body (got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : "none"}).`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new AppError("invalid_json", "The body is not valid UTF-8 text.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("invalid_json", `The body is not valid JSON: ${parseErrorDetail(err)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError("invalid_json", `The body must be a JSON object, not ${describeValue(value)}.`);
  }
  assertCleanText(value, "body");
  return { value: value as Record<string, unknown>, text };
}

/**
 * How deep objects and arrays may nest in a body or query. Far beyond any field's own rule (metadata allows
 * 8 levels), and far below what a recursive walk (the idempotency fingerprint, zod, JSON.stringify) can take:
 * 64 KiB of `[` is 65,536 levels, enough to exhaust the stack of any of them.
 */
export const MAX_NESTING = 64;

/**
 * Refuse text the databases would not keep as sent: NUL characters (PostgreSQL rejects them), unpaired
 * surrogates (each database rewrites them differently), `__proto__` keys (dropped by object copies), and
 * nesting deeper than MAX_NESTING. Every body and query passes here before anything else walks it; this
 * walk is iterative, so no depth can exhaust its stack. Names the first offending field.
 */
export function assertCleanText(value: unknown, where: string): void {
  const stack: Array<[unknown, string, number]> = [[value, "", 0]];
  while (stack.length > 0) {
    const [node, path, depth] = stack.pop() as [unknown, string, number];
    if (typeof node === "string") {
      checkString(node, path || where);
    } else if (node !== null && typeof node === "object") {
      if (depth >= MAX_NESTING) {
        const field = /^[^.[]+/.exec(path)?.[0];
        throw new AppError(
          "validation_error",
          `${field === undefined ? where : `${where} field ${JSON.stringify(field)}`} must not nest objects or arrays more than ${MAX_NESTING} levels deep.`,
        );
      }
      const isArray = Array.isArray(node);
      for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
        if (!isArray) {
          if (key === "__proto__")
            throw new AppError("validation_error", `${path || where} must not have a "__proto__" key.`);
          checkString(key, `${path || where} key`);
        }
        stack.push([child, isArray ? `${path}[${key}]` : path ? `${path}.${key}` : key, depth + 1]);
      }
    }
  }
}

function checkString(text: string, field: string): void {
  if (text.includes("\u0000"))
    throw new AppError("validation_error", `${field} must not contain NUL (\\u0000) characters.`);
  if (!text.isWellFormed()) {
    throw new AppError(
      "validation_error",
      `${field} must be well-formed Unicode (it has an unpaired surrogate).`,
    );
  }
}

/**
 * What JSON.parse found wrong, without the excerpt of the body V8 quotes in some messages
 * (`Unexpected token 'x', "x4242424242424242" is not valid JSON`): the body may hold a card number, a
 * password or a secret, and an answer never echoes those. Messages with a position quote nothing; they stay.
 */
function parseErrorDetail(err: unknown): string {
  const message = err instanceof Error ? err.message : "";
  if (!message.endsWith("is not valid JSON")) return message.slice(0, 200) || "parse error";
  const token = /^Unexpected token '(.)'/u.exec(message)?.[1];
  return token === undefined ? "it is not a JSON value" : `unexpected character ${JSON.stringify(token)}`;
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function tooLarge() {
  return new AppError("payload_too_large", `The body must not exceed ${MAX_BODY_BYTES} bytes (64 KiB).`);
}

/**
 * A body whose reading failed: the client closed the connection before its end, or the front (server.mjs) cut
 * it at REQUEST_TIMEOUT_SECONDS and has answered 408 itself. Nobody hears this answer; it keeps the request's
 * log line a 4xx of its own instead of an "unhandled error" with a stack.
 */
function unfinished(): AppError {
  return new AppError(
    "invalid_json",
    "The body did not arrive whole: the connection closed, or the request ran out of time, before its end.",
  );
}

async function readLimited(request: Request): Promise<Uint8Array> {
  try {
    return await readAll(request);
  } catch (err) {
    if (isAppError(err)) throw err;
    throw unfinished();
  }
}

async function readAll(request: Request): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  // With a declared length (checked against the limit above) one read is enough; the stream loop below
  // is for chunked bodies, whose size is only known by counting.
  if (request.headers.has("content-length")) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
