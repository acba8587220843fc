import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, client, initialize, type Merchant, signup, targets } from "./helpers/api";
import { CARDS, card, OTP } from "./helpers/channels";
import { testDb } from "./helpers/db";
import {
  assertFailure,
  BAD_KEY,
  type Case,
  type Ctx,
  deepArray,
  deepObject,
  type Expect,
  INVALID_JSON,
  invalid,
  NOT_FOUND_ROUTE,
  pctEncode,
  rawRequest,
  type Spec,
  send,
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
  UNKNOWN_REFERENCE,
  unknownFieldCases,
} from "./helpers/malformed-sweep";
import { registryRoutes, UNKNOWN_EVENT, UNKNOWN_SLUG } from "./helpers/registry-routes";
import type { Target } from "./setup/servers";

/**
 * Malformed-input sweep over the endpoints tests/malformed.test.ts does not cover: the checkout channels and
 * the checkout page's sandbox doors (access code), the sandbox (secret key), webhooks, events and payment
 * links (session token), and the public payment-link pages. Same rule (docs/api.md): every case gets a 4xx
 * that is exactly {status:"failed", error, message} with an x-request-id, no internals, the field named for a
 * validation error; every block then checks in the database that its refused requests wrote nothing. The card
 * endpoint's answers must never hold the card number (docs/api.md).
 */

const YEAR = new Date().getUTCFullYear();
const NOT_STRINGS = WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null");
const WRONG_TYPES_FOR_NUMBER: ReadonlyArray<[string, unknown]> = [
  ["a numeric string", "10"],
  ["true", true],
  ["an array", [10]],
  ["an object", { value: 10 }],
];
/** Amounts that are strings but not an amount (docs/api.md). */
const BAD_AMOUNTS: ReadonlyArray<[string, unknown]> = [
  ["an empty string", ""],
  ["letters", "abc"],
  ["a negative", "-1"],
  ["zero", "0"],
  ["zero with decimals", "0.00"],
  ["exponent notation", "1e3"],
  ["three decimals", "100.001"],
  ["a thousands separator", "1,000"],
  ["a leading space", " 100"],
  ["hex", "0x10"],
  ["Infinity", "Infinity"],
  ["fullwidth digits", "\uff11\uff10\uff10"],
  ["above the 100,000,000.00 maximum", "100000000.01"],
  ["40 nines", "9".repeat(40)],
  ["41 nines", "9".repeat(41)],
  ["60,000 digits", "9".repeat(60_000)],
];
/** Bad slugs as path segments: each must be a validation error naming `slug`, or not a route at all. */
const BAD_SLUGS: Array<[string, string, Expect]> = [
  ["%00", "%00", invalid("slug")],
  ["..%2f", "..%2f", invalid("slug")],
  ["an encoded slash", "school-fees%2Fextra", invalid("slug")],
  ["upper case", "School-Fees", invalid("slug")],
  ["a leading hyphen", "-fees", invalid("slug")],
  ["a trailing hyphen", "fees-", invalid("slug")],
  ["an underscore", "school_fees", invalid("slug")],
  ["81 characters", "s".repeat(81), invalid("slug")],
  ["8,000 characters", "s".repeat(8000), invalid("slug")],
  ["an encoded emoji", "%F0%9F%98%80", invalid("slug")],
  ["an encoded right-to-left override", "fees%E2%80%AEabc", invalid("slug")],
  ["an encoded space", "school%20fees", invalid("slug")],
  ["a matrix parameter", "fees;x=1", invalid("slug")],
  ["an encoded question mark", "fees%3Fx=1", invalid("slug")],
  ["a dot", "fees.json", invalid("slug")],
  ["SQL", "x'%20OR%20'1'='1", invalid("slug")],
  ["a well-formed unknown slug", UNKNOWN_SLUG, { status: 404, error: "payment_link_not_found" }],
  ["a lone %", "%", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
  ["%ZZ", "%ZZ", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
  ["an overlong %C0%AF", "%C0%AF", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
  [
    "an encoded surrogate",
    "a%ED%A0%80",
    { status: [400, 404], error: ["validation_error", "route_not_found"] },
  ],
  ["%FF bytes", "%FF%FE", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
];
/** Bad event ids in /merchants/events/{id}/redeliver. */
const BAD_EVENT_IDS: Array<[string, string, Expect]> = [
  ["%00", "%00", invalid("id")],
  ["..%2f", "..%2f", invalid("id")],
  ["the prefix alone", "evt_", invalid("id")],
  ["too short", "evt_abc", invalid("id")],
  ["25 characters after the prefix", `evt_${"a".repeat(25)}`, invalid("id")],
  ["an upper-case prefix", `EVT_${"a".repeat(24)}`, invalid("id")],
  ["a hyphen inside", `evt_${"a".repeat(23)}-`, invalid("id")],
  ["a transaction reference", UNKNOWN_REFERENCE, invalid("id")],
  ["8,000 characters", `evt_${"a".repeat(8000)}`, invalid("id")],
  ["an encoded emoji", `evt_${"a".repeat(22)}%F0%9F%98%80`, invalid("id")],
  ["an encoded space", `evt_${"a".repeat(23)}%20`, invalid("id")],
  ["an encoded slash", `evt_${"a".repeat(12)}%2F${"a".repeat(12)}`, invalid("id")],
  ["SQL", "evt_'%20OR%20'1'='1", invalid("id")],
  ["a well-formed unknown id", UNKNOWN_EVENT, { status: 404, error: "event_not_found" }],
  ["a lone %", "%", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
  ["%ZZ", "evt_%ZZ", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
  ["%FF bytes", "evt_%FF%FE", { status: [400, 404], error: ["validation_error", "route_not_found"] }],
];

/** Every row a merchant owns that a request could write, to compare before and after a sweep. */
async function merchantState(target: Target, merchantId: string) {
  const db = testDb(target);
  // Plain JSON (bigint as text), so two reads compare with toEqual whatever the driver returns.
  const rows = (value: unknown) =>
    JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v)));
  const [
    merchant,
    keys,
    transactions,
    attempts,
    accounts,
    inbound,
    refunds,
    events,
    deliveries,
    endpoints,
    links,
    idempotency,
  ] = await Promise.all([
    db.selectFrom("merchants").selectAll().where("id", "=", merchantId).execute(),
    db
      .selectFrom("api_keys")
      .select(["id", "revoked_at"])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db.selectFrom("transactions").selectAll().where("merchant_id", "=", merchantId).orderBy("id").execute(),
    db
      .selectFrom("charge_attempts")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("virtual_accounts")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("inbound_transfers")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db.selectFrom("refunds").selectAll().where("merchant_id", "=", merchantId).orderBy("id").execute(),
    db
      .selectFrom("events")
      .select(["id", "type"])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("webhook_deliveries")
      .select(["id", "trigger"])
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("webhook_endpoints")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .orderBy("id")
      .execute(),
    db.selectFrom("payment_links").selectAll().where("merchant_id", "=", merchantId).orderBy("id").execute(),
    db
      .selectFrom("idempotency_keys")
      .select(["idempotency_key", "path"])
      .where("merchant_id", "=", merchantId)
      .execute(),
  ]);
  return rows({
    merchant,
    keys,
    transactions,
    attempts,
    accounts,
    inbound,
    refunds,
    events,
    deliveries,
    endpoints,
    links,
    idempotency,
  });
}

/** The digits of a card number must not be in an answer: no run of 7 of them (a BIN and a last 4 is the most shown). */
function assertNoCardNumber(res: ApiResponse, number: unknown) {
  const digits = typeof number === "string" ? number.replace(/\D/g, "") : "";
  for (const pan of [CARDS.success, digits]) {
    if (pan.length < 12) continue;
    for (let i = 0; i + 7 <= pan.length; i++) {
      const window = pan.slice(i, i + 7);
      expect(
        res.text.includes(window),
        `the answer holds ${window} of the card number: ${res.text.slice(0, 300)}`,
      ).toBe(false);
    }
  }
}

describe.each(targets)("malformed input to channels, sandbox, webhooks and links on $name", (target) => {
  const api = client(target.url);

  const newCtx = async (): Promise<Ctx> => {
    const merchant = await signup(api, { businessName: "Sweep Channels" });
    const init = await initialize(api, merchant.testKey, { amount: "5000", email: "payer@example.com" });
    expect(init.status, init.text).toBe(201);
    return {
      url: target.url,
      merchant,
      accessCode: init.body.data.accessCode,
      reference: init.body.data.reference,
    };
  };
  const bearer = (m: Merchant) => ({ authorization: `Bearer ${m.accessToken}` });
  /** Issue the virtual account of the ctx's transaction; answers its account number. */
  const openTransfer = async (ctx: Ctx): Promise<string> => {
    const res = await api.post("/v1/payment/checkout/charge/bank-transfer", {}, access(ctx));
    expect(res.status, res.text).toBe(200);
    return res.body.data.accountNumber;
  };
  const createLink = async (m: Merchant, body: Record<string, unknown>) => {
    const res = await api.post("/v1/merchants/payment-links", body, bearer(m));
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id: string; slug: string };
  };

  /**
   * One endpoint's sweep: `build` makes its cases; the ctx is made (and prepared) before them, the merchant's
   * rows are read after preparing and again after the sweep, and must not have changed.
   */
  function sweep(title: string, build: () => Case[], prepare?: (ctx: Ctx) => Promise<void>) {
    describe(title, () => {
      let ctx: Ctx;
      let before: unknown;
      beforeAll(async () => {
        ctx = await newCtx();
        await prepare?.(ctx);
        before = await merchantState(target, ctx.merchant.id);
      });
      for (const c of build()) it(c.name, () => run(ctx, c));
      it("wrote nothing: the merchant's rows are as they were", async () => {
        expect(await merchantState(target, ctx.merchant.id)).toEqual(before);
      });
    });
  }

  /** Idempotency-Key values that refuse a request whatever its body (docs/decisions/005-idempotency.md). */
  function idempotencyCases(ep: BodyEndpoint): Case[] {
    const cases: Case[] = [];
    const add = caseMaker(ep, cases);
    for (const [label, value] of [
      ["empty", ""],
      ["with a space", "order 42"],
      ["256 characters", "k".repeat(256)],
      ["with a slash", "order/42"],
      ["Latin-1", "commande-\u00e9"],
    ] as Array<[string, string]>) {
      add(
        `a valid body under an Idempotency-Key ${label}`,
        (_c, v) => ({ json: v, headers: { "idempotency-key": value } }),
        invalid("Idempotency-Key"),
      );
    }
    return cases;
  }

  // -------------------------------------------------------------------------------------------------------
  // Checkout channels (access code)

  const cardEp: BodyEndpoint = {
    method: "POST",
    path: "/v1/payment/checkout/charge/card",
    auth: access,
    valid: () => card(CARDS.success),
    strict: true,
    stringField: "number",
    after: async (_c, res, attempted) => assertNoCardNumber(res, attempted.number),
  };
  sweep("POST /v1/payment/checkout/charge/card", () => {
    const ep = cardEp;
    const cases: Case[] = [
      ...bodyCases(ep),
      ...missingCases(ep, ["number", "expiryMonth", "expiryYear", "cvv"]),
      ...fieldCases(ep, "number", [
        ...NOT_STRINGS,
        ["the card number as a JSON number", 4242424242424242],
        ["an empty string", ""],
        ["11 digits", "42424242424"],
        ["20 digits", "4".repeat(20)],
        ["a failing Luhn check", "4242424242424241"],
        ["letters inside", "4242abcd42424242"],
        ["dots between groups", "4242.4242.4242.4242"],
        ["a leading plus", "+4242424242424242"],
        ["fullwidth digits", "\uff14\uff12\uff14\uff12".repeat(4)],
        ["Arabic-Indic digits", "\u0664\u0662\u0664\u0662".repeat(4)],
        ["41 characters", "4".repeat(41)],
        ["the number twice", `${CARDS.success} ${CARDS.success}`],
        ["an array of the number", [CARDS.success]],
        ["an object holding the number", { number: CARDS.success }],
      ]),
      ...fieldCases(ep, "expiryMonth", [
        ["true", true],
        ["an array", [12]],
        ["an object", { month: 12 }],
        ["0", 0],
        ["13", 13],
        ["-1", -1],
        ["1.5", 1.5],
        ["1e308", 1e308],
        ["an empty string", ""],
        ["letters", "ab"],
        ['"1.5"', "1.5"],
        ['"-1"', "-1"],
        ['" 1"', " 1"],
        ['"00012" (five digits)', "00012"],
        ['"13"', "13"],
      ]),
      ...fieldCases(ep, "expiryYear", [
        ["true", true],
        ["an array", [YEAR + 2]],
        ["an object", { year: YEAR + 2 }],
        ["last year", YEAR - 1],
        ["last year as two digits", String((YEAR - 1) % 100).padStart(2, "0")],
        ["26 years ahead", YEAR + 26],
        ["2101", 2101],
        ["-1", -1],
        ["1.5", 1.5],
        ["letters", "abcd"],
        ["an empty string", ""],
        ["five digits", "20300"],
      ]),
      ...fieldCases(ep, "cvv", [
        ...NOT_STRINGS,
        ["a number", 123],
        ["an empty string", ""],
        ["two digits", "12"],
        ["five digits", "12345"],
        ["letters", "abc"],
        ["a leading space", " 123"],
        ["a trailing newline", "123\n"],
        ["fullwidth digits", "\uff11\uff12\uff13"],
      ]),
      // Keeping the card: a boolean, and a ticked box on a payment that offers no saving is refused too.
      ...fieldCases(ep, "saveCard", [
        ...WRONG_TYPES_FOR_BOOLEAN,
        ["null", null],
        ["true on a payment that saves nothing", true],
      ]),
      ...fieldCases(ep, "locale", [
        ["an unknown language", "de"],
        ["upper case", "FR"],
        ["a number", 1],
      ]),
      ...unknownFieldCases(ep, ["pan", "cardNumber", "Number", "cvc", "expiry", "name", "save_card", ""]),
      ...idempotencyCases(ep),
      ...accessCodeHeaderCases(ep.path, "POST", card(CARDS.success)),
    ];
    const add = caseMaker(ep, cases);
    const expired = { status: 400, error: "validation_error", mentions: ["expiry"] } as const;
    add(
      "last month",
      (_c, v) => {
        const now = new Date();
        const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
        return { json: { ...v, expiryMonth: last.getUTCMonth() + 1, expiryYear: last.getUTCFullYear() } };
      },
      expired,
    );
    // Bodies that put the card number where a parser's message could quote it: never echoed.
    const raw = (text: string) => () => ({ headers: JSON_CT, body: text });
    const pan = CARDS.success;
    add("the card number single-quoted as the body", raw(`'${pan}'`), INVALID_JSON);
    add("the card number after a letter as the body", raw(`x${pan}`), INVALID_JSON);
    add(
      "the card number with spaces, in quotes that do not close",
      raw(`"4242 4242 4242 4242`),
      INVALID_JSON,
    );
    add("the card as form text with a JSON Content-Type", raw(`number=${pan}&cvv=123`), INVALID_JSON);
    add(
      "the card number single-quoted inside the body",
      raw(`{"number":'${pan}',"cvv":"123"}`),
      INVALID_JSON,
    );
    add("the card number unquoted with a letter", raw(`{"number":${pan}x,"cvv":"123"}`), INVALID_JSON);
    add("the card number in a JavaScript object literal", raw(`{number:"${pan}",cvv:"123"}`), INVALID_JSON);
    add("the card number in an array missing a comma", raw(`["${pan}" "123"]`), INVALID_JSON);
    add("the card number as a bare token", raw(`{"number":4242-4242-4242-4242}`), INVALID_JSON);
    add("the card number as a JSON string", raw(JSON.stringify(pan)), INVALID_JSON);
    add("the card number under an unknown field", (_c, v) => ({ json: { ...v, pan } }), invalid('"pan"'));
    add("the card number as an unknown field's name", (_c, v) => ({ json: { ...v, [pan]: "x" } }), {
      status: 400,
      error: "validation_error",
    });
    add(
      "the card number with a NUL after it",
      (_c, v) => ({ json: { ...v, number: `${pan}\u0000` } }),
      invalid("number"),
    );
    add(
      "the card number with a lone surrogate inside",
      (_c, v) => ({ json: { ...v, number: `4242424242\uD800424242` } }),
      invalid("number"),
    );
    return cases;
  });

  sweep("POST /v1/payment/checkout/charge/card/otp", () => {
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/payment/checkout/charge/card/otp",
      auth: access,
      valid: () => ({ otp: OTP }),
      strict: true,
      stringField: "otp",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["otp"]),
      ...fieldCases(ep, "otp", [
        ...NOT_STRINGS,
        ["a number", 123456],
        ["an empty string", ""],
        ["three digits", "123"],
        ["nine digits", "123456789"],
        ["a letter inside", "12a456"],
        ["a leading space", " 123456"],
        ["a trailing newline", "123456\n"],
        ["fullwidth digits", "\uff11\uff12\uff13\uff14\uff15\uff16"],
        ["8,000 digits", "1".repeat(8000)],
      ]),
      ...unknownFieldCases(ep, ["code", "OTP", "pin", "number", ""]),
      ...idempotencyCases(ep),
      ...accessCodeHeaderCases(ep.path, "POST", { otp: OTP }),
    ];
  });

  // The steps a card's network or a bank may ask for (Paystack), and the checks after the bank's page.
  const STEP_BODIES: Array<
    [string, Record<string, unknown>, string, ReadonlyArray<readonly [string, unknown]>]
  > = [
    [
      "card/pin",
      { pin: "1234" },
      "pin",
      [
        ...NOT_STRINGS,
        ["a number", 1234],
        ["three digits", "123"],
        ["five digits", "12345"],
        ["letters", "abcd"],
        ["fullwidth digits", "\uff11\uff12\uff13\uff14"],
        ["a trailing newline", "1234\n"],
      ],
    ],
    [
      "card/phone",
      { phone: "08031234567" },
      "phone",
      [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["nine digits", "080312345"],
        ["sixteen digits", "0803123456789012"],
        ["letters", "0803CALLME1"],
        ["41 characters", "0".repeat(41)],
      ],
    ],
    [
      "card/birthday",
      { birthday: "1990-12-31" },
      "birthday",
      [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["day first", "31-12-1990"],
        ["not a date", "1990-02-30"],
        ["a month 13", "1990-13-01"],
        ["in the future", `${YEAR + 1}-01-01`],
        ["200 years ago", `${YEAR - 200}-01-01`],
        ["a timestamp", "1990-12-31T00:00:00Z"],
      ],
    ],
    [
      "card/address",
      { address: "1 Marina", city: "Lagos", state: "LA", zipCode: "101001" },
      "zipCode",
      [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["one character", "1"],
        ["13 characters", "1234567890123"],
        ["a symbol", "10100#"],
      ],
    ],
    [
      "bank-payment/otp",
      { otp: OTP },
      "otp",
      [...NOT_STRINGS, ["three digits", "123"], ["letters", "abcdef"]],
    ],
    [
      "bank-payment/birthday",
      { birthday: "1990-12-31" },
      "birthday",
      [...NOT_STRINGS, ["not a date", "1990-02-30"], ["in the future", `${YEAR + 1}-06-01`]],
    ],
    [
      "bank-payment/phone",
      { phone: "08031234567" },
      "phone",
      [...NOT_STRINGS, ["nine digits", "080312345"], ["letters", "0803CALLME1"]],
    ],
    [
      "bank-payment/pin",
      { pin: "1234" },
      "pin",
      [...NOT_STRINGS, ["three digits", "123"], ["letters", "12a4"]],
    ],
  ];
  for (const [step, valid, field, values] of STEP_BODIES) {
    sweep(`POST /v1/payment/checkout/charge/${step}`, () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: `/v1/payment/checkout/charge/${step}`,
        auth: access,
        valid: () => valid,
        strict: true,
        stringField: field,
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, Object.keys(valid)),
        ...fieldCases(ep, field, values),
        ...unknownFieldCases(ep, ["reference", "amount", "Pin", ""]),
        ...idempotencyCases(ep),
        ...accessCodeHeaderCases(ep.path, "POST", valid),
      ];
    });
  }
  for (const path of [
    "/v1/payment/checkout/charge/card/check",
    "/v1/payment/checkout/charge/bank-payment/check",
  ]) {
    sweep(`POST ${path}`, () => {
      const ep: BodyEndpoint = { method: "POST", path, auth: access, valid: () => ({}), strict: true };
      return [
        ...bodyCases(ep),
        ...unknownFieldCases(ep, ["reference", "status", ""]),
        ...idempotencyCases(ep),
        ...accessCodeHeaderCases(path, "POST", {}),
      ];
    });
  }

  for (const path of ["/v1/payment/checkout/charge/bank-transfer", "/v1/payment/checkout/cancel"]) {
    sweep(`POST ${path}`, () => {
      const ep: BodyEndpoint = { method: "POST", path, auth: access, valid: () => ({}), strict: true };
      return [
        ...bodyCases(ep),
        ...unknownFieldCases(ep, ["amount", "email", "accountNumber", "reason", "status", "Amount", ""]),
        ...idempotencyCases(ep),
        ...accessCodeHeaderCases(path, "POST", {}),
        ...accessCodeHeaderCases(path, "POST"),
      ];
    });
  }

  sweep("POST /v1/payment/checkout/charge/bank-transfer/simulate", () => {
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/payment/checkout/charge/bank-transfer/simulate",
      auth: access,
      valid: () => ({ scenario: "success" }),
      strict: true,
      stringField: "scenario",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["scenario"]),
      ...fieldCases(ep, "scenario", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["upper case", "SUCCESS"],
        ["a near miss", "succeeded"],
        ["a leading space", " success"],
        ["another state", "pending"],
        ["two scenarios", "success,failed"],
        ["an array of a scenario", ["success"]],
      ]),
      ...unknownFieldCases(ep, ["amount", "Scenario", "status", "reference", ""]),
      ...idempotencyCases(ep),
      ...accessCodeHeaderCases(ep.path, "POST", { scenario: "success" }),
    ];
  });

  sweep("POST /v1/payment/checkout/charge/bank-payment", () => {
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/payment/checkout/charge/bank-payment",
      auth: access,
      valid: () => ({ bankCode: "058" }),
      strict: true,
      stringField: "bankCode",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["bankCode"]),
      ...fieldCases(ep, "bankCode", [
        ...NOT_STRINGS,
        ["a number", 58],
        ["an empty string", ""],
        ["one character", "0"],
        ["lower case", "gtb"],
        ["a trailing space", "058 "],
        ["11 characters", "12345678901"],
        ["a hyphen", "0-58"],
        ["fullwidth digits", "\uff10\uff15\uff18"],
        ["SQL", "058' OR '1'='1"],
      ]),
      ...fieldCases(ep, "accountNumber", [
        ...NOT_STRINGS,
        ["a number", 123456789],
        ["nine digits", "012345678"],
        ["eleven digits", "01234567890"],
        ["letters", "ABCDEFGHIJ"],
        ["spaces inside", "0123 45678"],
      ]),
      ...unknownFieldCases(ep, ["bank", "BankCode", "account_number", "amount", ""]),
      ...idempotencyCases(ep),
      ...accessCodeHeaderCases(ep.path, "POST", { bankCode: "058" }),
    ];
  });

  sweep("POST /v1/payment/checkout/charge/ussd", () => {
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/payment/checkout/charge/ussd",
      auth: access,
      valid: () => ({ phoneNumber: "+2348012345678", bankCode: "058" }),
      strict: true,
      stringField: "phoneNumber",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["phoneNumber"]),
      ...fieldCases(ep, "phoneNumber", [
        ...NOT_STRINGS,
        ["a number", 2348012345678],
        ["an empty string", ""],
        ["nine digits", "080123456"],
        ["16 digits", "1".repeat(16)],
        ["letters inside", "+234 801 abc 5678"],
        ["two plus signs", "++2348012345678"],
        ["a plus inside", "234+8012345678"],
        ["fullwidth digits", "\uff10\uff18\uff10".repeat(4)],
        ["8,000 digits", "1".repeat(8000)],
      ]),
      ...fieldCases(ep, "bankCode", [
        ...WRONG_TYPES_FOR_STRING,
        ["an empty string", ""],
        ["lower case", "gtb"],
        ["11 characters", "12345678901"],
      ]),
      ...unknownFieldCases(ep, ["phone", "network", "amount", "BankCode", ""]),
      ...idempotencyCases(ep),
      ...accessCodeHeaderCases(ep.path, "POST", { phoneNumber: "+2348012345678" }),
    ];
  });

  sweep(
    "POST /v1/payment/checkout/sandbox/transfer",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/payment/checkout/sandbox/transfer",
        auth: access,
        valid: () => ({ amount: "5050.00" }),
        strict: true,
        stringField: "amount",
      };
      return [
        ...bodyCases(ep),
        ...fieldCases(ep, "amount", [...WRONG_TYPES_FOR_STRING, ...BAD_AMOUNTS]),
        ...unknownFieldCases(ep, ["accountNumber", "sessionId", "Amount", "currency", ""]),
        ...idempotencyCases(ep),
        ...accessCodeHeaderCases(ep.path, "POST", { amount: "5050.00" }),
        ...accessCodeHeaderCases(ep.path, "POST"),
      ];
    },
    async (ctx) => {
      await openTransfer(ctx);
    },
  );

  sweep(
    "POST /v1/payment/checkout/sandbox/authorize",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/payment/checkout/sandbox/authorize",
        auth: access,
        valid: () => ({ decision: "approve" }),
        strict: true,
        stringField: "decision",
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, ["decision"]),
        ...fieldCases(ep, "decision", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["upper case", "APPROVE"],
          ["a near miss", "approved"],
          ["yes", "yes"],
          ["a leading space", " approve"],
          ["both", "approve,decline"],
        ]),
        ...unknownFieldCases(ep, ["reference", "approve", "Decision", "otp", ""]),
        ...idempotencyCases(ep),
        ...accessCodeHeaderCases(ep.path, "POST", { decision: "approve" }),
      ];
    },
    async (ctx) => {
      const res = await api.post(
        "/v1/payment/checkout/charge/bank-payment",
        { bankCode: "058" },
        access(ctx),
      );
      expect(res.status, res.text).toBe(200);
    },
  );

  // -------------------------------------------------------------------------------------------------------
  // Sandbox (secret key)

  let accountNumber = "";
  sweep(
    "POST /v1/sandbox/transfers",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/sandbox/transfers",
        auth: key,
        valid: () => ({
          accountNumber,
          amount: "5050.00",
          sessionId: `sweep_${randomBytes(6).toString("hex")}`,
        }),
        strict: true,
        stringField: "accountNumber",
      };
      const cases: Case[] = [
        ...bodyCases(ep),
        ...missingCases(ep, ["accountNumber", "amount"]),
        ...fieldCases(ep, "accountNumber", [
          ...NOT_STRINGS,
          ["a number", 1234567890],
          ["an empty string", ""],
          ["nine digits", "012345678"],
          ["11 digits", "01234567890"],
          ["letters", "01234abcde"],
          ["a leading space", " 0123456789"],
          ["fullwidth digits", "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19"],
          ["8,000 digits", "1".repeat(8000)],
        ]),
        ...fieldCases(ep, "amount", [...NOT_STRINGS, ...BAD_AMOUNTS]),
        ...fieldCases(ep, "sessionId", [
          ...WRONG_TYPES_FOR_STRING,
          ["an empty string", ""],
          ["a space", "session 1"],
          ["a slash", "session/1"],
          ["101 characters", "s".repeat(101)],
          ["Latin-1", "s\u00e9ance"],
        ]),
        ...unknownFieldCases(ep, ["reference", "currency", "session_id", "Amount", "rail", ""]),
        ...idempotencyCases(ep),
        ...secretKeyHeaderCases("POST", ep.path, { accountNumber: "0123456789", amount: "100.00" }),
      ];
      const add = caseMaker(ep, cases);
      add(
        "an account number no virtual account has",
        (_c, v) => ({ json: { ...v, accountNumber: "0000000000" } }),
        {
          status: 404,
          error: "transaction_not_found",
        },
      );
      cases.push({
        name: "POST /v1/sandbox/transfers: the merchant's live key on staging",
        request: (c) => ({
          method: "POST",
          path: ep.path,
          headers: { "x-api-key": c.merchant.liveKey },
          json: { accountNumber, amount: "5050.00" },
        }),
        expect: BAD_KEY,
      });
      return cases;
    },
    async (ctx) => {
      accountNumber = await openTransfer(ctx);
    },
  );

  sweep(
    "POST /v1/sandbox/authorizations",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/sandbox/authorizations",
        auth: key,
        valid: (c) => ({ reference: c.reference, decision: "approve" }),
        strict: true,
        stringField: "reference",
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, ["reference", "decision"]),
        ...fieldCases(ep, "reference", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["the prefix alone", "PAY_TXN_"],
          ["a lower-case prefix", "pay_txn_abc"],
          ["a hyphen inside", "PAY_TXN_abc-def"],
          ["65 characters after the prefix", `PAY_TXN_${"a".repeat(65)}`],
          ["an access code", "A".repeat(27)],
          ["SQL", "PAY_TXN_' OR '1'='1"],
        ]),
        ...fieldCases(ep, "decision", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["upper case", "DECLINE"],
          ["a near miss", "declined"],
          ["true as a string", "true"],
        ]),
        ...unknownFieldCases(ep, ["otp", "Decision", "accessCode", "amount", ""]),
        ...idempotencyCases(ep),
        ...secretKeyHeaderCases("POST", ep.path, { reference: UNKNOWN_REFERENCE, decision: "approve" }),
      ];
    },
    async (ctx) => {
      const res = await api.post(
        "/v1/payment/checkout/charge/ussd",
        { phoneNumber: "+2348012345678" },
        access(ctx),
      );
      expect(res.status, res.text).toBe(200);
    },
  );

  // -------------------------------------------------------------------------------------------------------
  // Paystack: the merchant's connection (session token) and Paystack's webhook (no credential but a signature)

  const PAYSTACK_KEY = `sk_test_${"0a".repeat(20)}`;
  sweep("PUT and GET /v1/merchants/paystack, POST /v1/merchants/paystack/disconnect", () => {
    const ep: BodyEndpoint = {
      method: "PUT",
      path: "/v1/merchants/paystack",
      auth: session,
      valid: () => ({ mode: "test", secretKey: PAYSTACK_KEY }),
      strict: true,
      stringField: "secretKey",
    };
    const off: BodyEndpoint = {
      method: "POST",
      path: "/v1/merchants/paystack/disconnect",
      auth: session,
      valid: () => ({ mode: "test" }),
      strict: true,
      stringField: "mode",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["mode", "secretKey"]),
      ...fieldCases(ep, "mode", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["upper case", "TEST"],
        ["sandbox", "sandbox"],
      ]),
      ...fieldCases(ep, "secretKey", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["a public key", `pk_test_${"0a".repeat(20)}`],
        ["too short", "sk_test_0123"],
        ["a symbol inside", `sk_test_${"0a".repeat(10)}!${"0a".repeat(10)}`],
        ["a Paygate key's prefix only", "sk_test_"],
        ["200 characters", `sk_test_${"a".repeat(192)}`],
      ]),
      ...unknownFieldCases(ep, ["publicKey", "secret_key", "processor", ""]),
      ...sessionHeaderCases("PUT", ep.path, { mode: "test", secretKey: PAYSTACK_KEY }),
      ...sessionHeaderCases("GET", `${ep.path}?mode=test`),
      ...queryCases(ep.path, session, [
        ["no mode", "", invalid("mode")],
        ["mode=sandbox", "mode=sandbox", invalid("mode")],
        ["an unknown parameter", "mode=test&key=1", invalid('"key"')],
      ]),
      ...bodyCases(off),
      ...missingCases(off, ["mode"]),
      ...fieldCases(off, "mode", [...NOT_STRINGS, ["an empty string", ""], ["upper case", "LIVE"]]),
      ...unknownFieldCases(off, ["secretKey", "Mode", ""]),
      ...idempotencyCases(off),
      ...sessionHeaderCases("POST", off.path, { mode: "test" }),
    ];
  });

  sweep("POST /v1/rails/paystack/webhook", () => {
    const event = {
      event: "charge.success",
      data: { reference: "PAY-TXN-X.0", domain: "test", amount: 100 },
    };
    const ep: BodyEndpoint = {
      method: "POST",
      path: "/v1/rails/paystack/webhook",
      auth: () => ({ "x-paystack-signature": "ab".repeat(64) }),
      valid: () => event,
      strict: false,
      stringField: "event",
    };
    const cases: Case[] = [...bodyCases(ep), ...missingCases(ep, ["event", "data"])];
    const add = caseMaker(ep, cases);
    for (const [label, value] of [
      ["a number", 1],
      ["an empty string", ""],
      ["101 characters", "e".repeat(101)],
    ] as Array<[string, unknown]>) {
      add(`event ${label}`, (_c, v) => ({ json: { ...v, event: value } }), invalid("event"));
    }
    for (const [label, value] of [
      ["a string", "x"],
      ["an array", []],
      ["null", null],
    ] as Array<[string, unknown]>) {
      add(`data ${label}`, (_c, v) => ({ json: { ...v, data: value } }), invalid("data"));
    }
    const unsigned: Expect = { status: 401, error: "invalid_signature" };
    for (const [label, headers] of [
      ["no x-paystack-signature", { "x-paystack-signature": "" }],
      ["a signature of the wrong length", { "x-paystack-signature": "ab" }],
      ["a signature that is not hex", { "x-paystack-signature": "zz".repeat(64) }],
      ["a signature of no key this deployment holds", { "x-paystack-signature": "ab".repeat(64) }],
    ] as Array<[string, Record<string, string>]>) {
      add(label, () => ({ json: event, headers }), unsigned);
    }
    for (const [label, query] of [
      ["connection=x", "connection=x"],
      ["an unknown parameter", "foo=1"],
      ["connection of 5,000 characters", `connection=psc_${"a".repeat(5000)}`],
    ] as Array<[string, string]>) {
      add(label, () => ({ json: event, path: `${ep.path}?${query}` }), {
        status: 400,
        error: "validation_error",
      });
    }
    return cases;
  });

  // -------------------------------------------------------------------------------------------------------
  // Webhooks and events (session token)

  const WEBHOOK_URL = "https://hooks.example.com/paygate";
  sweep("PUT and GET /v1/merchants/webhook", () => {
    const ep: BodyEndpoint = {
      method: "PUT",
      path: "/v1/merchants/webhook",
      auth: session,
      valid: () => ({ mode: "test", url: WEBHOOK_URL, events: ["payment.completed"] }),
      strict: true,
      stringField: "url",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["mode", "url"]),
      ...fieldCases(ep, "mode", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["an unknown mode", "sandbox"],
        ["upper case", "TEST"],
        ["both modes", "test,live"],
      ]),
      ...fieldCases(ep, "url", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["not a URL", "not a url"],
        ["a relative path", "/hooks"],
        ["a protocol-relative URL", "//hooks.example.com/x"],
        ["javascript:", "javascript:alert(1)"],
        ["data:", "data:text/plain,hi"],
        ["file:", "file:///etc/passwd"],
        ["ftp:", "ftp://hooks.example.com/x"],
        ["credentials inside", "https://user:pass@hooks.example.com/x"],
        ["no host", "https://"],
        ["2,049 characters", `https://hooks.example.com/${"u".repeat(2049 - 26)}`],
        ["60,000 characters", `https://hooks.example.com/${"u".repeat(60_000)}`],
      ]),
      ...fieldCases(ep, "events", [
        ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "an array" && l !== "an empty array"),
        ["a string", "payment.completed"],
        ["an empty array", []],
        ["an unknown event", ["payment.refunded"]],
        ["upper case", ["PAYMENT.COMPLETED"]],
        ["a wildcard", ["*"]],
        ["a number entry", [1]],
        ["a null entry", [null]],
        ["a nested array", [["payment.completed"]]],
        ["5,000 entries", Array.from({ length: 5000 }, () => "nope")],
      ]),
      ...unknownFieldCases(ep, ["secret", "enabled", "status", "URL", "event", ""]),
      ...sessionHeaderCases("PUT", ep.path, { mode: "test", url: WEBHOOK_URL }),
      ...sessionHeaderCases("GET", ep.path),
      ...queryCases(ep.path, session, [
        ["mode=sandbox", "mode=sandbox", invalid("mode")],
        ["mode=TEST", "mode=TEST", invalid("mode")],
        ["mode= (empty)", "mode=", invalid("mode")],
        ["mode=%00", "mode=%00", invalid("mode")],
        ["mode of 5,000 characters", `mode=${"t".repeat(5000)}`, invalid("mode")],
        ["mode[]=test", "mode[]=test", invalid('"mode[]"')],
        ["an unknown parameter", "mode=test&foo=1", invalid('"foo"')],
        ["url=x", "url=x", invalid('"url"')],
      ]),
    ];
  });

  sweep(
    "POST /v1/merchants/webhook/roll-secret",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/merchants/webhook/roll-secret",
        auth: session,
        valid: () => ({ mode: "test" }),
        strict: true,
        stringField: "mode",
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, ["mode"]),
        ...fieldCases(ep, "mode", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["an unknown mode", "sandbox"],
          ["upper case", "LIVE"],
          ["an array of the mode", ["test"]],
        ]),
        ...unknownFieldCases(ep, ["secret", "keepOld", "Mode", ""]),
        ...idempotencyCases(ep),
        ...sessionHeaderCases("POST", ep.path, { mode: "test" }),
      ];
    },
    async (ctx) => {
      const res = await api.put("/v1/merchants/webhook", { mode: "test", url: WEBHOOK_URL }, session(ctx));
      expect(res.status, res.text).toBe(200);
    },
  );

  sweep("GET /v1/merchants/events", () => {
    const path = "/v1/merchants/events";
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    return [
      ...queryCases(path, session, [
        ["type=payment.refunded", "type=payment.refunded", invalid("type")],
        ["type= (empty)", "type=", invalid("type")],
        ["type in upper case", "type=PAYMENT.COMPLETED", invalid("type")],
        ["type=*", "type=*", invalid("type")],
        ["type of 5,000 characters", `type=${"t".repeat(5000)}`, invalid("type")],
        ["type[]=payment.completed", "type[]=payment.completed", invalid('"type[]"')],
        ["reference=abc", "reference=abc", invalid("reference")],
        ["reference=PAY_TXN_", "reference=PAY_TXN_", invalid("reference")],
        ["reference with a hyphen", "reference=PAY_TXN_a-b", invalid("reference")],
        ["reference of 8,000 characters", `reference=PAY_TXN_${"A".repeat(8000)}`, invalid("reference")],
        ["reference=%00", "reference=%00", invalid("reference")],
        ["reference with SQL", "reference=PAY_TXN_'%20OR%20'1'='1", invalid("reference")],
        ["delivered=yes", "delivered=yes", invalid("delivered")],
        ["delivered=1", "delivered=1", invalid("delivered")],
        ["delivered=TRUE", "delivered=TRUE", invalid("delivered")],
        ["delivered= (empty)", "delivered=", invalid("delivered")],
        ["limit=-1", "limit=-1", invalid("limit")],
        ["limit=0", "limit=0", invalid("limit")],
        ["limit=101", "limit=101", invalid("limit")],
        ["limit=abc", "limit=abc", invalid("limit")],
        ["limit=1.5", "limit=1.5", invalid("limit")],
        ["limit= (empty)", "limit=", invalid("limit")],
        ["limit=Infinity", "limit=Infinity", invalid("limit")],
        ["limit=1e400", "limit=1e400", invalid("limit")],
        ["limit=99999999999999999999", "limit=99999999999999999999", invalid("limit")],
        ["limit=%00", "limit=%00", invalid("limit")],
        ["mode=sandbox", "mode=sandbox", invalid("mode")],
        ["mode= (empty)", "mode=", invalid("mode")],
        ["cursor=abc", "cursor=abc", invalid("cursor")],
        ["cursor=!!!", "cursor=!!!", invalid("cursor")],
        ["a 201-character cursor", `cursor=${"c".repeat(201)}`, invalid("cursor")],
        ["a cursor of base64 junk", `cursor=${b64("1:not-an-event")}`, invalid("cursor")],
        [
          "a cursor of a transaction page",
          `cursor=${b64(`1700000000000:${"0".repeat(36)}`)}`,
          invalid("cursor"),
        ],
        [
          "a cursor with a 17-digit time",
          `cursor=${b64(`99999999999999999:${UNKNOWN_EVENT}`)}`,
          invalid("cursor"),
        ],
        ["a cursor with a negative time", `cursor=${b64(`-1:${UNKNOWN_EVENT}`)}`, invalid("cursor")],
        ["a cursor with a NUL", "cursor=%00", invalid("cursor")],
        ["cursor[]=x", "cursor[]=x", invalid('"cursor[]"')],
        ["an unknown parameter", "foo=1", invalid('"foo"')],
        ["status=success", "status=success", invalid('"status"')],
        ["Type=x (letter case)", "Type=x", invalid('"Type"')],
        ["a parameter named %", "%=%", invalid('"%"')],
      ]),
      ...sessionHeaderCases("GET", path),
    ];
  });

  let eventId = "";
  sweep(
    "POST /v1/merchants/events/{id}/redeliver",
    () => {
      const base = "/v1/merchants/events/";
      const ep: BodyEndpoint = {
        method: "POST",
        path: `${base}{id}/redeliver`,
        pathOf: () => `${base}${eventId}/redeliver`,
        auth: session,
        valid: () => ({}),
        strict: false,
      };
      const cases: Case[] = [
        ...bodyCases(ep),
        ...BAD_EVENT_IDS.map(
          ([label, id, want]): Case => ({
            name: `POST ${base}{${label}}/redeliver`,
            request: (c) => ({ method: "POST", path: `${base}${id}/redeliver`, headers: session(c) }),
            expect: want,
          }),
        ),
        {
          name: `POST ${base}{id}/redeliver/extra`,
          request: (c) => ({
            method: "POST",
            path: `${base}${eventId}/redeliver/extra`,
            headers: session(c),
          }),
          expect: NOT_FOUND_ROUTE,
        },
        {
          name: `POST ${base}%2e%2e%2fnope/redeliver, sent unnormalised`,
          request: (c) => ({
            method: "POST",
            path: "",
            raw: rawRequest(c.url, "POST", `${base}%2e%2e%2fnope/redeliver`, Object.entries(session(c))),
          }),
          expect: invalid("id"),
        },
        ...sessionHeaderCases("POST", `${base}${UNKNOWN_EVENT}/redeliver`),
      ];
      return cases;
    },
    async (ctx) => {
      // An event of this merchant (a completed payment), then an endpoint: a redelivery would be a delivery row.
      const sim = await api.post(
        "/v1/payment/checkout/charge/bank-transfer/simulate",
        { scenario: "success" },
        access(ctx),
      );
      expect(sim.status, sim.text).toBe(200);
      const list = await api.get("/v1/merchants/events?limit=1", session(ctx));
      expect(list.status, list.text).toBe(200);
      eventId = list.body.data.events[0].id;
      const hook = await api.put("/v1/merchants/webhook", { mode: "test", url: WEBHOOK_URL }, session(ctx));
      expect(hook.status, hook.text).toBe(200);
    },
  );

  describe("POST /v1/merchants/events/{id}/redeliver: another merchant's event", () => {
    it("is not found, and nothing is queued", async () => {
      const owner = await newCtx();
      const sim = await api.post(
        "/v1/payment/checkout/charge/bank-transfer/simulate",
        { scenario: "success" },
        access(owner),
      );
      expect(sim.status, sim.text).toBe(200);
      const hook = await api.put("/v1/merchants/webhook", { mode: "test", url: WEBHOOK_URL }, session(owner));
      expect(hook.status).toBe(200);
      const [event] = (await api.get("/v1/merchants/events?limit=1", session(owner))).body.data.events;
      const other = await newCtx();
      await api.put("/v1/merchants/webhook", { mode: "test", url: WEBHOOK_URL }, session(other));
      const before = await merchantState(target, owner.merchant.id);
      const res = await send(other, {
        method: "POST",
        path: `/v1/merchants/events/${event.id}/redeliver`,
        headers: session(other),
      });
      assertFailure(res, "POST", { status: 404, error: "event_not_found" });
      expect(await merchantState(target, owner.merchant.id)).toEqual(before);
    });
  });

  // -------------------------------------------------------------------------------------------------------
  // Payment links (session token) and their public pages

  const linkFields = [
    { name: "student", label: "Student name", type: "text", required: true },
    { name: "grade", label: "Grade", type: "select", options: ["JSS1", "JSS2"], required: true },
    { name: "parentEmail", label: "Parent email", type: "email" },
    { name: "phone", label: "Phone", type: "phone" },
    { name: "seats", label: "Seats", type: "number" },
  ];
  const field = (overrides: Record<string, unknown>) => ({
    metadata: { fields: [{ name: "student", label: "Student", type: "text", ...overrides }] },
  });

  sweep(
    "POST and GET /v1/merchants/payment-links",
    () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path: "/v1/merchants/payment-links",
        auth: session,
        valid: () => ({
          title: "Sweep fees",
          description: "Term fees",
          amount: "5000",
          currency: "NGN",
          channels: ["card"],
          redirectUrl: "https://shop.example.com/thanks",
          feeBearer: "customer",
          metadata: { fields: linkFields },
          usageLimit: 10,
          active: true,
        }),
        strict: true,
        stringField: "title",
      };
      const cases: Case[] = [
        ...bodyCases(ep),
        ...missingCases(ep, ["title"]),
        ...fieldCases(ep, "title", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["spaces only", "   "],
          ["121 characters", "t".repeat(121)],
        ]),
        ...fieldCases(ep, "description", [...NOT_STRINGS, ["1,001 characters", "d".repeat(1001)]]),
        ...fieldCases(ep, "amount", [...NOT_STRINGS, ...BAD_AMOUNTS]),
        ...fieldCases(ep, "minAmount", [...NOT_STRINGS, ["letters", "abc"], ["with a fixed amount", "100"]]),
        ...fieldCases(ep, "maxAmount", [
          ...NOT_STRINGS,
          ["a negative", "-5"],
          ["with a fixed amount", "100000"],
        ]),
        ...fieldCases(ep, "currency", [
          ...WRONG_TYPES_FOR_STRING,
          ["an empty string", ""],
          ["lower case", "ngn"],
          ["an unknown code", "XXX"],
          ["a currency symbol", "\u20a6"],
        ]),
        ...fieldCases(ep, "channels", [
          ...WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "an array" && l !== "an empty array"),
          ["a string", "card"],
          ["an empty array", []],
          ["an unknown channel", ["paypal"]],
          ["upper case", ["CARD"]],
          ["a repeated channel", ["card", "card"]],
          ["a number entry", [1]],
          ["a null entry", [null]],
          ["a nested array", [["card"]]],
          ["a channel the merchant turned off", ["ussd"]],
        ]),
        ...fieldCases(ep, "redirectUrl", [
          ...NOT_STRINGS,
          ["javascript:", "javascript:alert(1)"],
          ["data:", "data:text/html,<script>alert(1)</script>"],
          ["ftp:", "ftp://shop.example.com/thanks"],
          ["a relative path", "/thanks"],
          ["a protocol-relative URL", "//shop.example.com/thanks"],
          ["not a URL", "not a url"],
          ["2,100 characters", `https://shop.example.com/${"r".repeat(2080)}`],
        ]),
        ...fieldCases(ep, "feeBearer", [
          ...WRONG_TYPES_FOR_STRING,
          ["an empty string", ""],
          ["capitalised", "Customer"],
          ["an unknown bearer", "platform"],
        ]),
        ...fieldCases(ep, "metadata", [
          ...WRONG_TYPES_FOR_OBJECT,
          ["an object without fields", {}],
          ["fields as a string", { fields: "student" }],
          ["fields as an object", { fields: { student: "text" } }],
          ["an unknown key beside fields", { fields: [], extra: 1 }],
          ["a field without a name", { fields: [{ label: "Student", type: "text" }] }],
          ...(
            [
              ["a field name starting with a digit", { name: "1student" }],
              ["a field name with a space", { name: "student name" }],
              ["a field name of 41 characters", { name: `s${"t".repeat(40)}` }],
              ["an empty label", { label: "" }],
              ["a label of spaces", { label: "   " }],
              ["a label of 121 characters", { label: "l".repeat(121) }],
              ["an unknown type", { type: "date" }],
              ["a select without options", { type: "select" }],
              ["a text field with options", { options: ["a"] }],
              ["required as a string", { required: "yes" }],
              ["an unknown key in a field", { placeholder: "Name" }],
            ] as Array<[string, Record<string, unknown>]>
          ).map(([label, o]): [string, unknown] => [label, field(o).metadata]),
          ["a select with no options", field({ type: "select", options: [] }).metadata],
          [
            "a select with 51 options",
            field({ type: "select", options: Array.from({ length: 51 }, (_, i) => `o${i}`) }).metadata,
          ],
          ["a select with an empty option", field({ type: "select", options: [""] }).metadata],
          ["a select with a number option", field({ type: "select", options: [1] }).metadata],
          ["a repeated field name", { fields: [linkFields[0], linkFields[0]] }],
          [
            "21 fields",
            {
              fields: Array.from({ length: 21 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: "text" })),
            },
          ],
          ["a field as a string", { fields: ["student"] }],
          ["a null field", { fields: [null] }],
        ]),
        ...fieldCases(ep, "expiresAt", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["a word", "tomorrow"],
          ["a date without a time", "2099-01-01"],
          ["month 13", "2099-13-01T00:00:00Z"],
          ["no offset", "2099-01-01T00:00:00"],
          ["in the past", "2020-01-01T00:00:00Z"],
          ["unix seconds", 4102444800],
        ]),
        ...fieldCases(ep, "usageLimit", [
          ...WRONG_TYPES_FOR_NUMBER,
          ["0", 0],
          ["-1", -1],
          ["1.5", 1.5],
          ["1,000,001", 1_000_001],
          ["1e308", 1e308],
        ]),
        ...fieldCases(ep, "active", [...WRONG_TYPES_FOR_BOOLEAN, ["null", null]]),
        ...unknownFieldCases(ep, [
          "slug",
          "id",
          "merchantId",
          "amountMinor",
          "Title",
          "fields",
          "customerName",
          "",
        ]),
        ...idempotencyCases(ep),
        ...sessionHeaderCases("POST", ep.path, { title: "Sweep fees", amount: "5000" }),
        ...sessionHeaderCases("GET", ep.path),
        ...queryCases(ep.path, session, [
          ["limit=0", "limit=0", invalid("limit")],
          ["limit=101", "limit=101", invalid("limit")],
          ["limit=abc", "limit=abc", invalid("limit")],
          ["limit=1.5", "limit=1.5", invalid("limit")],
          ["limit= (empty)", "limit=", invalid("limit")],
          ["limit=1e400", "limit=1e400", invalid("limit")],
          ["limit=%00", "limit=%00", invalid("limit")],
          ["active=yes", "active=yes", invalid("active")],
          ["active=1", "active=1", invalid("active")],
          ["active= (empty)", "active=", invalid("active")],
          ["active[]=true", "active[]=true", invalid('"active[]"')],
          ["cursor=abc", "cursor=abc", invalid("cursor")],
          ["cursor=!!!", "cursor=!!!", invalid("cursor")],
          ["a 201-character cursor", `cursor=${"c".repeat(201)}`, invalid("cursor")],
          ["an unknown parameter", "foo=1", invalid('"foo"')],
        ]),
      ];
      const add = caseMaker(ep, cases);
      add(
        "minAmount above maxAmount",
        () => ({ json: { title: "Sweep fees", minAmount: "500", maxAmount: "100" } }),
        invalid("minAmount"),
      );
      add(
        "minAmount that is not an amount, without a fixed amount",
        () => ({ json: { title: "Sweep fees", minAmount: "1e3" } }),
        invalid("minAmount"),
      );
      add(
        "metadata 5,000 deep",
        () => ({ headers: JSON_CT, body: `{"title":"Sweep fees","metadata":${deepObject(5000, "fields")}}` }),
        invalid("metadata"),
      );
      add(
        "a field option 20,000 deep",
        () => ({
          headers: JSON_CT,
          body: `{"title":"Sweep fees","metadata":{"fields":[{"name":"a","label":"A","type":"select","options":${deepArray(20_000)}}]}}`,
        }),
        invalid("metadata"),
      );
      return cases;
    },
    async (ctx) => {
      const res = await api.put(
        "/v1/merchants/settings",
        { channels: ["card", "bank_transfer"] },
        session(ctx),
      );
      expect(res.status, res.text).toBe(200);
    },
  );

  let linkSlug = "";
  let otherMerchant: Merchant;
  sweep(
    "GET and PATCH /v1/merchants/payment-links/{slug}",
    () => {
      const base = "/v1/merchants/payment-links/";
      const ep: BodyEndpoint = {
        method: "PATCH",
        path: `${base}{slug}`,
        pathOf: () => `${base}${linkSlug}`,
        auth: session,
        valid: () => ({ title: "Renamed", active: false }),
        strict: true,
        stringField: "title",
      };
      const cases: Case[] = [
        ...bodyCases(ep),
        ...fieldCases(ep, "title", [
          ...WRONG_TYPES_FOR_STRING,
          ["an empty string", ""],
          ["spaces only", "   "],
          ["121 characters", "t".repeat(121)],
        ]),
        ...fieldCases(ep, "description", [...NOT_STRINGS, ["1,001 characters", "d".repeat(1001)]]),
        ...fieldCases(ep, "redirectUrl", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["javascript:", "javascript:alert(1)"],
          ["a relative path", "/thanks"],
          ["not a URL", "not a url"],
        ]),
        ...fieldCases(ep, "active", [...WRONG_TYPES_FOR_BOOLEAN, ["null", null]]),
        ...fieldCases(ep, "expiresAt", [
          ...NOT_STRINGS,
          ["a word", "never"],
          ["a date without a time", "2099-01-01"],
          ["in the past", "2020-01-01T00:00:00Z"],
        ]),
        ...fieldCases(ep, "usageLimit", [
          ...WRONG_TYPES_FOR_NUMBER,
          ["0", 0],
          ["1.5", 1.5],
          ["1,000,001", 1_000_001],
        ]),
        ...unknownFieldCases(ep, [
          "amount",
          "currency",
          "slug",
          "metadata",
          "channels",
          "feeBearer",
          "Active",
          "",
        ]),
        ...sessionHeaderCases("GET", `${base}${UNKNOWN_SLUG}`),
        ...sessionHeaderCases("PATCH", `${base}${UNKNOWN_SLUG}`, { active: false }),
      ];
      const add = caseMaker(ep, cases);
      const nothingToChange = {
        status: 400,
        error: "validation_error",
        mentions: ["at least one of"],
      } as const;
      add("an empty object", () => ({ json: {} }), nothingToChange);
      add(
        "an empty body with Content-Type application/json",
        () => ({ headers: JSON_CT, body: "" }),
        nothingToChange,
      );
      for (const [label, segment, want] of BAD_SLUGS) {
        cases.push(
          {
            name: `GET ${base}{${label}}`,
            request: (c) => ({ method: "GET", path: `${base}${segment}`, headers: session(c) }),
            expect: want,
          },
          {
            name: `PATCH ${base}{${label}} with a valid body`,
            request: (c) => ({
              method: "PATCH",
              path: `${base}${segment}`,
              headers: session(c),
              json: { active: false },
            }),
            expect: want,
          },
        );
      }
      cases.push(
        {
          name: `GET ${base}{slug} of another merchant's link`,
          request: () => ({ method: "GET", path: `${base}${linkSlug}`, headers: bearer(otherMerchant) }),
          expect: { status: 404, error: "payment_link_not_found" },
        },
        {
          name: `PATCH ${base}{slug} of another merchant's link`,
          request: () => ({
            method: "PATCH",
            path: `${base}${linkSlug}`,
            headers: bearer(otherMerchant),
            json: { active: false },
          }),
          expect: { status: 404, error: "payment_link_not_found" },
        },
        {
          name: `GET ${base}%2e%2e%2fnope, sent unnormalised`,
          request: (c) => ({
            method: "GET",
            path: "",
            raw: rawRequest(c.url, "GET", `${base}%2e%2e%2fnope`, Object.entries(session(c))),
          }),
          expect: invalid("slug"),
        },
        {
          name: `GET ${base}{slug}/extra`,
          request: (c) => ({ method: "GET", path: `${base}${linkSlug}/extra`, headers: session(c) }),
          expect: NOT_FOUND_ROUTE,
        },
      );
      return cases;
    },
    async (ctx) => {
      linkSlug = (await createLink(ctx.merchant, { title: "Sweep fees", amount: "5000" })).slug;
      otherMerchant = await signup(api);
    },
  );

  /** The public pages: a link with a customer-entered amount and a form, one with a fixed amount, one off. */
  const links = { open: "", fixed: "", off: "" };
  sweep(
    "GET /v1/merchants/payment-links/{slug}/display and POST .../pay (public)",
    () => {
      const base = "/v1/merchants/payment-links/";
      const ep: BodyEndpoint = {
        method: "POST",
        path: `${base}{slug}/pay`,
        pathOf: () => `${base}${links.open}/pay`,
        auth: () => ({}),
        valid: () => ({
          amount: "5000",
          email: "payer@example.com",
          customerName: "Ada Obi",
          fields: { student: "Ada Obi", grade: "JSS1", seats: 2 },
        }),
        strict: true,
        stringField: "customerName",
      };
      const answers = (o: Record<string, unknown>) => ({ student: "Ada Obi", grade: "JSS1", ...o });
      const cases: Case[] = [
        ...bodyCases(ep),
        ...missingCases(ep, ["amount"]),
        ...fieldCases(ep, "amount", [
          ...NOT_STRINGS,
          ...BAD_AMOUNTS,
          ["below the link's minimum", "99.99"],
          ["above the link's maximum", "100000.01"],
        ]),
        ...fieldCases(ep, "email", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["no at sign", "payer.example.com"],
          ["no domain", "payer@"],
          ["two at signs", "a@@example.com"],
          ["255 characters", `${"a".repeat(243)}@example.com`],
        ]),
        ...fieldCases(ep, "customerName", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["spaces only", "   "],
          ["201 characters", "n".repeat(201)],
        ]),
        ...fieldCases(ep, "fields", [
          ...WRONG_TYPES_FOR_OBJECT,
          ["an empty object (required answers missing)", {}],
          ["a required answer of spaces", answers({ student: "   " })],
          ["an unknown answer", answers({ nope: "x" })],
          ["an answer named __defineGetter__", answers({ __defineGetter__: "x" })],
          ["an answer as an object", answers({ student: { first: "Ada" } })],
          ["an answer as an array", answers({ student: ["Ada"] })],
          ["an answer as true", answers({ student: true })],
          ["an answer as null", answers({ student: null })],
          ["an answer of 501 characters", answers({ student: "s".repeat(501) })],
          ["an answer name of 41 characters", answers({ ["k".repeat(41)]: "x" })],
          ["a select answer not offered", answers({ grade: "JSS9" })],
          ["a select answer in another case", answers({ grade: "jss1" })],
          ["an email answer that is not an email", answers({ parentEmail: "parent" })],
          ["a phone answer of letters", answers({ phone: "call me" })],
          ["a number answer of letters", answers({ seats: "many" })],
          ["a number answer in exponent notation", answers({ seats: "1e3" })],
          ["a number answer of 1e400 (a string)", answers({ seats: "1e400" })],
        ]),
        ...unknownFieldCases(ep, [
          "reference",
          "callbackUrl",
          "currency",
          "metadata",
          "Email",
          "channels",
          "",
        ]),
        ...BAD_SLUGS.flatMap(([label, segment, want]): Case[] => [
          {
            name: `GET ${base}{${label}}/display`,
            request: () => ({ method: "GET", path: `${base}${segment}/display` }),
            expect: want,
          },
          {
            name: `POST ${base}{${label}}/pay with a valid body`,
            request: () => ({
              method: "POST",
              path: `${base}${segment}/pay`,
              json: { amount: "5000", fields: answers({}) },
            }),
            expect: want,
          },
        ]),
        {
          name: `GET ${base}{slug}/display?note=%00 (a NUL in a query it ignores)`,
          request: () => ({ method: "GET", path: `${base}${links.open}/display?note=%00` }),
          expect: invalid("note"),
        },
        {
          name: `POST ${base}{slug}/pay/extra`,
          request: () => ({ method: "POST", path: `${base}${links.open}/pay/extra`, json: {} }),
          expect: NOT_FOUND_ROUTE,
        },
        {
          name: `POST ${base}%2e%2e%2fnope/pay, sent unnormalised`,
          request: (c) => {
            const body = Buffer.from(JSON.stringify({ amount: "5000" }));
            return {
              method: "POST",
              path: "",
              raw: rawRequest(
                c.url,
                "POST",
                `${base}%2e%2e%2fnope/pay`,
                [
                  ["Content-Type", "application/json"],
                  ["Content-Length", String(body.length)],
                ],
                body,
              ),
            };
          },
          expect: invalid("slug"),
        },
      ];
      const add = caseMaker(ep, cases);
      const fixed = (json: Record<string, unknown>) => () => ({ path: `${base}${links.fixed}/pay`, json });
      add("a fixed-amount link with another amount", fixed({ amount: "1.00" }), invalid("amount"));
      add("a fixed-amount link with the amount as a number", fixed({ amount: 5000 }), invalid("amount"));
      add(
        "a fixed-amount link with the amount in exponent notation",
        fixed({ amount: "5e3" }),
        invalid("amount"),
      );
      add("a deactivated link", () => ({ path: `${base}${links.off}/pay`, json: { amount: "5000" } }), {
        status: 409,
        error: "payment_link_unavailable",
      });
      add(
        "an answer holding an array 20,000 deep",
        () => ({
          headers: JSON_CT,
          body: `{"amount":"5000","fields":{"student":${deepArray(20_000)},"grade":"JSS1"}}`,
        }),
        invalid("fields"),
      );
      add(
        "fields as an object 5,000 deep",
        () => ({ headers: JSON_CT, body: `{"amount":"5000","fields":${deepObject(5000, "student")}}` }),
        invalid("fields"),
      );
      add(
        "an Idempotency-Key on a public request is ignored, not a reason to write",
        (_c, v) => ({ json: { ...v, amount: "-1" }, headers: { "idempotency-key": "bad key" } }),
        invalid("amount"),
      );
      return cases;
    },
    async (ctx) => {
      links.open = (
        await createLink(ctx.merchant, {
          title: "Open fees",
          minAmount: "100",
          maxAmount: "100000",
          metadata: { fields: linkFields },
        })
      ).slug;
      links.fixed = (await createLink(ctx.merchant, { title: "Fixed fees", amount: "5000" })).slug;
      links.off = (
        await createLink(ctx.merchant, { title: "Closed fees", amount: "5000", active: false })
      ).slug;
    },
  );

  // -------------------------------------------------------------------------------------------------------
  describe("routing: wrong methods on these routes", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const routes = registryRoutes("malformed-channels");
    const cases = routes.flatMap(([path, allowed, head]) => methodCases(path, allowed, head));
    for (const c of cases) it(c.name, () => run(ctx, c));
  });

  // -------------------------------------------------------------------------------------------------------
  describe("unicode in every string field: stored exactly, or refused naming the field", () => {
    let ctx: Ctx;
    let account = "";
    const unicodeLinks = { open: "" };
    beforeAll(async () => {
      ctx = await newCtx();
      account = await openTransfer(ctx);
      await api.put("/v1/merchants/webhook", { mode: "test", url: WEBHOOK_URL }, session(ctx));
      unicodeLinks.open = (
        await createLink(ctx.merchant, { title: "Unicode fees", metadata: { fields: [linkFields[0]] } })
      ).slug;
    });
    const post =
      (path: string, auth: (c: Ctx) => Record<string, string>, body: (c: Ctx) => Record<string, unknown>) =>
      (c: Ctx): Spec => ({ method: "POST", path, headers: auth(c), json: body(c) });
    const verified = async (c: Ctx, res: ApiResponse) => {
      const v = await send(c, {
        method: "GET",
        path: `/v1/payment/verify/${res.body.data.reference}`,
        headers: key(c),
      });
      expect(v.status, v.text).toBe(200);
      return v.body.data;
    };
    const linkOf = async (c: Ctx, res: ApiResponse) => {
      const r = await send(c, {
        method: "GET",
        path: `/v1/merchants/payment-links/${res.body.data.slug}`,
        headers: session(c),
      });
      expect(r.status, r.text).toBe(200);
      return r.body.data;
    };
    const webhookUrl = async (c: Ctx) =>
      (await send(c, { method: "GET", path: "/v1/merchants/webhook", headers: session(c) })).body.data.url;

    const cases: Case[] = [];
    for (const [label, s] of UNICODE_SAMPLES) {
      const pct = pctEncode(s);
      const checkout = (path: string, field: string, body: Record<string, unknown>): Case => ({
        name: `${path.replace("/v1/payment/checkout/", "checkout ")} ${field} with ${label}`,
        request: post(path, access, () => body),
        expect: invalid(field),
      });
      const undecodable = /\p{Surrogate}/u.test(s);
      const pathWant = (field: string): Expect =>
        undecodable ? { status: [400, 404], error: ["validation_error", "route_not_found"] } : invalid(field);
      cases.push(
        {
          ...checkout("/v1/payment/checkout/charge/card", "number", card(`${CARDS.success}${s}`)),
          after: async (_c, res) => assertNoCardNumber(res, CARDS.success),
        },
        checkout("/v1/payment/checkout/charge/card", "cvv", card(CARDS.success, { cvv: `1${s}` })),
        checkout(
          "/v1/payment/checkout/charge/card",
          "expiryMonth",
          card(CARDS.success, { expiryMonth: `1${s}` }),
        ),
        checkout("/v1/payment/checkout/charge/card/otp", "otp", { otp: `12${s}` }),
        checkout("/v1/payment/checkout/charge/bank-transfer/simulate", "scenario", {
          scenario: `success${s}`,
        }),
        checkout("/v1/payment/checkout/charge/bank-payment", "bankCode", { bankCode: `05${s}` }),
        checkout("/v1/payment/checkout/charge/ussd", "phoneNumber", { phoneNumber: `+234801${s}` }),
        checkout("/v1/payment/checkout/charge/ussd", "bankCode", {
          phoneNumber: "+2348012345678",
          bankCode: `05${s}`,
        }),
        checkout("/v1/payment/checkout/sandbox/transfer", "amount", { amount: `50${s}` }),
        checkout("/v1/payment/checkout/sandbox/authorize", "decision", { decision: `approve${s}` }),
        // A key that is not clean text is refused as a key (it cannot be named back); any other is named.
        {
          ...checkout("/v1/payment/checkout/cancel", JSON.stringify(s), { [s]: "x" }),
          name: `checkout cancel with ${label} in an unknown field's name`,
          expect:
            s.includes("\u0000") || /\p{Surrogate}/u.test(s)
              ? { status: 400, error: "validation_error", mentions: ["key"] }
              : invalid(JSON.stringify(s)),
        },
        {
          name: `sandbox/transfers accountNumber with ${label}`,
          request: post("/v1/sandbox/transfers", key, () => ({
            accountNumber: `012345678${s}`,
            amount: "1.00",
          })),
          expect: invalid("accountNumber"),
        },
        {
          name: `sandbox/transfers amount with ${label}`,
          request: post("/v1/sandbox/transfers", key, () => ({ accountNumber: account, amount: `50${s}` })),
          expect: invalid("amount"),
        },
        {
          name: `sandbox/transfers sessionId with ${label}`,
          request: post("/v1/sandbox/transfers", key, () => ({
            accountNumber: account,
            amount: "1.00",
            sessionId: `s_${s}`,
          })),
          expect: invalid("sessionId"),
        },
        {
          name: `sandbox/authorizations reference with ${label}`,
          request: post("/v1/sandbox/authorizations", key, () => ({
            reference: `PAY_TXN_${s}`,
            decision: "approve",
          })),
          expect: invalid("reference"),
        },
        {
          name: `sandbox/authorizations decision with ${label}`,
          request: post("/v1/sandbox/authorizations", key, (c) => ({
            reference: c.reference,
            decision: `decline${s}`,
          })),
          expect: invalid("decision"),
        },
        {
          name: `webhook url with ${label}`,
          request: (c) => ({
            method: "PUT",
            path: "/v1/merchants/webhook",
            headers: session(c),
            json: { mode: "test", url: `${WEBHOOK_URL}/${s}` },
          }),
          after: storedOrRefused("url", (c) => webhookUrl(c), `${WEBHOOK_URL}/${s}`, "PUT"),
        },
        {
          name: `webhook mode with ${label}`,
          request: (c) => ({
            method: "PUT",
            path: "/v1/merchants/webhook",
            headers: session(c),
            json: { mode: `test${s}`, url: WEBHOOK_URL },
          }),
          expect: invalid("mode"),
        },
        {
          name: `webhook events entry with ${label}`,
          request: (c) => ({
            method: "PUT",
            path: "/v1/merchants/webhook",
            headers: session(c),
            json: { mode: "test", url: WEBHOOK_URL, events: [`payment.completed${s}`] },
          }),
          expect: invalid("events"),
        },
        {
          name: `webhook/roll-secret mode with ${label}`,
          request: post("/v1/merchants/webhook/roll-secret", session, () => ({ mode: `test${s}` })),
          expect: invalid("mode"),
        },
        {
          name: `payment link title with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: `Fees ${s} term`,
            amount: "5000",
          })),
          after: storedOrRefused("title", async (c, r) => (await linkOf(c, r)).title, `Fees ${s} term`),
        },
        {
          name: `payment link description with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            description: `About ${s} this`,
            amount: "5000",
          })),
          after: storedOrRefused(
            "description",
            async (c, r) => (await linkOf(c, r)).description,
            `About ${s} this`,
          ),
        },
        {
          name: `payment link redirectUrl with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            amount: "5000",
            redirectUrl: `https://shop.example.com/thanks?note=${s}`,
          })),
          after: storedOrRefused(
            "redirectUrl",
            async (c, r) => (await linkOf(c, r)).redirectUrl,
            `https://shop.example.com/thanks?note=${s}`,
          ),
        },
        {
          name: `payment link field label with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            amount: "5000",
            ...field({ label: `Name ${s} here` }),
          })),
          after: storedOrRefused(
            "metadata",
            async (c, r) => (await linkOf(c, r)).metadata.fields[0].label,
            `Name ${s} here`,
          ),
        },
        {
          name: `payment link select option with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            amount: "5000",
            ...field({ type: "select", options: [`Option ${s} one`] }),
          })),
          after: storedOrRefused(
            "metadata",
            async (c, r) => (await linkOf(c, r)).metadata.fields[0].options,
            [`Option ${s} one`],
          ),
        },
        {
          name: `payment link field name with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            amount: "5000",
            ...field({ name: `a${s}` }),
          })),
          expect: invalid("metadata"),
        },
        {
          name: `payment link amount with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({ title: "Fees", amount: `50${s}` })),
          expect: invalid("amount"),
        },
        {
          name: `payment link currency with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            currency: `NG${s}`,
          })),
          expect: invalid("currency"),
        },
        {
          name: `payment link expiresAt with ${label}`,
          request: post("/v1/merchants/payment-links", session, () => ({
            title: "Fees",
            expiresAt: `2099-01-01T00:00:00Z${s}`,
          })),
          expect: invalid("expiresAt"),
        },
        {
          name: `payment link PATCH title with ${label}`,
          request: (c) => ({
            method: "PATCH",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}`,
            headers: session(c),
            json: { title: `Renamed ${s} fees` },
          }),
          after: storedOrRefused(
            "title",
            async (c) =>
              (
                await send(c, {
                  method: "GET",
                  path: `/v1/merchants/payment-links/${unicodeLinks.open}`,
                  headers: session(c),
                })
              ).body.data.title,
            `Renamed ${s} fees`,
            "PATCH",
          ),
        },
        {
          name: `pay customerName with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}/pay`,
            json: { amount: "5000", customerName: `Ada ${s} Obi`, fields: { student: "Ada" } },
          }),
          after: storedOrRefused(
            "customerName",
            async (c, r) => (await verified(c, r)).customer.name,
            `Ada ${s} Obi`,
          ),
        },
        {
          name: `pay email with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}/pay`,
            json: { amount: "5000", email: `payer.${s}@example.com`, fields: { student: "Ada" } },
          }),
          after: storedOrRefused(
            "email",
            async (c, r) => (await verified(c, r)).customer.email,
            `payer.${s}@example.com`,
          ),
        },
        {
          name: `pay text answer with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}/pay`,
            json: { amount: "5000", fields: { student: `Ada ${s} Obi` } },
          }),
          after: storedOrRefused(
            "fields",
            async (c, r) => (await verified(c, r)).metadata.fields.student,
            `Ada ${s} Obi`,
          ),
        },
        {
          name: `pay answer name with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}/pay`,
            json: { amount: "5000", fields: { student: "Ada", [s]: "x" } },
          }),
          expect: invalid("fields"),
        },
        {
          name: `pay amount with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/${unicodeLinks.open}/pay`,
            json: { amount: `50${s}`, fields: { student: "Ada" } },
          }),
          expect: invalid("amount"),
        },
        // queries and paths
        ...(
          [
            ["events ?type=", `/v1/merchants/events?type=payment.completed${pct}`, "type"],
            ["events ?reference=", `/v1/merchants/events?reference=PAY_TXN_${pct}`, "reference"],
            ["events ?delivered=", `/v1/merchants/events?delivered=true${pct}`, "delivered"],
            ["events ?cursor=", `/v1/merchants/events?cursor=${pct}`, "cursor"],
            ["events ?limit=", `/v1/merchants/events?limit=1${pct}`, "limit"],
            ["webhook ?mode=", `/v1/merchants/webhook?mode=test${pct}`, "mode"],
            ["payment links ?active=", `/v1/merchants/payment-links?active=true${pct}`, "active"],
            ["payment links ?limit=", `/v1/merchants/payment-links?limit=1${pct}`, "limit"],
          ] as Array<[string, string, string]>
        ).map(
          ([what, path, name]): Case => ({
            name: `${what} with ${label}`,
            request: (c) => ({ method: "GET", path, headers: session(c) }),
            expect: invalid(name),
          }),
        ),
        {
          name: `payment link slug with ${label}`,
          request: (c) => ({
            method: "GET",
            path: `/v1/merchants/payment-links/fees${pct}`,
            headers: session(c),
          }),
          expect: pathWant("slug"),
        },
        {
          name: `display slug with ${label}`,
          request: () => ({ method: "GET", path: `/v1/merchants/payment-links/fees${pct}/display` }),
          expect: pathWant("slug"),
        },
        {
          name: `pay slug with ${label}`,
          request: () => ({
            method: "POST",
            path: `/v1/merchants/payment-links/fees${pct}/pay`,
            json: { amount: "5000" },
          }),
          expect: pathWant("slug"),
        },
        {
          name: `redeliver id with ${label}`,
          request: (c) => ({
            method: "POST",
            path: `/v1/merchants/events/evt_${"a".repeat(20)}${pct}/redeliver`,
            headers: session(c),
          }),
          expect: pathWant("id"),
        },
      );
    }

    for (const c of cases) it(c.name, () => run(ctx, c));

    it("charged nothing: the checkout's transaction is still awaiting its transfer, with no money in", async () => {
      const state = await merchantState(target, ctx.merchant.id);
      expect(state.attempts.map((a: { channel: string }) => a.channel)).toEqual(["bank_transfer"]);
      expect(state.inbound).toEqual([]);
      const tx = state.transactions.find((t: { reference: string }) => t.reference === ctx.reference);
      expect(tx.status).toBe("awaiting_transfer");
    });
  });
});
