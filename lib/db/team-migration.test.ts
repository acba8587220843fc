import { type Kysely, sql } from "kysely";
import { Migrator } from "kysely/migration";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessEnv, inProcessTargets } from "@/tests/helpers/in-process";

/**
 * Migration 0035 on a database with merchants from before teams, on SQLite and on PostgreSQL when
 * TEST_DATABASE_URL is set: each merchant's one login becomes a user and that user's owner membership; its
 * session still works, now as the owner, its secret key still works, its password still signs in, and its
 * browser's device cookie is still known.
 */
const env = inProcessEnv("team-migration");
const { openDatabase } = await import("@/lib/db/client");
const { migrateToLatest } = await import("@/lib/db/migrate");
const { migrations } = await import("@/lib/db/migrations");
const { pepper } = await import("@/lib/security/pepper");
const { keyedHash } = await import("@/lib/security/tokens");
const { hashPassword } = await import("@/lib/security/password");
const { authenticateSession } = await import("@/lib/merchants/authenticate-session");
const { authenticateSecretKey } = await import("@/lib/merchants/authenticate-secret-key");
const { loginMerchant } = await import("@/lib/merchants/login-merchant");
const { issueDeviceCookie, knownDevice, userAccount } = await import("@/lib/security/known-device");
const { targets, dropAll } = inProcessTargets("team_migration");

const globalDb = globalThis as unknown as { __paygateDb?: ReturnType<typeof openDatabase> };

afterAll(async () => {
  await dropAll();
  env.restore();
});

describe.each(targets)("migration 0035 (teams) on $name", (target) => {
  it("makes each merchant's login its owner; sessions, keys, passwords and device cookies keep working", async () => {
    await globalDb.__paygateDb?.db.destroy();
    globalDb.__paygateDb = openDatabase(await target.url());
    const handle = globalDb.__paygateDb;
    const db = handle.db as unknown as Kysely<unknown>;
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0035"));
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => before },
      migrationTableName: "schema_migrations",
      migrationLockTableName: "schema_migrations_lock",
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const peppered = await pepper();
    const t = Date.now();
    const hash = await hashPassword("correct horse battery staple");
    await sql`insert into merchants (id, business_name, email, password_hash, channels, merchant_bears_cost, created_at, updated_at)
      values ('m1', 'Shop', 'shop@example.com', ${hash}, '["card"]', 0, ${t}, ${t}),
             ('m2', 'Other', 'other@example.com', ${hash}, '["card"]', 0, ${t}, ${t})`.execute(db);
    const token = `mst_${"A".repeat(43)}`;
    const key = `sk_test_${"B".repeat(43)}`;
    await sql`insert into merchant_sessions (id, merchant_id, token_hash, created_at, expires_at, revoked_at)
      values ('s1', 'm1', ${keyedHash(peppered, token)}, ${t}, ${t + 3_600_000}, null)`.execute(db);
    await sql`insert into api_keys (id, merchant_id, mode, key_hash, key_last4, created_at, revoked_at)
      values ('k1', 'm1', 'test', ${keyedHash(peppered, key)}, 'BBBB', ${t}, null)`.execute(db);
    // A browser that signed in to m1 before: its cookie was bound to the merchant's id.
    const cookie = await issueDeviceCookie("merchant:m1");

    await migrateToLatest(handle.db);

    const users = (
      await sql<{ id: string; email: string; password_hash: string; email_confirmed_at: unknown }>`
        select id, email, password_hash, email_confirmed_at from users order by id`.execute(db)
    ).rows;
    expect(users.map((u) => [u.id, u.email, u.password_hash === hash, Number(u.email_confirmed_at)])).toEqual(
      [
        ["m1", "shop@example.com", true, t],
        ["m2", "other@example.com", true, t],
      ],
    );
    const members = (
      await sql<{ merchant_id: string; user_id: string; role: string }>`
        select merchant_id, user_id, role from memberships order by merchant_id`.execute(db)
    ).rows;
    expect(members).toEqual([
      { merchant_id: "m1", user_id: "m1", role: "owner" },
      { merchant_id: "m2", user_id: "m2", role: "owner" },
    ]);
    const emptied = (await sql<{ password_hash: string }>`select password_hash from merchants`.execute(db))
      .rows;
    expect(emptied.map((m) => m.password_hash)).toEqual(["", ""]);

    const session = await authenticateSession({ token });
    expect(session).toMatchObject({
      merchantId: "m1",
      userId: "m1",
      role: "owner",
      email: "shop@example.com",
    });
    expect((await authenticateSecretKey({ key })).merchantId).toBe("m1");
    expect(await knownDevice(cookie.value, userAccount("m1"))).not.toBeNull();
    const login = await loginMerchant({
      email: "shop@example.com",
      password: "correct horse battery staple",
      clientAddress: "203.0.113.9",
    });
    expect(login).toMatchObject({ merchant: { id: "m1", businessName: "Shop" }, role: "owner" });
  });
});
