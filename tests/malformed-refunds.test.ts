import { beforeAll, describe, expect, it } from "vitest";
import { client, initialize, signup, targets } from "./helpers/api";
import { CARDS, card } from "./helpers/channels";
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
  UNKNOWN_REFERENCE,
  unknownFieldCases,
} from "./helpers/malformed-sweep";
import { registryRoutes, UNKNOWN_REFUND } from "./helpers/registry-routes";

/**
 * Malformed-input sweep over the refunds endpoints (docs/api.md, docs/refunds.md): every case is a 4xx that is exactly
 * {status:"failed", error, message} with an x-request-id, naming the field for a validation error, and no
 * refused request writes a refund or changes the paid transaction.
 */
const NOT_STRINGS = WRONG_TYPES_FOR_STRING.filter(([l]) => l !== "null");

describe.each(targets)("malformed input to refunds on $name", (target) => {
  const api = client(target.url);

  /** A merchant with a paid transaction (a card payment of 5000.00). */
  const newCtx = async (): Promise<Ctx> => {
    const merchant = await signup(api, { businessName: "Sweep Refunds" });
    const init = await initialize(api, merchant.testKey, { amount: "5000", email: "payer@example.com" });
    expect(init.status, init.text).toBe(201);
    const paid = await api.post("/v1/payment/checkout/charge/card", card(CARDS.success), {
      "x-access-code": init.body.data.accessCode,
    });
    expect(paid.body.data.status).toBe("success");
    return {
      url: target.url,
      merchant,
      accessCode: init.body.data.accessCode,
      reference: init.body.data.reference,
    };
  };

  const state = async (merchantId: string) => {
    const db = testDb(target);
    const [refunds, transactions] = await Promise.all([
      db.selectFrom("refunds").select(["id", "status"]).where("merchant_id", "=", merchantId).execute(),
      db
        .selectFrom("transactions")
        .select(["id", "status", "amount_refunded_minor", "refund_credit_minor"])
        .where("merchant_id", "=", merchantId)
        .execute(),
    ]);
    return JSON.parse(
      JSON.stringify({ refunds, transactions }, (_k, v) => (typeof v === "bigint" ? String(v) : v)),
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
      it("wrote nothing: no refund, the transaction as it was", async () => {
        expect(await state(ctx.merchant.id)).toEqual(before);
      });
    });
  }

  for (const [path, auth, headerCases] of [
    ["/v1/refunds", key, secretKeyHeaderCases],
    ["/v1/merchants/refunds", session, sessionHeaderCases],
  ] as const) {
    sweep(`POST ${path}`, () => {
      const ep: BodyEndpoint = {
        method: "POST",
        path,
        auth,
        valid: (c) => ({ reference: c.reference, amount: "10.00", reason: "returned" }),
        strict: true,
        stringField: "reason",
      };
      return [
        ...bodyCases(ep),
        ...missingCases(ep, ["reference"]),
        ...fieldCases(ep, "reference", [
          ...NOT_STRINGS,
          ["an empty string", ""],
          ["the prefix alone", "PAY_TXN_"],
          ["a lower-case prefix", "pay_txn_abc"],
          ["65 characters after the prefix", `PAY_TXN_${"a".repeat(65)}`],
          ["SQL", "PAY_TXN_' OR '1'='1"],
        ]),
        ...fieldCases(ep, "amount", [
          ...NOT_STRINGS,
          ["null", null],
          ["an empty string", ""],
          ["zero", "0"],
          ["zero with decimals", "0.00"],
          ["a negative", "-10"],
          ["exponent notation", "1e3"],
          ["three decimals", "10.001"],
          ["a thousands separator", "1,000"],
          ["a leading space", " 10"],
          ["over the upper bound", "100000000.01"],
          ["41 characters", "1".repeat(41)],
        ]),
        ...fieldCases(ep, "reason", [
          ...NOT_STRINGS,
          ["null", null],
          ["an empty string", ""],
          ["only spaces", "   "],
          ["201 characters", "r".repeat(201)],
        ]),
        ...unknownFieldCases(ep, ["currency", "Amount", "status", ""]),
        ...headerCases("POST", path, { reference: UNKNOWN_REFERENCE }),
        {
          name: `POST ${path}: an unknown reference`,
          request: (c) => ({
            method: "POST",
            path,
            headers: auth(c),
            json: { reference: UNKNOWN_REFERENCE },
          }),
          expect: { status: 404, error: "transaction_not_found" },
        },
        {
          name: `POST ${path}: more than the amount (fees are not refunded)`,
          request: (c) => ({
            method: "POST",
            path,
            headers: auth(c),
            json: { reference: c.reference, amount: "5000.01" },
          }),
          expect: { status: 409, error: "refund_exceeds_available" },
        },
      ];
    });

    sweep(`GET ${path}`, () => [
      ...queryCases(path, auth, [
        ["status=done", "status=done", invalid("status")],
        ["limit=0", "limit=0", invalid("limit")],
        ["limit=101", "limit=101", invalid("limit")],
        ["limit=1.5", "limit=1.5", invalid("limit")],
        ["limit=x", "limit=x", invalid("limit")],
        ["reference=bad", "reference=bad", invalid("reference")],
        ["cursor=!!", "cursor=%21%21", invalid("cursor")],
        ["an unknown parameter", "page=2", invalid("page")],
      ]),
      ...headerCases("GET", path),
      {
        name: `GET ${path}/{id}: malformed id`,
        request: (c) => ({ method: "GET", path: `${path}/nope`, headers: auth(c) }),
        expect: invalid("id"),
      },
      {
        name: `GET ${path}/{id}: unknown id`,
        request: (c) => ({ method: "GET", path: `${path}/${UNKNOWN_REFUND}`, headers: auth(c) }),
        expect: { status: 404, error: "refund_not_found" },
      },
    ]);
  }

  sweep("POST /v1/sandbox/refunds/{id}", () => {
    const path = `/v1/sandbox/refunds/${UNKNOWN_REFUND}`;
    const ep: BodyEndpoint = {
      method: "POST",
      path,
      auth: key,
      valid: () => ({ outcome: "processed" }),
      strict: true,
      stringField: "outcome",
    };
    return [
      ...bodyCases(ep),
      ...missingCases(ep, ["outcome"]),
      ...fieldCases(ep, "outcome", [
        ...NOT_STRINGS,
        ["an empty string", ""],
        ["upper case", "PROCESSED"],
        ["pending", "pending"],
      ]),
      ...unknownFieldCases(ep, ["reason", "status"]),
      ...secretKeyHeaderCases("POST", path, { outcome: "processed" }),
      {
        name: "POST /v1/sandbox/refunds/{id}: unknown id",
        request: (c) => ({ method: "POST", path, headers: key(c), json: { outcome: "failed" } }),
        expect: { status: 404, error: "refund_not_found" },
      },
      {
        name: "POST /v1/sandbox/refunds/{id}: malformed id",
        request: (c) => ({
          method: "POST",
          path: "/v1/sandbox/refunds/nope",
          headers: key(c),
          json: { outcome: "failed" },
        }),
        expect: invalid("id"),
      },
    ];
  });

  describe("routing: wrong methods on the refunds routes", () => {
    let ctx: Ctx;
    beforeAll(async () => {
      ctx = await newCtx();
    });
    const routes = registryRoutes("malformed-refunds");
    const cases = routes.flatMap(([path, allowed, head]) => methodCases(path, allowed, head));
    for (const c of cases) it(c.name, () => run(ctx, c));
  });
});
