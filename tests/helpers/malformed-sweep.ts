import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { ApiResponse } from "./api";
import {
  assertFailure,
  assertWellFormed,
  BAD_ACCESS_CODE,
  BAD_KEY,
  BAD_SESSION,
  type Case,
  type Ctx,
  chunked,
  deepArray,
  deepObject,
  type Expect,
  INVALID_JSON,
  invalid,
  MAX_BODY,
  padTo,
  rawRequest,
  type Spec,
  send,
  TOO_LARGE,
  UNSUPPORTED,
} from "./malformed-cases";

/**
 * The case generators of the malformed-input sweeps (tests/malformed.test.ts over the foundation endpoints,
 * tests/malformed-channels.test.ts over the checkout channels, sandbox, webhooks and payment links): for one
 * endpoint, every way a body, a field, a credential or a query can be wrong, each with the refusal it must
 * get. The values and assertions they use are in ./malformed-cases.ts.
 */

export const JSON_CT = { "content-type": "application/json" };
export const UNKNOWN_REFERENCE = `PAY_TXN_${"0".repeat(20)}`;

export const key = (ctx: Ctx) => ({ "x-api-key": ctx.merchant.testKey });
export const session = (ctx: Ctx) => ({ authorization: `Bearer ${ctx.merchant.accessToken}` });
export const access = (ctx: Ctx) => ({ "x-access-code": ctx.accessCode });

export function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
}

/** JSON text of `body` with `field` set to a raw JSON fragment (a value too deep to JSON.stringify). */
export function withRaw(body: Record<string, unknown>, field: string, rawJson: string): string {
  const marker = `__raw_${randomBytes(6).toString("hex")}__`;
  return JSON.stringify({ ...body, [field]: marker }).replace(JSON.stringify(marker), rawJson);
}

/** UTF-8 bytes of `json` with `bad` spliced in at the start of its first string value. */
export function spliceBytes(json: string, bad: number[]): Uint8Array {
  const at = json.indexOf(':"');
  if (at < 0) return Buffer.concat([Buffer.from('{"x":"'), Buffer.from(bad), Buffer.from('"}')]);
  return Buffer.concat([
    Buffer.from(json.slice(0, at + 2)),
    Buffer.from(bad),
    Buffer.from(json.slice(at + 2)),
  ]);
}

export function formEncode(body: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return form.toString() || "a=1";
}

export async function run(ctx: Ctx, c: Case) {
  const spec = c.request(ctx);
  const res = await send(ctx, spec);
  if (c.expect) assertFailure(res, spec.method, c.expect);
  else if (!c.only) assertWellFormed(res, spec.method);
  await c.after?.(ctx, res);
}

// ---------------------------------------------------------------------------------------------------------
// Case generators

export type BodyEndpoint = {
  method: "POST" | "PUT" | "PATCH";
  /** The path, as named in the case names. */
  path: string;
  /** The path to send to, when it is only known at run time (a slug made in beforeAll); else `path`. */
  pathOf?: (ctx: Ctx) => string;
  auth: (ctx: Ctx) => Record<string, string>;
  /** A body the endpoint would accept; each case breaks one thing about it. */
  valid: (ctx: Ctx) => Record<string, unknown>;
  /** Whether unknown fields are refused (every endpoint with a body schema). */
  strict: boolean;
  /** A field that must be a string, to hide deep values in. */
  stringField?: string;
  /** Checks that the refused request wrote nothing (given the body attempted). */
  after?: (ctx: Ctx, res: ApiResponse, attempted: Record<string, unknown>) => Promise<void>;
};

/** Cases of one endpoint that share the endpoint's method, path, credentials and nothing-written check. */
export function caseMaker(ep: BodyEndpoint, cases: Case[]) {
  return (
    name: string,
    build: (ctx: Ctx, valid: Record<string, unknown>) => Omit<Spec, "method" | "path"> & { path?: string },
    want: Expect,
  ) => {
    let valid: Record<string, unknown> | undefined;
    let sent: unknown;
    const validFor = (ctx: Ctx) => {
      valid ??= ep.valid(ctx);
      return valid;
    };
    const check = ep.after;
    cases.push({
      name: `${ep.method} ${ep.path}: ${name}`,
      request: (ctx) => {
        const spec = build(ctx, validFor(ctx));
        sent = spec.json;
        return {
          method: ep.method,
          path: ep.pathOf?.(ctx) ?? ep.path,
          ...spec,
          headers: { ...ep.auth(ctx), ...spec.headers },
        };
      },
      expect: want,
      // The nothing-written check looks for what was sent when it was a JSON object, else the valid body behind it.
      after: check
        ? (ctx, res) => {
            const attempted =
              sent !== null && typeof sent === "object" && !Array.isArray(sent)
                ? (sent as Record<string, unknown>)
                : validFor(ctx);
            return check(ctx, res, attempted);
          }
        : undefined,
    });
  };
}

/** Bodies that are not JSON objects of the right type, size or shape, whatever endpoint receives them. */
export function bodyCases(ep: BodyEndpoint): Case[] {
  const cases: Case[] = [];
  const add = caseMaker(ep, cases);
  const json = (text: string) => ({ headers: JSON_CT, body: text });
  const rawWith = (ctx: Ctx, headers: Array<[string, string]>, body: Buffer) =>
    rawRequest(
      ctx.url,
      ep.method,
      ep.pathOf?.(ctx) ?? ep.path,
      [...Object.entries(ep.auth(ctx)), ...headers],
      body,
    );

  // Content-Type
  for (const [label, type] of [
    ["text/plain", "text/plain"],
    ["text/plain;charset=UTF-8", "text/plain;charset=UTF-8"],
    ["application/xml", "application/xml"],
    ["application/javascript", "application/javascript"],
    ['a bare "json"', "json"],
    ["application/json+xml", "application/json+xml"],
    ["an empty Content-Type", ""],
  ] as Array<[string, string]>) {
    add(
      `a valid JSON body sent as ${label}`,
      (_c, v) => ({ headers: { "content-type": type }, body: JSON.stringify(v) }),
      UNSUPPORTED,
    );
  }
  add(
    "a form-urlencoded body",
    (_c, v) => ({
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: formEncode(v),
    }),
    UNSUPPORTED,
  );
  add(
    "a multipart/form-data body",
    (_c, v) => ({
      headers: { "content-type": "multipart/form-data; boundary=XyZ" },
      body: `--XyZ\r\nContent-Disposition: form-data; name="json"\r\n\r\n${JSON.stringify(v)}\r\n--XyZ--\r\n`,
    }),
    UNSUPPORTED,
  );
  add(
    "a valid JSON body without any Content-Type",
    (_c, v) => ({ body: new TextEncoder().encode(JSON.stringify(v)) }),
    UNSUPPORTED,
  );

  // Not JSON
  for (const [label, text] of [
    ["an unclosed brace", "{"],
    ["single-quoted JSON", "{'a':'b'}"],
    ["unquoted keys", "{a: 1}"],
    ["NaN", "NaN"],
    ["undefined", "undefined"],
    ["XML", "<payment><amount>100</amount></payment>"],
    ["form text", "amount=100&currency=NGN"],
    ["whitespace only", " \n\t "],
    ["a NUL byte", "\u0000"],
    ["an unterminated string", '"abc'],
    ["an unclosed array", "[1,2"],
  ] as Array<[string, string]>) {
    add(`a body of ${label}`, () => json(text), INVALID_JSON);
  }
  add("a valid body followed by garbage", (_c, v) => json(`${JSON.stringify(v)}garbage`), INVALID_JSON);
  add("a valid body followed by a second object", (_c, v) => json(`${JSON.stringify(v)}{}`), INVALID_JSON);
  add("a trailing comma", (_c, v) => json(`${JSON.stringify(v).slice(0, -1)},}`), INVALID_JSON);
  add("a truncated body", (_c, v) => json(JSON.stringify(v).slice(0, -1)), INVALID_JSON);
  add("a comment before the body", (_c, v) => json(`// order 42\n${JSON.stringify(v)}`), INVALID_JSON);

  // JSON that is not an object
  for (const [label, text] of [
    ["an empty array", "[]"],
    ["a string", '"amount"'],
    ["a number", "42"],
    ["minus zero", "-0"],
    ["a number too large for a double", "1e999"],
    ["null", "null"],
    ["true", "true"],
    ["false", "false"],
  ] as Array<[string, string]>) {
    add(`JSON ${label} instead of an object`, () => json(text), INVALID_JSON);
  }
  add("the valid body wrapped in an array", (_c, v) => json(`[${JSON.stringify(v)}]`), INVALID_JSON);
  add("the valid body as a JSON string", (_c, v) => json(JSON.stringify(JSON.stringify(v))), INVALID_JSON);

  // Not UTF-8
  for (const [label, bytes] of [
    ["a 0xFF byte", [0xff]],
    ["a 0xFE 0xFF pair", [0xfe, 0xff]],
    ["an overlong encoding of /", [0xc0, 0xaf]],
    ["a truncated 3-byte sequence", [0xe2, 0x82]],
    ["a UTF-8-encoded surrogate (CESU-8)", [0xed, 0xa0, 0x80]],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["a lone continuation byte", [0x80]],
    ["a Latin-1 e-acute", [0xe9, 0x41]],
  ] as Array<[string, number[]]>) {
    add(
      `invalid UTF-8: ${label}`,
      (_c, v) => ({ headers: JSON_CT, body: spliceBytes(JSON.stringify(v), bytes) }),
      INVALID_JSON,
    );
  }
  add(
    "UTF-16LE with a byte-order mark",
    (_c, v) => ({
      headers: JSON_CT,
      body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(v), "utf16le")]),
    }),
    INVALID_JSON,
  );

  // Size
  add(
    "a valid body padded to 64 KiB + 1 byte",
    (_c, v) => json(padTo(JSON.stringify(v), MAX_BODY + 1)),
    TOO_LARGE,
  );
  // Over a raw socket: the server may answer 413 and close while the rest of the body is still being written.
  add(
    "a 1 MiB body",
    (ctx, v) => {
      const body = Buffer.from(padTo(JSON.stringify(v), 1024 * 1024));
      return {
        raw: rawWith(
          ctx,
          [
            ["Content-Type", "application/json"],
            ["Content-Length", String(body.length)],
          ],
          body,
        ),
      };
    },
    TOO_LARGE,
  );
  add(
    "a 70 KiB text/plain body (size is checked first)",
    (_c, v) => ({
      headers: { "content-type": "text/plain" },
      body: padTo(JSON.stringify(v), 70 * 1024),
    }),
    TOO_LARGE,
  );
  add("exactly 64 KiB is read, not refused as too large", () => json(padTo("[]", MAX_BODY)), INVALID_JSON);
  add(
    "a Content-Length that claims 100,000 bytes over a small body",
    (ctx, v) => ({
      raw: rawWith(
        ctx,
        [
          ["Content-Type", "application/json"],
          ["Content-Length", "100000"],
        ],
        Buffer.from(JSON.stringify(v)),
      ),
    }),
    TOO_LARGE,
  );
  add(
    "a Content-Length of 1 over a longer body",
    (ctx, v) => ({
      raw: rawWith(
        ctx,
        [
          ["Content-Type", "application/json"],
          ["Content-Length", "1"],
        ],
        Buffer.from(JSON.stringify(v)),
      ),
    }),
    INVALID_JSON,
  );
  add(
    "a chunked body over 64 KiB without Content-Length",
    (ctx, v) => ({
      raw: rawWith(
        ctx,
        [
          ["Content-Type", "application/json"],
          ["Transfer-Encoding", "chunked"],
        ],
        chunked(Buffer.from(padTo(JSON.stringify(v), 100 * 1024))),
      ),
    }),
    TOO_LARGE,
  );

  // Depth
  add("a top-level array 5,000 deep", () => json(deepArray(5000)), INVALID_JSON);
  add("a top-level array 20,000 deep", () => json(deepArray(20_000)), INVALID_JSON);
  add("a top-level array 32,000 deep (the most 64 KiB holds)", () => json(deepArray(32_000)), INVALID_JSON);
  add("a top-level object 20,000 deep (over 64 KiB)", () => json(deepObject(20_000)), TOO_LARGE);
  if (ep.strict) {
    add("a top-level object 5,000 deep", () => json(deepObject(5000, "deep")), invalid('"deep"'));
    add("a top-level object 10,000 deep", () => json(deepObject(10_000, "z")), invalid('"z"'));
    add(
      "an unknown field holding an array 20,000 deep",
      (_c, v) => json(withRaw(v, "deep", deepArray(20_000))),
      invalid('"deep"'),
    );
    add(
      "an unknown field holding an object 5,000 deep",
      (_c, v) => json(withRaw(v, "deep", deepObject(5000))),
      invalid('"deep"'),
    );
  }
  const field = ep.stringField;
  if (field) {
    add(
      `${field} as an array 20,000 deep`,
      (_c, v) => json(withRaw(v, field, deepArray(20_000))),
      invalid(field),
    );
    add(
      `${field} as an object 5,000 deep`,
      (_c, v) => json(withRaw(v, field, deepObject(5000))),
      invalid(field),
    );
  }
  return cases;
}

/** One field of the valid body set to each bad value; the message must name the field. */
export function fieldCases(
  ep: BodyEndpoint,
  field: string,
  values: ReadonlyArray<readonly [string, unknown]>,
  want: Expect = invalid(field),
): Case[] {
  const cases: Case[] = [];
  const add = caseMaker(ep, cases);
  for (const [label, value] of values) {
    add(`${field} as ${label}`, (_c, v) => ({ json: { ...v, [field]: value } }), want);
  }
  return cases;
}

export function missingCases(ep: BodyEndpoint, fields: string[]): Case[] {
  const cases: Case[] = [];
  const add = caseMaker(ep, cases);
  for (const field of fields) {
    add(
      `without ${field}`,
      (_c, v) => {
        const { [field]: _dropped, ...rest } = v;
        return { json: rest };
      },
      invalid(field),
    );
    add(`${field} as null`, (_c, v) => ({ json: { ...v, [field]: null } }), invalid(field));
  }
  add("an empty object", () => ({ json: {} }), invalid(fields[0] as string));
  add(
    "an empty body with Content-Type application/json",
    () => ({ headers: JSON_CT, body: "" }),
    invalid(fields[0] as string),
  );
  return cases;
}

export function unknownFieldCases(ep: BodyEndpoint, names: string[]): Case[] {
  const cases: Case[] = [];
  const add = caseMaker(ep, cases);
  for (const name of names) {
    add(
      `an unknown field ${JSON.stringify(name)}`,
      (_c, v) => ({ headers: JSON_CT, body: withRaw(v, name, '"x"') }),
      invalid(JSON.stringify(name)),
    );
  }
  add(
    'a "__proto__" field',
    (_c, v) => {
      const text = JSON.stringify(v);
      const head = text === "{}" ? "{" : `${text.slice(0, -1)},`;
      return { headers: JSON_CT, body: `${head}"__proto__":{"admin":true}}` };
    },
    invalid('"__proto__"'),
  );
  return cases;
}

/** Secret-key header variants that must all be refused (401 invalid_api_key). */
export function secretKeyHeaderCases(method: string, path: string, json?: Record<string, unknown>): Case[] {
  const variants: Array<[string, (ctx: Ctx) => Record<string, string>]> = [
    ["no credentials", () => ({})],
    ["an empty x-api-key", () => ({ "x-api-key": "" })],
    [
      "x-api-key with a space inside",
      (c) => ({ "x-api-key": `${c.merchant.testKey.slice(0, 12)} ${c.merchant.testKey.slice(12)}` }),
    ],
    ["an 8 KB x-api-key that looks like a key", () => ({ "x-api-key": `sk_test_${"a".repeat(8000)}` })],
    ["an 8 KB x-api-key of junk", () => ({ "x-api-key": randomBytes(4000).toString("hex") })],
    ["the key with one character more", (c) => ({ "x-api-key": `${c.merchant.testKey}x` })],
    ["the key with one character less", (c) => ({ "x-api-key": c.merchant.testKey.slice(0, -1) })],
    ["the key in the other letter case", (c) => ({ "x-api-key": swapCase(c.merchant.testKey) })],
    ["a live key on staging", () => ({ "x-api-key": `sk_live_${"a".repeat(40)}` })],
    ['"Bearer <key>" inside x-api-key', (c) => ({ "x-api-key": `Bearer ${c.merchant.testKey}` })],
    ["the session token as x-api-key", (c) => ({ "x-api-key": c.merchant.accessToken })],
    ["an access code as x-api-key", (c) => ({ "x-api-key": c.accessCode })],
    ["a Latin-1 character in x-api-key", () => ({ "x-api-key": `sk_test_\u00e9${"a".repeat(40)}` })],
    [
      "Authorization: Basic of the key",
      (c) => ({ authorization: `Basic ${Buffer.from(`${c.merchant.testKey}:`).toString("base64")}` }),
    ],
    ["Authorization: Basic xyz", () => ({ authorization: "Basic xyz" })],
    ['Authorization: "Bearer" without a token', () => ({ authorization: "Bearer" })],
    [
      "Authorization: lowercase bearer with a bad key",
      () => ({ authorization: `bearer sk_test_${"b".repeat(40)}` }),
    ],
    [
      "Authorization: Bearer <key> with a trailing word",
      (c) => ({ authorization: `Bearer ${c.merchant.testKey} extra` }),
    ],
    [
      "Authorization: two schemes in one header",
      (c) => ({ authorization: `Bearer ${c.merchant.testKey}, Basic xyz` }),
    ],
    ["Authorization: Token <key>", (c) => ({ authorization: `Token ${c.merchant.testKey}` })],
    ["Authorization: the key without a scheme", (c) => ({ authorization: c.merchant.testKey })],
    ["Authorization: Bearer <session token>", (c) => ({ authorization: `Bearer ${c.merchant.accessToken}` })],
    [
      "a bad x-api-key next to a good Bearer key",
      (c) => ({ "x-api-key": "sk_test_nope", authorization: `Bearer ${c.merchant.testKey}` }),
    ],
  ];
  const cases: Case[] = variants.map(([label, headers]) => ({
    name: `${method} ${path}: ${label}`,
    request: (ctx) => ({ method, path, json, headers: headers(ctx) }),
    expect: BAD_KEY,
  }));
  const rawBody = json ? Buffer.from(JSON.stringify(json)) : undefined;
  const rawHeaders = json
    ? ([
        ["Content-Type", "application/json"],
        ["Content-Length", String(rawBody?.length)],
      ] as Array<[string, string]>)
    : [];
  cases.push(
    {
      name: `${method} ${path}: two Authorization headers, Basic first`,
      request: (ctx) => ({
        method,
        path,
        raw: rawRequest(
          ctx.url,
          method,
          path,
          [
            ["Authorization", "Basic xyz"],
            ["Authorization", `Bearer ${ctx.merchant.testKey}`],
            ...rawHeaders,
          ],
          rawBody,
        ),
      }),
      expect: BAD_KEY,
    },
    {
      name: `${method} ${path}: UTF-8 bytes (an emoji) in x-api-key`,
      request: (ctx) => ({
        method,
        path,
        raw: rawRequest(
          ctx.url,
          method,
          path,
          [["x-api-key", Buffer.from(`sk_test_\u{1F600}${"a".repeat(40)}`)], ...rawHeaders],
          rawBody,
        ),
      }),
      expect: BAD_KEY,
    },
  );
  return cases;
}

/** Session-token header variants that must all be refused (401 invalid_session). */
export function sessionHeaderCases(method: string, path: string, json?: Record<string, unknown>): Case[] {
  const variants: Array<[string, (ctx: Ctx) => Record<string, string>]> = [
    ["no credentials", () => ({})],
    ["Authorization: Basic xyz", () => ({ authorization: "Basic xyz" })],
    ['Authorization: "Bearer" without a token', () => ({ authorization: "Bearer" })],
    ["Authorization: Bearer <secret key>", (c) => ({ authorization: `Bearer ${c.merchant.testKey}` })],
    ["Authorization: Bearer mst_ too short", () => ({ authorization: "Bearer mst_short" })],
    ["the token with one character more", (c) => ({ authorization: `Bearer ${c.merchant.accessToken}x` })],
    [
      "the token with its last character changed",
      (c) => ({
        authorization: `Bearer ${c.merchant.accessToken.slice(0, -1)}${c.merchant.accessToken.endsWith("A") ? "B" : "A"}`,
      }),
    ],
    [
      "the token in the other letter case",
      (c) => ({ authorization: `Bearer ${swapCase(c.merchant.accessToken)}` }),
    ],
    ["an 8 KB token", () => ({ authorization: `Bearer mst_${"a".repeat(8000)}` })],
    ["Authorization: Token <token>", (c) => ({ authorization: `Token ${c.merchant.accessToken}` })],
    ["Authorization: the token without a scheme", (c) => ({ authorization: c.merchant.accessToken })],
    [
      "Authorization: Bearer <token> with a trailing word",
      (c) => ({ authorization: `Bearer ${c.merchant.accessToken} extra` }),
    ],
    [
      "Authorization: the token twice in one header",
      (c) => ({ authorization: `Bearer ${c.merchant.accessToken}, Bearer ${c.merchant.accessToken}` }),
    ],
    ["the token in x-api-key instead of Authorization", (c) => ({ "x-api-key": c.merchant.accessToken })],
    ["a Latin-1 character in the token", () => ({ authorization: `Bearer mst_\u00e9${"a".repeat(42)}` })],
  ];
  const cases: Case[] = variants.map(([label, headers]) => ({
    name: `${method} ${path}: ${label}`,
    request: (ctx) => ({ method, path, json, headers: headers(ctx) }),
    expect: BAD_SESSION,
  }));
  cases.push({
    name: `${method} ${path}: UTF-8 bytes (an emoji) in the token`,
    request: (ctx) => {
      const body = json ? Buffer.from(JSON.stringify(json)) : undefined;
      const extra: Array<[string, string]> = body
        ? [
            ["Content-Type", "application/json"],
            ["Content-Length", String(body.length)],
          ]
        : [];
      return {
        method,
        path,
        raw: rawRequest(
          ctx.url,
          method,
          path,
          [["Authorization", Buffer.from(`Bearer mst_\u{1F600}${"a".repeat(41)}`)], ...extra],
          body,
        ),
      };
    },
    expect: BAD_SESSION,
  });
  return cases;
}

/**
 * Access-code header variants that must all be refused (401 invalid_access_code), on a GET or on a POST with
 * `json` as its body.
 */
export function accessCodeHeaderCases(path: string, method = "GET", json?: Record<string, unknown>): Case[] {
  const variants: Array<[string, (ctx: Ctx) => Record<string, string>]> = [
    ["no access code", () => ({})],
    ["an empty x-access-code", () => ({ "x-access-code": "" })],
    ["the code with one character more", (c) => ({ "x-access-code": `${c.accessCode}x` })],
    ["the code with one character less", (c) => ({ "x-access-code": c.accessCode.slice(0, -1) })],
    ["the code in the other letter case", (c) => ({ "x-access-code": swapCase(c.accessCode) })],
    [
      "the code with a space inside",
      (c) => ({ "x-access-code": `${c.accessCode.slice(0, 5)} ${c.accessCode.slice(5)}` }),
    ],
    ["an 8 KB code", () => ({ "x-access-code": "a".repeat(8000) })],
    ["the secret key as the code", (c) => ({ "x-access-code": c.merchant.testKey })],
    ["the session token as the code", (c) => ({ "x-access-code": c.merchant.accessToken })],
    ["the reference as the code", (c) => ({ "x-access-code": c.reference })],
    ['"Bearer <code>"', (c) => ({ "x-access-code": `Bearer ${c.accessCode}` })],
    ["the code in Authorization instead", (c) => ({ authorization: `Bearer ${c.accessCode}` })],
    ["a Latin-1 character in the code", () => ({ "x-access-code": `\u00e9${"a".repeat(30)}` })],
    ["SQL in the code", () => ({ "x-access-code": "' OR '1'='1" })],
  ];
  const cases: Case[] = variants.map(([label, headers]) => ({
    name: `${method} ${path}: ${label}`,
    request: (ctx) => ({ method, path, json, headers: headers(ctx) }),
    expect: BAD_ACCESS_CODE,
  }));
  const rawBody = json ? Buffer.from(JSON.stringify(json)) : undefined;
  const rawHeaders: Array<[string, string]> = rawBody
    ? [
        ["Content-Type", "application/json"],
        ["Content-Length", String(rawBody.length)],
      ]
    : [];
  cases.push({
    name: `${method} ${path}: UTF-8 bytes (an emoji) in x-access-code`,
    request: (ctx) => ({
      method,
      path,
      raw: rawRequest(
        ctx.url,
        method,
        path,
        [["x-access-code", Buffer.from(`\u{1F600}${"a".repeat(30)}`)], ...rawHeaders],
        rawBody,
      ),
    }),
    expect: BAD_ACCESS_CODE,
  });
  return cases;
}

export function queryCases(
  path: string,
  auth: (ctx: Ctx) => Record<string, string>,
  values: Array<[string, string, Expect]>,
): Case[] {
  return values.map(([label, query, want]) => ({
    name: `GET ${path}?${label}`,
    request: (ctx) => ({ method: "GET", path: `${path}?${query}`, headers: auth(ctx) }),
    expect: want,
  }));
}

/**
 * A route's answers to the methods it does not serve: 405 with `Allow` in the envelope; HEAD as GET would
 * answer (`head`: 401 for a route behind credentials, "served" for a public GET that answers 200), OPTIONS
 * 204 or 405 listing only what it serves.
 */
export function methodCases(
  path: string,
  allowed: string[],
  head: Expect | "served" = { status: allowed.includes("GET") ? 401 : 405 },
): Case[] {
  const cases: Case[] = [];
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allowed.includes(m))) {
    cases.push({
      name: `${method} ${path}`,
      request: () => ({ method, path, ...(method === "GET" || method === "DELETE" ? {} : { json: {} }) }),
      expect: { status: 405, error: "method_not_allowed", allow: allowed.join(", ") },
    });
  }
  cases.push(
    head === "served"
      ? {
          name: `HEAD ${path}`,
          request: () => ({ method: "HEAD", path }),
          only: true,
          after: async (_c, res) => expect(res.status, `HEAD ${path} answers as GET`).toBe(200),
        }
      : { name: `HEAD ${path}`, request: () => ({ method: "HEAD", path }), expect: head },
  );
  cases.push({
    name: `PROPFIND ${path} (a method no route serves)`,
    request: () => ({ method: "PROPFIND", path }),
    expect: { status: 405, error: "method_not_allowed" },
  });
  cases.push({
    name: `OPTIONS ${path}`,
    request: () => ({ method: "OPTIONS", path }),
    after: async (_c, res) => {
      expect([204, 405], `OPTIONS answers 204 or 405, got ${res.status}`).toContain(res.status);
      if (res.status === 405) assertFailure(res, "OPTIONS", { status: 405, error: "method_not_allowed" });
    },
  });
  cases.push({
    name: `OPTIONS ${path}: Allow lists only the methods the route serves`,
    request: () => ({ method: "OPTIONS", path }),
    only: true,
    after: async (_c, res) => {
      expect(res.status).toBeLessThan(500);
      const allow = (res.headers.get("allow") ?? "")
        .split(",")
        .map((m) => m.trim())
        .filter(Boolean);
      const wrong = allow.filter((m) => !["HEAD", "OPTIONS", ...allowed].includes(m));
      expect(wrong, `methods this route answers 405 to, in Allow: ${allow.join(", ")}`).toEqual([]);
    },
  });
  return cases;
}

/** A 2xx must have kept the value exactly (read back where an endpoint shows it); a 4xx must name the field. */
export const storedOrRefused =
  (
    field: string,
    readBack?: (c: Ctx, res: ApiResponse) => Promise<unknown>,
    sent?: unknown,
    method = "POST",
  ) =>
  async (c: Ctx, res: ApiResponse) => {
    if (res.status < 300) {
      if (readBack) expect(await readBack(c, res), `${field} read back exactly`).toEqual(sent);
    } else {
      assertFailure(res, method, invalid(field));
    }
  };
