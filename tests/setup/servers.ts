import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { type ServerProcess, startServer } from "../../scripts/lib/server-process";
import { whyRebuild } from "../../scripts/prepare.mjs";

/**
 * Starts the built app (`node server.mjs`) once per target, each on a database made fresh for this run:
 *  - sqlite:     staging on a new SQLite file in a temp folder,
 *  - postgres:   staging on a new PostgreSQL database created on TEST_DATABASE_URL's server (when set),
 *  - production: production (live keys only) on its own SQLite file.
 * Tests reach them through `inject("targets")` / `inject("production")`.
 */
/** A server under test; `mailDir` is where it writes the emails it sends (staging without SMTP_URL). */
export type Target = {
  name: "sqlite" | "postgres";
  url: string;
  databaseUrl: string;
  logFile: string;
  mailDir?: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    targets: Target[];
    production: Target;
  }
}

const APP_SECRET = "test-app-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const children: ServerProcess[] = [];
let tempDir: string | undefined;
let pgDatabase: { adminUrl: string; name: string } | undefined;

async function startTarget(
  name: string,
  databaseUrl: string,
  extraEnv: Record<string, string>,
): Promise<{ url: string; logFile: string; mailDir: string }> {
  // Every line the server logs goes to a file the security tests read (no secret may appear in it).
  const logFile = join(tempDir as string, `${name}.log`);
  const mailDir = join(tempDir as string, `${name}-receipts`);
  const log = createWriteStream(logFile);
  const server = await startServer({
    name,
    env: {
      DATABASE_URL: databaseUrl,
      APP_SECRET,
      TRUST_PROXY: "1",
      SEED_DEMO: "0",
      // Suites expire access codes by hand and then check what is left; a sweep in between would end those
      // transactions under them. tests/checkout-expiry.test.ts runs the sweep itself, on both databases.
      CHECKOUT_EXPIRY_SWEEP_SECONDS: "0",
      // A failure whose code its endpoint's definition does not declare answers 500 (lib/http/with-api.ts).
      CHECK_DECLARED_ERRORS: "1",
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "info",
      // Staging without SMTP_URL writes receipts as files: into this run's temp folder, not the checkout's data/.
      RECEIPTS_DIR: mailDir,
      ...extraEnv,
    },
    keepOutput: 20_000,
    onOutput: (text) => {
      log.write(text);
      if (process.env.TEST_SERVER_LOGS) process.stderr.write(`[${name}] ${text}`);
    },
  });
  children.push(server);
  return { url: server.url, logFile, mailDir };
}

async function createPgDatabase(adminUrl: string): Promise<string> {
  const name = `paygate_test_${Date.now()}_${process.pid}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    // Databases left by runs that died over an hour ago (a killed CI run cannot drop its own).
    const stale = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'paygate_test_%'",
    );
    for (const { datname } of stale.rows) {
      const started = Number(/^paygate_test_(\d+)_/.exec(datname)?.[1] ?? 0);
      if (started && started < Date.now() - 3_600_000)
        await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    }
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  pgDatabase = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function setup(project: TestProject) {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  // The suites test the last build; npm test rebuilds first, a single suite run says when that build is old.
  const stale = whyRebuild({ distDir });
  if (stale.startsWith("no "))
    throw new Error(`Build the app first (npm test does): npm run build (${stale})`);
  if (stale) console.warn(`Testing an old build (${stale}): npm run build to test the current sources.`);
  tempDir = mkdtempSync(join(tmpdir(), "paygate-test-"));
  const sqliteUrl = `file:${join(tempDir, "staging.db")}`;
  const productionUrl = `file:${join(tempDir, "production.db")}`;
  const pgUrl = process.env.TEST_DATABASE_URL
    ? await createPgDatabase(process.env.TEST_DATABASE_URL)
    : undefined;

  // A card network that takes a moment, so a test can race a transfer against a card charge in flight.
  // Refunds settle only when a test settles them (POST /v1/sandbox/refunds/{id}), so what suites read of them
  // stays as they left it; tests/card-reconcile.test.ts checks the rail's own timing on a server of its own.
  const staging = { SANDBOX_CARD_DELAY_MS: "150", SANDBOX_REFUND_DELAY_MS: "3600000" };
  // The SQLite target runs as `npm start` does, two worker processes sharing the port, so every suite also
  // checks that nothing it relies on lives in one process's memory; the others run one process each.
  const [sqlite, production, postgres] = await Promise.all([
    startTarget("sqlite", sqliteUrl, { ...staging, WEB_CONCURRENCY: "2" }),
    startTarget("production", productionUrl, { PAYMENTS_ENV: "production", WEB_CONCURRENCY: "1" }),
    pgUrl ? startTarget("postgres", pgUrl, { ...staging, WEB_CONCURRENCY: "1" }) : Promise.resolve(undefined),
  ]);
  const targets: Target[] = [{ name: "sqlite", databaseUrl: sqliteUrl, ...sqlite }];
  if (postgres && pgUrl) targets.push({ name: "postgres", databaseUrl: pgUrl, ...postgres });
  project.provide("targets", targets);
  project.provide("production", { name: "sqlite", databaseUrl: productionUrl, ...production });
}

export async function teardown() {
  await Promise.all(children.map((server) => server.stop()));
  if (pgDatabase) {
    const client = new pg.Client({ connectionString: pgDatabase.adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pgDatabase.name} WITH (FORCE)`);
    await client.end();
  }
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}
