import type { Metadata } from "next";
import type { Credential } from "@/lib/core/endpoint";
import { ENDPOINTS } from "@/lib/endpoints";
import { env } from "@/lib/env";
import { openApiDocument } from "@/lib/openapi/document";
import { type Components, type JsonSchema, SchemaView } from "./_components/schema-view";
import { TryIt } from "./_components/try-it";

export const metadata: Metadata = { title: "API reference" };
// Rendered per request: Next puts the request's CSP nonce on its scripts only then (proxy.ts).
export const dynamic = "force-dynamic";

const GUIDES = [
  ["Accept a payment end to end", "docs/guides/accept-a-payment.md"],
  ["Verify a webhook signature", "docs/guides/verify-webhooks.md"],
  ["Go live", "docs/guides/go-live.md"],
  ["Payment links", "docs/guides/payment-links.md"],
  ["Errors and retries", "docs/guides/errors-and-retries.md"],
  ["Testing in test mode (QA kit)", "docs/testing.md"],
] as const;

const CREDENTIAL: Record<Credential, string> = {
  none: "None: public",
  secret_key: "Secret key: x-api-key: sk_… (or Authorization: Bearer sk_…)",
  access_code: "The checkout's access code: x-access-code",
  session: "Merchant session token: Authorization: Bearer mst_…",
};

type Parameter = { in: string; name: string; required?: boolean; description?: string; schema?: JsonSchema };
type Media = { schema: JsonSchema; example?: unknown };
type OperationObject = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": Media } };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
};
type Doc = {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, OperationObject>>;
  webhooks: Record<string, { post: OperationObject }>;
  components: { schemas: Components };
};

const METHOD_STYLE: Record<string, string> = {
  get: "bg-sky-800",
  post: "bg-emerald-800",
  put: "bg-amber-800",
  patch: "bg-violet-800",
};

function slug(tag: string): string {
  return tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** The error codes a failure answer can carry, read from its schema's `error` enum. */
function failureCodes(media?: Media): string[] {
  const error = media?.schema.properties?.error;
  return (error?.enum as string[] | undefined) ?? [];
}

function Operation({
  op,
  method,
  path,
  components,
}: {
  op: OperationObject;
  method: string;
  path: string;
  components: Components;
}) {
  const meta = ENDPOINTS.find((o) => o.path === path && o.method.toLowerCase() === method);
  const body = op.requestBody?.content["application/json"];
  const parameters = (op.parameters ?? []).filter((p) => p.in !== "header");
  const headers = (op.parameters ?? []).filter((p) => p.in === "header");
  const [success, ...rest] = Object.entries(op.responses);
  // Another answer that is no failure (the script's 304 Not Modified), and the failures.
  const others = rest.filter(([status]) => Number(status) < 400);
  const failures = rest.filter(([status]) => Number(status) >= 400);
  // JSON, but for the embedded checkout's script (text/javascript).
  const successType = Object.keys(success?.[1].content ?? {})[0] ?? "application/json";
  const successMedia = success?.[1].content?.[successType];
  return (
    <details id={op.operationId} className="group rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 focus-visible:outline-2 focus-visible:outline-teal-700">
        <span
          className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase text-white ${METHOD_STYLE[method] ?? "bg-slate-800"}`}
        >
          {method}
        </span>
        <code className="break-all font-semibold text-slate-900">{path}</code>
        <span className="text-sm text-slate-700">{op.summary}</span>
      </summary>
      <div className="space-y-3 border-t border-slate-200 px-3 py-3">
        {op.description && <p className="text-sm text-slate-700">{op.description}</p>}
        <p className="text-sm">
          <span className="font-medium text-slate-900">Credential: </span>
          <span className="text-slate-700">{CREDENTIAL[meta?.auth ?? "none"]}</span>
        </p>
        {parameters.length > 0 && (
          <section>
            <h3 className="text-sm font-semibold text-slate-900">Parameters</h3>
            <ul className="mt-1 text-sm">
              {parameters.map((p) => (
                <li key={`${p.in}-${p.name}`}>
                  <code className="font-semibold text-slate-900">{p.name}</code>{" "}
                  <span className="text-slate-700">
                    in {p.in}
                    {p.required ? ", required" : ""}
                    {p.schema?.enum ? `: ${p.schema.enum.map((v) => JSON.stringify(v)).join(" | ")}` : ""}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
        {headers.length > 0 && (
          <p className="text-sm text-slate-700">
            <code className="font-semibold text-slate-900">Idempotency-Key</code> header:{" "}
            {headers[0]?.description}
          </p>
        )}
        {body && (
          <section>
            <h3 className="text-sm font-semibold text-slate-900">Request body</h3>
            <SchemaView schema={body.schema} components={components} />
            {body.example !== undefined && (
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard
                tabIndex={0}
                className="mt-2 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-50"
              >
                {JSON.stringify(body.example, null, 2)}
              </pre>
            )}
          </section>
        )}
        {success && (
          <section>
            <h3 className="text-sm font-semibold text-slate-900">
              Answer {success[0]}:{" "}
              {successType === "application/json" ? <code>data</code> : <code>{successType}</code>}
            </h3>
            <SchemaView
              schema={successMedia?.schema.properties?.data ?? successMedia?.schema ?? {}}
              components={components}
            />
          </section>
        )}
        {others.map(([status, response]) => (
          <p key={status} className="text-sm text-slate-700">
            <span className="font-medium text-slate-900">{status}</span>: {response.description}
          </p>
        ))}
        <section>
          <h3 className="text-sm font-semibold text-slate-900">Failures</h3>
          <ul className="mt-1 text-sm text-slate-700">
            {failures.map(([status, response]) => (
              <li key={status}>
                <span className="font-medium text-slate-900">{status}</span>:{" "}
                {failureCodes(response.content?.["application/json"]).map((c, i) => (
                  <span key={c}>
                    {i > 0 && ", "}
                    <code>{c}</code>
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </section>
        <TryIt
          method={method.toUpperCase()}
          path={path}
          credential={meta?.auth ?? "none"}
          pathParams={parameters.filter((p) => p.in === "path").map((p) => p.name)}
          hasQuery={parameters.some((p) => p.in === "query")}
          example={body?.example !== undefined ? JSON.stringify(body.example, null, 2) : undefined}
        />
      </div>
    </details>
  );
}

/** /docs: the API reference rendered from the OpenAPI document (the same one /v1/openapi.json serves). */
export default function DocsPage() {
  const doc = openApiDocument(env().PUBLIC_BASE_URL, env().PAYMENTS_ENV) as unknown as Doc;
  const components = doc.components.schemas;
  const byTag = new Map<string, Array<{ method: string; path: string; op: OperationObject }>>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-5xl px-4 py-6">
          <p className="text-sm font-medium">
            <a href="/" className="text-teal-800 underline underline-offset-2 hover:text-teal-900">
              Paygate
            </a>
          </p>
          <h1 className="mt-1 text-2xl font-semibold text-slate-900">API reference</h1>
          <p className="mt-2 max-w-3xl text-slate-700">{doc.info.description}</p>
          <p className="mt-2 max-w-3xl text-slate-700">
            Generated from the schemas the service validates with. The machine-readable document is{" "}
            <a href="/v1/openapi.json" className="font-medium text-teal-800 underline underline-offset-2">
              /v1/openapi.json
            </a>{" "}
            (OpenAPI {"3.1"}, version {doc.info.version}): import it into Postman or a client generator.
          </p>
        </div>
      </header>
      <div className="mx-auto grid max-w-5xl gap-6 px-4 py-6 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="Reference" className="text-sm">
          <h2 className="font-semibold text-slate-900">Endpoints</h2>
          <ul className="mt-1 space-y-1">
            {[...byTag.keys()].map((tag) => (
              <li key={tag}>
                <a
                  href={`#${slug(tag)}`}
                  className="text-teal-800 underline underline-offset-2 hover:text-teal-900"
                >
                  {tag}
                </a>
              </li>
            ))}
            <li>
              <a
                href="#webhook-events"
                className="text-teal-800 underline underline-offset-2 hover:text-teal-900"
              >
                Webhook events
              </a>
            </li>
          </ul>
          <h2 className="mt-4 font-semibold text-slate-900">Guides, in the repository</h2>
          <ul className="mt-1 space-y-1 text-slate-700">
            {GUIDES.map(([title, path]) => (
              <li key={path}>
                {title}: <code className="break-all text-slate-900">{path}</code>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 space-y-8">
          {[...byTag].map(([tag, operations]) => (
            <section key={tag} aria-labelledby={slug(tag)}>
              <h2 id={slug(tag)} className="text-xl font-semibold text-slate-900">
                {tag}
              </h2>
              <div className="mt-3 space-y-2">
                {operations.map(({ method, path, op }) => (
                  <Operation
                    key={`${method} ${path}`}
                    op={op}
                    method={method}
                    path={path}
                    components={components}
                  />
                ))}
              </div>
            </section>
          ))}
          <section aria-labelledby="webhook-events">
            <h2 id="webhook-events" className="text-xl font-semibold text-slate-900">
              Webhook events
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              Sent as POST to your endpoint, signed per Standard Webhooks (headers <code>webhook-id</code>,{" "}
              <code>webhook-timestamp</code>, <code>webhook-signature</code>); see
              docs/guides/verify-webhooks.md.
            </p>
            <div className="mt-3 space-y-2">
              {Object.entries(doc.webhooks).map(([type, item]) => (
                <details key={type} className="rounded-lg border border-slate-200 bg-white">
                  <summary className="cursor-pointer px-3 py-2">
                    <code className="font-semibold text-slate-900">{type}</code>
                  </summary>
                  <div className="border-t border-slate-200 px-3 py-3">
                    <SchemaView
                      schema={item.post.requestBody?.content["application/json"].schema ?? {}}
                      components={components}
                    />
                  </div>
                </details>
              ))}
            </div>
          </section>
        </main>
      </div>
    </div>
  );
}
