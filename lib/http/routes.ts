import { answerOf, declaredErrors, type Endpoint, type HttpMethod } from "@/lib/core/endpoint";
import { labelRequest } from "@/lib/core/metrics";
import { type Door, methodsNotAllowed, type RouteHandler, withApi } from "./with-api";

/** An endpoint whose route builds its own `Response` (a script, the document, the ping) instead of a handler's data. */
export type Served = { endpoint: Endpoint; handle: RouteHandler };

/** Serve `endpoint` with a function of the route's own (the endpoint's definition has no handler). */
export function serve(endpoint: Endpoint, handle: RouteHandler): Served {
  return { endpoint, handle };
}

/** Which endpoint each route handler serves: what the wiring test (lib/http/routes.test.ts) reads back. */
const WIRED = new WeakMap<RouteHandler, Endpoint>();

/** The endpoint a route file's export serves, or undefined for its 405s and OPTIONS. */
export function wiredEndpoint(handler: unknown): Endpoint | undefined {
  return typeof handler === "function" ? WIRED.get(handler as RouteHandler) : undefined;
}

const METHOD_ORDER: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The route handler of an endpoint with a handler: withApi with its schemas, status and declared failure codes,
 * through the API's door or the console's (which refuses a cross-origin mutation too).
 */
export function endpointHandler(endpoint: Endpoint, door: Door = "api"): RouteHandler {
  const { handler } = endpoint;
  if (!handler)
    throw new Error(`${endpoint.method} ${endpoint.path} has no handler: serve it from its route`);
  const declared = new Set(declaredErrors(endpoint));
  if (door === "console") declared.add("cross_origin");
  // A route without a permission refuses every member (lib/core/permit.ts); say so rather than answer 500.
  if (endpoint.auth === "session") declared.add("forbidden");
  return withApi(
    {
      door,
      auth: endpoint.auth,
      body: endpoint.body,
      query: endpoint.query,
      params: endpoint.params,
      rawBody: endpoint.rawBody,
      permission: endpoint.permission,
      declared,
    },
    async (ctx) => {
      let status: number = endpoint.status;
      const answerWith = (chosen: 200 | 201 | 202) => {
        if (chosen !== endpoint.status && chosen !== endpoint.alsoStatus?.status)
          throw new Error(`${endpoint.method} ${endpoint.path} does not declare the status ${chosen}`);
        status = chosen;
      };
      const answer = answerOf(await handler({ ...ctx, answerWith }));
      return { status, ...answer };
    },
  );
}

/**
 * A route file's exports from the endpoints at its path (lib/<area>/endpoints.ts): each method served by its
 * endpoint, every other one a 405 naming these, and OPTIONS listing them. `export const { GET, POST, PUT,
 * PATCH, DELETE, OPTIONS } = routes(refundsEndpoints.list, refundsEndpoints.create);`
 */
export function routes(...entries: Array<Endpoint | Served>) {
  const served = entries.map((entry) => ("handle" in entry ? entry : { endpoint: entry, handle: null }));
  const path = served[0]?.endpoint.path;
  const methods = served.map(({ endpoint }) => endpoint.method);
  if (served.some(({ endpoint }) => endpoint.path !== path) || new Set(methods).size !== methods.length)
    throw new Error(`one route serves one path, each method once: ${served.map((s) => s.endpoint.path)}`);
  const allowed = METHOD_ORDER.filter((m) => methods.includes(m));
  const handlers: Record<HttpMethod | "OPTIONS", RouteHandler> = methodsNotAllowed(...allowed);
  for (const { endpoint, handle } of served) {
    const handler = handle ?? endpointHandler(endpoint);
    WIRED.set(handler, endpoint);
    handlers[endpoint.method] = handler;
  }
  return labelled(handlers, path ?? "other");
}

/** Each handler names `endpoint` as the request's label for the front's metrics (lib/core/metrics.ts). */
function labelled<T extends Record<string, RouteHandler>>(handlers: T, endpoint: string): T {
  const out: Record<string, RouteHandler> = {};
  for (const [method, handler] of Object.entries(handlers)) {
    const named: RouteHandler = (request, context) => {
      labelRequest(endpoint);
      return handler(request, context);
    };
    const wired = WIRED.get(handler);
    if (wired) WIRED.set(named, wired);
    out[method] = named;
  }
  return out as T;
}

/**
 * A console route (app/dashboard/api/**) that is an API endpoint's: the same definition, handler and failure
 * codes through the console's door (same-origin mutations, the cookie session in the console's mode, the
 * console's failure envelope with a `validation_error`'s `fields`). Its path is the console's own.
 */
export function consoleRoutes(...endpoints: Endpoint[]) {
  const methods = endpoints.map((e) => e.method);
  if (new Set(methods).size !== methods.length || endpoints.some((e) => e.auth !== "session"))
    throw new Error(`a console route serves session endpoints, each method once: ${methods}`);
  const handlers: Record<HttpMethod | "OPTIONS", RouteHandler> = methodsNotAllowed(
    ...METHOD_ORDER.filter((m) => methods.includes(m)),
  );
  for (const endpoint of endpoints) handlers[endpoint.method] = endpointHandler(endpoint, "console");
  return labelled(handlers, `console ${endpoints[0]?.path ?? "other"}`);
}
