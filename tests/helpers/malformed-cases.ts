import { connect } from "node:net";
import { expect } from "vitest";
import type { ApiResponse, Merchant } from "./api";
import { randomAddress, uniqueEmail } from "./api";

/**
 * Building blocks of the malformed-input sweep (tests/malformed.test.ts): request specs sent either through
 * fetch or, for bytes fetch refuses or normalises (NUL in a header, a Content-Length that lies, `%2e%2e`), as
 * raw HTTP/1.1 over a socket; the assertions every answer must pass; and generators of bad values.
 */

/** What one case knows when it builds its request: the target and the credentials of its describe block. */
export type Ctx = {
  url: string;
  merchant: Merchant;
  /** An access code and reference of a pending transaction of `merchant` (where the block made one). */
  accessCode: string;
  reference: string;
};

export type Spec = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Serialised with JSON.stringify and sent as application/json (unless headers say otherwise). */
  json?: unknown;
  /** Sent exactly as given; a string is UTF-8, a Uint8Array goes without a content-type of its own. */
  body?: string | Uint8Array;
  /** A whole HTTP/1.1 request, written to a socket as is. */
  raw?: Buffer;
};

export type Expect = {
  /** One status or the statuses that are all acceptable. */
  status: number | readonly number[];
  error?: string | readonly string[];
  /** Strings the message must contain: the field named by a validation error. */
  mentions?: readonly string[];
  /** `Allow` the answer must carry (405). */
  allow?: string;
};

export type Case = {
  name: string;
  request: (ctx: Ctx) => Spec;
  expect?: Expect;
  /** Checks after the standard ones, e.g. that a refused signup left no account behind. */
  after?: (ctx: Ctx, res: ApiResponse) => Promise<void>;
  /** Skip the standard checks: the case checks one property only (reported apart from the others). */
  only?: boolean;
};

// ---------------------------------------------------------------------------------------------------------
// Sending

export async function send(ctx: Ctx, spec: Spec, address = randomAddress()): Promise<ApiResponse> {
  if (spec.raw) return rawHttp(ctx.url, spec.raw);
  const headers: Record<string, string> = { "x-forwarded-for": address };
  let body: string | Uint8Array | undefined = spec.body;
  if (spec.json !== undefined) {
    body = JSON.stringify(spec.json);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, spec.headers);
  const res = await fetch(`${ctx.url}${spec.path}`, {
    method: spec.method,
    headers,
    body: body as BodyInit | undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: parseJson(text), text };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `GET /path HTTP/1.1` with the given header lines (duplicates allowed) and body, as bytes. */
export function rawRequest(
  url: string,
  method: string,
  path: string | Buffer,
  headers: Array<[string, string | Buffer]>,
  body?: string | Buffer,
): Buffer {
  const host = new URL(url).host;
  const parts: Buffer[] = [Buffer.from(`${method} `), Buffer.from(path), Buffer.from(" HTTP/1.1\r\n")];
  const all: Array<[string, string | Buffer]> = [
    ["Host", host],
    ["X-Forwarded-For", randomAddress()],
    ["Connection", "close"],
    ...headers,
  ];
  for (const [name, value] of all)
    parts.push(Buffer.from(`${name}: `), Buffer.from(value), Buffer.from("\r\n"));
  parts.push(Buffer.from("\r\n"));
  if (body !== undefined) parts.push(Buffer.from(body));
  return Buffer.concat(parts);
}

/** Chunked transfer encoding of `body` in chunks of `size` bytes. */
export function chunked(body: Buffer, size = 8192): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    const chunk = body.subarray(i, i + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** Write `request` to the server's socket and parse the first HTTP response that comes back. */
export function rawHttp(url: string, request: Buffer, timeoutMs = 10_000): Promise<ApiResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (ended: boolean) => {
      if (settled) return;
      const parsed = parseResponse(Buffer.concat(chunks), ended);
      if (parsed) {
        settled = true;
        socket.destroy();
        resolve(parsed);
      } else if (ended) {
        settled = true;
        socket.destroy();
        reject(new Error(`no complete HTTP response: ${JSON.stringify(Buffer.concat(chunks).toString())}`));
      }
    };
    socket.setTimeout(timeoutMs, () => {
      settled = true;
      socket.destroy();
      reject(
        new Error(`no answer within ${timeoutMs} ms: ${JSON.stringify(Buffer.concat(chunks).toString())}`),
      );
    });
    socket.on("connect", () => socket.write(request));
    socket.on("data", (d: Buffer) => {
      chunks.push(d);
      settle(false);
    });
    socket.on("end", () => settle(true));
    socket.on("close", () => settle(true));
    // The server may answer (413) and close while we are still writing: EPIPE/ECONNRESET then is expected.
    socket.on("error", () => settle(true));
  });
}

function parseResponse(buf: Buffer, ended: boolean): ApiResponse | undefined {
  const headEnd = buf.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const lines = buf.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1]);
  if (!status) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const rest = buf.subarray(headEnd + 4);
  let bodyBuf: Buffer;
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", offset);
      if (lineEnd < 0) return ended ? finish(Buffer.concat(parts)) : undefined;
      const size = Number.parseInt(rest.subarray(offset, lineEnd).toString(), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size) return ended ? finish(Buffer.concat(parts)) : undefined;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
    }
    bodyBuf = Buffer.concat(parts);
  } else if (headers.has("content-length")) {
    const length = Number(headers.get("content-length"));
    if (rest.length < length) return ended ? finish(rest) : undefined;
    bodyBuf = rest.subarray(0, length);
  } else {
    if (!ended) return undefined;
    bodyBuf = rest;
  }
  return finish(bodyBuf);

  function finish(body: Buffer): ApiResponse {
    const text = body.toString("utf8");
    return { status, headers, body: parseJson(text), text };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Assertions

const STACK_SIGNS: ReadonlyArray<[RegExp, string]> = [
  [/\n\s*at\s/, "a stack frame line"],
  [/\bat\s+\S+\s+\([^)]*:\d+:\d+\)/, "a stack frame"],
  [/\bat\s+(?:async\s+)?(?:file:|node:|\/)[^\s]*:\d+/, "a stack frame"],
  [/node_modules/, "node_modules"],
  [/\.(?:ts|tsx|mts|js|mjs|cjs):\d+/, "a source position"],
  [/\.next(?:-[\w-]+)?\/server/, "a build path"],
  [/(?:RangeError|TypeError|ReferenceError|SyntaxError):/, "an exception name"],
  [/Maximum call stack/i, "a stack overflow"],
  [/invalid byte sequence|violates|duplicate key|SQLITE_|relation "|syntax error at/i, "a database error"],
];

function describeResponse(res: ApiResponse): string {
  return `${res.status} ${res.headers.get("content-type") ?? "(no content-type)"} ${JSON.stringify(res.text.slice(0, 400))}`;
}

/**
 * What every answer must satisfy, success or failure: no 5xx, JSON, an x-request-id, no internals. `envelope`
 * "console": the console's own routes (/dashboard/api), whose `validation_error` adds its failing fields.
 */
export function assertWellFormed(res: ApiResponse, method: string, envelope: "api" | "console" = "api") {
  const seen = describeResponse(res);
  expect(res.status, `no 5xx: ${seen}`).toBeLessThan(500);
  expect(res.headers.get("x-request-id"), `x-request-id on ${seen}`).toBeTruthy();
  for (const [pattern, what] of STACK_SIGNS) {
    expect(pattern.test(res.text), `no ${what} in the body: ${seen}`).toBe(false);
  }
  if (method === "HEAD" || res.status === 204 || res.status === 304) return;
  expect(res.body, `body is JSON: ${seen}`).toBeTypeOf("object");
  expect(res.body, `body is an envelope: ${seen}`).not.toBeNull();
  if (res.status >= 400) {
    const fields = envelope === "console" && res.body.error === "validation_error" && "fields" in res.body;
    expect(
      Object.keys(res.body).sort(),
      `failure envelope has exactly status, error, message${envelope === "console" ? " (and a validation_error's fields)" : ""}: ${seen}`,
    ).toEqual(fields ? ["error", "fields", "message", "status"] : ["error", "message", "status"]);
    if (fields) {
      // One entry per sentence of the message, each naming its field and rule.
      const entries = res.body.fields as { field: unknown; rule: unknown; message: unknown }[];
      expect(entries.length, seen).toBeGreaterThan(0);
      for (const f of entries) {
        expect(Object.keys(f).sort(), seen).toEqual(["field", "message", "rule"]);
        expect(f.field, seen).toMatch(/^\S+$/);
        expect(f.rule, seen).toMatch(/^[a-z][a-z_]*$/);
      }
      expect(res.body.message, seen).toBe(`${entries.map((f) => f.message).join("; ")}.`);
    }
    expect(res.body.status, seen).toBe("failed");
    expect(res.body.error, seen).toMatch(/^[a-z][a-z_]*$/);
    expect(res.body.message, seen).toBeTypeOf("string");
    expect((res.body.message as string).trim().length, `non-empty message: ${seen}`).toBeGreaterThan(0);
  } else {
    expect(res.body.status, seen).toBe("success");
    expect(Object.keys(res.body).sort(), seen).toEqual(["data", "status"]);
  }
}

/** A refusal: 4xx, the failure envelope, and the expected status, code and field name where determinate. */
export function assertFailure(
  res: ApiResponse,
  method: string,
  want: Expect,
  envelope: "api" | "console" = "api",
) {
  const seen = describeResponse(res);
  assertWellFormed(res, method, envelope);
  expect(res.status, `4xx: ${seen}`).toBeGreaterThanOrEqual(400);
  const statuses = typeof want.status === "number" ? [want.status] : want.status;
  expect(statuses, `status: ${seen}`).toContain(res.status);
  if (want.allow !== undefined) expect(res.headers.get("allow"), `Allow on ${seen}`).toBe(want.allow);
  if (method === "HEAD") return;
  if (want.error !== undefined) {
    const errors = typeof want.error === "string" ? [want.error] : want.error;
    expect(errors, `error code: ${seen}`).toContain(res.body.error);
  }
  for (const m of want.mentions ?? []) {
    expect(res.body.message, `the message names ${JSON.stringify(m)}: ${seen}`).toContain(m);
  }
}

export const invalid = (field: string): Expect => ({
  status: 400,
  error: "validation_error",
  mentions: [field],
});
export const INVALID_JSON: Expect = { status: 400, error: "invalid_json" };
export const UNSUPPORTED: Expect = { status: 415, error: "unsupported_media_type" };
export const TOO_LARGE: Expect = { status: 413, error: "payload_too_large" };
export const BAD_KEY: Expect = { status: 401, error: "invalid_api_key" };
export const BAD_SESSION: Expect = { status: 401, error: "invalid_session" };
export const BAD_ACCESS_CODE: Expect = { status: 401, error: "invalid_access_code" };
export const NOT_FOUND_ROUTE: Expect = { status: 404, error: "route_not_found" };

// ---------------------------------------------------------------------------------------------------------
// Values

export const MAX_BODY = 64 * 1024;

/** `[[[...]]]` n levels deep, as JSON text (JSON.stringify of such a value would itself overflow). */
export const deepArray = (n: number, leaf = "") => `${"[".repeat(n)}${leaf}${"]".repeat(n)}`;
/** `{"a":{"a":...1}}` n levels deep, as JSON text. */
export const deepObject = (n: number, key = "a", leaf = "1") =>
  `${`{"${key}":`.repeat(n)}${leaf}${"}".repeat(n)}`;

/** `text` padded with trailing spaces (still the same JSON) to exactly `bytes` bytes. */
export function padTo(text: string, bytes: number): string {
  const size = Buffer.byteLength(text);
  if (size > bytes) throw new Error(`${size} > ${bytes}`);
  return text + " ".repeat(bytes - size);
}

/** Wrong JSON types, each labelled: the classic sweep for a field of another type. */
export const WRONG_TYPES_FOR_STRING: ReadonlyArray<[string, unknown]> = [
  ["a number", 100],
  ["a float", 100.5],
  ["true", true],
  ["false", false],
  ["null", null],
  ["an array", ["x"]],
  ["an empty array", []],
  ["an object", { value: "x" }],
  ["an empty object", {}],
];
export const WRONG_TYPES_FOR_BOOLEAN: ReadonlyArray<[string, unknown]> = [
  ['"true"', "true"],
  ['"false"', "false"],
  ["1", 1],
  ["0", 0],
  ['"yes"', "yes"],
  ["an array", [true]],
  ["an object", { value: true }],
];
export const WRONG_TYPES_FOR_OBJECT: ReadonlyArray<[string, unknown]> = [
  ["an array", ["a", "b"]],
  ["an empty array", []],
  ["a string", "{}"],
  ["an empty string", ""],
  ["a number", 42],
  ["true", true],
];

/** Unicode that must be stored exactly or refused, never crash: one sample per hazard. */
export const UNICODE_SAMPLES: ReadonlyArray<[string, string]> = [
  ["emoji", "Ade \u{1F600}\u{1F1F3}\u{1F1EC}\u{1F469}\u{1F3FD}\u200D\u{1F4BB}"],
  ["RTL text and an override", "\u0645\u062A\u062C\u0631 \u202Eevil\u202C \u05E9\u05DC\u05D5\u05DD"],
  ["combining marks", "Cafe\u0301 Zoe\u0308"],
  ["zero-width characters", "a\u200Bb\u200Dc\u2060d"],
  ["a NUL character", "a\u0000b"],
  ["control characters", "a\u0001\u001Fb\u007Fc\u0085d"],
  ["a lone high surrogate", "a\uD800b"],
  ["a lone low surrogate", "a\uDFFFb"],
  ["noncharacters", "a\uFFFEb\uFFFFc"],
];

const hasLoneSurrogate = (s: string) => /\p{Surrogate}/u.test(s);

/**
 * Percent-encode for a URL, byte-exact: a lone surrogate (which encodeURIComponent refuses) is written as the
 * three bytes a CESU-8 encoder would produce, i.e. invalid UTF-8, which is what a careless client sends.
 */
export function pctEncode(s: string): string {
  let out = "";
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/** A password that differs from `p` but that a lossy UTF-8 conversion (lone surrogate -> U+FFFD) confuses with it. */
export function lookalikePassword(p: string): string {
  if (hasLoneSurrogate(p)) return p.replace(/\p{Surrogate}/gu, (c) => (c === "\uDBFF" ? "\uD800" : "\uDBFF"));
  return `${p}x`;
}

/** A unique signup body that the endpoint would accept, for cases that break one part of it. */
export function signupBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    businessName: "Sweep Shop",
    email: uniqueEmail("sweep"),
    password: "correct horse battery staple",
    ...overrides,
  };
}
