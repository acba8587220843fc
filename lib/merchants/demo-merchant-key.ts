import type { Kysely } from "kysely";
import { db } from "@/lib/db/client";
import type { Database } from "@/lib/db/schema";
import { pepper } from "@/lib/security/pepper";
import { seal, unseal } from "@/lib/security/seal";

/**
 * The demo merchant's test secret key, kept in the database it belongs to (`app_meta`), sealed with the
 * pepper (AES-256-GCM; a copy of the database alone does not reveal it). The demo store (/demo) pays with it,
 * so the key travels with its database: a second server on another database (`npm run qa:examples` beside
 * `npm start`) cannot replace it, and a roll of the demo merchant's test key in the console updates it in the
 * same database transaction (lib/merchants/roll-secret-key.ts), so /demo keeps working.
 */
const META_KEY = "demo_merchant";
const PURPOSE = "demo-merchant-key";

type Stored = { merchantId: string; testSecretKey: string };

async function read(executor: Kysely<Database>): Promise<Stored | null> {
  const row = await executor
    .selectFrom("app_meta")
    .select("value")
    .where("key", "=", META_KEY)
    .executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(unseal(await pepper(), row.value, { purpose: PURPOSE, context: META_KEY })) as Stored;
  } catch {
    // Sealed under another pepper (APP_SECRET changed): as if there were none.
    return null;
  }
}

/** The demo merchant's current test key, or null on a database without one. */
export async function demoMerchantKey(): Promise<string | null> {
  return (await read(db()))?.testSecretKey ?? null;
}

/**
 * Keep `testSecretKey` as the demo merchant's: when it is made (`isDemo`), or, on a roll of some merchant's
 * test key, only if that merchant is the demo merchant. Inside the caller's database transaction.
 */
export async function recordDemoMerchantKey(
  executor: Kysely<Database>,
  input: { merchantId: string; testSecretKey: string; isDemo?: boolean },
): Promise<void> {
  if (!input.isDemo) {
    const current = await read(executor);
    if (current?.merchantId !== input.merchantId) return;
  }
  const value = seal(
    await pepper(),
    JSON.stringify({ merchantId: input.merchantId, testSecretKey: input.testSecretKey } satisfies Stored),
    { purpose: PURPOSE, context: META_KEY },
  );
  await executor
    .insertInto("app_meta")
    .values({ key: META_KEY, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}
