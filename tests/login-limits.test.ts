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
 * (10 failures) never decides: what is refused, the account limits refuse. A browser that signed in to the
 * account before (its device cookie, lib/security/known-device.ts) is not refused by them: its right password
 * signs in while the account is locked, and its own five wrong ones make it a stranger's. The last cases run two server
 * processes on one database (SQLite file, and PostgreSQL when TEST_DATABASE_URL is set), the guesses
 * alternating between them: the counts are the account's, not a process's.
 */
const ACCOUNT_FAILURES = 20;
const ACCOUNT_ADDRESS_FAILURES = 5;
/** Wrong passwords with one device cookie before it is a stranger's (RATE_LIMIT_LOGIN_DEVICE_FAILURES). */
const DEVICE_FAILURES = 5;
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

/** The device cookie a sign-in answered, as a client that keeps cookies sends it back. */
function deviceCookie(res: ApiResponse): string {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("paygate_device="));
  if (!set) throw new Error(`no device cookie in ${res.status} ${res.text}`);
  return set.split(";")[0] as string;
}

/** 120 wrong passwords for `email` from 10 addresses, 12 each, the addresses side by side: the account locks. */
async function guessFromTenAddresses(login: (password: string, address: string) => Promise<ApiResponse>) {
  const statuses = await Promise.all(
    Array.from({ length: 10 }, async (_, a) => {
      const address = randomAddress();
      const seen: number[] = [];
      for (let i = 0; i < 12; i++) seen.push((await login(`${WRONG} ${a}.${i}`, address)).status);
      return seen;
    }),
  );
  const all = statuses.flat();
  expect(all.every((s) => s === 401 || s === 429)).toBe(true);
  expect(all.filter((s) => s === 401).length).toBeLessThanOrEqual(ACCOUNT_FAILURES);
}

describe.each(targets)(
  "a browser that signed in before, while guesses lock the account, on $name",
  (target) => {
    const api = client(target.url);
    const login = (email: string, password: string, address = randomAddress(), cookie?: string) =>
      api.post(
        "/v1/merchants/auth/login",
        { email, password },
        { "x-forwarded-for": address, ...(cookie && { cookie }) },
      );

    it("120 wrong passwords from 10 addresses lock the owner's email for strangers, not for the owner's own browser", async () => {
      const m = await signup(api);
      const first = await login(m.email, m.password);
      expect(first.status).toBe(200);
      const cookie = deviceCookie(first);
      const attributes = first.headers.getSetCookie().find((c) => c.startsWith("paygate_device=")) ?? "";
      expect(attributes).toMatch(/; Path=\/v1\/merchants\/auth(;|$)/);
      expect(attributes).toMatch(/; HttpOnly(;|$)/);
      expect(attributes).toMatch(/; SameSite=Strict(;|$)/);
      expect(attributes).toMatch(/; Max-Age=15552000(;|$)/);
      // The cookie names a device, not the account: no email, no secret of it.
      expect(cookie).not.toContain(m.email.split("@")[0]);

      await guessFromTenAddresses((password, address) => login(m.email, password, address));

      // The right password from a browser this account does not know: refused, and told what to do.
      const stranger = await login(m.email, m.password);
      expect(stranger.status).toBe(429);
      expect(stranger.body.error).toBe("rate_limited");
      expect(stranger.body.message).toMatch(/sign in from a browser you have signed in with before/);
      expect(stranger.body.message).toMatch(/try again in \d+ minutes?/);
      // From the owner's own browser, from any address: signed in, and its cookie renewed for the same device.
      const owner = await login(m.email, m.password, randomAddress(), cookie);
      expect(owner.status, owner.text).toBe(200);
      expect(owner.body.data.accessToken).toMatch(/^mst_/);
      expect(deviceCookie(owner).split(".").slice(0, 2)).toEqual(cookie.split(".").slice(0, 2));
      // Its sign-in does not unlock the account for strangers.
      expect((await login(m.email, m.password)).status).toBe(429);

      // The console's sign-in takes the same cookie, and sets its own for /dashboard.
      const consoleLogin = await api.post(
        "/dashboard/api/auth/login",
        { email: m.email, password: m.password },
        { "x-forwarded-for": randomAddress(), origin: target.url, cookie },
      );
      expect(consoleLogin.status, consoleLogin.text).toBe(200);
      const set = consoleLogin.headers.getSetCookie();
      expect(set.find((c) => c.startsWith("paygate_device="))).toMatch(/; Path=\/dashboard;.*HttpOnly/);
      expect(set.find((c) => c.startsWith("paygate_session="))).toBeDefined();
    });

    it("another account's cookie, a forged one or an altered one is a stranger's", async () => {
      const m = await signup(api);
      const other = await signup(api);
      const theirs = deviceCookie(await login(other.email, other.password));
      const mine = deviceCookie(await login(m.email, m.password));
      await guessFromTenAddresses((password, address) => login(m.email, password, address));
      const flipped = mine.replace(/.$/, (c) => (c === "0" ? "1" : "0"));
      const [, id, issued] = mine.split(".");
      const older = `paygate_device=d1.${id}.${Number(issued) - 1}.${mine.split(".")[3]}`;
      for (const cookie of [theirs, flipped, older, "paygate_device=d1.nonsense", "paygate_device="]) {
        const res = await login(m.email, m.password, randomAddress(), cookie);
        expect(res.status, cookie).toBe(429);
      }
      expect((await login(m.email, m.password, randomAddress(), mine)).status).toBe(200);
    });

    it("a stolen device cookie gets five guesses, then is a stranger's too", async () => {
      const m = await signup(api);
      const cookie = deviceCookie(await login(m.email, m.password));
      await guessFromTenAddresses((password, address) => login(m.email, password, address));
      // With the cookie the account's lock does not apply, but the device's own count does.
      for (let i = 0; i < DEVICE_FAILURES; i++)
        expect(seen(await login(m.email, `${WRONG} ${i}`, randomAddress(), cookie))).toEqual(wrongPassword);
      const locked = await login(m.email, m.password, randomAddress(), cookie);
      expect(locked.status).toBe(429);
      expect(locked.body.error).toBe("rate_limited");
    });

    it("a right password from the device starts its count over", async () => {
      const m = await signup(api);
      const cookie = deviceCookie(await login(m.email, m.password));
      await guessFromTenAddresses((password, address) => login(m.email, password, address));
      for (let i = 0; i < DEVICE_FAILURES - 1; i++)
        expect((await login(m.email, WRONG, randomAddress(), cookie)).status).toBe(401);
      expect((await login(m.email, m.password, randomAddress(), cookie)).status).toBe(200);
      for (let i = 0; i < DEVICE_FAILURES - 1; i++)
        expect((await login(m.email, WRONG, randomAddress(), cookie)).status).toBe(401);
      expect((await login(m.email, m.password, randomAddress(), cookie)).status).toBe(200);
    });
  },
);

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
  const login = (i: number, email: string, password: string, address = randomAddress(), cookie?: string) =>
    client((instances[i % 2] as AppProc).url).post(
      "/v1/merchants/auth/login",
      { email, password },
      { "x-forwarded-for": address, ...(cookie && { cookie }) },
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

  it("a device cookie from one instance lets its owner in on the other while the account is locked; its five guesses are counted across both", async () => {
    const m = await signup(client((instances[0] as AppProc).url));
    const cookie = deviceCookie(await login(0, m.email, m.password));
    await guessFromTenAddresses((password, address) => login(1, m.email, password, address));
    for (const i of [0, 1]) expect((await login(i, m.email, m.password)).status).toBe(429);
    for (const i of [1, 0]) {
      const res = await login(i, m.email, m.password, randomAddress(), cookie);
      expect(res.status, res.text).toBe(200);
    }
    // A stolen cookie guessing on both instances in turn: five wrong passwords in all, then a stranger's.
    for (let i = 0; i < DEVICE_FAILURES; i++)
      expect(seen(await login(i, m.email, `${WRONG} ${i}`, randomAddress(), cookie))).toEqual(wrongPassword);
    for (const i of [0, 1])
      expect((await login(i, m.email, m.password, randomAddress(), cookie)).status).toBe(429);
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
