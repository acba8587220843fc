import { beforeAll, describe, expect, it } from "vitest";
import { client, signup, targets } from "./helpers/api";
import { card, SAVED_CARDS, start } from "./helpers/channels";
import { testDb } from "./helpers/db";
import { type Case, type Ctx, invalid, WRONG_TYPES_FOR_STRING } from "./helpers/malformed-cases";
import {
  type BodyEndpoint,
  bodyCases,
  fieldCases,
  key,
  methodCases,
  missingCases,
  queryCases,
  run,
  secretKeyHeaderCases,
  session,
  sessionHeaderCases,
  unknownFieldCases,
} from "./helpers/malformed-sweep";
import { registryRoutes, UNKNOWN_AUTHORIZATION, UNKNOWN_CUSTOMER } from "./helpers/registry-routes";

/**
 * Malformed-input sweep over customers, saved cards and their charges (docs/customers.md): every case is a 4xx
 * that is exactly {status:"failed", error, message} with an x-request-id, naming the field for a validation
 * error, and no refused request makes a customer, a payment or changes a saved card.
 */
const NOT_STRINGS = WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null");

describe.each(targets)("malformed input to customers and saved cards on $name", (target) => {
  const api = client(target.url);
  let authorizationCode = "";
  let customerCode = "";

  /** A merchant with a customer who saved a card (4242, on a checkout with saveCard required). */
  const newCtx = async (): Promise<Ctx> => {
    const merchant = await signup(api, { businessName: "Sweep Customers" });
    const s = await start(api, merchant, { email: "swept@example.com", saveCard: "required" });
    const paid = await api.post("/v1/payment/checkout/charge/card", card(SAVED_CARDS.success), {
      "x-access-code": s.accessCode,
    });
    expect(paid.body.data.status).toBe("success");
    const v = await api.get(`/v1/payment/verify/${s.reference}`, { "x-api-key": merchant.testKey });
    authorizationCode = v.body.data.authorization.authorizationCode;
    customerCode = v.body.data.customer.code;
    return { url: target.url, merchant, accessCode: s.accessCode, reference: s.reference };
  };

  const state = async (merchantId: string) => {
    const db = testDb(target);
    const [customers, transactions, cards] = await Promise.all([
      db.selectFrom("customers").selectAll().where("merchant_id", "=", merchantId).execute(),
      db.selectFrom("transactions").select(["id", "status"]).where("merchant_id", "=", merchantId).execute(),
      db.selectFrom("card_authorizations").selectAll().where("merchant_id", "=", merchantId).execute(),
    ]);
    return JSON.parse(
      JSON.stringify({ customers, transactions, cards }, (_k, v) => (typeof v === "bigint" ? String(v) : v)),
    );
  };

  function sweep(title: string, build: () => Case[]) {
    describe(title, () => {
      let ctx: Ctx;
      let before: unknown;
      beforeAll(async () => {
        ctx = await newCtx();
        before = await state(ctx.merchant.id);
      });
      for (const c of build()) it(c.name, () => run(ctx, c));
      it("wrote nothing: no customer, no payment, the saved card as it was", async () => {
        expect(await state(ctx.merchant.id)).toEqual(before);
      });
    });
  }

  sweep("POST /v1/payment/charge-authorization", () => {
    const path = "/v1/payment/charge-authorization";
    const ep: BodyEndpoint = {
      method: "POST",
      path,
      auth: key,
      valid: () => ({ authorizationCode, amount: "10.00", description: "swept" }),
      strict: true,
      stringField: "description",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["authorizationCode", "amount"]),
      ...fieldCases(ep, "authorizationCode", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["the prefix alone", "AUTH_"],
        ["lower case", "auth_0000000000000000000a"],
        ["Paystack's own code", "AUTH_df1l5ehnym"],
        ["SQL", "AUTH_' OR '1'='1"],
      ]),
      ...fieldCases(ep, "amount", [
        ...NOT_STRINGS,
        ["null", null],
        ["zero", "0"],
        ["a negative", "-10"],
        ["exponent notation", "1e3"],
        ["three decimals", "10.001"],
        ["over the upper bound", "100000000.01"],
      ]),
      ...fieldCases(ep, "currency", [
        ["an unknown currency", "EUR"],
        ["lower case", "ngn"],
        ["a number", 566],
      ]),
      ...fieldCases(ep, "reference", [
        ["not PAY_TXN_", "INV-2026-001"],
        ["the prefix alone", "PAY_TXN_"],
        ["65 characters after the prefix", `PAY_TXN_${"a".repeat(65)}`],
        ["a dash", "PAY_TXN_INV-1"],
      ]),
      ...fieldCases(ep, "description", [...NOT_STRINGS, ["501 characters", "d".repeat(501)]]),
      ...unknownFieldCases(ep, ["authorization_code", "email", "status"]),
      ...secretKeyHeaderCases("POST", path, { authorizationCode: UNKNOWN_AUTHORIZATION, amount: "10.00" }),
      {
        name: `POST ${path}: an unknown authorization`,
        request: (c) => ({
          method: "POST",
          path,
          headers: key(c),
          json: { authorizationCode: UNKNOWN_AUTHORIZATION, amount: "10.00" },
        }),
        expect: { status: 404, error: "authorization_not_found" },
      },
      {
        name: `POST ${path}: with a session token (secret key only)`,
        request: (c) => ({
          method: "POST",
          path,
          headers: session(c),
          json: { authorizationCode, amount: "1.00" },
        }),
        expect: { status: 401, error: "invalid_api_key" },
      },
    ];
  });

  for (const [path, auth, headerCases] of [
    ["/v1/customers", key, secretKeyHeaderCases],
    ["/v1/merchants/customers", session, sessionHeaderCases],
  ] as const) {
    sweep(`POST ${path}`, () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path,
        auth,
        valid: () => ({ email: `new-${Date.now()}@example.com`, name: "New" }),
        strict: true,
        stringField: "name",
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, ["email"]),
        ...fieldCases(ep, "email", [
          ...NOT_STRINGS,
          ["not an email", "not-an-email"],
          ["255 characters", `${"a".repeat(243)}@example.com`],
        ]),
        ...fieldCases(ep, "name", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["201 characters", "n".repeat(201)],
        ]),
        ...fieldCases(ep, "phone", [
          ["letters", "call me"],
          ["too short", "0803"],
          ["a number", 8031234567],
        ]),
        ...fieldCases(ep, "metadata", [
          ["an array", ["a"]],
          ["a string", "{}"],
        ]),
        ...unknownFieldCases(ep, ["code", "authorizations"]),
        ...headerCases("POST", path, { email: "header@example.com" }),
      ];
    });

    sweep(`GET and PATCH ${path}/{code}`, () => {
      const ep: BodyEndpoint = {
        method: "PATCH",
        path: `${path}/{code}`,
        pathOf: () => `${path}/${customerCode}`,
        auth,
        valid: () => ({ name: "Renamed" }),
        strict: true,
        stringField: "name",
      };
      return [
        ...bodyCases(ep),
        ...fieldCases(ep, "name", [...NOT_STRINGS, ["an empty string", ""]]),
        ...fieldCases(ep, "phone", [["letters", "call me"]]),
        ...unknownFieldCases(ep, ["email", "code"]),
        ...queryCases(path, auth, [
          ["limit=0", "limit=0", invalid("limit")],
          ["limit=101", "limit=101", invalid("limit")],
          ["cursor=!!", "cursor=%21%21", invalid("cursor")],
          ["an unknown parameter", "page=2", invalid("page")],
        ]),
        {
          name: `GET ${path}/{code}: malformed code`,
          request: (c) => ({ method: "GET", path: `${path}/cus_1`, headers: auth(c) }),
          expect: invalid("code"),
        },
        {
          name: `GET ${path}/{code}: unknown code`,
          request: (c) => ({ method: "GET", path: `${path}/${UNKNOWN_CUSTOMER}`, headers: auth(c) }),
          expect: { status: 404, error: "customer_not_found" },
        },
        {
          name: `PATCH ${path}/{code}: unknown code`,
          request: (c) => ({
            method: "PATCH",
            path: `${path}/${UNKNOWN_CUSTOMER}`,
            headers: auth(c),
            json: { name: "x" },
          }),
          expect: { status: 404, error: "customer_not_found" },
        },
        ...headerCases("GET", `${path}/${UNKNOWN_CUSTOMER}`),
      ];
    });
  }

  sweep("POST /v1/authorizations/{code}/deactivate and the test clock", () => [
    {
      name: "deactivate: malformed code",
      request: (c) => ({
        method: "POST",
        path: "/v1/authorizations/AUTH_x/deactivate",
        headers: key(c),
        json: {},
      }),
      expect: invalid("code"),
    },
    {
      name: "deactivate: unknown code",
      request: (c) => ({
        method: "POST",
        path: `/v1/authorizations/${UNKNOWN_AUTHORIZATION}/deactivate`,
        headers: key(c),
        json: {},
      }),
      expect: { status: 404, error: "authorization_not_found" },
    },
    ...secretKeyHeaderCases("POST", `/v1/authorizations/${UNKNOWN_AUTHORIZATION}/deactivate`, {}),
    ...sessionHeaderCases("POST", `/v1/merchants/authorizations/${UNKNOWN_AUTHORIZATION}/deactivate`, {}),
    {
      name: "clock: both a reference and an authorization",
      request: (c) => ({
        method: "POST",
        path: "/v1/sandbox/clock/advance",
        headers: key(c),
        json: { reference: c.reference, authorization: authorizationCode, seconds: 1 },
      }),
      expect: invalid("reference"),
    },
    {
      name: "clock: an authorization more than 400 days on",
      request: (c) => ({
        method: "POST",
        path: "/v1/sandbox/clock/advance",
        headers: key(c),
        json: { authorization: authorizationCode, seconds: 400 * 86_400 + 1 },
      }),
      expect: invalid("seconds"),
    },
    {
      name: "clock: a payment more than 31 days on",
      request: (c) => ({
        method: "POST",
        path: "/v1/sandbox/clock/advance",
        headers: key(c),
        json: { reference: c.reference, seconds: 32 * 86_400 },
      }),
      expect: invalid("seconds"),
    },
    {
      name: "clock: an unknown authorization",
      request: (c) => ({
        method: "POST",
        path: "/v1/sandbox/clock/advance",
        headers: key(c),
        json: { authorization: UNKNOWN_AUTHORIZATION, seconds: 60 },
      }),
      expect: { status: 404, error: "authorization_not_found" },
    },
  ]);

  describe("routing: wrong methods on the customers routes", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const routes = registryRoutes("malformed-customers");
    it("sweeps every route of customers and saved cards", () => expect(routes.length).toBe(7));
    const cases = routes.flatMap(([path, allowed, head]) => methodCases(path, allowed, head));
    for (const c of cases) it(c.name, () => run(ctx, c));
  });
});
