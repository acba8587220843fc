import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/endpoints";
import { openApiDocument } from "./document";

type MediaType = { example?: unknown; examples?: Record<string, { value: unknown }> };

describe("the OpenAPI document", () => {
  const doc = openApiDocument("https://pay.example.com") as unknown as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    webhooks: Record<string, unknown>;
  };

  it("describes exactly the endpoints of the registry, each once", () => {
    const registered = ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort();
    const described = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(registered.length).toBeGreaterThan(30);
    expect(new Set(registered).size).toBe(registered.length);
    expect(described).toEqual(registered);
  });

  it("is OpenAPI 3.1 whose schemas compile as JSON Schema 2020-12, with a webhook per event type", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema(doc, "doc");
    let compiled = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(
        item as Record<string, { responses: Record<string, unknown> }>,
      )) {
        for (const [status, response] of Object.entries(op.responses)) {
          // A 304 has no body.
          if (!(response as { content?: object }).content) continue;
          const type = Object.keys((response as { content: object }).content)[0] ?? "";
          const ref = `doc#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${status}/content/${type.replace(/\//g, "~1")}/schema`;
          expect(() => ajv.compile({ $ref: ref }), ref).not.toThrow();
          compiled++;
        }
      }
    }
    expect(compiled).toBeGreaterThan(200);
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      "checkout.amount_mismatch",
      "checkout.awaiting_transfer",
      "checkout.completed",
      "invoice.payment_failed",
      "payment.completed",
      "payment.failed",
      "refund.failed",
      "refund.processed",
      "subscription.cancelled",
      "subscription.completed",
      "subscription.created",
      "subscription.past_due",
      "subscription.renewed",
      "webhook.test",
    ]);
  });

  it("is version 1.0 with two servers, staging and production, the serving deployment among them", () => {
    const staging = openApiDocument("https://staging.shop.example") as unknown as {
      info: { version: string };
      servers: Array<{ url: string; description: string }>;
    };
    expect(staging.info.version).toBe("1.0");
    expect(staging.servers).toHaveLength(2);
    expect(staging.servers[0]).toMatchObject({ url: "https://staging.shop.example" });
    expect(staging.servers[0]?.description).toMatch(/^Staging/);
    expect(staging.servers[1]?.description).toMatch(/^Production/);
    const live = openApiDocument("https://pay.shop.example", "production") as unknown as typeof staging;
    expect(live.servers.map((s) => s.description.split(":")[0])).toEqual(["Staging", "Production"]);
    expect(live.servers[1]).toMatchObject({ url: "https://pay.shop.example" });
  });

  it("gives every write with a body an example that its own request schema accepts", () => {
    for (const op of ENDPOINTS) {
      if (!op.body) continue;
      expect(op.example, `${op.method} ${op.path} has an example`).toBeDefined();
      const parsed = op.body.safeParse(op.example);
      expect(parsed.success, `${op.method} ${op.path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it("gives every answer an example its own schema accepts: the success answer, and each failure code", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, "doc");
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(
        item as Record<string, { responses: Record<string, { content: Record<string, MediaType> }> }>,
      )) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status === "304") continue; // no body
          // JSON, but for the embedded checkout's script (text/javascript).
          const [type = "", media = {}] = Object.entries(response.content)[0] ?? [];
          const where = `${method.toUpperCase()} ${path} ${status}`;
          const values = status.startsWith("2")
            ? [media.example]
            : Object.entries(media.examples ?? {}).map(([code, e]) => {
                expect((e.value as { error: string }).error, where).toBe(code);
                return e.value;
              });
          expect(values.length, `${where} has an example`).toBeGreaterThan(0);
          const ref = `doc#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/responses/${status}/content/${type.replace(/\//g, "~1")}/schema`;
          const validate = ajv.compile({ $ref: ref });
          for (const value of values) {
            expect(value, where).toBeDefined();
            expect(validate(value), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("names each operation's credential and its failure codes", () => {
    const verify = doc.paths["/v1/payment/verify/{reference}"]?.get as {
      security: unknown[];
      responses: Record<
        string,
        { content: { "application/json": { schema: { properties: { error: { enum: string[] } } } } } }
      >;
    };
    expect(verify.security).toEqual([{ secretKey: [] }]);
    expect(verify.responses["404"]?.content["application/json"].schema.properties.error.enum).toEqual([
      "transaction_not_found",
    ]);
    expect(verify.responses["401"]?.content["application/json"].schema.properties.error.enum).toEqual([
      "invalid_api_key",
    ]);
  });
});
