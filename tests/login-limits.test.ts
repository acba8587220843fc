import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, client, randomAddress, signup, targets, uniqueEmail } from "./helpers/api";
import { type AppProc, cleanupHarness, dbKinds, freshDatabase, startApp } from "./helpers/webhook-harness";

/**
 * Failed sign-ins are limited per account as well as per client address (docs/decisions/006-rate-limits.md):
 * consecutive failures on one account from any addresses (20 by default), and on one account from one
 * address (5), lock that account (or that account from that address) for a while, on every process and
 * instance. Unknown emails count and answer exactly like known ones, so the limit tells nobody which emails
 * have accounts; a right password resets the account's consecutive count.
 *
 * Each attempt below comes from an address of its own unless it says otherwise, so the per-address budget
 * (10 failures) never decides: what is refused, the account limits refuse. The last cases run two server
 * processes on one database (SQLite file, and PostgreSQL when TEST_DATABASE_URL is set), the guesses
 * alternating between them: the counts are the account's, not a process's.
 */
const ACCOUNT_FAILURES = 20;
const ACCOUNT_ADDRESS_FAILURES = 5;
const WRONG = "not the password at all";

/** Status, error and message of each answer: what a guesser learns. */
const seen = (res: ApiResponse) => [res.status, res.body?.error ?? null, res.body?.message ?? null];

const wrongPassword = [401, "invalid_credentials", "The email or password is incorrect."];

describe.each(targets)("sign-in limits per account on $name", (target) => {
  const api = client(target.url);

  const login = (email: string, password: string, address = randomAddress()) =>
    api.post("/v1/merchants/auth/login", { email, password }, { "x-forwarded-for": address });

  it("guesses from many addresses lock the account after 20, and an unknown email answers the same", async () => {
    const m = await signup(api);
    const unknown = uniqueEmail("nobody");
    const known: unknown[] = [];
    const stranger: unknown[] = [];
    // Ten addresses, three guesses each, spread over both accounts in turn.
    for (let i = 0; i < 30; i++) {
      known.push(seen(await login(m.email, `${WRONG} ${i}`)));
      stranger.push(seen(await login(unknown, `${WRONG} ${i}`)));
    }
    expect(known.slice(0, ACCOUNT_FAILURES)).toEqual(Array(ACCOUNT_FAILURES).fill(wrongPassword));
    const locked = known[ACCOUNT_FAILURES] as [number, string, string];
    expect(locked.slice(0, 2)).toEqual([429, "rate_limited"]);
    expect(known.slice(ACCOUNT_FAILURES)).toEqual(Array(30 - ACCOUNT_FAILURES).fill(locked));
    // Exactly the same answers for an email that has no account.
    expect(stranger).toEqual(known);

    // Locked means locked: the right password from yet another address is refused too, with Retry-After.
    const right = await login(m.email, m.password);
    expect(seen(right)).toEqual(locked);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(60);
    // Other accounts are not affected.
    const other = await signup(api);
    expect((await login(other.email, other.password)).status).toBe(200);
  });

  it("a right password resets the account's count of consecutive failures", async () => {
    const m = await signup(api);
    for (let i = 0; i < ACCOUNT_FAILURES - 1; i++) expect((await login(m.email, WRONG)).status).toBe(401);
    expect((await login(m.email, m.password)).status).toBe(200);
    // A fresh count: twenty more failures are each told the password is wrong, the next is refused.
    for (let i = 0; i < ACCOUNT_FAILURES; i++) expect((await login(m.email, WRONG)).status).toBe(401);
    const refused = await login(m.email, m.password);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe("rate_limited");
  });

  it("five failures on one account from one address lock that address out of it, not the owner elsewhere", async () => {
    const m = await signup(api);
    const other = await signup(api);
    const guesser = randomAddress();
    for (let i = 0; i < ACCOUNT_ADDRESS_FAILURES; i++)
      expect((await login(m.email, `${WRONG} ${i}`, guesser)).status).toBe(401);
    const refused = await login(m.email, m.password, guesser);
    expect(seen(refused).slice(0, 2)).toEqual([429, "rate_limited"]);
    // The owner, from their own address, signs in (and that resets the account's count, not the lock).
    expect((await login(m.email, m.password)).status).toBe(200);
    expect((await login(m.email, m.password, guesser)).status).toBe(429);
    // The guessing address may still sign in to another account.
    expect((await login(other.email, other.password, guesser)).status).toBe(200);
    // Unknown emails lock the same way from one address.
    const nobody = uniqueEmail("nobody");
    const address = randomAddress();
    for (let i = 0; i < ACCOUNT_ADDRESS_FAILURES; i++)
      expect((await login(nobody, WRONG, address)).status).toBe(401);
    expect(seen(await login(nobody, WRONG, address))).toEqual(seen(refused));
  });

  it("parallel guesses from many addresses get no more than 20 tries at the password", async () => {
    const m = await signup(api);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login(m.email, `${WRONG} ${i}`)));
    const statuses = answers.map((r) => r.status);
    // Every attempt was either judged (401) or refused unjudged (429), and no more than 20 were judged.
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(ACCOUNT_FAILURES);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - ACCOUNT_FAILURES);
  });
});

describe.each(dbKinds)("sign-in limits per account across two instances on one %s database", (kind) => {
  let instances: AppProc[] = [];
  beforeAll(async () => {
    const database = await freshDatabase(kind);
    // Both start at once on the empty database, as a deployment starts them.
    instances = await Promise.all(
      ["a", "b"].map((name) =>
        startApp({
          name: `login-limits-${kind}-${name}`,
          databaseUrl: database.url,
          env: { LOG_LEVEL: "warn" },
        }),
      ),
    );
  }, 180_000);
  afterAll(() => cleanupHarness(), 60_000);

  /** The i-th attempt goes to instance a when i is even, to b when odd. */
  const login = (i: number, email: string, password: string, address = randomAddress()) =>
    client((instances[i % 2] as AppProc).url).post(
      "/v1/merchants/auth/login",
      { email, password },
      { "x-forwarded-for": address },
    );

  it("guesses alternating between the instances from many addresses lock the account after 20 in all", async () => {
    const m = await signup(client((instances[0] as AppProc).url));
    const unknown = uniqueEmail("nobody");
    const known: unknown[] = [];
    const stranger: unknown[] = [];
    for (let i = 0; i < 30; i++) {
      known.push(seen(await login(i, m.email, `${WRONG} ${i}`)));
      stranger.push(seen(await login(i, unknown, `${WRONG} ${i}`)));
    }
    // Ten failures on each instance would each be under a per-process limit of 20: the lock comes at 20 in all.
    expect(known.slice(0, ACCOUNT_FAILURES)).toEqual(Array(ACCOUNT_FAILURES).fill(wrongPassword));
    const locked = known[ACCOUNT_FAILURES] as [number, string, string];
    expect(locked.slice(0, 2)).toEqual([429, "rate_limited"]);
    expect(known.slice(ACCOUNT_FAILURES)).toEqual(Array(30 - ACCOUNT_FAILURES).fill(locked));
    expect(stranger).toEqual(known);
    // Locked on both instances, even for the right password.
    for (const i of [0, 1]) expect(seen(await login(i, m.email, m.password))).toEqual(locked);
  });

  it("five failures from one address, alternating between the instances, lock that address out of the account", async () => {
    const m = await signup(client((instances[0] as AppProc).url));
    const guesser = randomAddress();
    for (let i = 0; i < ACCOUNT_ADDRESS_FAILURES; i++)
      expect(seen(await login(i, m.email, `${WRONG} ${i}`, guesser))).toEqual(wrongPassword);
    for (const i of [0, 1])
      expect(seen(await login(i, m.email, m.password, guesser)).slice(0, 2)).toEqual([429, "rate_limited"]);
    // The owner, from their own address, signs in on either instance.
    for (const i of [0, 1]) expect((await login(i, m.email, m.password)).status).toBe(200);
  });
});
