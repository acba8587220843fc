import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  client,
  initialize,
  type Merchant,
  signup,
  targets,
  uniqueEmail,
} from "./helpers/api";
import { testDb } from "./helpers/db";
import {
  assertFailure,
  type Case,
  type Ctx,
  chunked,
  deepArray,
  deepObject,
  type Expect,
  invalid,
  lookalikePassword,
  NOT_FOUND_ROUTE,
  padTo,
  pctEncode,
  rawRequest,
  type Spec,
  send,
  signupBody,
  UNICODE_SAMPLES,
  WRONG_TYPES_FOR_BOOLEAN,
  WRONG_TYPES_FOR_OBJECT,
  WRONG_TYPES_FOR_STRING,
} from "./helpers/malformed-cases";
import {
  access,
  accessCodeHeaderCases,
  type BodyEndpoint,
  bodyCases,
  caseMaker,
  fieldCases,
  JSON_CT,
  key,
  methodCases,
  missingCases,
  queryCases,
  run,
  secretKeyHeaderCases,
  session,
  sessionHeaderCases,
  storedOrRefused,
  swapCase,
  UNKNOWN_REFERENCE,
  unknownFieldCases,
} from "./helpers/malformed-sweep";
import { registryRoutes } from "./helpers/registry-routes";

/**
 * Malformed-input sweep over every endpoint (docs/api.md "Errors": no input, however malformed, may produce a 500, a
 * non-envelope body, or a stack trace). Every case asserts: 4xx, a body that is exactly
 * {status:"failed", error, message}, the error code (and the field named in the message) where determinate,
 * no stack or internals in the body, and an x-request-id. Every block then checks that nothing was written.
 */

const VALID_PASSWORD = "correct horse battery staple";

describe.each(targets)("malformed input on $name", (target) => {
  const api = client(target.url);
  const newCtx = async (withTransaction = false): Promise<Ctx> => {
    const merchant = await signup(api, { businessName: "Sweep Shop" });
    let accessCode = "A".repeat(27);
    let reference = UNKNOWN_REFERENCE;
    if (withTransaction) {
      const init = await initialize(api, merchant.testKey, { amount: "100.00" });
      expect(init.status).toBe(201);
      accessCode = init.body.data.accessCode;
      reference = init.body.data.reference;
    }
    return { url: target.url, merchant, accessCode, reference };
  };
  const listTransactions = async (m: Merchant) => {
    const res = await api.get("/v1/merchants/transactions?limit=100", {
      authorization: `Bearer ${m.accessToken}`,
    });
    expect(res.status, res.text).toBe(200);
    return res.body.data.transactions as unknown[];
  };

  // -------------------------------------------------------------------------------------------------------
  describe("POST /v1/payment/initialize", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/payment/initialize",
      auth: key,
      valid: () => ({ amount: "100.00" }),
      strict: true,
      stringField: "amount",
    };
    const cases: Case[] = [
      ...bodyCases(ep),
      ...missingCases(ep, ["amount"]),
      ...fieldCases(ep, "amount", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["a leading space", " 100"],
        ["a trailing space", "100 "],
        ["a thousands separator", "1,000"],
        ["exponent notation", "1e3"],
        ["a negative", "-1"],
        ["a plus sign", "+1"],
        ["zero", "0"],
        ["zero with decimals", "0.00"],
        ["three decimals", "100.001"],
        ["a leading dot", ".5"],
        ["a trailing dot", "5."],
        ["a leading zero", "0100"],
        ["hex", "0x10"],
        ["letters", "abc"],
        ["Infinity", "Infinity"],
        ["NaN", "NaN"],
        ["Arabic-Indic digits", "\u0661\u0660\u0660"],
        ["fullwidth digits", "\uff11\uff10\uff10"],
        ["above the 100,000,000.00 maximum", "100000000.01"],
        ["41 nines", "9".repeat(41)],
        ["60,000 digits", "9".repeat(60_000)],
      ]),
      ...fieldCases(ep, "locale", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["a language we do not speak", "de"],
        ["a region tag", "yo-NG"],
        ["upper case", "FR"],
      ]),
      ...fieldCases(ep, "currency", [
        ...WRONG_TYPES_FOR_STRING,
        ["an empty string", ""],
        ["an unknown code", "XXX"],
        ["four letters", "NGNN"],
        ["a currency symbol", "\u20a6"],
      ]),
      ...fieldCases(ep, "email", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["no at sign", "buyer.example.com"],
        ["no domain", "buyer@"],
        ["no local part", "@example.com"],
        ["two at signs", "a@@example.com"],
        ["a space", "a b@example.com"],
        ["a trailing newline", "buyer@example.com\n"],
        ["255 characters", `${"a".repeat(243)}@example.com`],
      ]),
      ...fieldCases(ep, "customerName", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["spaces only", "   "],
        ["201 characters", "n".repeat(201)],
      ]),
      ...fieldCases(ep, "callbackUrl", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["javascript:", "javascript:alert(1)"],
        ["data:", "data:text/html,<script>alert(1)</script>"],
        ["file:", "file:///etc/passwd"],
        ["ftp:", "ftp://example.com/return"],
        ["a relative path", "/return"],
        ["a protocol-relative URL", "//example.com/return"],
        ["no host", "https://"],
        ["not a URL", "not a url"],
        ["2,100 characters", `https://example.com/${"r".repeat(2080)}`],
      ]),
      ...fieldCases(ep, "description", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["501 characters", "d".repeat(501)],
      ]),
      ...fieldCases(ep, "metadata", [
        ...WRONG_TYPES_FOR_OBJECT,
        ["9 levels deep", JSON.parse(deepObject(9, "a", "1"))],
        ["a 101-character key", { ["k".repeat(101)]: 1 }],
        ["over 16 KiB", { blob: "m".repeat(17 * 1024) }],
        [
          "over 16 KiB in many keys",
          Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`key${i}`, "v".repeat(40)])),
        ],
      ]),
      ...fieldCases(ep, "distribution", [
        ...WRONG_TYPES_FOR_OBJECT,
        ["an empty object", {}],
        ["a key with a space", { "a b": 10 }],
        ["an empty key", { "": 10 }],
        ["a 65-character key", { ["k".repeat(65)]: 10 }],
        ["a value of letters", { vendor: "abc" }],
        ["a null value", { vendor: null }],
        ["an object value", { vendor: {} }],
        ["an array value", { vendor: [10] }],
        ["a boolean value", { vendor: true }],
        ["a negative value", { vendor: -1 }],
        ["a zero value", { vendor: 0 }],
        ["a value of 1e308", { vendor: 1e308 }],
        ["a value of 1e-7", { vendor: 1e-7 }],
        ["three decimals", { vendor: 1.001 }],
        ["a value above amount", { vendor: 100.01 }],
        ["values summing above amount", { a: 60, b: 50 }],
        ["51 entries", Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, 1]))],
      ]),
      ...fieldCases(ep, "merchantBearsCost", WRONG_TYPES_FOR_BOOLEAN),
      ...unknownFieldCases(ep, [
        "foo",
        "Amount",
        "amount_minor",
        "reference",
        "status",
        "accessCode",
        "constructor",
        "",
        "callbackURL",
        "metaData",
      ]),
    ];
    // Hand-written JSON that JSON.stringify cannot produce: metadata and distribution nested far too deep.
    const addRaw = caseMaker(ep, cases);
    const rawJson = (text: string) => ({ headers: JSON_CT, body: text });
    addRaw(
      "metadata holding an array 5,000 deep",
      () => rawJson(`{"amount":"100.00","metadata":{"a":${deepArray(5000)}}}`),
      invalid("metadata"),
    );
    addRaw(
      "metadata holding an array 20,000 deep",
      () => rawJson(`{"amount":"100.00","metadata":{"a":${deepArray(20_000)}}}`),
      invalid("metadata"),
    );
    addRaw(
      "metadata holding an object 5,000 deep",
      () => rawJson(`{"amount":"100.00","metadata":${deepObject(5000)}}`),
      invalid("metadata"),
    );
    addRaw(
      "metadata holding an object 10,000 deep",
      () => rawJson(`{"amount":"100.00","metadata":${deepObject(10_000)}}`),
      invalid("metadata"),
    );
    addRaw(
      "metadata as an array 20,000 deep",
      () => rawJson(`{"amount":"100.00","metadata":${deepArray(20_000)}}`),
      invalid("metadata"),
    );
    addRaw(
      "a distribution value 5,000 deep",
      () => rawJson(`{"amount":"100.00","distribution":{"a":${deepObject(5000)}}}`),
      invalid("distribution"),
    );
    addRaw(
      "duplicate amount keys, the last a number",
      () => rawJson('{"amount":"100.00","amount":100}'),
      invalid("amount"),
    );
    // Idempotency-Key: a bad key refuses the request; a refused body is not stored under a good key.
    for (const [label, value] of [
      ["empty", ""],
      ["with a space", "order 42"],
      ["256 characters", "k".repeat(256)],
      ["with a slash", "order/42"],
      ["Latin-1", "commande-\u00e9"],
    ] as Array<[string, string]>) {
      addRaw(
        `an Idempotency-Key ${label}`,
        (_c, v) => ({ json: v, headers: { "idempotency-key": value } }),
        invalid("Idempotency-Key"),
      );
    }
    const idemKey = `sweep-${randomBytes(8).toString("hex")}`;
    addRaw(
      "a bad body under an Idempotency-Key",
      () => ({ json: { amount: 100 }, headers: { "idempotency-key": idemKey } }),
      invalid("amount"),
    );
    addRaw(
      "another bad body under the same Idempotency-Key is not a reuse",
      () => ({
        json: { amount: "-5" },
        headers: { "idempotency-key": idemKey },
      }),
      invalid("amount"),
    );
    addRaw(
      "a deep body under an Idempotency-Key",
      () => ({
        headers: { ...JSON_CT, "idempotency-key": `${idemKey}-deep` },
        body: `{"amount":"100.00","metadata":{"a":${deepArray(20_000)}}}`,
      }),
      invalid("metadata"),
    );
    cases.push(...secretKeyHeaderCases("POST", "/v1/payment/initialize", { amount: "100.00" }));

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("wrote no transaction and stored no idempotency key", async () => {
      expect(await listTransactions(ctx.merchant)).toEqual([]);
      const keys = await testDb(target)
        .selectFrom("idempotency_keys")
        .select("idempotency_key")
        .where("merchant_id", "=", ctx.merchant.id)
        .execute();
      expect(keys).toEqual([]);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe("POST /v1/merchants/auth/signup", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    /** A refused signup leaves no account: login with what was attempted fails, and no row has the email. */
    /** What each refused signup attempted; after the sweep, signing in with each must fail. */
    const attempts: Array<{ case: string; email: string; password: string }> = [];
    /** A refused signup leaves no account: no row has the email (now), and login with it fails (below). */
    const noAccount = async (_ctx: Ctx, res: ApiResponse, attempted: Record<string, unknown>) => {
      expect(res.status).not.toBe(201);
      if (typeof attempted.email !== "string") return;
      const email = attempted.email;
      const password =
        typeof attempted.password === "string" && attempted.password ? attempted.password : VALID_PASSWORD;
      attempts.push({ case: expect.getState().currentTestName ?? "", email, password });
      const rows = await testDb(target)
        .selectFrom("merchants")
        .select("id")
        .where("email", "in", [email, email.toLowerCase(), email.trim().toLowerCase()])
        .execute();
      expect(rows, `no merchant row for ${email}`).toEqual([]);
    };
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/merchants/auth/signup",
      auth: () => ({}),
      valid: () => signupBody(),
      strict: true,
      stringField: "businessName",
      after: noAccount,
    };
    const cases: Case[] = [
      ...bodyCases(ep),
      ...missingCases(ep, ["businessName", "email", "password"]),
      ...fieldCases(ep, "businessName", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["spaces only", "   "],
        ["121 characters", "b".repeat(121)],
      ]),
      ...fieldCases(ep, "email", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["no at sign", "merchant.example.com"],
        ["no domain", "merchant@"],
        ["no top-level domain", "merchant@example"],
        ["two at signs", "a@@example.com"],
        ["a space", "a b@example.com"],
        ["255 characters", `${"a".repeat(243)}@example.com`],
        ["an SQL fragment", "x'; DROP TABLE merchants;--@example.com"],
      ]),
      ...fieldCases(ep, "password", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["10 digits as a number", 1234567890],
        ["an empty string", ""],
        ["9 characters", "123456789"],
        ["201 characters", "p".repeat(201)],
      ]),
      ...unknownFieldCases(ep, ["role", "id", "merchantId", "Email", "keys", "isAdmin", ""]),
    ];

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("left no account behind: login with every attempted email fails", async () => {
      expect(attempts.length).toBeGreaterThan(100);
      // Password checks cost a scrypt each: a few at a time, each from its own address (failed-login limit).
      for (let i = 0; i < attempts.length; i += 8) {
        await Promise.all(
          attempts.slice(i, i + 8).map(async (a) => {
            const login = await client(target.url).post("/v1/merchants/auth/login", {
              email: a.email,
              password: a.password,
            });
            expect(login.status, `${a.case}: login as ${a.email} must fail, got ${login.text}`).not.toBe(200);
            assertFailure(login, "POST", {
              status: [400, 401],
              error: ["invalid_credentials", "validation_error"],
            });
          }),
        );
      }
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe("POST /v1/merchants/auth/login", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/merchants/auth/login",
      auth: () => ({}),
      valid: (c) => ({ email: c.merchant.email, password: c.merchant.password }),
      strict: true,
      stringField: "email",
    };
    const cases: Case[] = [
      ...bodyCases(ep),
      ...missingCases(ep, ["email", "password"]),
      ...fieldCases(ep, "email", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["not an email", "merchant"],
        ["255 characters", `${"a".repeat(243)}@example.com`],
      ]),
      ...fieldCases(ep, "password", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["201 characters", "p".repeat(201)],
      ]),
      ...unknownFieldCases(ep, ["remember", "otp", "Password", ""]),
    ];
    const add = caseMaker(ep, cases);
    const refused = { status: 401, error: "invalid_credentials" } as const;
    add(
      "an unknown email",
      () => ({ json: { email: uniqueEmail("nobody"), password: VALID_PASSWORD } }),
      refused,
    );
    add(
      "a wrong password",
      (c) => ({ json: { email: c.merchant.email, password: `${c.merchant.password}!` } }),
      refused,
    );
    add(
      "the password in the other letter case",
      (c) => ({ json: { email: c.merchant.email, password: swapCase(c.merchant.password) } }),
      refused,
    );
    add(
      "the password with a trailing NUL",
      (c) => ({ json: { email: c.merchant.email, password: `${c.merchant.password}\u0000` } }),
      {
        status: [400, 401],
        error: ["invalid_credentials", "validation_error"],
      },
    );

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("POST /v1/merchants/auth/logout", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/merchants/auth/logout",
      auth: session,
      valid: () => ({}),
      strict: false,
    };
    const cases: Case[] = [...bodyCases(ep), ...sessionHeaderCases("POST", "/v1/merchants/auth/logout")];

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("left the session signed in", async () => {
      const res = await api.get("/v1/merchants/settings", session(ctx));
      expect(res.status, res.text).toBe(200);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe("POST /v1/merchants/keys/roll", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/merchants/keys/roll",
      auth: session,
      valid: () => ({ mode: "test" }),
      strict: true,
      stringField: "mode",
    };
    const cases: Case[] = [
      ...bodyCases(ep),
      ...missingCases(ep, ["mode"]),
      ...fieldCases(ep, "mode", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["an empty string", ""],
        ["an unknown mode", "sandbox"],
        ["upper case", "TEST"],
        ["a leading space", " test"],
        ["both modes", "test,live"],
        ["an array of the mode", ["test"]],
      ]),
      ...unknownFieldCases(ep, ["key", "revokeOld", "Mode", ""]),
      ...sessionHeaderCases("POST", "/v1/merchants/keys/roll", { mode: "test" }),
    ];

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("left the test key working", async () => {
      const res = await api.get(`/v1/payment/verify/${UNKNOWN_REFERENCE}`, key(ctx));
      expect(res.status, res.text).toBe(404);
      expect(res.body.error).toBe("transaction_not_found");
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe("GET and PUT /v1/merchants/settings", () => {
    let ctx: Ctx;
    let before: unknown;
    beforeAll(async () => {
      ctx = await newCtx();
      const res = await api.get("/v1/merchants/settings", session(ctx));
      expect(res.status).toBe(200);
      before = res.body.data;
    });
    const ep: BodyEndpoint = {
      method: "PUT",
      path: "/v1/merchants/settings",
      auth: session,
      valid: () => ({
        channels: ["card"],
        merchantBearsCost: true,
        brandColor: "#123456",
        logoUrl: "https://cdn.example.com/logo.png",
      }),
      strict: true,
      stringField: "brandColor",
    };
    const cases: Case[] = [
      ...bodyCases(ep),
      ...fieldCases(ep, "businessName", [
        ...WRONG_TYPES_FOR_STRING,
        ["an empty string", ""],
        ["only spaces", "   "],
        ["121 characters", "x".repeat(121)],
      ]),
      ...fieldCases(ep, "channels", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "an array" && l !== "an empty array"),
        ["a string", "card"],
        ["an empty array", []],
        ["an unknown channel", ["paypal"]],
        ["upper case", ["CARD"]],
        ["a repeated channel", ["card", "card"]],
        ["five entries", ["card", "bank_transfer", "bank_payment", "ussd", "card"]],
        ["a number entry", [1]],
        ["a null entry", [null]],
        ["a nested array", [["card"]]],
      ]),
      ...fieldCases(ep, "merchantBearsCost", [...WRONG_TYPES_FOR_BOOLEAN, ["null", null]]),
      ...fieldCases(ep, "brandColor", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["a colour name", "red"],
        ["three hex digits", "#fff"],
        ["non-hex digits", "#GGGGGG"],
        ["no hash", "0a7d5a"],
        ["a trailing semicolon", "#0a7d5a;"],
        ["CSS injection", "#0a7d5a;background:url(https://evil.example)"],
        ["a trailing space", "#0a7d5a "],
      ]),
      ...fieldCases(ep, "logoUrl", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null"),
        ["javascript:", "javascript:alert(1)"],
        ["data:", "data:image/svg+xml,<svg onload=alert(1)>"],
        ["ftp:", "ftp://cdn.example.com/logo.png"],
        ["a relative path", "/logo.png"],
        ["not a URL", "not a url"],
        ["2,100 characters", `https://cdn.example.com/${"l".repeat(2080)}.png`],
      ]),
      ...fieldCases(ep, "embedOrigins", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "an empty array"),
        ["a string", "https://shop.example"],
        ["a path", ["https://shop.example/pay"]],
        ["a query", ["https://shop.example?x=1"]],
        ["a wildcard", ["https://*.shop.example"]],
        ["http on a public host", ["http://shop.example"]],
        ["a CSP injection", ["https://shop.example; script-src *"]],
        ["a CSP keyword", ["'self'"]],
        ["a star", ["*"]],
        ["credentials", ["https://user:pw@shop.example"]],
        ["javascript:", ["javascript:alert(1)"]],
        ["a null entry", [null]],
        ["a repeated origin", ["https://a.example", "https://A.example/"]],
        ["eleven origins", Array.from({ length: 11 }, (_, i) => `https://s${i}.example`)],
        ["a 300-character origin", [`https://${"a".repeat(290)}.example`]],
      ]),
      ...unknownFieldCases(ep, ["email", "password", "channel", "merchantBearsCosts", "businessname", ""]),
      ...sessionHeaderCases("GET", "/v1/merchants/settings"),
      ...sessionHeaderCases("PUT", "/v1/merchants/settings", { channels: ["card"], brandColor: "#123456" }),
    ];
    const add = caseMaker(ep, cases);
    add("an empty object", () => ({ json: {} }), invalid("channels"));
    add("an empty body", () => ({ headers: JSON_CT, body: "" }), invalid("channels"));

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("left the settings as they were", async () => {
      const res = await api.get("/v1/merchants/settings", session(ctx));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(before);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  describe("GET /v1/merchants/transactions", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx(true);
    });
    const path = "/v1/merchants/transactions";
    const cases: Case[] = [
      ...queryCases(path, session, [
        ["limit=-1", "limit=-1", invalid("limit")],
        ["limit=0", "limit=0", invalid("limit")],
        ["limit=101", "limit=101", invalid("limit")],
        ["limit=abc", "limit=abc", invalid("limit")],
        ["limit=1.5", "limit=1.5", invalid("limit")],
        ["limit= (empty)", "limit=", invalid("limit")],
        ["limit=%20", "limit=%20", invalid("limit")],
        ["limit=Infinity", "limit=Infinity", invalid("limit")],
        ["limit=NaN", "limit=NaN", invalid("limit")],
        ["limit=99999999999999999999", "limit=99999999999999999999", invalid("limit")],
        ["limit=1e400", "limit=1e400", invalid("limit")],
        ["limit=%00", "limit=%00", invalid("limit")],
        ["limit[]=1", "limit[]=1", invalid('"limit[]"')],
        ["status of 41 characters", `status=${"s".repeat(41)}`, invalid("status")],
        ["a 5,000-character cursor", `cursor=${"c".repeat(5000)}`, invalid("cursor")],
        ["a cursor of punctuation", "cursor=!!!", invalid("cursor")],
        ["a cursor that is not from a page", "cursor=abc", invalid("cursor")],
        [
          "a cursor of base64 junk",
          `cursor=${Buffer.from("1:not-a-uuid").toString("base64url")}`,
          invalid("cursor"),
        ],
        [
          "a cursor with a 17-digit time",
          `cursor=${Buffer.from(`99999999999999999:${"0".repeat(36)}`).toString("base64url")}`,
          invalid("cursor"),
        ],
        ["a cursor with a NUL", "cursor=%00", invalid("cursor")],
        ["cursor[]=x", "cursor[]=x", invalid('"cursor[]"')],
        ["an unknown parameter", "foo=1", invalid('"foo"')],
        ["page=2", "page=2", invalid('"page"')],
        ["Limit=5 (letter case)", "Limit=5", invalid('"Limit"')],
        ["a parameter named %", "%=%", invalid('"%"')],
      ]),
      ...sessionHeaderCases("GET", path),
    ];

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("GET /v1/payment/verify/{reference}", () => {
    let ctx: Ctx;
    let otherKey = "";
    beforeAll(async () => {
      ctx = await newCtx(true);
      otherKey = (await signup(api)).testKey;
    });
    const base = "/v1/payment/verify/";
    const notFound = { status: 404, error: "transaction_not_found" } as const;
    const undecodable = { status: [400, 404], error: ["validation_error", "route_not_found"] } as const;
    const paths: Array<[string, string, Expect]> = [
      ["%00", "%00", invalid("reference")],
      ["..%2f", "..%2f", invalid("reference")],
      ["..%2F..%2Finitialize", "..%2F..%2Finitialize", invalid("reference")],
      ["a reference with an encoded slash", "PAY_TXN_abc%2Fextra", invalid("reference")],
      ["300 characters", "A".repeat(300), invalid("reference")],
      ["PAY_TXN_ and 300 characters", `PAY_TXN_${"A".repeat(300)}`, invalid("reference")],
      ["8,000 characters", `PAY_TXN_${"A".repeat(8000)}`, invalid("reference")],
      ["a lowercase prefix", "pay_txn_ABC", invalid("reference")],
      ["the prefix alone", "PAY_TXN_", invalid("reference")],
      ["an encoded emoji", "%F0%9F%98%80", invalid("reference")],
      ["PAY_TXN_ and an encoded emoji", "PAY_TXN_%F0%9F%98%80", invalid("reference")],
      ["an encoded right-to-left override", "PAY_TXN_%E2%80%AEabc", invalid("reference")],
      ["an encoded space", "PAY_TXN_%20abc", invalid("reference")],
      ["a matrix parameter", "PAY_TXN_abc;x=1", invalid("reference")],
      ["an encoded question mark", "PAY_TXN_abc%3Fx=1", invalid("reference")],
      ["SQL", "PAY_TXN_'%20OR%20'1'='1", invalid("reference")],
      ["a well-formed unknown reference", UNKNOWN_REFERENCE, notFound],
      ["a lone %", "%", undecodable],
      ["%ZZ", "%ZZ", undecodable],
      ["a truncated escape %E0%A4%A", "PAY_TXN_%E0%A4%A", undecodable],
      ["an overlong %C0%AF", "%C0%AF", undecodable],
      ["an encoded surrogate %ED%A0%80", "PAY_TXN_%ED%A0%80", undecodable],
      ["%FF bytes", "%FF%FE", undecodable],
    ];
    const cases: Case[] = paths.map(([label, segment, want]) => ({
      name: `GET ${base}{${label}}`,
      request: (c) => ({ method: "GET", path: `${base}${segment}`, headers: key(c) }),
      expect: want,
    }));
    cases.push(
      {
        name: `GET ${base} (no reference; the redirect is followed)`,
        request: (c) => ({ method: "GET", path: base, headers: key(c) }),
        expect: NOT_FOUND_ROUTE,
      },
      {
        name: `GET ${base}{ref}/extra`,
        request: (c) => ({ method: "GET", path: `${base}${c.reference}/extra`, headers: key(c) }),
        expect: NOT_FOUND_ROUTE,
      },
      {
        name: `GET ${base}%2e%2e%2f%2e%2e%2finitialize, sent unnormalised`,
        request: (c) => ({
          method: "GET",
          path: "",
          raw: rawRequest(c.url, "GET", `${base}%2e%2e%2f%2e%2e%2finitialize`, Object.entries(key(c))),
        }),
        expect: invalid("reference"),
      },
      {
        name: "GET the reference of another merchant's transaction",
        request: (c) => ({
          method: "GET",
          path: `${base}${c.reference}`,
          headers: { "x-api-key": otherKey },
        }),
        expect: notFound,
      },
      {
        name: "GET with a valid key in lowercase bearer (accepted scheme; unknown reference)",
        request: (c) => ({
          method: "GET",
          path: `${base}${UNKNOWN_REFERENCE}`,
          headers: { authorization: `bearer ${c.merchant.testKey}` },
        }),
        expect: notFound,
      },
      {
        name: "GET with a valid x-api-key wrapped in spaces and tabs (trimmed; unknown reference)",
        request: (c) => ({
          method: "GET",
          path: "",
          raw: rawRequest(c.url, "GET", `${base}${UNKNOWN_REFERENCE}`, [
            ["x-api-key", ` \t ${c.merchant.testKey} \t `],
          ]),
        }),
        expect: notFound,
      },
      ...secretKeyHeaderCases("GET", `${base}${UNKNOWN_REFERENCE}`),
    );

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("GET /v1/payment/checkout/verify and /v1/payment/checkout/banks", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx(true);
    });
    const banks = "/v1/payment/checkout/banks";
    const cases: Case[] = [
      ...accessCodeHeaderCases("/v1/payment/checkout/verify"),
      ...accessCodeHeaderCases(`${banks}?country=NG`),
      ...queryCases(banks, access, [
        ["country=ZZ", "country=ZZ", invalid("country")],
        ["country= (empty)", "country=", invalid("country")],
        ["country=NGA", "country=NGA", invalid("country")],
        ["country=N", "country=N", invalid("country")],
        ["country=566", "country=566", invalid("country")],
        ["country=N%00G", "country=N%00G", invalid("country")],
        ["country=NG%00", "country=NG%00", invalid("country")],
        ["country as a flag emoji", "country=%F0%9F%87%B3%F0%9F%87%AC", invalid("country")],
        ["country of 5,000 characters", `country=${"N".repeat(5000)}`, invalid("country")],
        ["country of a lone %", "country=%", invalid("country")],
        ["country of %ZZ", "country=%ZZ", invalid("country")],
        ["country[]=NG", "country[]=NG", invalid('"country[]"')],
        ["country[0]=NG", "country[0]=NG", invalid('"country[0]"')],
        ["an unknown parameter", "country=NG&foo=1", invalid('"foo"')],
        ["countries=NG", "countries=NG", invalid('"countries"')],
      ]),
    ];

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("routing: unknown paths and wrong methods", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx(true);
    });
    const cases: Case[] = [];
    for (const [path, allowed, head] of registryRoutes("malformed"))
      cases.push(...methodCases(path, allowed, head));
    const unknownPaths: Array<[string, Expect]> = [
      ["/v1/nope", NOT_FOUND_ROUTE],
      ["/v1/payment", NOT_FOUND_ROUTE],
      ["/v1/payment/checkout", NOT_FOUND_ROUTE],
      ["/v1/payment/initialize/extra", NOT_FOUND_ROUTE],
      ["/v1/payment/checkout/verify/extra", NOT_FOUND_ROUTE],
      ["/v1/PAYMENT/INITIALIZE", NOT_FOUND_ROUTE],
      ["/v1/merchants", NOT_FOUND_ROUTE],
      ["/v1/merchants/auth", NOT_FOUND_ROUTE],
      ["/v1/merchants/keys/roll/now", NOT_FOUND_ROUTE],
      ["/v1/payment/verify", NOT_FOUND_ROUTE],
      ["/v1/%F0%9F%98%80", NOT_FOUND_ROUTE],
      ["/v1/%00", NOT_FOUND_ROUTE],
      ["/v1/nope?x=%ZZ", NOT_FOUND_ROUTE],
      [`/v1/${"n".repeat(8000)}`, NOT_FOUND_ROUTE],
      ["/v1", NOT_FOUND_ROUTE],
      ["/v1/", NOT_FOUND_ROUTE],
      ["/v1/%ZZ", { status: [400, 404] }],
      ["/v1/%C0%AF", { status: [400, 404] }],
    ];
    for (const [path, want] of unknownPaths) {
      for (const method of ["GET", "POST"]) {
        cases.push({
          name: `${method} ${path.length > 60 ? `${path.slice(0, 60)}...` : path}`,
          request: () => ({ method, path, ...(method === "POST" ? { json: { amount: "100.00" } } : {}) }),
          expect: want,
        });
      }
    }
    cases.push(
      {
        name: "POST /v1/nope with a text/plain body",
        request: () => ({
          method: "POST",
          path: "/v1/nope",
          headers: { "content-type": "text/plain" },
          body: "hello",
        }),
        expect: { status: [404, 415], error: ["route_not_found", "unsupported_media_type"] },
      },
      {
        name: "POST /v1/nope with a 70 KiB body",
        request: () => ({ method: "POST", path: "/v1/nope", headers: JSON_CT, body: padTo("{}", 70 * 1024) }),
        expect: { status: [404, 413], error: ["route_not_found", "payload_too_large"] },
      },
    );

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("protocol-level malformations (raw HTTP)", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx(true);
    });
    const path = `/v1/payment/verify/${UNKNOWN_REFERENCE}`;
    const anyRefusal: Expect = { status: [400, 404, 405, 411, 413, 414, 431] };
    const raw = (name: string, build: (c: Ctx) => Buffer): Case => ({
      name,
      request: (c) => ({ method: "GET", path: "", raw: build(c) }),
      expect: anyRefusal,
    });
    const cases: Case[] = [
      raw("a NUL byte in a header value", (c) =>
        rawRequest(c.url, "GET", path, [["x-api-key", "sk_test_\u0000abc"]]),
      ),
      raw("a control character in a header value", (c) =>
        rawRequest(c.url, "GET", path, [["x-api-key", "sk_test_\u0001abc"]]),
      ),
      raw("a 20 KB header", (c) =>
        rawRequest(c.url, "GET", path, [["x-api-key", `sk_test_${"a".repeat(20_000)}`]]),
      ),
      raw("a space inside the request target", (c) =>
        rawRequest(c.url, "GET", "/v1/payment/verify/PAY_TXN_a b", []),
      ),
      raw("raw 0xFF bytes in the path", (c) =>
        rawRequest(
          c.url,
          "GET",
          Buffer.concat([Buffer.from("/v1/payment/verify/"), Buffer.from([0xff, 0xfe])]),
          [],
        ),
      ),
      raw("Content-Length: abc", (c) =>
        rawRequest(
          c.url,
          "POST",
          "/v1/merchants/auth/login",
          [
            ["Content-Type", "application/json"],
            ["Content-Length", "abc"],
          ],
          "{}",
        ),
      ),
      raw("two different Content-Length headers", (c) =>
        rawRequest(
          c.url,
          "POST",
          "/v1/merchants/auth/login",
          [
            ["Content-Type", "application/json"],
            ["Content-Length", "2"],
            ["Content-Length", "3"],
          ],
          "{} ",
        ),
      ),
      raw("Content-Length and Transfer-Encoding together", (c) =>
        rawRequest(
          c.url,
          "POST",
          "/v1/merchants/auth/login",
          [
            ["Content-Type", "application/json"],
            ["Content-Length", "5"],
            ["Transfer-Encoding", "chunked"],
          ],
          chunked(Buffer.from("{}")),
        ),
      ),
      raw("a header line without a colon", (c) =>
        rawRequest(c.url, "GET", path, [["x-api-key", "a\r\nno-colon-here"]]),
      ),
      raw('a lowercase method "patch"', (c) => rawRequest(c.url, "patch", "/v1/merchants/settings", [])),
    ];

    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("unicode in every string field, and odd keys: stored exactly, or refused naming the field", () => {
    let ctx: Ctx;
    let settingsCtx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx(true);
      settingsCtx = await newCtx();
    });

    const verified = async (c: Ctx, res: ApiResponse) => {
      const v = await send(c, {
        method: "GET",
        path: `/v1/payment/verify/${res.body.data.reference}`,
        headers: key(c),
      });
      expect(v.status, v.text).toBe(200);
      return v.body.data;
    };
    /** Fields no endpoint shows back are read from the database row. */
    const stored = (res: ApiResponse) =>
      testDb(target)
        .selectFrom("transactions")
        .select(["description", "callback_url"])
        .where("reference", "=", res.body.data.reference)
        .executeTakeFirstOrThrow();
    const init =
      (body: Record<string, unknown>) =>
      (c: Ctx): Spec => ({
        method: "POST",
        path: "/v1/payment/initialize",
        headers: key(c),
        json: { amount: "100.00", ...body },
      });

    const cases: Case[] = [];
    for (const [label, s] of UNICODE_SAMPLES) {
      const pct = pctEncode(s);
      cases.push(
        // initialize
        {
          name: `initialize amount with ${label}`,
          request: init({ amount: `100${s}` }),
          expect: invalid("amount"),
        },
        {
          name: `initialize currency with ${label}`,
          request: init({ currency: `NG${s}` }),
          expect: invalid("currency"),
        },
        {
          name: `initialize distribution key with ${label}`,
          request: init({ distribution: { [s]: 1 } }),
          expect: invalid("distribution"),
        },
        {
          name: `initialize customerName with ${label}`,
          request: init({ customerName: s }),
          after: storedOrRefused("customerName", async (c, r) => (await verified(c, r)).customer.name, s),
        },
        {
          name: `initialize email with ${label}`,
          request: init({ email: `buyer.${s}@example.com` }),
          after: storedOrRefused(
            "email",
            async (c, r) => (await verified(c, r)).customer.email,
            `buyer.${s}@example.com`,
          ),
        },
        {
          name: `initialize description with ${label}`,
          request: init({ description: s }),
          after: storedOrRefused("description", async (_c, r) => (await stored(r)).description, s),
        },
        {
          name: `initialize callbackUrl with ${label}`,
          request: init({ callbackUrl: `https://shop.example.com/return?note=${s}` }),
          after: storedOrRefused(
            "callbackUrl",
            async (_c, r) => (await stored(r)).callback_url,
            `https://shop.example.com/return?note=${s}`,
          ),
        },
        {
          name: `initialize metadata value with ${label}`,
          request: init({ metadata: { note: s } }),
          after: storedOrRefused("metadata", async (c, r) => (await verified(c, r)).metadata, { note: s }),
        },
        {
          name: `initialize metadata key with ${label}`,
          request: init({ metadata: { [s]: "v" } }),
          after: storedOrRefused("metadata", async (c, r) => (await verified(c, r)).metadata, { [s]: "v" }),
        },
      );
      // signup: business name, email and password
      const signupCase = (
        field: string,
        body: Record<string, unknown>,
        check: (c: Ctx, res: ApiResponse) => Promise<void>,
      ): Case => ({
        name: `signup ${field} with ${label}`,
        request: () => ({ method: "POST", path: "/v1/merchants/auth/signup", json: body }),
        after: async (c, res) => {
          if (res.status === 201) await check(c, res);
          else assertFailure(res, "POST", invalid(field));
        },
      });
      const settingsOf = async (c: Ctx, res: ApiResponse) => {
        const r = await send(c, {
          method: "GET",
          path: "/v1/merchants/settings",
          headers: { authorization: `Bearer ${res.body.data.accessToken}` },
        });
        expect(r.status, r.text).toBe(200);
        return r.body.data;
      };
      const nameBody = signupBody({ businessName: s });
      const emailBody = signupBody({ email: `m.${s}.${randomBytes(4).toString("hex")}@example.com` });
      const passwordBody = signupBody({ password: `pass-word-${s}` });
      cases.push(
        signupCase("businessName", nameBody, async (c, res) => {
          expect((await settingsOf(c, res)).businessName, "businessName read back exactly").toBe(s);
        }),
        signupCase("email", emailBody, async (c, res) => {
          expect((await settingsOf(c, res)).email, "email read back exactly").toBe(
            String(emailBody.email).toLowerCase(),
          );
        }),
        signupCase("password", passwordBody, async (c) => {
          const ok = await send(c, {
            method: "POST",
            path: "/v1/merchants/auth/login",
            json: { email: passwordBody.email, password: passwordBody.password },
          });
          expect(ok.status, `the exact password signs in: ${ok.text}`).toBe(200);
          const other = lookalikePassword(passwordBody.password as string);
          const wrong = await send(c, {
            method: "POST",
            path: "/v1/merchants/auth/login",
            json: { email: passwordBody.email, password: other },
          });
          expect(
            wrong.status,
            `a different password (${JSON.stringify(other)}) must not sign in: ${wrong.text}`,
          ).not.toBe(200);
          assertFailure(wrong, "POST", { status: [400, 401] });
        }),
        {
          name: `login with ${label} in email and password`,
          request: () => ({
            method: "POST",
            path: "/v1/merchants/auth/login",
            json: { email: `x.${s}@example.com`, password: s },
          }),
          expect: { status: [400, 401], error: ["validation_error", "invalid_credentials"] },
        },
        // settings and keys
        {
          name: `settings brandColor with ${label}`,
          request: () => ({
            method: "PUT",
            path: "/v1/merchants/settings",
            headers: session(settingsCtx),
            json: { brandColor: `#${s}` },
          }),
          expect: invalid("brandColor"),
        },
        {
          name: `settings channels entry with ${label}`,
          request: () => ({
            method: "PUT",
            path: "/v1/merchants/settings",
            headers: session(settingsCtx),
            json: { channels: [s] },
          }),
          expect: invalid("channels"),
        },
        {
          name: `settings logoUrl with ${label}`,
          request: () => ({
            method: "PUT",
            path: "/v1/merchants/settings",
            headers: session(settingsCtx),
            json: { logoUrl: `https://cdn.example.com/${s}.png` },
          }),
          after: storedOrRefused(
            "logoUrl",
            async (c) =>
              (
                await send(c, {
                  method: "GET",
                  path: "/v1/merchants/settings",
                  headers: session(settingsCtx),
                })
              ).body.data.logoUrl,
            `https://cdn.example.com/${s}.png`,
          ),
        },
        {
          name: `keys/roll mode with ${label}`,
          request: (c) => ({
            method: "POST",
            path: "/v1/merchants/keys/roll",
            headers: session(c),
            json: { mode: `test${s}` },
          }),
          expect: invalid("mode"),
        },
        // queries and paths
        {
          name: `transactions ?status= with ${label}`,
          request: (c) => ({
            method: "GET",
            path: `/v1/merchants/transactions?status=${pct}`,
            headers: session(c),
          }),
          after: async (_c, res) => {
            if (res.status === 200) expect(res.body.data.transactions).toEqual([]);
            else assertFailure(res, "GET", invalid("status"));
          },
        },
        {
          name: `transactions ?cursor= with ${label}`,
          request: (c) => ({
            method: "GET",
            path: `/v1/merchants/transactions?cursor=${pct}`,
            headers: session(c),
          }),
          expect: invalid("cursor"),
        },
        {
          name: `transactions ?limit= with ${label}`,
          request: (c) => ({
            method: "GET",
            path: `/v1/merchants/transactions?limit=1${pct}`,
            headers: session(c),
          }),
          expect: invalid("limit"),
        },
        {
          name: `banks ?country= with ${label}`,
          request: (c) => ({
            method: "GET",
            path: `/v1/payment/checkout/banks?country=${pct}`,
            headers: access(c),
          }),
          expect: invalid("country"),
        },
        {
          name: `verify reference with ${label}`,
          request: (c) => ({ method: "GET", path: `/v1/payment/verify/PAY_TXN_${pct}`, headers: key(c) }),
          // An encoded lone surrogate is not UTF-8: refusing it as an undecodable path (or unknown route) is fine.
          expect: /\p{Surrogate}/u.test(s)
            ? { status: [400, 404], error: ["validation_error", "route_not_found"] }
            : invalid("reference"),
        },
      );
    }

    // Keys JavaScript treats specially: kept as sent (metadata is opaque, "any keys") or refused, never dropped.
    cases.push(
      {
        name: 'initialize metadata with a "__proto__" key',
        request: (c) => ({
          method: "POST",
          path: "/v1/payment/initialize",
          headers: { ...key(c), ...JSON_CT },
          body: '{"amount":"100.00","metadata":{"__proto__":{"isAdmin":true},"orderId":"42"}}',
        }),
        after: storedOrRefused(
          "metadata",
          async (c, r) => (await verified(c, r)).metadata,
          JSON.parse('{"__proto__":{"isAdmin":true},"orderId":"42"}'),
        ),
      },
      {
        name: 'initialize metadata with "constructor" and "prototype" keys',
        request: init({ metadata: { constructor: { prototype: { isAdmin: true } } } }),
        after: storedOrRefused("metadata", async (c, r) => (await verified(c, r)).metadata, {
          constructor: { prototype: { isAdmin: true } },
        }),
      },
      {
        name: 'initialize distribution with a "__proto__" key',
        request: (c) => ({
          method: "POST",
          path: "/v1/payment/initialize",
          headers: { ...key(c), ...JSON_CT },
          body: '{"amount":"100.00","distribution":{"__proto__":10,"vendor":5}}',
        }),
        after: storedOrRefused(
          "distribution",
          async (_c, r) => r.body.data.distribution,
          JSON.parse('{"__proto__":10,"vendor":5}'),
        ),
      },
    );

    for (const c of cases) it(c.name, () => run(ctx, c));
  });
});
