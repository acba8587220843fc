import { isIP } from "node:net";
import { z } from "zod";

/**
 * Configuration, validated once. Every variable the service reads is declared here; nothing else in the
 * codebase touches `process.env` for settings.
 */
const PORT_RULE = "must be a whole number from 1 to 65535";
/** An IP address, or a CIDR range (`10.0.0.0/8`, `fd00::/8`) whose prefix fits its family. */
const addressOrRange = (entry: string) => {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
};
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z
  .object({
    // An empty PORT is no port given, as in server.mjs (which needs the port before this schema runs).
    PORT: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce
        .number({ message: PORT_RULE })
        .int(PORT_RULE)
        .min(1, PORT_RULE)
        .max(65535, PORT_RULE)
        .default(3000),
    ),
    HOSTNAME: z.string().min(1).default("0.0.0.0"),
    /** Unset or `file:<path>` → SQLite (default `file:data/paygate.db`); `postgres://…` → PostgreSQL. */
    DATABASE_URL: z
      .string()
      .default("file:data/paygate.db")
      .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), {
        message: "must start with file: (SQLite) or postgres:// (PostgreSQL)",
      }),
    /** Where customers reach checkout; `checkoutUrl` and `paymentLinkUrl` are built on it. */
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
    /** `staging` accepts test keys only, `production` live keys only (docs/api.md). */
    PAYMENTS_ENV: z.enum(["staging", "production"]).default("staging"),
    /** Pepper for keyed hashes of secret keys and session tokens. Required in production. */
    APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    ACCESS_CODE_TTL_SECONDS: positiveInt(24 * 60 * 60),
    /**
     * How long a checkout started on a link with a usage limit lives unless it is paid or a bank transfer
     * window is open (it expires then), so walk-aways cannot block a link for a day.
     */
    PAYMENT_LINK_HOLD_SECONDS: positiveInt(30 * 60),
    /**
     * How long such a checkout holds its place while no payment is under way (each charge renews it; a
     * transfer, bank-app, USSD or OTP step under way holds it until it ends), so anyone who only starts
     * checkouts cannot keep a link used up.
     */
    PAYMENT_LINK_PLACE_SECONDS: positiveInt(5 * 60),
    /** Unpaid places one client address may hold on one usage-limited link at once. */
    PAYMENT_LINK_PLACES_PER_ADDRESS: positiveInt(1),
    /**
     * How often a process sweeps: ends checkouts that expired unpaid (`abandoned`), reconciles card attempts
     * whose answer was lost, settles sandbox refunds due. 0 turns the sweep off here.
     */
    CHECKOUT_EXPIRY_SWEEP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /** Invoices a process charges at once (lib/subscriptions/renewal-job.ts). */
    SUBSCRIPTION_RENEWAL_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    SESSION_TTL_SECONDS: positiveInt(12 * 60 * 60),
    IDEMPOTENCY_TTL_SECONDS: positiveInt(24 * 60 * 60),
    /** An in-flight idempotency key older than this is taken as abandoned (its request died). */
    IDEMPOTENCY_LOCK_SECONDS: positiveInt(120),
    RATE_LIMIT_LOGIN_BURST: positiveInt(10),
    RATE_LIMIT_LOGIN_PER_MINUTE: positiveInt(5),
    /**
     * Consecutive failed sign-ins on one account, from any addresses, before it is locked for
     * RATE_LIMIT_LOGIN_LOCK_SECONDS; and on one account from one address. A right password starts both over.
     */
    RATE_LIMIT_LOGIN_ACCOUNT_FAILURES: positiveInt(20),
    RATE_LIMIT_LOGIN_ACCOUNT_ADDRESS_FAILURES: positiveInt(5),
    RATE_LIMIT_LOGIN_LOCK_SECONDS: positiveInt(15 * 60),
    /**
     * Consecutive failed sign-ins from one known browser (its device cookie, lib/security/known-device.ts)
     * before that cookie is locked out for RATE_LIMIT_LOGIN_LOCK_SECONDS and the browser counts as unknown.
     */
    RATE_LIMIT_LOGIN_DEVICE_FAILURES: positiveInt(5),
    RATE_LIMIT_ACCESS_CODE_BURST: positiveInt(30),
    RATE_LIMIT_ACCESS_CODE_PER_MINUTE: positiveInt(30),
    RATE_LIMIT_KEY_BURST: positiveInt(500),
    RATE_LIMIT_KEY_PER_SECOND: positiveInt(200),
    /** Signups per client address: each one costs a scrypt and creates an account. */
    RATE_LIMIT_SIGNUP_BURST: positiveInt(20),
    RATE_LIMIT_SIGNUP_PER_HOUR: positiveInt(20),
    /** Redeliveries a merchant may ask for (each sends a webhook now). */
    RATE_LIMIT_REDELIVER_BURST: positiveInt(20),
    RATE_LIMIT_REDELIVER_PER_MINUTE: positiveInt(20),
    /**
     * Where rate-limit budgets are shared when set (`redis://…`); otherwise in the database
     * (lib/security/rate-limit-store.ts).
     */
    REDIS_URL: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .refine((v) => /^rediss?:\/\//.test(v), { message: "must start with redis:// or rediss://" })
        .optional(),
    ),
    /**
     * Worker processes `npm start` runs on this machine, sharing its port (server.mjs reads it before this
     * schema runs; it is declared here so the whole configuration is in one place). Default: one per core.
     */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /** On SIGTERM, how long a process may take to finish its requests and deliveries before it exits. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
    /** server.mjs (read there first): how long a client may take to send a request's headers, and all of it. */
    HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
    REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    /** server.mjs: connections one instance holds open at once (shared out between its workers). */
    MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2048),
    /** server.mjs: every so many seconds each process logs its memory ("memory" lines); 0 never. */
    MEMORY_LOG_SECONDS: z.coerce.number().int().min(0).max(86_400).default(0),
    /** Length of a virtual account's payment window (docs/states.md). */
    BANK_TRANSFER_WINDOW_SECONDS: positiveInt(30 * 60),
    /** Simulated card-network latency of the sandbox card rail (tests use it to race a card against a transfer). */
    SANDBOX_CARD_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    /** How long after it is asked the sandbox rail processes a refund (docs/refunds.md). */
    SANDBOX_REFUND_DELAY_MS: z.coerce.number().int().min(0).max(86_400_000).default(2000),
    /**
     * A card attempt still at the network (`authorizing`) this long after it started is asked about again
     * and completed or refunded (card reconciliation, docs/refunds.md).
     */
    CARD_RECONCILE_SECONDS: positiveInt(120),
    /** Webhook retry delays in seconds, comma-separated (docs/api.md; tests shorten it). */
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .regex(/^\d+(,\d+)*$/, "must be comma-separated whole seconds, e.g. 5,300,1800")
      .default("5,300,1800,7200,18000,36000,50400,72000,86400")
      .transform((v) => v.split(",").map(Number)),
    WEBHOOK_TIMEOUT_MS: positiveInt(15_000),
    /** Deliver to private, loopback and link-local addresses. Default: allowed on staging, refused on production. */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(["0", "1", "true", "false"]).optional(),
    /** Run the webhook relay inside the server process (`npm run worker` runs it on its own). */
    WEBHOOK_RELAY: z
      .enum(["0", "1", "true", "false"])
      .default("1")
      .transform((v) => v === "1" || v === "true"),
    /** Trust the first `X-Forwarded-For` hop as the client address (only behind a proxy that sets it). */
    TRUST_PROXY: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((v) => v === "1" || v === "true"),
    /**
     * Test servers (tests/setup/servers.ts): a failure whose code the endpoint's definition does not declare
     * (lib/<area>/endpoints.ts, the document's list) answers 500 `internal_error` and is logged, so a suite
     * meeting one fails. Off elsewhere: the client gets the code.
     */
    CHECK_DECLARED_ERRORS: z
      .enum(["0", "1", "true", "false"])
      .default("0")
      .transform((v) => v === "1" || v === "true"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /**
     * Where receipt emails go out (`smtp://user:pass@host:587`, `smtps://…:465`; nodemailer's URL form). Unset:
     * staging writes each receipt to RECEIPTS_DIR instead (and logs the file), production sends none, and no
     * page says a receipt is sent.
     */
    SMTP_URL: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .refine((v) => /^smtps?:\/\//.test(v), { message: "must start with smtp:// or smtps://" })
        .optional(),
    ),
    /** The From of receipt emails. Default: `Paygate receipts <receipts@…>` on PUBLIC_BASE_URL's host. */
    RECEIPT_FROM: z.string().min(3).optional(),
    /** Staging without SMTP_URL: the folder receipts are written to as .eml files. */
    RECEIPTS_DIR: z.string().min(1).default("data/receipts"),
    /**
     * Where the Paystack connector sends its calls (lib/rails/paystack/): Paystack's API, or an operator's
     * proxy in front of it, or the test double (lib/rails/paystack/double/).
     */
    PAYSTACK_BASE_URL: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .default("https://api.paystack.co")
      .transform((v) => v.replace(/\/+$/, "")),
    /**
     * The deployment's own Paystack keys (docs/go-live.md): live payments of merchants without a connection
     * of their own go through PAYSTACK_SECRET_KEY_LIVE; with PAYSTACK_SECRET_KEY_TEST set, test payments go
     * through Paystack's test mode instead of the sandbox. Unset: live needs each merchant's own connection.
     */
    PAYSTACK_SECRET_KEY_TEST: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .regex(/^sk_test_[0-9A-Za-z]{16,128}$/, "must be a Paystack test secret key (sk_test_...)")
        .optional(),
    ),
    PAYSTACK_SECRET_KEY_LIVE: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .regex(/^sk_live_[0-9A-Za-z]{16,128}$/, "must be a Paystack live secret key (sk_live_...)")
        .optional(),
    ),
    /** How long a call to Paystack may take before its answer counts as lost (a card is then reconciled). */
    PAYSTACK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
    /**
     * Where Paystack's webhooks may come from: unset accepts any address (the signature decides); `paystack`
     * means Paystack's published addresses (lib/rails/paystack/webhook-addresses.ts); otherwise a
     * comma-separated list of IP addresses. Read with the client address rules of TRUST_PROXY.
     */
    PAYSTACK_WEBHOOK_ALLOWED_IPS: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .regex(
          /^(paystack|[0-9a-fA-F:.]+(,[0-9a-fA-F:.]+)*)$/,
          'must be "paystack" or comma-separated IP addresses',
        )
        .optional(),
    ),
    /**
     * A Paystack event older than this is refused as stale (Paystack retries a delivery for up to 72 hours);
     * events acted on are remembered at least this long, so a replay is never acted on twice.
     */
    PAYSTACK_WEBHOOK_MAX_AGE_SECONDS: positiveInt(4 * 24 * 3600),
    /**
     * The bearer token that opens GET /v1/metrics (Prometheus' `authorization: {credentials: …}`), at least 32
     * characters. Unset: only METRICS_ALLOWED_ADDRESSES may scrape.
     */
    METRICS_TOKEN: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.string().min(32, "must be at least 32 characters").optional(),
    ),
    /**
     * Addresses that may scrape GET /v1/metrics without the token: comma-separated IP addresses or CIDR ranges
     * (`10.0.0.0/8,127.0.0.1`), read with the client address rules of TRUST_PROXY. Unset: none.
     */
    METRICS_ALLOWED_ADDRESSES: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z
        .string()
        .refine((v) => v.split(",").every((entry) => addressOrRange(entry.trim())), {
          message: "must be comma-separated IP addresses or CIDR ranges (10.0.0.0/8)",
        })
        .optional(),
    ),
    /**
     * `npm run worker` only: the port its GET /v1/metrics listens on (same access rules), so the background jobs
     * it runs can be scraped. Unset: it serves nothing.
     */
    WORKER_METRICS_PORT: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce
        .number({ message: PORT_RULE })
        .int(PORT_RULE)
        .min(1, PORT_RULE)
        .max(65535, PORT_RULE)
        .optional(),
    ),
    /** Create the demo merchant on an empty database (`npm start`). */
    SEED_DEMO: z
      .enum(["0", "1", "true", "false"])
      .default("1")
      .transform((v) => v === "1" || v === "true"),
    /**
     * Where the demo merchant's credentials are written for the developer (staging only). Default: beside the
     * SQLite file (`data/paygate.demo-merchant.json` for `data/paygate.db`), or for PostgreSQL
     * `data/demo-merchant.<host>-<port>-<database>.json`: one file per database, so servers on two databases
     * never overwrite each other's.
     */
    DEMO_MERCHANT_FILE: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(1).optional()),
  })
  .superRefine((env, ctx) => {
    if (env.PAYMENTS_ENV === "production" && !env.APP_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["APP_SECRET"],
        message: "is required when PAYMENTS_ENV=production",
      });
    }
  });

export type Env = z.infer<typeof EnvSchema> & { PUBLIC_BASE_URL: string; DEMO_MERCHANT_FILE: string };

/** The demo merchant's credentials file of a database, when DEMO_MERCHANT_FILE does not name one. */
export function demoMerchantFileFor(databaseUrl: string): string {
  if (databaseUrl.startsWith("file:")) {
    const file = databaseUrl.slice("file:".length);
    return `${file.replace(/\.(db|sqlite3?)$/, "")}.demo-merchant.json`;
  }
  const url = new URL(databaseUrl);
  const name = [url.hostname, url.port || "5432", url.pathname.replace(/^\//, "") || "postgres"]
    .join("-")
    .replace(/[^A-Za-z0-9._-]/g, "_");
  return `data/demo-merchant.${name}.json`;
}

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  return {
    ...env,
    PUBLIC_BASE_URL: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    DEMO_MERCHANT_FILE: env.DEMO_MERCHANT_FILE ?? demoMerchantFileFor(env.DATABASE_URL),
  };
}

let cached: Env | undefined;

/** The validated configuration of this process, read once. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The mode this deployment serves: staging is test mode, production is live mode. */
export function deploymentMode(): "test" | "live" {
  return env().PAYMENTS_ENV === "production" ? "live" : "test";
}
