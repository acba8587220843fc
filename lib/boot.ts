import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { isAppError } from "@/lib/core/errors";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { startJobs } from "@/lib/jobs/runner";
import { log } from "@/lib/log";
import { demoMerchantFile } from "@/lib/merchants/demo-merchant-file";
import { recordDemoMerchantKey } from "@/lib/merchants/demo-merchant-key";
import { signupMerchant } from "@/lib/merchants/signup-merchant";
import { backgroundJobs } from "@/lib/ops/background-jobs";
import { registerLifecycle } from "@/lib/ops/lifecycle";
import { registerProcessMetrics } from "@/lib/ops/register-process-metrics";
import { pepper } from "@/lib/security/pepper";
import { connectRateLimitStore } from "@/lib/security/rate-limit-store";

/**
 * Start-up of a server process: validate configuration, migrate, and on an empty staging database create the
 * demo merchant. Runs once per process from instrumentation.ts.
 */
export async function boot(): Promise<void> {
  const config = env();
  registerProcessMetrics();
  const { db, dialect } = database();
  const applied = await migrateToLatest(db);
  log.info("database ready", { dialect, migrationsApplied: applied });
  await pepper();
  await connectRateLimitStore();
  if (config.SEED_DEMO && config.PAYMENTS_ENV === "staging") await seedDemoMerchant();
  startJobs(backgroundJobs({ relays: config.WEBHOOK_RELAY }));
  registerLifecycle();
}

/** The demo merchant's credentials file (`DEMO_MERCHANT_FILE`, default beside the database, lib/env.ts). */

async function seedDemoMerchant() {
  const { db } = database();
  const existing = await db.selectFrom("merchants").select("id").limit(1).executeTakeFirst();
  if (existing) return;
  const password = randomBytes(12).toString("base64url");
  let demo: Awaited<ReturnType<typeof signupMerchant>>;
  try {
    demo = await signupMerchant({
      businessName: "Demo Store",
      email: "demo@paygate.test",
      password,
      clientAddress: null,
    });
  } catch (err) {
    // Another process starting on the same database made it first; it printed and kept the credentials.
    if (isAppError(err) && err.code === "email_taken") return;
    throw err;
  }
  const secretKey = demo.keys.test.secretKey;
  // The demo store pays with this key: kept, sealed, in the database it belongs to (and moved there by a
  // roll), so it can never be another database's key.
  await recordDemoMerchantKey(db, { merchantId: demo.merchant.id, testSecretKey: secretKey, isDemo: true });
  // Test-mode convenience for this machine only (data/ is git-ignored): a newcomer needs the console
  // password and the key again after this banner scrolls away. One file per database (DEMO_MERCHANT_FILE's
  // default sits beside it). Never written on production.
  const file = demoMerchantFile();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    `${JSON.stringify({ email: demo.merchant.email, password, testSecretKey: secretKey }, null, 2)}\n`,
    { mode: 0o600 },
  );
  const base = env().PUBLIC_BASE_URL;
  process.stdout.write(
    `${[
      "",
      `  Demo merchant created (test mode). Its credentials are shown once here and kept in ${env().DEMO_MERCHANT_FILE}.`,
      `    email:       ${demo.merchant.email}`,
      `    password:    ${password}`,
      `    secret key:  ${secretKey}`,
      "",
      "  Create a payment:",
      `    curl -s -X POST ${base}/v1/payment/initialize \\`,
      `      -H "x-api-key: ${secretKey}" -H "content-type: application/json" \\`,
      `      -d '{"amount":"5000.00","email":"customer@example.com"}'`,
      "",
      `  Or pay as a customer would, from the demo store: ${base}/demo`,
      `  Merchant console: ${base}/dashboard/login (sign in with the email and password above)`,
      "",
    ].join("\n")}\n`,
  );
}

/** `boot`, or a plain message and exit code 1: a misconfigured service must not half-start. */
export async function bootOrExit(): Promise<void> {
  try {
    await boot();
  } catch (err) {
    process.stderr.write(
      `\nThe service cannot start.\n${err instanceof Error ? err.message : String(err)}\n\n`,
    );
    process.exit(1);
  }
}
