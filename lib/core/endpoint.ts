import type { z } from "zod";
import type { ErrorCode } from "./errors";
import type {
  AccessCodePrincipal,
  AnonymousPrincipal,
  SecretKeyPrincipal,
  SessionPrincipal,
} from "./principal";
import type { Permission } from "./roles";

/**
 * One definition per endpoint (docs/decisions/013-endpoint-registry.md): method, path, credential, request
 * and response schemas, failure codes, example and the handler, written once in `lib/<area>/endpoints.ts`.
 * The route files (app/v1/**), the OpenAPI document (lib/openapi), the input sweeps (tests/malformed*) and
 * the console's routes all read these. Types and plain data only: the transport (lib/http) runs them.
 */

/** Who may call an endpoint (docs/api.md): the credential it takes, the security scheme of the document. */
export type Credential = "none" | "secret_key" | "access_code" | "session";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type PrincipalFor<A extends Credential> = A extends "secret_key"
  ? SecretKeyPrincipal
  : A extends "access_code"
    ? AccessCodePrincipal
    : A extends "session"
      ? SessionPrincipal
      : AnonymousPrincipal;

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * A response schema's data with its literals widened (an enum's members to `string`, `true` to `boolean`): what
 * a handler must answer. The presenters build their answers from database columns typed `string`, so the check
 * is on shape (every field, its nesting, string or number or boolean or null), not on the enums' members; those
 * are held to the schema by the success examples' test (lib/openapi/document.test.ts).
 */
export type ResponseData<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer U)[]
        ? ResponseData<U>[]
        : T extends object
          ? { [K in keyof T]: ResponseData<T[K]> }
          : T;

/** What a handler is given: the principal, the parsed request, and what the transport knows of it. */
export type EndpointContext<A extends Credential, B, Q, P> = {
  auth: PrincipalFor<A>;
  body: Output<B>;
  query: Output<Q>;
  params: Output<P>;
  requestId: string;
  clientAddress: string;
  /** The request's valid `Idempotency-Key` on an authenticated POST, for verbs that record it with what they make. */
  idempotencyKey: string | null;
  /** With `idempotencyKey`: the body's keyed hash, the one its stored answer is matched by. */
  idempotencyRequestHash: string | null;
  /** The body's exact text, for endpoints that check a signature over it (`rawBody: true`); "" otherwise. */
  rawBody: string;
  /** The request's headers (a processor's signature header). */
  headers: Headers;
  /**
   * Answer with another success status than the definition's `status`: the one its `alsoStatus` names (an
   * email already known answers 200 with that customer where a new one is 201). Anything else throws.
   */
  answerWith: (status: 200 | 201 | 202) => void;
};

export type EndpointDefinition<
  A extends Credential,
  B extends z.ZodType | undefined,
  Q extends z.ZodObject | undefined,
  P extends z.ZodObject | undefined,
  R extends z.ZodType,
> = {
  method: HttpMethod;
  /** OpenAPI path, parameters in braces: `/v1/payment/verify/{reference}` (app/v1/payment/verify/[reference]). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: A;
  /**
   * What a member's role must allow to call it (lib/core/roles.ts): every session endpoint names one, checked
   * before anything else is read (403 `forbidden` naming it). `account.self` is every member's.
   */
  permission?: A extends "session" ? Permission : never;
  body?: B;
  query?: Q;
  params?: P;
  /** The success status; a handler's answer goes out with it. */
  status: 200 | 201 | 202;
  /** A second success status the handler may choose (`answerWith`), with the same response schema. */
  alsoStatus?: { status: 200 | 201 | 202; description: string };
  /** The success answer's `data` (or, with `raw`, the whole answer): the handler's return type. */
  response: R;
  /** Failure codes particular to this endpoint; those every endpoint of its kind can give are added (`declaredErrors`). */
  errors?: readonly ErrorCode[];
  /** An example request body, where there is one (the document shows it; a test parses it with `body`). */
  example?: B extends z.ZodType ? z.input<B> : never;
  /** The answer is the response schema itself, not wrapped in the success envelope. */
  raw?: true;
  /** The answer's media type when it is not JSON (then `raw`, and `response` describes the text). */
  contentType?: string;
  /** Answers 304 (no body) to an If-None-Match naming its current ETag. */
  notModified?: true;
  /** Keep the body's exact text in `rawBody` (a signature over it is checked by the handler). */
  rawBody?: true;
  /**
   * The work: the domain verb called with the parsed request, answering the response schema's data. Absent for
   * the few endpoints whose route builds its own `Response` (a script, the document, the ping): their route file
   * serves them with `serve(endpoint, fn)` (lib/http/routes.ts).
   */
  handler?(
    ctx: EndpointContext<A, B, Q, P>,
  ): Promise<ResponseData<z.input<R>> | WithHeaders<ResponseData<z.input<R>>>>;
  /** Headers a successful answer may carry, for the document (a cookie it sets): `{ "set-cookie": schema }`. */
  responseHeaders?: z.ZodObject;
};

const HEADERS = Symbol("endpoint.headers");

/** A handler's data with headers for its answer (a cookie to set), which the transport sends beside it. */
export type WithHeaders<T> = { [HEADERS]: Record<string, string>; data: T };

/** Answer `data` with these response headers too (declare them in the definition's `responseHeaders`). */
export function withHeaders<T>(data: T, headers: Record<string, string>): WithHeaders<T> {
  return { [HEADERS]: headers, data };
}

/** A handler's answer split into its data and its headers (none unless it used `withHeaders`). */
export function answerOf(result: unknown): { data: unknown; headers?: Record<string, string> } {
  if (result !== null && typeof result === "object" && HEADERS in result) {
    const answer = result as WithHeaders<unknown>;
    return { data: answer.data, headers: answer[HEADERS] };
  }
  return { data: result };
}

/** An endpoint of any shape, as the registry lists them. */
export type Endpoint = EndpointDefinition<
  Credential,
  z.ZodType | undefined,
  z.ZodObject | undefined,
  z.ZodObject | undefined,
  z.ZodType
>;

/** Define an endpoint: the literal, with the handler's context and return typed from its schemas. */
export function defineEndpoint<
  A extends Credential,
  R extends z.ZodType,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
>(definition: EndpointDefinition<A, B, Q, P, R>): EndpointDefinition<A, B, Q, P, R> {
  return definition;
}

/**
 * Every failure code an endpoint may answer: its own `errors`, and those every endpoint of its kind can give
 * (validation of what it reads, its credential's refusals, idempotency on authenticated POSTs, and what any
 * request can meet before it reaches a route). The document lists these; in tests the wrapper refuses any other.
 */
export function declaredErrors(endpoint: Endpoint): ErrorCode[] {
  const codes = new Set<ErrorCode>(endpoint.errors ?? []);
  const writes = endpoint.method !== "GET";
  if (writes || endpoint.query || endpoint.params) codes.add("validation_error");
  if (writes)
    for (const c of ["invalid_json", "unsupported_media_type", "payload_too_large"] as const) codes.add(c);
  if (endpoint.auth === "secret_key") codes.add("invalid_api_key").add("rate_limited");
  if (endpoint.auth === "access_code") codes.add("invalid_access_code").add("rate_limited");
  if (endpoint.auth === "session") codes.add("invalid_session");
  if (endpoint.auth === "session" && endpoint.permission !== "account.self") codes.add("forbidden");
  if (
    endpoint.path.endsWith("/auth/login") ||
    endpoint.path.endsWith("/auth/signup") ||
    endpoint.path.endsWith("/redeliver")
  )
    codes.add("rate_limited");
  if (endpoint.method === "POST" && endpoint.auth !== "none")
    codes.add("idempotency_key_reused").add("idempotency_in_progress");
  // Any request can be refused before it reaches the route: malformed (server.mjs) or while the service is down.
  codes
    .add("bad_request")
    .add("request_timeout")
    .add("headers_too_large")
    .add("internal_error")
    .add("service_unavailable");
  return [...codes];
}
