import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * The contract check: every answer an HTTP suite receives from `/v1/*` is validated against the OpenAPI
 * document the server itself serves (GET /v1/openapi.json). A status the operation does not list, a failure
 * code it does not name, or a body its schema does not describe fails the test that got it. Unknown paths
 * must answer `route_not_found`, a known path with another method `method_not_allowed`.
 */
type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

const documents = new Map<string, Promise<{ doc: Document; ajv: Ajv2020; routes: Route[] }>>();
const validators = new Map<string, ValidateFunction>();

type Route = { template: string; pattern: RegExp };

function load(baseUrl: string) {
  let loaded = documents.get(baseUrl);
  if (!loaded) {
    loaded = (async () => {
      const res = await fetch(`${baseUrl}/v1/openapi.json`);
      if (!res.ok) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
      const doc = (await res.json()) as Document;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(doc, `${baseUrl}/openapi.json`);
      const routes = Object.keys(doc.paths).map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{[^/]+\}/g, "[^/]+")}$`),
      }));
      return { doc, ajv, routes };
    })();
    documents.set(baseUrl, loaded);
    // A load cut short (an instance going away behind a balancer) is tried again by the next answer.
    loaded.catch(() => documents.delete(baseUrl));
  }
  return loaded;
}

const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class ContractViolation extends Error {}

/** Throws ContractViolation when the answer is not one the document describes. */
export async function checkContract(
  baseUrl: string,
  method: string,
  url: string,
  status: number,
  body: unknown,
): Promise<void> {
  const path = url.split("?")[0] ?? url;
  if (!path.startsWith("/v1/") && path !== "/v1") return;
  const { doc, ajv, routes } = await load(baseUrl);
  const route = routes.find((r) => r.pattern.test(path));
  const code = (body as { error?: string } | undefined)?.error;
  const where = `${method} ${path} → ${status}`;
  if (!route) {
    if (status === 404 && code === "route_not_found") return;
    if (status === 400 && code === "bad_request") return;
    throw new ContractViolation(`${where}: no operation in the document matches this path`);
  }
  const operation = doc.paths[route.template]?.[method.toLowerCase()];
  if (!operation) {
    if (method === "HEAD" || (status === 405 && code === "method_not_allowed")) return;
    throw new ContractViolation(`${where}: the document has no ${method} on ${route.template}`);
  }
  if (!operation.responses[String(status)]) {
    throw new ContractViolation(
      `${where}: status not in the document (lists ${Object.keys(operation.responses).join(", ")}); body ${JSON.stringify(body)?.slice(0, 300)}`,
    );
  }
  // An answer that is not JSON (the embedded checkout's script, or its 304 with no body): its status is
  // checked, its text is not.
  const media = (operation.responses[String(status)] as { content?: Record<string, unknown> }).content ?? {};
  if (!("application/json" in media)) return;
  const key = `${baseUrl} ${route.template} ${method} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = `${baseUrl}/openapi.json#/paths/${pointer(route.template)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    validate = ajv.compile({ $ref: ref });
    validators.set(key, validate);
  }
  if (!validate(body)) {
    throw new ContractViolation(
      `${where}: the answer does not match the document: ${ajv.errorsText(validate.errors, { separator: "; " })}; body ${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
}

let webhookAjv: Ajv2020 | undefined;

/**
 * Throws ContractViolation when a delivered webhook body is not what the document's `webhooks` describe for
 * its `event`. The document is built here from the same source as the server under test (lib/openapi).
 */
export async function checkWebhook(body: unknown): Promise<void> {
  if (!webhookAjv) {
    const { openApiDocument } = await import("@/lib/openapi/document");
    webhookAjv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(webhookAjv);
    webhookAjv.addSchema(openApiDocument("http://127.0.0.1"), "webhooks");
  }
  const ajv = webhookAjv;
  const event = (body as { event?: unknown } | undefined)?.event;
  if (typeof event !== "string" || !ajv.getSchema(`webhooks#/webhooks/${pointer(event)}`)) {
    throw new ContractViolation(`webhook: the document has no event ${JSON.stringify(event)}`);
  }
  const key = `webhook ${event}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile({
      $ref: `webhooks#/webhooks/${pointer(event)}/post/requestBody/content/application~1json/schema`,
    });
    validators.set(key, validate);
  }
  if (!validate(body)) {
    throw new ContractViolation(
      `webhook ${event}: the body does not match the document: ${ajv.errorsText(validate.errors, { separator: "; " })}; body ${JSON.stringify(body)?.slice(0, 500)}`,
    );
  }
}
