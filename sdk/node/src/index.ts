import { PaygateError } from "./errors.js";
import { type Auth, type Client, createClient, createConfig } from "./generated/client/index.js";
import * as sdk from "./generated/sdk.gen.js";
import type { Event } from "./generated/types.gen.js";
import { type CallOptions, callFetch, type RetryPolicy } from "./transport.js";
import {
  type EventOf,
  type PaygateEventType,
  type VerifierOptions,
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerifier,
} from "./webhooks.js";

export { PaygateError, WebhookSecretError, WebhookVerificationError } from "./errors.js";
/** Every type of the API, generated from its OpenAPI document: `Types.VerifiedTransaction`, `Types.Refund`, … */
export type * as Types from "./generated/types.gen.js";
export type { CallOptions } from "./transport.js";
export type {
  EventOf,
  PaygateEvent,
  PaygateEventType,
  VerifierOptions,
  VerifyOptions,
  WebhookHeaders,
} from "./webhooks.js";
export { MIN_WEBHOOK_SECRET_BYTES, verifyWebhook, WebhookVerifier } from "./webhooks.js";

export type PaygateOptions = {
  /** `sk_test_…` (staging) or `sk_live_…` (production): payments, refunds, events, the sandbox. */
  secretKey?: string;
  /**
   * A merchant session token (`mst_…`, from `merchants.login` or `merchants.signup`): payment links, the
   * webhook endpoint, settings and the console's other calls. `paygate.withSession(token)` makes a client
   * with it.
   */
  sessionToken?: string;
  /** The API's base address (docs/api.md): the deployment's address including `/v1`, e.g. `https://staging.pay.example.com/v1`. */
  baseUrl: string;
  /** Milliseconds one HTTP attempt may take (default 30 000). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff in ms (default 500), doubled per retry up to `maxDelayMs` (default 8 000). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this (ms, default 60 000) is not waited for. */
  maxRetryAfterMs?: number;
  /** Another fetch (a proxy agent, a test double). */
  fetch?: typeof fetch;
  onRetry?: RetryPolicy["onRetry"];
};

type Generated = typeof sdk;
type OperationName = keyof Generated;
type OptionsOf<K extends OperationName> = Omit<NonNullable<Parameters<Generated[K]>[0]>, "client" | "url">;
type SuccessOf<K extends OperationName> = NonNullable<Awaited<ReturnType<Generated[K]>>["data"]>;
/** The answer's `data` (the success envelope unwrapped); the document itself for `getOpenapi`. */
type DataOf<K extends OperationName> =
  SuccessOf<K> extends { status: "success"; data: infer D } ? D : SuccessOf<K>;
type BodyOf<K extends OperationName> = OptionsOf<K> extends { body: infer B } ? B : never;
type QueryOf<K extends OperationName> = OptionsOf<K> extends { query?: infer Q } ? NonNullable<Q> : never;

/**
 * An event as `events.list` and `events.retrieve` answer it, its `payload` typed by its `type` (the body the
 * webhook of that type delivers): `if (e.type === "payment.completed") e.payload.data.amountSettled`.
 */
export type TypedEvent = {
  [T in PaygateEventType & Event["type"]]: Omit<Event, "type" | "payload"> & { type: T; payload: EventOf<T> };
}[PaygateEventType & Event["type"]];

/** One method per operation of the document, named by its operationId, answering its `data`. */
export type Operations = {
  [K in OperationName]: (options: OptionsOf<K>, call?: CallOptions) => Promise<DataOf<K>>;
};

/** The SDK's client: `new Paygate({ secretKey, baseUrl })`. */
export class Paygate {
  readonly #client: Client;
  readonly #options: PaygateOptions;
  readonly #policy: RetryPolicy;
  /** Every operation of the API by its operationId (`postPaymentInitialize`, `getRefundsById`, …). */
  readonly operations: Operations;

  constructor(options: PaygateOptions) {
    if (!options?.baseUrl)
      throw new TypeError("new Paygate({ baseUrl }): baseUrl is required (it ends in /v1)");
    const base = options.baseUrl.replace(/\/+$/, "");
    if (!base.endsWith("/v1"))
      throw new TypeError(`new Paygate({ baseUrl }): baseUrl must end in /v1 (got ${options.baseUrl})`);
    this.#options = options;
    this.#policy = {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      baseDelayMs: options.baseDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 8_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
      fetch: options.fetch ?? globalThis.fetch,
      ...(options.onRetry && { onRetry: options.onRetry }),
    };
    // The document's paths carry the /v1 segment; the client's base is the deployment's origin (and prefix).
    this.#client = createClient(createConfig({ baseUrl: base.slice(0, -"/v1".length) }));
    this.operations = Object.fromEntries(
      Object.entries(sdk).map(([name, fn]) => [
        name,
        (opts: object, call?: CallOptions) => this.#call(fn as never, opts, call),
      ]),
    ) as unknown as Operations;
  }

  async #call(fn: (o: object) => Promise<unknown>, options: object, call: CallOptions = {}): Promise<never> {
    const credential = (auth: Auth) => {
      if (auth.name === "x-access-code") return call.accessCode;
      if (auth.name === "x-api-key") return this.#options.secretKey;
      if (auth.scheme === "bearer") return this.#options.sessionToken;
      return undefined;
    };
    const result = (await fn({
      ...options,
      client: this.#client,
      auth: credential,
      fetch: callFetch(this.#policy, call),
    })) as { data?: unknown; error?: unknown; response?: Response };
    const response = result.response;
    if (!response) {
      // Only the transport throws before an answer; it throws PaygateError itself.
      throw result.error instanceof Error
        ? result.error
        : new PaygateError({ status: 0, code: "network_error", message: String(result.error) });
    }
    const requestId = response.headers.get("x-request-id");
    if (!response.ok || result.error !== undefined) {
      const body = result.error as { error?: unknown; message?: unknown } | string | undefined;
      const envelope = typeof body === "object" && body !== null ? body : undefined;
      throw new PaygateError({
        status: response.status,
        code: typeof envelope?.error === "string" ? envelope.error : `http_${response.status}`,
        message:
          typeof envelope?.message === "string"
            ? envelope.message
            : `${response.status} ${response.statusText}${typeof body === "string" ? `: ${body.slice(0, 200)}` : ""}`,
        requestId,
        body,
      });
    }
    const data = result.data as { status?: unknown; data?: unknown };
    return (data?.status === "success" && "data" in data ? data.data : data) as never;
  }

  /** The same client with a merchant session token (from `merchants.login`): a client for the console's calls. */
  withSession(sessionToken: string): Paygate {
    return new Paygate({ ...this.#options, sessionToken });
  }

  /** Payments, with the secret key. */
  readonly payments = {
    /**
     * POST /payment/initialize: a pending payment and its checkout (`checkoutUrl`, fees, totals). With
     * `saveCard: "optional"` or `"required"` (and `email`), the card it is paid with is saved to the customer.
     */
    initialize: (body: BodyOf<"postPaymentInitialize">, call?: CallOptions) =>
      this.operations.postPaymentInitialize({ body }, call),
    /** GET /payment/verify/{reference}: fulfil only when `status` is `success` and `amount` is the order's. */
    verify: (reference: string, call?: CallOptions) =>
      this.operations.getPaymentVerifyByReference({ path: { reference } }, call),
    /**
     * POST /payment/charge-authorization: charge a saved card (`AUTH_…`) with the customer away. Answers
     * `success`, `failed` (with `reason`), `requires_action` (send the customer `checkoutUrl` to answer the
     * bank) or `pending`. A `reference` of yours (one per invoice, order…) or the call's idempotency key makes
     * a retry answer the first charge instead of charging again.
     */
    chargeAuthorization: (body: BodyOf<"postPaymentChargeAuthorization">, call?: CallOptions) =>
      this.operations.postPaymentChargeAuthorization({ body }, call),
  };

  /** Customers (one per email, made by their first payment or here) and their saved cards, with the secret key. */
  readonly customers = {
    /** POST /customers: a customer for an email; an email already known answers that customer, unchanged. */
    create: (body: BodyOf<"postCustomers">, call?: CallOptions) =>
      this.operations.postCustomers({ body }, call),
    /** GET /customers: newest first, or `{ email }` for one; pass `cursor: page.nextCursor` for the next page. */
    list: (query: QueryOf<"getCustomers"> = {}, call?: CallOptions) =>
      this.operations.getCustomers({ query }, call),
    /** GET /customers/{code}: the customer with its saved cards (`authorizations`). */
    retrieve: (code: string, call?: CallOptions) =>
      this.operations.getCustomersByCode({ path: { code } }, call),
    /** PATCH /customers/{code}: name, phone, metadata (`null` clears one). */
    update: (code: string, body: BodyOf<"patchCustomersByCode">, call?: CallOptions) =>
      this.operations.patchCustomersByCode({ path: { code }, body }, call),
  };

  /** Plans: a price charged every interval (docs/guides/subscriptions.md), with the secret key. */
  readonly plans = {
    /** POST /plans: `{name, amount, currency?, interval, description?, trialDays?, invoiceLimit?}`. */
    create: (body: BodyOf<"postPlans">, call?: CallOptions) => this.operations.postPlans({ body }, call),
    /** GET /plans: newest first; `{ active: "true" }` for the active ones. */
    list: (query: QueryOf<"getPlans"> = {}, call?: CallOptions) => this.operations.getPlans({ query }, call),
    /** GET /plans/{code}. */
    retrieve: (code: string, call?: CallOptions) => this.operations.getPlansByCode({ path: { code } }, call),
    /** PATCH /plans/{code}: a new amount applies from each subscription's next period; `active: false` deactivates. */
    update: (code: string, body: BodyOf<"patchPlansByCode">, call?: CallOptions) =>
      this.operations.patchPlansByCode({ path: { code }, body }, call),
  };

  /** Subscriptions of customers' saved cards to plans: renewed once per period, retried, cancelled. */
  readonly subscriptions = {
    /** POST /subscriptions: `{customer, plan, authorizationCode, startAt?}`; a first period starting now is charged at once. */
    create: (body: BodyOf<"postSubscriptions">, call?: CallOptions) =>
      this.operations.postSubscriptions({ body }, call),
    /** GET /subscriptions: newest first, by `customer`, `plan` or `status`. */
    list: (query: QueryOf<"getSubscriptions"> = {}, call?: CallOptions) =>
      this.operations.getSubscriptions({ query }, call),
    /** GET /subscriptions/{code}. */
    retrieve: (code: string, call?: CallOptions) =>
      this.operations.getSubscriptionsByCode({ path: { code } }, call),
    /** PATCH /subscriptions/{code}: a new plan from the next period, or another saved card (charged at once when past due). */
    update: (code: string, body: BodyOf<"patchSubscriptionsByCode">, call?: CallOptions) =>
      this.operations.patchSubscriptionsByCode({ path: { code }, body }, call),
    /** POST /subscriptions/{code}/cancel: at once, or `{ atPeriodEnd: true }`. */
    cancel: (code: string, body: BodyOf<"postSubscriptionsByCodeCancel"> = {}, call?: CallOptions) =>
      this.operations.postSubscriptionsByCodeCancel({ path: { code }, body }, call),
    /** GET /subscriptions/{code}/invoices: one per period, newest first. */
    invoices: (code: string, call?: CallOptions) =>
      this.operations.getSubscriptionsByCodeInvoices({ path: { code } }, call),
    /** POST /subscriptions/{code}/manage-link: `{url, expiresAt}` of the customer's own page. */
    manageLink: (code: string, call?: CallOptions) =>
      this.operations.postSubscriptionsByCodeManageLink({ path: { code } }, call),
  };

  /** Saved cards, with the secret key (charge one with `payments.chargeAuthorization`). */
  readonly authorizations = {
    /** POST /authorizations/{code}/deactivate: the card can never be charged again. */
    deactivate: (code: string, call?: CallOptions) =>
      this.operations.postAuthorizationsByCodeDeactivate({ path: { code } }, call),
  };

  /**
   * The merchant's account: sign up and sign in (no credential needed), then, with the session token
   * (`sessionToken`, or `paygate.withSession(accessToken)`), its webhook endpoint, settings and keys.
   */
  readonly merchants = {
    /** POST /merchants/auth/signup: the merchant, a session (`accessToken`) and its keys, shown once. */
    signup: (body: BodyOf<"postMerchantsAuthSignup">, call?: CallOptions) =>
      this.operations.postMerchantsAuthSignup({ body }, call),
    /** POST /merchants/auth/login: a session token (`accessToken`) and when it expires. */
    login: (body: BodyOf<"postMerchantsAuthLogin">, call?: CallOptions) =>
      this.operations.postMerchantsAuthLogin({ body }, call),
    /** POST /merchants/auth/logout: the session token stops working. */
    logout: (call?: CallOptions) => this.operations.postMerchantsAuthLogout({}, call),
    /** The webhook endpoint of a mode: where events are posted, and its signing secret. */
    webhookEndpoint: {
      retrieve: (query: QueryOf<"getMerchantsWebhook">, call?: CallOptions) =>
        this.operations.getMerchantsWebhook({ query }, call),
      /** PUT /merchants/webhook: set the address (the `whsec_…` secret is answered once). */
      update: (body: BodyOf<"putMerchantsWebhook">, call?: CallOptions) =>
        this.operations.putMerchantsWebhook({ body }, call),
      rollSecret: (body: BodyOf<"postMerchantsWebhookRollSecret">, call?: CallOptions) =>
        this.operations.postMerchantsWebhookRollSecret({ body }, call),
    },
    settings: {
      retrieve: (call?: CallOptions) => this.operations.getMerchantsSettings({}, call),
      /** PUT /merchants/settings: channels, who bears the fees, brand colour, logo, embedding origins. */
      update: (body: BodyOf<"putMerchantsSettings">, call?: CallOptions) =>
        this.operations.putMerchantsSettings({ body }, call),
    },
    /** POST /merchants/keys/roll: a new secret key for a mode (shown once); the old one stops working. */
    rollKey: (body: BodyOf<"postMerchantsKeysRoll">, call?: CallOptions) =>
      this.operations.postMerchantsKeysRoll({ body }, call),
  };

  /** Refunds, with the secret key. */
  readonly refunds = {
    /** POST /refunds: all (no `amount`) or part of a paid payment. */
    create: (body: BodyOf<"postRefunds">, call?: CallOptions) => this.operations.postRefunds({ body }, call),
    /** GET /refunds: newest first; pass `cursor: page.nextCursor` for the next page. */
    list: (query: QueryOf<"getRefunds"> = {}, call?: CallOptions) =>
      this.operations.getRefunds({ query }, call),
    retrieve: (id: string, call?: CallOptions) => this.operations.getRefundsById({ path: { id } }, call),
  };

  /** Events and their delivery attempts, with the secret key; each payload typed by the event's type. */
  readonly events = {
    list: async (query: QueryOf<"getEvents"> = {}, call?: CallOptions) => {
      const page = await this.operations.getEvents({ query }, call);
      return page as Omit<typeof page, "events"> & { events: TypedEvent[] };
    },
    retrieve: async (id: string, call?: CallOptions) =>
      (await this.operations.getEventsById({ path: { id } }, call)) as TypedEvent,
  };

  /** Payment links, with the session token (`sessionToken`). */
  readonly paymentLinks = {
    create: (body: BodyOf<"postMerchantsPaymentLinks">, call?: CallOptions) =>
      this.operations.postMerchantsPaymentLinks({ body }, call),
    list: (query: QueryOf<"getMerchantsPaymentLinks"> = {}, call?: CallOptions) =>
      this.operations.getMerchantsPaymentLinks({ query }, call),
    retrieve: (slug: string, call?: CallOptions) =>
      this.operations.getMerchantsPaymentLinksBySlug({ path: { slug } }, call),
    update: (slug: string, body: BodyOf<"patchMerchantsPaymentLinksBySlug">, call?: CallOptions) =>
      this.operations.patchMerchantsPaymentLinksBySlug({ path: { slug }, body }, call),
  };

  /** Test mode only (`sk_test_…`): produce outcomes on purpose. */
  readonly sandbox = {
    /** Money arrives at a virtual account, as the bank rail would report it. */
    transfer: (body: BodyOf<"postSandboxTransfers">, call?: CallOptions) =>
      this.operations.postSandboxTransfers({ body }, call),
    /** The customer approves or declines a bank payment or USSD request. */
    authorize: (body: BodyOf<"postSandboxAuthorizations">, call?: CallOptions) =>
      this.operations.postSandboxAuthorizations({ body }, call),
    /**
     * One transaction's clock (`reference`) or one saved card's (`authorization`) moves forward; what falls
     * due runs at once (a card whose expiry passes is `expired`).
     */
    advanceClock: (body: BodyOf<"postSandboxClockAdvance">, call?: CallOptions) =>
      this.operations.postSandboxClockAdvance({ body }, call),
    /** Settle a pending refund now. */
    settleRefund: (id: string, body: BodyOf<"postSandboxRefundsById">, call?: CallOptions) =>
      this.operations.postSandboxRefundsById({ path: { id }, body }, call),
  };

  /** The hosted checkout's calls, with the payment's access code (what a custom checkout would do). */
  readonly checkout = {
    status: (accessCode: string, call?: CallOptions) =>
      this.operations.getPaymentCheckoutVerify({}, { ...call, accessCode }),
    chargeCard: (accessCode: string, body: BodyOf<"postPaymentCheckoutChargeCard">, call?: CallOptions) =>
      this.operations.postPaymentCheckoutChargeCard({ body }, { ...call, accessCode }),
    bankTransfer: (accessCode: string, call?: CallOptions) =>
      this.operations.postPaymentCheckoutChargeBankTransfer({ body: {} }, { ...call, accessCode }),
    /** The one-time password the bank asked for (a card's, or a saved card's charge that `requires_action`). */
    submitOtp: (accessCode: string, otp: string, call?: CallOptions) =>
      this.operations.postPaymentCheckoutChargeCardOtp({ body: { otp } }, { ...call, accessCode }),
  };

  /** Webhooks the service posts to the merchant. */
  readonly webhooks = {
    /**
     * A verifier of deliveries signed under one endpoint secret: make it once, when the server starts. An
     * unset, empty or short secret (under 16 bytes) throws WebhookSecretError here, naming the variable.
     */
    verifier: (secret: string | undefined, options?: VerifierOptions) => new WebhookVerifier(secret, options),
    /**
     * Check the Standard Webhooks signature and timestamp of a delivery and return its event, typed and
     * narrowed by `event`. `rawBody` is the body exactly as received. Throws WebhookVerificationError, or
     * WebhookSecretError when `secret` is unset, empty or under 16 bytes.
     */
    verify: (
      rawBody: string | Uint8Array,
      headers: WebhookHeaders,
      secret: string,
      options?: VerifyOptions,
    ) => verifyWebhook(rawBody, headers, secret, options),
  };
}

export default Paygate;
