import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { load } from "js-yaml";
import type { z } from "zod";
import { CHARGE_EXTRA_PROPERTIES, STATUS_FIELDS } from "../shapes";

/**
 * The vendored document (../vendor/paystack.yaml) as a contract the double holds every request and every
 * answer of its own to: the operation (path and method), `Authorization: Bearer sk_…` (the document's one
 * security scheme), `Content-Type: application/json` on a body, path and query parameters (only declared
 * ones, of their declared types), and the body against the operation's schema, where every top-level
 * property must be one the document declares or shapes.ts types (a misspelt field is refused, not ignored).
 * Answers: the status must be one the operation lists (or its `default`), and the body must match that
 * response's schema, plus the fields shapes.ts says a charge status carries.
 *
 * OpenAPI 3.0 → JSON Schema: `nullable` without a `type` (any value) is dropped; with a type, Ajv's own
 * `nullable` keyword reads it.
 */
type Schema = Record<string, unknown>;
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
};
type Parameter = { in: "path" | "query" | "header"; name: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Schema>;
};

const VENDOR = join(import.meta.dirname, "..", "vendor", "paystack.yaml");

function openapiToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openapiToJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = openapiToJsonSchema(v);
  if (out.nullable === true && out.type === undefined) delete out.nullable;
  return out;
}

export type Matched = {
  template: string;
  method: string;
  operation: Operation;
  params: Record<string, string>;
};

export class PaystackContract {
  readonly doc: Document;
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp; names: string[]; literal: number }>;

  constructor() {
    this.doc = openapiToJsonSchema(load(readFileSync(VENDOR, "utf8"))) as Document;
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(this.doc as unknown as Schema, "paystack");
    this.routes = Object.keys(this.doc.paths).map((template) => {
      const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
      const pattern = new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^}]+\}/g, "([^/]+)")}$`);
      return { template, pattern, names, literal: template.replace(/\{[^}]+\}/g, "").length };
    });
    // A literal segment wins over a parameter (/charge/submit_pin before /charge/{reference}).
    this.routes.sort((a, b) => b.literal - a.literal);
  }

  /** The document's operation for a method and path, or the reason there is none. */
  match(method: string, path: string): Matched | string {
    const lower = method.toLowerCase();
    let pathKnown = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      pathKnown = true;
      const operation = this.doc.paths[route.template]?.[lower];
      if (!operation) continue;
      const params = Object.fromEntries(
        route.names.map((n, i) => [n, decodeURIComponent(m[i + 1] as string)]),
      );
      return { template: route.template, method: lower, operation, params };
    }
    return pathKnown ? `the document has no ${method} on ${path}` : `the document has no path ${path}`;
  }

  private compile(key: string, schema: Schema): ValidateFunction {
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.compile(schema);
      this.cache.set(key, v);
    }
    return v;
  }

  private deref<T>(node: T): T {
    let current = node as unknown as Schema;
    for (let i = 0; i < 10 && typeof current?.$ref === "string"; i++) {
      const parts = (current.$ref as string).replace(/^#\//, "").split("/");
      current = parts.reduce<unknown>((a, k) => (a as Record<string, unknown>)[k], this.doc) as Schema;
    }
    return current as unknown as T;
  }

  /** Property names a request schema declares at its top level (through $ref and allOf). */
  private declared(schema: Schema, into = new Set<string>()): Set<string> {
    const s = this.deref(schema);
    for (const name of Object.keys((s.properties as Record<string, unknown>) ?? {})) into.add(name);
    for (const part of (s.allOf as Schema[]) ?? []) this.declared(part, into);
    return into;
  }

  /** Every way a request breaks the document (empty: it is one the document allows). */
  checkRequest(input: {
    method: string;
    path: string;
    query: URLSearchParams;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }): { problems: string[]; matched?: Matched } {
    const where = `${input.method} ${input.path}`;
    const matched = this.match(input.method, input.path);
    if (typeof matched === "string") return { problems: [`${where}: ${matched}`] };
    const problems: string[] = [];
    const auth = String(input.headers.authorization ?? "");
    if (!/^Bearer sk_(test|live)_[0-9A-Za-z]+$/.test(auth)) {
      problems.push(`${where}: no "Authorization: Bearer sk_…" (the document's bearerAuth)`);
    }
    const pointer = `paystack#/paths/${matched.template.replace(/~/g, "~0").replace(/\//g, "~1")}/${matched.method}`;
    const parameters = (matched.operation.parameters ?? []).map((p) => this.deref(p));
    for (const p of parameters.filter((p) => p.in === "path")) {
      const value = matched.params[p.name];
      if (value === undefined || !this.valueMatches(p.schema, value)) {
        problems.push(
          `${where}: path parameter ${p.name}=${JSON.stringify(value)} is not a ${p.schema?.type}`,
        );
      }
    }
    const queryParams = parameters.filter((p) => p.in === "query");
    for (const [name, value] of input.query) {
      const declared = queryParams.find((p) => p.name === name);
      if (!declared) problems.push(`${where}: query parameter ${name} is not in the document`);
      else if (!this.valueMatches(declared.schema, value))
        problems.push(
          `${where}: query parameter ${name}=${JSON.stringify(value)} is not a ${declared.schema?.type}`,
        );
    }
    for (const p of queryParams.filter((p) => p.required)) {
      if (!input.query.has(p.name)) problems.push(`${where}: query parameter ${p.name} is required`);
    }
    const bodySchema = matched.operation.requestBody?.content["application/json"]?.schema;
    if (!bodySchema) {
      if (input.body.length > 0) problems.push(`${where}: the document takes no body here`);
      return { problems, matched };
    }
    if (!/^application\/json\b/.test(String(input.headers["content-type"] ?? ""))) {
      problems.push(`${where}: Content-Type is not application/json`);
    }
    let body: unknown;
    try {
      body = JSON.parse(input.body);
    } catch {
      problems.push(`${where}: the body is not JSON`);
      return { problems, matched };
    }
    const validate = this.compile(`${pointer} body`, {
      $ref: `${pointer}/requestBody/content/application~1json/schema`,
    });
    if (!validate(body)) problems.push(`${where}: body ${this.ajv.errorsText(validate.errors)}`);
    if (body !== null && typeof body === "object" && !Array.isArray(body)) {
      const known = this.declared(bodySchema);
      const extras: Record<string, z.ZodType> = matched.template === "/charge" ? CHARGE_EXTRA_PROPERTIES : {};
      for (const [name, value] of Object.entries(body)) {
        const shape = extras[name];
        if (shape) {
          const parsed = shape.safeParse(value);
          if (!parsed.success)
            problems.push(
              `${where}: body.${name} is not the shape of lib/rails/paystack/shapes.ts: ${parsed.error.message}`,
            );
        } else if (!known.has(name)) {
          problems.push(`${where}: body.${name} is not a property the document (or shapes.ts) declares`);
        }
      }
    }
    return { problems, matched };
  }

  private valueMatches(schema: Schema | undefined, value: string): boolean {
    const type = schema?.type;
    if (type === "integer") return /^-?\d+$/.test(value);
    if (type === "number") return value !== "" && Number.isFinite(Number(value));
    if (type === "boolean") return value === "true" || value === "false";
    if (schema?.format === "date-time") return !Number.isNaN(Date.parse(value));
    return true;
  }

  /** Every way an answer breaks the document's response for its status (and shapes.ts' status fields). */
  checkAnswer(matched: Matched, status: number, body: unknown): string[] {
    const where = `${matched.method.toUpperCase()} ${matched.template} → ${status}`;
    const declared = matched.operation.responses[String(status)] ?? matched.operation.responses.default;
    if (!declared) return [`${where}: the document lists no such answer`];
    const response = this.deref(declared) as { content?: Record<string, { schema: Schema }> };
    const problems: string[] = [];
    if (response.content?.["application/json"]?.schema) {
      const key = String(status) in matched.operation.responses ? String(status) : "default";
      const entry = matched.operation.responses[key] as Schema;
      const base =
        typeof entry.$ref === "string"
          ? `paystack${entry.$ref}`
          : `paystack#/paths/${matched.template.replace(/~/g, "~0").replace(/\//g, "~1")}/${matched.method}/responses/${key}`;
      const schemaRef = `${base}/content/application~1json/schema`;
      const validate = this.compile(schemaRef, { $ref: schemaRef });
      if (!validate(body)) problems.push(`${where}: answer ${this.ajv.errorsText(validate.errors)}`);
    }
    const data = (body as { data?: { status?: string } } | null)?.data;
    const extra =
      typeof data?.status === "string" ? STATUS_FIELDS[data.status as keyof typeof STATUS_FIELDS] : undefined;
    if (extra) {
      const parsed = extra.safeParse(data);
      if (!parsed.success)
        problems.push(
          `${where}: data of status ${data?.status} lacks shapes.ts fields: ${parsed.error.message}`,
        );
    }
    return problems;
  }
}
